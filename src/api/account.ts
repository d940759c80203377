/**
 * Account settings of the signed-in member: the password change (GET/PUT /api/user/password) and the
 * address book (/api/user/addresses).
 */
import { del, get, post, put } from './client';
import { messageSchema } from '../schemas/login.schema';
import {
  addressPageSchema,
  addressRequestSchema,
  addressSchema,
  passwordChangeSettingsSchema,
  type AddressValues,
  type PasswordChangeRequest,
} from '../schemas/account.schema';
import * as z from 'zod/mini';

export const accountApi = {
  passwordSettings: () => get(passwordChangeSettingsSchema, '/api/user/password'),
  changePassword: (body: PasswordChangeRequest) => put(messageSchema, '/api/user/password', body),
};

const ADDRESSES = '/api/user/addresses';
const addressPath = (id: number) => `${ADDRESSES}/${encodeURIComponent(String(id))}`;
/** The form's text as the request body (the country's id as a number). */
const addressBody = (values: AddressValues) => z.parse(addressRequestSchema, values);

export const addressApi = {
  list: (cursor: string | undefined, signal?: AbortSignal) => get(addressPageSchema, ADDRESSES, { cursor }, { signal }),
  get: (id: number) => get(addressSchema, addressPath(id)),
  create: (values: AddressValues) => post(addressSchema, ADDRESSES, addressBody(values)),
  update: (id: number, values: AddressValues) => put(addressSchema, addressPath(id), addressBody(values)),
  remove: (id: number) => del(z.object({ id: z.number() }), addressPath(id)),
  restore: (id: number) => post(addressSchema, `${addressPath(id)}/restore`),
};

/**
 * The answers of the session's and the sign-in page's own calls (spec §7): the sign-in fields, a session, logout.
 * The first page builds these and no other auth schema; the other public forms' schemas (src/schemas/auth.schema.ts,
 * which re-exports these) load with their pages.
 */
import * as z from 'zod/mini';
import { cartItemSchema, countrySchema, currencySchema, languageSchema, planSchema, userSchema } from './common.schema';

export const signupLocationSchema = z.enum(['app', 'store']);

export const loginFieldsSchema = z.object({
  phone_unique: z.boolean(),
  email_unique: z.boolean(),
  login_with_otp: z.boolean(),
  countries: z.array(countrySchema),
  signup_location: signupLocationSchema,
});
export type LoginFields = z.infer<typeof loginFieldsSchema>;

/** How a member identifies themselves: by username, e-mail or mobile with its phone code. */
export const loginUsingSchema = z.enum(['username', 'email', 'mobile_code']);
export type LoginUsing = z.infer<typeof loginUsingSchema>;

/** `data` of /api/auth/login and /api/auth/login_with_otp (spec §7). */
export const loginResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  user_status: z.union([z.literal(0), z.literal(1)]),
  user_allowed: z.boolean(),
  is_master_demo: z.boolean(),
  compensation_plan: planSchema,
  default_store_id: z.nullable(z.number()),
  store_token: z.nullable(z.string()),
  sso_token: z.nullable(z.string()),
  default_currency: currencySchema,
  default_language: languageSchema,
  cart: z.array(cartItemSchema),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const messageSchema = z.object({ message: z.string() });

export const logoutResponseSchema = z.object({ sso_logout_token: z.nullable(z.string()) });

export const ssoLogoutResponseSchema = z.object({ message: z.string() });

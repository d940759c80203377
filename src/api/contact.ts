/**
 * The signed-in member's contact details and wallet password (spec §2 Account settings): the e-mail and
 * mobile changes (/api/user/email|phone: ask with the account password, a code to the new one, resend,
 * verify) and the wallet password (/api/user/wallet_password: status, set, change, reset by code).
 */
import { get, post, put } from './client';
import { otpSentSchema } from '../schemas/auth.schema';
import {
  contactDetailsSchema,
  emailSettingsSchema,
  phoneSettingsSchema,
  walletPasswordStatusSchema,
  type EmailChangeRequest,
  type PhoneChangeRequest,
  type WalletPasswordChangeRequest,
  type WalletPasswordResetRequest,
  type WalletPasswordSetRequest,
} from '../schemas/contact.schema';

export type ContactKind = 'email' | 'phone';

const verify = (kind: ContactKind, otp: string) => post(contactDetailsSchema, `/api/user/${kind}/verify`, { otp });
const resend = (kind: ContactKind) => post(otpSentSchema, `/api/user/${kind}/resend`);

export const contactApi = {
  email: () => get(emailSettingsSchema, '/api/user/email'),
  requestEmail: (body: EmailChangeRequest) => put(otpSentSchema, '/api/user/email', body),
  phone: () => get(phoneSettingsSchema, '/api/user/phone'),
  requestPhone: (body: PhoneChangeRequest) => put(otpSentSchema, '/api/user/phone', body),
  /** A new code for the pending change (the password was re-entered when it was asked for). */
  resend,
  verify,
};

const WALLET = '/api/user/wallet_password';

export const walletPasswordApi = {
  status: () => get(walletPasswordStatusSchema, WALLET),
  set: (body: WalletPasswordSetRequest) => post(walletPasswordStatusSchema, WALLET, body),
  change: (body: WalletPasswordChangeRequest) => put(walletPasswordStatusSchema, WALLET, body),
  sendResetCode: () => post(otpSentSchema, `${WALLET}/reset_code`),
  reset: (body: WalletPasswordResetRequest) => post(walletPasswordStatusSchema, `${WALLET}/reset`, body),
};

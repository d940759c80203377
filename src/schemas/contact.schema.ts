/**
 * The member's contact details and wallet password (spec §2 Account settings: email, email/otp, phone,
 * phone/otp, wallet-password). A new e-mail address or mobile number is confirmed with a one-time code sent
 * to it, after the account password is re-entered; the wallet password is set with the account password,
 * changed with the current wallet password, or reset with a code sent to the member's e-mail.
 * The server checks the bodies with these schemas and the forms their values.
 */
import * as z from 'zod/mini';
import { emailField, mobileField, otpField, passwordField, passwordPolicyErrors, passwordPolicySchema, phoneCodeField, type PasswordPolicy } from './auth-fields.schema';
import { countrySchema } from './common.schema';

/** GET /api/user/email: the member's current address. */
export const emailSettingsSchema = z.object({ email: z.nullable(z.string()) });
export type EmailSettings = z.infer<typeof emailSettingsSchema>;

/** PUT /api/user/email: the new address and the account password; a code goes to the new address. */
export const emailChangeRequestSchema = z.strictObject({
  email: emailField,
  password: passwordField,
});
export type EmailChangeRequest = z.infer<typeof emailChangeRequestSchema>;
export type EmailChangeValues = Omit<EmailChangeRequest, 'password'>;

/** GET /api/user/phone: the member's current number and the countries whose phone codes may be chosen. */
export const phoneSettingsSchema = z.object({
  mobile_code: z.nullable(z.string()),
  mobile: z.nullable(z.string()),
  countries: z.array(countrySchema),
});
export type PhoneSettings = z.infer<typeof phoneSettingsSchema>;

/** PUT /api/user/phone: the new number (phone code + number, as signup takes it) and the account password. */
export const phoneChangeRequestSchema = z.strictObject({
  mobile_code: phoneCodeField,
  mobile: mobileField,
  password: passwordField,
});
export type PhoneChangeRequest = z.infer<typeof phoneChangeRequestSchema>;
export type PhoneChangeValues = Omit<PhoneChangeRequest, 'password'>;

/** POST /api/user/email/verify and /api/user/phone/verify: the code sent to the new address or number. */
export const contactVerifyRequestSchema = z.strictObject({ otp: otpField });
export type ContactVerifyRequest = z.infer<typeof contactVerifyRequestSchema>;

/** The member's contact details once a change is applied. */
export const contactDetailsSchema = z.object({
  email: z.nullable(z.string()),
  mobile_code: z.nullable(z.string()),
  mobile: z.nullable(z.string()),
});
export type ContactDetails = z.infer<typeof contactDetailsSchema>;

// ── Wallet password ─────────────────────────────────────────────────────────────────────────────────

/** GET /api/user/wallet_password: whether one is set, the policy a new one meets, where a reset code goes. */
export const walletPasswordStatusSchema = z.object({
  is_set: z.boolean(),
  password_policy: passwordPolicySchema,
  /** The member's e-mail, masked (j***@example.com); null when the member has none (no reset by code). */
  reset_destination: z.nullable(z.string()),
});
export type WalletPasswordStatus = z.infer<typeof walletPasswordStatusSchema>;

const newWalletPassword = {
  wallet_password: passwordField,
  wallet_password_confirmation: passwordField,
};

/** POST /api/user/wallet_password: set the first one, with the account password. */
export const walletPasswordSetRequestSchema = z.strictObject({ password: passwordField, ...newWalletPassword });
export type WalletPasswordSetRequest = z.infer<typeof walletPasswordSetRequestSchema>;

/** PUT /api/user/wallet_password: change it, with the current wallet password. */
export const walletPasswordChangeRequestSchema = z.strictObject({ current_wallet_password: passwordField, ...newWalletPassword });
export type WalletPasswordChangeRequest = z.infer<typeof walletPasswordChangeRequestSchema>;

/** POST /api/user/wallet_password/reset: a new one with the code sent to the member's e-mail. */
export const walletPasswordResetRequestSchema = z.strictObject({ otp: otpField, ...newWalletPassword });
export type WalletPasswordResetRequest = z.infer<typeof walletPasswordResetRequestSchema>;

/** The wallet password form's values: the current one only when changing. */
export type WalletPasswordValues = { current_wallet_password: string; wallet_password: string; wallet_password_confirmation: string };
export type WalletPasswordResetValues = { wallet_password: string; wallet_password_confirmation: string };

/**
 * The new wallet password under `policy` (the account's password policy) and its confirmation; `current`
 * asks for the current wallet password too (a change). Server and forms check with it.
 */
export function walletPasswordSchema(policy: PasswordPolicy | null, current: boolean) {
  return z
    .object({
      ...(current ? { current_wallet_password: passwordField } : {}),
      wallet_password: passwordField.check(
        z.superRefine((password, ctx) => {
          for (const key of policy ? passwordPolicyErrors(policy, password) : []) ctx.addIssue(key);
        }),
      ),
      wallet_password_confirmation: passwordField,
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.wallet_password !== v.wallet_password_confirmation)
          ctx.addIssue({ code: 'custom', message: 'validation:passwordMismatch', path: ['wallet_password_confirmation'], input: v });
      }),
    );
}

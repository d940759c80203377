/**
 * Two-factor sign-in (beyond the spec): an authenticator app's time-based codes (TOTP, RFC 6238) and
 * ten single-use recovery codes. The settings page of /member/account/two-factor turns it on and off
 * (GET/DELETE /api/user/two_factor, POST …/setup, …/confirm, …/recovery_codes); sign-in then answers a
 * right password with a challenge instead of a session, completed by POST /api/auth/login/two_factor.
 */
import * as z from 'zod/mini';
import { passwordField } from './auth-fields.schema';
import { recoveryCodeField, totpCodeField } from './two-factor-login.schema';

export * from './two-factor-login.schema';

/** GET /api/user/two_factor. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.nullable(z.string()),
  /** Unused recovery codes left (0 while it is off). */
  recovery_codes_left: z.number(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** Body of POST /api/user/two_factor/setup and /recovery_codes: the account password, re-entered. */
export const twoFactorPasswordRequestSchema = z.strictObject({ password: passwordField });
export type TwoFactorPasswordRequest = z.infer<typeof twoFactorPasswordRequestSchema>;

/** Answer of POST /api/user/two_factor/setup: what the authenticator app needs, shown during enrolment only. */
export const twoFactorSetupSchema = z.object({
  /** The key to type by hand (Base32), grouped by four. */
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The otpauth URI as a QR code (a PNG data URL). */
  qr_code: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** Body of POST /api/user/two_factor/confirm: the first code from the app turns it on. */
export const twoFactorConfirmRequestSchema = z.strictObject({ code: totpCodeField });
export type TwoFactorConfirmRequest = z.infer<typeof twoFactorConfirmRequestSchema>;

/** Ten new single-use recovery codes, shown once (the server keeps only their hashes). */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Body of DELETE /api/user/two_factor: the password and a current code or a recovery code. */
export const twoFactorDisableRequestSchema = z.strictObject({
  password: passwordField,
  code: z.optional(totpCodeField),
  recovery_code: z.optional(recoveryCodeField),
});
export type TwoFactorDisableRequest = z.infer<typeof twoFactorDisableRequestSchema>;

/** Body of POST /api/auth/login/two_factor: the challenge and either a code or a recovery code. */
export const twoFactorLoginRequestSchema = z.strictObject({
  challenge: z.string().check(z.minLength(1, 'validation:required'), z.maxLength(256)),
  code: z.optional(totpCodeField),
  recovery_code: z.optional(recoveryCodeField),
});
export type TwoFactorLoginRequest = z.infer<typeof twoFactorLoginRequestSchema>;


/**
 * Account settings (spec §2 "Account settings"): the password change of /member/account/password
 * (PUT /api/user/password). The new password meets the company's password policy — the one signup
 * and password reset apply (passwordPolicyErrors) — and is typed twice.
 */
import * as z from 'zod/mini';
import { passwordField, passwordPolicyErrors, passwordPolicySchema, type PasswordPolicy } from './auth.schema';

/** GET /api/user/password: what the password form needs to know before it is filled in. */
export const passwordChangeSettingsSchema = z.object({ password_policy: passwordPolicySchema });
export type PasswordChangeSettings = z.infer<typeof passwordChangeSettingsSchema>;

/** Body of PUT /api/user/password. */
export const passwordChangeRequestSchema = z.strictObject({
  current_password: passwordField,
  password: passwordField,
  password_confirmation: passwordField,
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

/**
 * The request under `policy`: every unmet rule is an issue of `password` (its i18n key), a different
 * confirmation an issue of `password_confirmation`. The server checks the body with it, the form its values.
 */
export function passwordChangeSchema(policy: PasswordPolicy | null) {
  return z
    .strictObject({
      ...passwordChangeRequestSchema.shape,
      password: passwordField.check(
        z.superRefine((password, ctx) => {
          for (const key of policy ? passwordPolicyErrors(policy, password) : []) ctx.addIssue(key);
        }),
      ),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.password !== v.password_confirmation) ctx.addIssue({ code: 'custom', message: 'validation:passwordMismatch', path: ['password_confirmation'], input: v });
      }),
    );
}

/**
 * The fields of the sign-in, reset and signup forms (and of the account pages that ask the same things), and the
 * password policy: what the client's field checks (src/lib/validation.ts) and the server's request schemas share.
 * Kept apart from the forms' request and answer schemas so that a page builds only the schemas of its own calls.
 */
import * as z from 'zod/mini';

export const emailField = z.string().check(z.trim(), z.maxLength(191), z.email());
export const mobileField = z.string().check(z.trim(), z.regex(/^\d{4,15}$/));
export const phoneCodeField = z.string().check(z.trim(), z.regex(/^\+?\d{1,4}$/));
export const otpField = z.string().check(z.trim(), z.regex(/^\d{6}$/));
export const usernameField = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9._-]{3,32}$/));
export const passwordField = z.string().check(z.minLength(1), z.maxLength(128));

export const passwordPolicySchema = z.object({
  enabled: z.boolean(),
  min_length: z.number().check(z.int(), z.gte(1), z.lte(64)),
  lowercase: z.boolean(),
  uppercase: z.boolean(),
  number: z.boolean(),
  special: z.boolean(),
});
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

/** Password policy check shared by the client form and the server. Returns i18n keys of unmet rules. */
export function passwordPolicyErrors(policy: PasswordPolicy, password: string): string[] {
  const out: string[] = [];
  if (!policy.enabled) return password.length >= 1 ? out : ['validation:passwordRequired'];
  if (password.length < policy.min_length) out.push('validation:passwordMinLength');
  if (policy.lowercase && !/[a-z]/.test(password)) out.push('validation:passwordLowercase');
  if (policy.uppercase && !/[A-Z]/.test(password)) out.push('validation:passwordUppercase');
  if (policy.number && !/\d/.test(password)) out.push('validation:passwordNumber');
  if (policy.special && !/[^A-Za-z0-9]/.test(password)) out.push('validation:passwordSpecial');
  return out;
}

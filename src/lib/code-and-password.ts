/**
 * Client-side checks of the one-time-code and password fields (as in validation.ts: an i18n key of the
 * `validation` namespace, or null). Only the flows loaded on first use need them (OTP login, password reset,
 * signup, the member forms), so they are kept out of the sign-in page's code.
 */
import * as z from 'zod/mini';
import { otpField, passwordPolicyErrors, type PasswordPolicy } from '../schemas/auth-fields.schema';
import type { ErrorInfo } from '../api/errors';
import { isEmpty, type FieldKey } from './validation';

export function otpError(value: string | null | undefined): FieldKey {
  if (isEmpty(value)) return 'validation:required';
  return z.safeParse(otpField, value).success ? null : 'validation:otpFormat';
}

/** The first unmet rule of the server's password policy (all of them: passwordPolicyErrors). */
export function passwordError(policy: PasswordPolicy | null | undefined, value: string | null | undefined): FieldKey {
  const v = value ?? '';
  if (v === '') return 'validation:required';
  if (!policy) return null;
  return passwordPolicyErrors(policy, v)[0] ?? null;
}

export function confirmationError(password: string | null | undefined, confirmation: string | null | undefined): FieldKey {
  if (isEmpty(confirmation)) return 'validation:required';
  return (password ?? '') === (confirmation ?? '') ? null : 'validation:passwordMismatch';
}

/** The rules of a policy, each with whether `password` meets it — the live checklist. */
export interface PolicyRule {
  key: 'passwordMinLength' | 'passwordLowercase' | 'passwordUppercase' | 'passwordNumber' | 'passwordSpecial';
  met: boolean;
  values?: Record<string, string>;
}

export function passwordChecklist(policy: PasswordPolicy | null | undefined, password: string | null | undefined): PolicyRule[] {
  if (!policy || !policy.enabled) return [];
  const unmet = new Set(passwordPolicyErrors(policy, password ?? ''));
  const rules: PolicyRule[] = [
    { key: 'passwordMinLength', met: !unmet.has('validation:passwordMinLength'), values: { min: String(policy.min_length) } },
  ];
  if (policy.lowercase) rules.push({ key: 'passwordLowercase', met: !unmet.has('validation:passwordLowercase') });
  if (policy.uppercase) rules.push({ key: 'passwordUppercase', met: !unmet.has('validation:passwordUppercase') });
  if (policy.number) rules.push({ key: 'passwordNumber', met: !unmet.has('validation:passwordNumber') });
  if (policy.special) rules.push({ key: 'passwordSpecial', met: !unmet.has('validation:passwordSpecial') });
  return rules;
}

/** True when some field error of the answer is `key` (e.g. 'validation:otpExpired'). */
export function hasFieldKey(e: ErrorInfo, key: string): boolean {
  return Object.values(e.fields).includes(key);
}

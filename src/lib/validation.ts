/**
 * Client-side field checks of the public forms. Every check returns an i18n key of the `validation`
 * namespace (or null), the same keys the server answers with, so a field shows the same message
 * whichever side noticed the problem. The rules are the shared schemas of src/schemas.
 */
import * as z from 'zod/mini';
import {
  emailField,
  mobileField,
  otpField,
  passwordPolicyErrors,
  phoneCodeField,
  usernameField,
  type PasswordPolicy,
} from '../schemas/auth-fields.schema';
import type { LoginUsing } from '../schemas/login.schema';
import { NUMERIC_TEXT, type Country } from '../schemas/common.schema';
import type { ErrorInfo, FieldErrors } from '../api/errors';

export type FieldKey = string | null;

/** Spec §5: empty, null or undefined count as empty. */
export function isEmpty(value: string | null | undefined): boolean {
  return value == null || value.trim() === '';
}

export function isNumericText(value: string | null | undefined): boolean {
  return !isEmpty(value) && NUMERIC_TEXT.test(String(value).trim());
}

export function requiredError(value: string | null | undefined): FieldKey {
  return isEmpty(value) ? 'validation:required' : null;
}

export function emailError(value: string | null | undefined, required = true): FieldKey {
  if (isEmpty(value)) return required ? 'validation:required' : null;
  return z.safeParse(emailField, value).success ? null : 'validation:invalidEmail';
}

export function mobileError(value: string | null | undefined, required = true): FieldKey {
  if (isEmpty(value)) return required ? 'validation:required' : null;
  return z.safeParse(mobileField, value).success ? null : 'validation:invalidMobile';
}

export function phoneCodeError(value: string | null | undefined): FieldKey {
  if (isEmpty(value)) return 'validation:required';
  return z.safeParse(phoneCodeField, value).success ? null : 'validation:invalidFormat';
}

export function usernameError(value: string | null | undefined, required = true): FieldKey {
  if (isEmpty(value)) return required ? 'validation:required' : null;
  return z.safeParse(usernameField, value).success ? null : 'validation:invalidUsername';
}

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

/** Drop the null entries of a map of checks. */
export function collectErrors(checks: Record<string, FieldKey>): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(checks)) if (v) out[k] = v;
  return out;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

export function withoutField(errors: FieldErrors, ...fields: string[]): FieldErrors {
  const out = { ...errors };
  for (const f of fields) delete out[f];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Identifiers: how a member names themselves (username, e-mail, or mobile with its phone code).

export interface IdentifierValues {
  username: string;
  email: string;
  mobile: string;
  mobile_code: string;
}

export const EMPTY_IDENTIFIER: IdentifierValues = { username: '', email: '', mobile: '', mobile_code: '' };

export function identifierErrors(using: LoginUsing, v: IdentifierValues): FieldErrors {
  if (using === 'username') return collectErrors({ username: requiredError(v.username) });
  if (using === 'email') return collectErrors({ email: emailError(v.email) });
  return collectErrors({ mobile_code: phoneCodeError(v.mobile_code), mobile: mobileError(v.mobile) });
}

/** The identifier part of a request body: only the fields of the chosen kind, trimmed. */
export function identifierBody(using: LoginUsing, v: IdentifierValues): { username?: string; email?: string; mobile?: string; mobile_code?: string } {
  if (using === 'username') return { username: (v.username ?? '').trim() };
  if (using === 'email') return { email: (v.email ?? '').trim() };
  return { mobile_code: (v.mobile_code ?? '').trim(), mobile: (v.mobile ?? '').trim() };
}

/** The phone code of the company's default country when it is in the list, else the first one. */
export function pickPhoneCode(countries: Country[], defaultCountry?: { id?: number; phone_code?: string } | null): string {
  const match =
    defaultCountry &&
    countries.find((c) => (defaultCountry.id != null && c.id === defaultCountry.id) || c.phone_code === defaultCountry.phone_code);
  return (match ?? countries[0])?.phone_code ?? '';
}

// ---------------------------------------------------------------------------------------------
// Reading failed submissions.

/** How a failed submission is shown: next to fields, as a wait, or as a connection/server problem. */
export type SubmitOutcome = 'invalid' | 'rateLimited' | 'connectionError' | 'serverError';

/** Seconds the server asks to wait ("Too many attempts. Try again in 42 s."), null when not said. */
export function retryAfterSeconds(e: ErrorInfo | null | undefined): number | null {
  if (!e?.message) return null;
  const m = /(\d+)\s*(?:s\b|sec|second)/i.exec(e.message);
  return m ? Number(m[1]) : null;
}

/** True when some field error of the answer is `key` (e.g. 'validation:otpExpired'). */
export function hasFieldKey(e: ErrorInfo, key: string): boolean {
  return Object.values(e.fields).includes(key);
}

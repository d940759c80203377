/**
 * Client-side field checks of the public forms (the one-time-code and password checks, which only the flows
 * loaded on first use need, are in code-and-password.ts). Every check returns an i18n key of the `validation`
 * namespace (or null), the same keys the server answers with, so a field shows the same message
 * whichever side noticed the problem. The rules are the shared schemas of src/schemas.
 */
import * as z from 'zod/mini';
import { emailField, mobileField, phoneCodeField, usernameField } from '../schemas/auth-fields.schema';
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

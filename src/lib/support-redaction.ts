/**
 * What never leaves the browser in a support snapshot: tokens, passwords, one-time codes, bank and card
 * numbers, and free text a form marks sensitive. Redaction is driven by declared field names — a value
 * under a sensitive key, a form event changing a sensitive field (`{ field: 'password', value }`) — and
 * then by value: every secret found that way is also removed wherever else its text appears (an event
 * trail entry, an error message, a URL). Redacted text becomes '' (a list of texts, []), so a form
 * restored from the snapshot shows those fields empty; the paths of what was removed are listed.
 */

/** Field names whose text is always secret. */
export const SENSITIVE_FIELDS: ReadonlySet<string> = new Set([
  // passwords
  'password', 'current_password', 'password_confirmation', 'new_password', 'wallet_password', 'old_password',
  // tokens and keys
  'token', 'auth_token', 'store_auth_token', 'sso_token', 'access_token', 'refresh_token', 'idempotencyKey', 'idempotency_key',
  'authorization', 'x-auth-token', 'secret', 'otpauth_uri', 'qr_code',
  // one-time codes
  'otp', 'recovery_code', 'recovery_codes', 'verification_code', 'reset_code',
  // bank and card numbers
  'iban', 'account_number', 'routing_code', 'card_number', 'pan', 'cvc', 'cvv', 'card_cvc', 'expiry',
]);

/** Names that look secret (the rule the saved flow state follows too). */
const SECRET_PATTERN = /password|otp|token|secret|iban|card_?number|cvc|cvv/i;
/** Settings whose names look secret but whose values are not (`password_policy`, `login_with_otp`, `password_kind`). */
const SETTING_PATTERN = /(_policy|_based_on|_using|_required|_enabled|_left|_at|_kind|_type|_via)$|^login_with_/i;
/**
 * Objects that map field names to messages about them, not to their values: an answer's `errors`, a form's
 * `fieldErrors`, a failure's `fields` (`{ kind, fields }`). "The password is incorrect." under `password` is what
 * the member saw next to the field, not the password.
 */
const MESSAGES_BY_FIELD = new Set(['errors', 'fieldErrors']);
const isMessageMap = (key: string, parent: Record<string, unknown>) => MESSAGES_BY_FIELD.has(key) || (key === 'fields' && isText(parent.kind));
/** `code` is a one-time code when it looks like one (digits, or a recovery code); error codes are words. */
const ONE_TIME_CODE = /^[\d\s-]{4,}$|^[A-Z0-9]{4,}(-[A-Z0-9]{4,})+$/;

const declared = new Set<string>();

/** Free-text fields a form declares sensitive (a message body with health data, a note…). */
export function markSensitive(...fields: string[]): void {
  for (const f of fields) declared.add(f);
}

export function isSensitiveField(name: string, value?: unknown): boolean {
  if (declared.has(name) || SENSITIVE_FIELDS.has(name)) return true;
  if (name === 'code') return typeof value === 'string' && ONE_TIME_CODE.test(value.trim());
  return SECRET_PATTERN.test(name) && !SETTING_PATTERN.test(name);
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every(isText);

export interface Redacted<T> {
  value: T;
  /** Dotted paths of what was removed. */
  removed: string[];
}

/** A deep copy of `input` without secrets (see the module comment). Functions and undefined are dropped. */
export function redact<T>(input: T): Redacted<T> {
  const secrets = new Set<string>();
  const removed: string[] = [];
  const keep = (s: string) => s.trim().length >= 3 && secrets.add(s);

  // 1. By declared name: values under sensitive keys, and the value of an event that changes a sensitive field.
  const byName = (v: unknown, path: string, messages = false): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => byName(x, `${path}.${i}`));
    if (v && typeof v === 'object') {
      if (v instanceof Date) return v.toISOString();
      const obj = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      const fieldNamed = isText(obj.field) && 'value' in obj && isSensitiveField(obj.field, obj.value);
      for (const [k, inner] of Object.entries(obj)) {
        if (inner === undefined || typeof inner === 'function') continue;
        const here = path ? `${path}.${k}` : k;
        if (!messages && (isText(inner) || isTextList(inner)) && (isSensitiveField(k, inner) || (fieldNamed && k === 'value'))) {
          (isText(inner) ? [inner] : inner).forEach(keep);
          if (isText(inner) ? inner !== '' : inner.length) removed.push(here);
          out[k] = isText(inner) ? '' : [];
          continue;
        }
        out[k] = byName(inner, here, isMessageMap(k, obj));
      }
      if (v instanceof Error) out.message = v.message;
      return out;
    }
    return v;
  };
  const first = byName(input, '');

  // 2. By value: the same secrets wherever else their text appears.
  const list = [...secrets].sort((a, b) => b.length - a.length);
  const scrub = (v: unknown, path: string): unknown => {
    if (isText(v)) {
      let s = v;
      for (const secret of list) if (s.includes(secret)) s = s.split(secret).join('[redacted]');
      if (s !== v) removed.push(path);
      return s;
    }
    if (Array.isArray(v)) return v.map((x, i) => scrub(x, `${path}.${i}`));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, scrub(inner, path ? `${path}.${k}` : k)]));
    return v;
  };
  return { value: (list.length ? scrub(first, '') : first) as T, removed: [...new Set(removed)].sort() };
}

/**
 * Error answers of the reference API: always `{ error_code, message, errors }` with a 4xx status for
 * anything the caller did; 5xx only for the server's own faults, never with a stack trace.
 * Field messages are i18n keys of the client's `validation` namespace.
 */
export type FieldMap = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorCode: string,
    message: string,
    readonly errors: FieldMap = {},
  ) {
    super(message);
  }
}

export const validationError = (errors: FieldMap, message = 'The given data was invalid.') =>
  new HttpError(422, 'validation_error', message, errors);
export const fieldError = (field: string, key: string) => validationError({ [field]: [key] });
export const notFound = (message = 'Not found') => new HttpError(404, 'not_found', message);
export const forbidden = (code = 'forbidden', message = 'Forbidden') => new HttpError(403, code, message);
export const unauthorized = (message = 'Unauthenticated') => new HttpError(401, 'unauthenticated', message);
export const demoBlocked = () => new HttpError(403, 'demo_blocked', 'This feature is unavailable in demo mode.');
export const userBlocked = () => new HttpError(403, 'user_blocked', 'This account is blocked.');
/** 429: answered with `Retry-After` (seconds) and the wait in the message, which the client reads. */
export class RateLimitedError extends HttpError {
  constructor(
    readonly retryAfterSeconds: number,
    message = `Too many attempts. Try again in ${retryAfterSeconds} s.`,
  ) {
    super(429, 'rate_limited', message, {});
  }
}
export const rateLimited = (retryAfterSeconds: number) => new RateLimitedError(retryAfterSeconds);

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  keys?: string[];
  format?: string;
  origin?: string;
  expected?: string;
  minimum?: number | bigint;
}

/** zod issues → `{ field: [i18n key] }`. */
export function issuesToFieldMap(issues: ZodIssueLike[], prefix = ''): FieldMap {
  // No prototype: a field named "constructor" or "__proto__" is just a field.
  const out: FieldMap = Object.create(null);
  const add = (field: string, key: string) => {
    const f = prefix + (field || '_body');
    (out[f] ??= []).includes(key) || out[f].push(key);
  };
  for (const i of issues) {
    const field = i.path.map(String).join('.');
    // A schema that names its answer (an i18n key of the validation namespace) is taken at its word.
    if (/^validation:[A-Za-z]+$/.test(i.message)) {
      add(field, i.message);
      continue;
    }
    switch (i.code) {
      case 'unrecognized_keys':
        for (const k of i.keys ?? []) add(field ? `${field}.${k}` : k, 'validation:unknownField');
        break;
      case 'invalid_type':
        add(field, i.input === undefined || i.input === null ? 'validation:required' : 'validation:invalidType');
        break;
      case 'too_big':
        add(field, i.origin === 'string' ? 'validation:tooLong' : 'validation:tooBig');
        break;
      case 'too_small':
        add(field, i.origin === 'string' && (i.input === '' || Number(i.minimum) === 1) ? 'validation:required' : i.origin === 'string' ? 'validation:tooShort' : 'validation:tooSmall');
        break;
      case 'invalid_format':
        add(field, i.format === 'email' ? 'validation:invalidEmail' : 'validation:invalidFormat');
        break;
      case 'invalid_value':
        add(field, 'validation:invalidChoice');
        break;
      default:
        add(field, 'validation:invalid');
    }
  }
  return out;
}

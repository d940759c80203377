/**
 * The last lines of defence behind the request schemas (src/schemas: text without control characters,
 * ids range-checked, dates validated as dates, cursors range-checked when decoded):
 *
 * - `nulInInput`: a NUL character anywhere in a request's query string or body (PostgreSQL cannot store
 *   it in text) is a 422 naming the field, whatever schema the route declares.
 * - `clientDataError`: a database error that the input caused (SQLSTATE class 22: invalid input syntax,
 *   out of range, impossible date…) is a 400, never a 500 with details.
 */
import { HttpError, validationError } from './errors';
import { databaseError, isClientDataError } from './log-safety';

const MAX_DEPTH = 32;

/** The dotted path of the first string holding a NUL character in `value`, or null. */
export function nulPath(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return [...path, k];
    const found = nulPath(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * A 422 for the first NUL character in the request's query string or body, or null when there is none.
 * (Path parameters are ids and names the routes answer themselves: anything that is not one is not found.)
 */
export function nulInInput(req: { query?: unknown; body?: unknown }): HttpError | null {
  for (const part of [req.query, req.body]) {
    const at = nulPath(part);
    if (at) return validationError({ [at.join('.').replace(/\u0000/g, '\\0') || '_body']: ['validation:invalidFormat'] });
  }
  return null;
}

/** The 400 answer for a database error the caller's input caused, or null when the fault is the server's. */
export function clientDataError(err: unknown): HttpError | null {
  const db = databaseError(err);
  if (!db || !isClientDataError(db.code)) return null;
  return new HttpError(400, 'validation_error', 'The given data was invalid.', { _body: ['validation:invalid'] });
}

/**
 * What the log may hold. The log is read by more people than the database is, and it is kept longer:
 *
 * - URLs are written with the values of secret-looking query parameters replaced (by name: token,
 *   password, code, otp, secret, hash, key…), so /sso_login?token=… never lands in the log whole.
 * - Request bodies are never written (Fastify does not log them; nothing here does either).
 * - A failed query is written as its SQL text and the database's error code, never with its parameters
 *   (a password hash or an e-mail) nor the database's message (which quotes the offending value).
 * - One-time codes are written only in demo mode (server/lib/outbox.ts).
 */

/** Query parameters whose values are never written to the log. */
export const SECRET_PARAMETER = /token|passw|pwd|secret|hash|otp|code|key|sig|session|auth|cookie|pin|iban|card|cvv/i;

const REDACTED = '[redacted]';

/** `url` with the value of every secret-looking query parameter replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        /* a malformed escape: judged as written */
      }
      return eq >= 0 && SECRET_PARAMETER.test(name) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** The request as the log shows it (Fastify's own fields, with the URL redacted). */
export function requestForLog(req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** An error as the log shows it (see errorForLog). */
export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  [field: string]: unknown;
}

interface DatabaseErrorFields {
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
  routine?: unknown;
}

/** The database's own error behind `err` (drizzle wraps it as `cause`), when there is one. */
export function databaseError(err: unknown): (Error & DatabaseErrorFields & { code: string }) | null {
  for (let e = err as (Error & DatabaseErrorFields & { cause?: unknown }) | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && ('routine' in e || 'severity' in e || 'schema' in e || 'file' in e)) return e as never;
  }
  return null;
}

/**
 * SQLSTATE classes the caller causes: 22 (data exception: invalid input syntax, value out of range,
 * impossible date, character not in repertoire, bad escape of a LIKE pattern…).
 */
export const isClientDataError = (code: string) => code.startsWith('22');

/** An error as the log may show it: a failed query without its parameters nor the database's message. */
export function errorForLog(err: unknown): LoggedError {
  if (!(err instanceof Error)) return { type: typeof err, message: 'a value that is not an Error was thrown', stack: '' };
  const db = databaseError(err);
  const query = (err as { query?: unknown }).query;
  if (db || typeof query === 'string') {
    return {
      type: err.constructor?.name ?? 'Error',
      message: 'database query failed',
      ...(typeof query === 'string' ? { query } : {}),
      ...(db ? { code: db.code, constraint: db.constraint, table: db.table, column: db.column, routine: db.routine } : {}),
      stack: stackFrames(err),
    };
  }
  return { type: err.constructor?.name ?? 'Error', message: err.message, code: (err as { code?: unknown }).code, stack: err.stack ?? '' };
}

/** The "at …" lines of a stack, without the message line(s) above them (which may quote values). */
function stackFrames(err: Error): string {
  return (err.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .join('\n');
}

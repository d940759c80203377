/**
 * The error catalogue of spec §8, once. Every failed call becomes one of these classes; machines
 * branch on `kind`, views on the machine state, never on raw HTTP details.
 */
import type { ErrorBody } from '../schemas/common.schema';

export type ApiErrorKind =
  | 'connection'
  | 'badRequest'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'server'
  | 'unknown'
  | 'schema';

export type FieldErrors = Record<string, string>;

const CLASS_NAMES: Record<ApiErrorKind, string> = {
  connection: 'Network Connection Failed',
  badRequest: 'Bad Request',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  notFound: 'Not Found',
  server: 'Internal Server Error',
  unknown: 'Unknown Api Error',
  schema: 'Invalid Api Response',
};

function pretty(body: unknown): string {
  if (body == null) return '';
  if (typeof body === 'object') {
    try {
      return JSON.stringify(body, null, 2);
    } catch {
      return String(body);
    }
  }
  return String(body);
}

function readBody(body: unknown): ErrorBody {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  const out: ErrorBody = {};
  if (typeof b.error_code === 'string' && b.error_code.trim() !== '') out.error_code = b.error_code;
  if (typeof b.message === 'string') out.message = b.message;
  if (b.errors && typeof b.errors === 'object' && !Array.isArray(b.errors)) {
    const errors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(b.errors as Record<string, unknown>)) {
      const list = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
      if (list.length) errors[k] = list;
    }
    if (Object.keys(errors).length) out.errors = errors;
  }
  return out;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly body: unknown;
  readonly errorCode: string | undefined;
  /** validation_error → first message per field (spec §8). Empty when absent. */
  readonly fieldErrors: FieldErrors;

  constructor(kind: ApiErrorKind, status: number | undefined, body: unknown, detail?: string) {
    const parsed = readBody(body);
    const prefix = CLASS_NAMES[kind] + (status ? ` ${status}` : '');
    super(`${prefix}: ${detail ?? (pretty(body) || defaultMessage(kind, status))}`);
    this.name = CLASS_NAMES[kind].replace(/\s+/g, '') + 'Error';
    this.kind = kind;
    this.status = status;
    this.body = body;
    this.errorCode = parsed.error_code;
    const fields: FieldErrors = {};
    if (parsed.error_code === 'validation_error' && parsed.errors) {
      for (const [k, v] of Object.entries(parsed.errors)) if (v[0]) fields[k] = v[0];
    }
    this.fieldErrors = fields;
  }

  get isValidation(): boolean {
    return Object.keys(this.fieldErrors).length > 0;
  }
  get isDemoBlocked(): boolean {
    return this.errorCode === 'demo_blocked';
  }
  get isUserBlocked(): boolean {
    return this.errorCode === 'user_blocked';
  }
  /** Server's own message (untranslated) when it sent one. */
  get serverMessage(): string | undefined {
    return readBody(this.body).message;
  }
}

function defaultMessage(kind: ApiErrorKind, status?: number): string {
  if (kind === 'connection') return 'Network Error';
  if (status) return `Request failed with status code ${status}`;
  return 'Request failed';
}

export class ConnectionError extends ApiError {
  constructor(detail = 'Network Error') {
    super('connection', undefined, undefined, detail);
  }
}

/** The answer arrived but did not match its schema: names the path and the first bad field. */
export class SchemaError extends ApiError {
  readonly path: string;
  readonly field: string;
  constructor(path: string, field: string, issue: string) {
    super('schema', undefined, undefined, `${path}: field "${field}" ${issue}`);
    this.path = path;
    this.field = field;
  }
}

export function errorFromStatus(status: number, body: unknown): ApiError {
  const kind: ApiErrorKind =
    status === 400 || status === 422 || status === 409 || status === 429 || status === 413
      ? 'badRequest'
      : status === 401
        ? 'unauthorized'
        : status === 403
          ? 'forbidden'
          : status === 404
            ? 'notFound'
            : status >= 500
              ? 'server'
              : 'unknown';
  return new ApiError(kind, status, body);
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** Anything thrown turned into an ApiError (non-API failures count as connection failures). */
export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new ConnectionError(msg || 'Network Error');
}

/**
 * Serialisable summary of a failure for machine context (snapshots must persist as JSON).
 */
export interface ErrorInfo {
  kind: ApiErrorKind;
  status: number | null;
  code: string | null;
  fields: FieldErrors;
  message: string | null;
}

export function errorInfo(e: unknown): ErrorInfo {
  const err = toApiError(e);
  return {
    kind: err.kind,
    status: err.status ?? null,
    code: err.errorCode ?? null,
    fields: err.fieldErrors,
    message: err.serverMessage ?? null,
  };
}

/**
 * What a failure means for the product, decided once for the whole app (spec §8):
 * - connection: no answer → connection-error screen with retry;
 * - unauthorized (401) and userBlocked → forced logout (the session takes over);
 * - demoBlocked → the featureUnavailableInDemo toast, the form stays as it was;
 * - validation (a field map), rateLimited, refused (400/403/404/409/413, any other status) → shown
 *   next to the fields or as a refusal, no retry;
 * - server (5xx, an answer that does not match its schema) → server-error screen with retry.
 */
export type Failure = 'connection' | 'unauthorized' | 'userBlocked' | 'demoBlocked' | 'validation' | 'rateLimited' | 'refused' | 'server';

function isErrorInfo(e: unknown): e is ErrorInfo {
  return !!e && typeof e === 'object' && !(e instanceof Error) && 'kind' in e && 'fields' in e;
}

/** The Failure of anything thrown by a call, or of its ErrorInfo. */
export function classifyFailure(e: unknown): Failure {
  const info = isErrorInfo(e) ? e : errorInfo(e);
  if (info.kind === 'connection') return 'connection';
  if (info.code === 'demo_blocked') return 'demoBlocked';
  if (info.code === 'user_blocked') return 'userBlocked';
  if (info.kind === 'unauthorized') return 'unauthorized';
  if (Object.keys(info.fields).length > 0) return 'validation';
  if (info.status === 429 || info.code === 'rate_limited') return 'rateLimited';
  if (info.kind === 'server' || info.kind === 'schema') return 'server';
  return 'refused';
}

/** Failures after which the member is signed out: the screen waits for the session. */
export function endsSession(failure: Failure): boolean {
  return failure === 'unauthorized' || failure === 'userBlocked';
}

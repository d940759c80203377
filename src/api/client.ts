/**
 * The one HTTP client: implements spec §7 "Common to all calls" — headers, the route and demo_plan
 * query parameters, load_modules until the module data has arrived, only 200/201 yield data, and
 * every answer parsed by its schema. No React, no UI: callers get typed data or an ApiError.
 */
import { ofetch, type FetchResponse } from 'ofetch';
import * as z from 'zod/mini';
import { moduleDataSchema, type ModuleData } from '../schemas/common.schema';
import { ApiError, ConnectionError, SchemaError, errorFromStatus } from './errors';
import { storage } from '../lib/storage';
import { APP_KEY, callHeaders, commonParams, FORM_CONTENT_TYPE, JSON_CONTENT_TYPE } from './call-common';
import { askEarly, takeEarlyAnswer } from './early';
import { readJson } from './json';

export type Query = Record<string, string | number | boolean | null | undefined | Array<string | number>>;

export interface ClientHooks {
  /** The current SPA route, sent as the `route` query parameter. */
  getRoute(): string;
  /** Called with fresh module data whenever an answer carries `loaded_modules`. */
  onModules(modules: ModuleData): void;
  /** A GET answered 401: reset the menu and sign out (spec §4, §8). */
  onUnauthorized(): void;
  /** A call answered user_blocked (spec §8). */
  onUserBlocked(): void;
  /** A protected action answered demo_blocked (spec §8): the featureUnavailableInDemo toast. */
  onDemoBlocked(): void;
}

const noop = () => {};
let hooks: ClientHooks = {
  getRoute: () => (typeof location !== 'undefined' ? location.pathname : '/'),
  onModules: noop,
  onUnauthorized: noop,
  onUserBlocked: noop,
  onDemoBlocked: noop,
};
/**
 * What answers the calls instead of the network, when set: the support replay's sandbox answers from a
 * snapshot and refuses everything else, so nothing is sent anywhere.
 */
export type Transport = (call: { method: string; path: string; query: string }) => Promise<{ status: number; data: unknown }>;
let transport: Transport | null = null;
/** Told of every JSON answer of a GET (the support snapshot keeps the last ones). */
let answerListener: ((answer: { path: string; query: string; data: unknown }) => void) | null = null;

export function setTransport(t: Transport | null): void {
  transport = t;
}
export function onAnswer(listener: typeof answerListener): void {
  answerListener = listener;
}

/** The call's own query as text, keys sorted: how a recorded answer is found again. */
export const queryText = (query: Query | undefined): string =>
  new URLSearchParams(
    Object.entries(ownQuery(query))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
  ).toString();

let modulesLoaded = false;
let baseURL = '';
let appKey = APP_KEY;

export function configureClient(options: Partial<ClientHooks> & { baseURL?: string; appKey?: string }): void {
  const { baseURL: b, appKey: k, ...rest } = options;
  hooks = { ...hooks, ...rest };
  if (b !== undefined) baseURL = b;
  if (k !== undefined) appKey = k;
}

/** Module load status (spec §4): initial until an answer carried loaded_modules. */
export function setModulesLoaded(loaded: boolean): void {
  modulesLoaded = loaded;
}
export function areModulesLoaded(): boolean {
  return modulesLoaded;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** Send form-encoded instead of JSON. */
  form?: boolean;
  /** Add the secondary (store) token header. */
  storeToken?: boolean;
  /** This call's 401 means "not signed in" (auth check), not a forced logout. */
  quiet401?: boolean;
  signal?: AbortSignal;
  /** Extra headers of this call (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
}

function buildHeaders(opts: RequestOptions, isMultipart: boolean): Record<string, string> {
  const headers = callHeaders(appKey, isMultipart ? null : opts.form ? FORM_CONTENT_TYPE : JSON_CONTENT_TYPE);
  if (opts.storeToken) {
    const st = storage.get('store_auth_token');
    if (st) headers['X-Store-Token'] = st;
  }
  if (opts.headers) Object.assign(headers, opts.headers);
  return headers;
}

/** The call's own query parameters, as sent (without the ones every call carries). */
function ownQuery(query: Query | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined || v === null || v === '') continue;
    out[k] = Array.isArray(v) ? v.map(String) : typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  }
  return out;
}

function buildQuery(method: string, query: Query | undefined): Record<string, string | string[]> {
  return Object.assign(ownQuery(query), commonParams(hooks.getRoute(), method === 'GET' && !modulesLoaded));
}

function encodeForm(body: unknown): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) if (v != null) p.append(k, String(v));
  return p.toString();
}

function firstIssue(error: z.core.$ZodError): { field: string; issue: string } {
  const i = error.issues[0];
  return { field: i ? i.path.map(String).join('.') || '(root)' : '(root)', issue: i?.message ?? 'is invalid' };
}

/** Sends a call (or has the replay's transport answer it); the answer whatever its status. */
export async function send(
  path: string,
  opts: RequestOptions,
  body: BodyInit | undefined,
  isMultipart: boolean,
  responseType: 'json' | 'blob',
) {
  const method = opts.method ?? 'GET';
  const headers = buildHeaders(opts, isMultipart);
  const query = buildQuery(method, opts.query);
  if (transport) {
    const answer = await transport({ method, path, query: queryText(opts.query) });
    return { status: answer.status, _data: answer.data, headers: new Headers() } as unknown as FetchResponse<unknown>;
  }
  if (method === 'GET' && responseType === 'json' && !baseURL) {
    const early = await takeEarlyAnswer(path, query, headers);
    if (early) return early as FetchResponse<unknown>;
  }
  let res: FetchResponse<unknown>;
  try {
    res = await ofetch.raw(path, {
      baseURL: baseURL || undefined,
      method,
      headers,
      query,
      body,
      responseType,
      ignoreResponseError: true,
      retry: 0,
      signal: opts.signal,
    });
  } catch (e) {
    if (opts.signal?.aborted) throw new ConnectionError('Request aborted');
    throw new ConnectionError(e instanceof Error && /timeout/i.test(e.message) ? 'timeout' : 'Network Error');
  }
  if (answerListener && method === 'GET' && responseType === 'json' && res.status === 200) answerListener({ path, query: queryText(opts.query), data: res._data });
  return res;
}

/** Throws the ApiError of a failed answer, after telling the session what it means (401, user_blocked, demo_blocked). */
export function handleFailure(method: string, res: FetchResponse<unknown>, opts: RequestOptions): never {
  const body = res._data instanceof Blob ? undefined : res._data instanceof ArrayBuffer ? readJson(new TextDecoder().decode(res._data)) : res._data;
  const err = res.status === 200 || res.status === 201 ? new ApiError('unknown', res.status, body) : errorFromStatus(res.status, body);
  if (err.isUserBlocked) hooks.onUserBlocked();
  else if (err.isDemoBlocked) hooks.onDemoBlocked();
  else if (res.status === 401 && method === 'GET' && !opts.quiet401) hooks.onUnauthorized();
  throw err;
}

/**
 * Asks now a GET that the page at `route` will make once its code has loaded (the member area right after
 * sign-in, or on a reload): it goes out with the headers and query the client will send from that page, and
 * the client takes its answer when the page makes the call (src/api/early.ts: once, while it is fresh, with
 * the same token), so the call and the page's code load side by side instead of one after the other. With
 * `after`, it goes out once that has settled. Answers when the call has (never fails; null: nothing was asked).
 */
export function askAhead(path: string, route: string, after?: Promise<unknown>): Promise<unknown> | null {
  if (transport || baseURL || typeof window === 'undefined' || typeof fetch === 'undefined') return null;
  const query = Object.assign(ownQuery(undefined), commonParams(route, !modulesLoaded));
  const answered = askEarly(path, query, buildHeaders({}, false), undefined, after).catch(() => undefined);
  askedAhead = Promise.all([askedAhead, answered]);
  return answered;
}

let askedAhead: Promise<unknown> = Promise.resolve();

/**
 * Settles once every call asked ahead so far (askAhead) has answered, at once when none was: what a call of
 * lesser weight (the menu's unread badge) waits for, so that it does not compete with a page's first calls.
 */
export function askedAheadAnswered(): Promise<void> {
  return askedAhead.then(() => undefined);
}

/**
 * Call the API and parse `data` with `schema`. Only 200 and 201 yield data; anything else throws
 * the ApiError of its class. A body that does not match the schema throws a SchemaError.
 */
export async function request<S extends z.ZodMiniType>(schema: S, path: string, opts: RequestOptions = {}): Promise<z.infer<S>> {
  const method = opts.method ?? 'GET';
  const isMultipart = typeof FormData !== 'undefined' && opts.body instanceof FormData;
  const body =
    opts.body === undefined
      ? method === 'GET'
        ? undefined
        : JSON.stringify({})
      : isMultipart
        ? (opts.body as FormData)
        : opts.form
          ? encodeForm(opts.body)
          : JSON.stringify(opts.body);
  const res = await send(path, opts, body, isMultipart, 'json');
  if (res.status !== 200 && res.status !== 201) handleFailure(method, res, opts);
  return readAnswer(schema, path, res._data, (modules) => {
    modulesLoaded = true;
    hooks.onModules(modules);
  });
}

/**
 * A successful answer's body read as every call reads it: the module data, when the answer carries
 * `loaded_modules`, checked and handed to `onModules` first; then `data` parsed by `schema`. Throws a
 * SchemaError naming the first field that breaks its schema. (The server-rendered sign-in page reads its
 * answers with it too.)
 */
export function readAnswer<S extends z.ZodMiniType>(
  schema: S,
  path: string,
  raw: unknown,
  onModules: (modules: ModuleData) => void = () => {},
): z.infer<S> {
  if (!raw || typeof raw !== 'object') throw new SchemaError(path, '(root)', 'is not a JSON object');
  const env = raw as { data?: unknown; loaded_modules?: unknown };
  if (env.loaded_modules !== undefined) {
    const mods = z.safeParse(moduleDataSchema, env.loaded_modules);
    if (!mods.success) {
      const { field, issue } = firstIssue(mods.error);
      throw new SchemaError(path, `loaded_modules.${field}`, issue);
    }
    onModules(mods.data);
  }
  const parsed = z.safeParse(schema, env.data);
  if (!parsed.success) {
    const { field, issue } = firstIssue(parsed.error);
    throw new SchemaError(path, `data.${field}`, issue);
  }
  return parsed.data;
}

export const get = <S extends z.ZodMiniType>(schema: S, path: string, query?: Query, opts: Omit<RequestOptions, 'method' | 'query'> = {}) =>
  request(schema, path, { ...opts, method: 'GET', query });
export const post = <S extends z.ZodMiniType>(schema: S, path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
  request(schema, path, { ...opts, method: 'POST', body });
export const put = <S extends z.ZodMiniType>(schema: S, path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
  request(schema, path, { ...opts, method: 'PUT', body });
export const del = <S extends z.ZodMiniType>(schema: S, path: string, body?: unknown, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
  request(schema, path, { ...opts, method: 'DELETE', body });
/** Multipart POST: `form` is sent as multipart/form-data (files under their field names). */
export const postMultipart = <S extends z.ZodMiniType>(schema: S, path: string, form: FormData, opts: Omit<RequestOptions, 'method' | 'body'> = {}) =>
  request(schema, path, { ...opts, method: 'POST', body: form });

/**
 * Answers asked for by the page head (src/entry-head.ts, inlined into index.html) before the scripts have
 * loaded: the boot call and, on the sign-in page, its fields. The scripts take a few hundred kilobytes to
 * arrive and run; these calls do not need to wait for them. A page the server rendered brings both answers
 * along (server/page-render.ts): the head hands those over instead of asking.
 *
 * The head leaves them on `window.__uplineEarly` (askEarly), keyed by path and query (callKey), each with the
 * headers it was sent with. The client takes one when it makes the same call with the same headers, at most
 * once and only while the page is young; anything else (a different query, another token, an early call that
 * failed to connect) is simply asked again, so an early answer never stands in for a different call.
 */
import type { Resource } from 'i18next';
import { readJson } from './json';

export interface EarlyCall {
  headers: Record<string, string>;
  response: Promise<Response>;
  /** performance.now() when it was asked. */
  at: number;
}

/** What a server-rendered page brings along in its page data element (server/page-render.ts). */
export interface PageData {
  /** The first calls' answers (bodies of 200 answers), by callKey. */
  answers?: Record<string, unknown>;
  /** The first screen's translations. */
  translations?: Resource;
}

declare global {
  interface Window {
    __uplineEarly?: Record<string, EarlyCall | undefined>;
    /** The page data, read by the page head (src/entry-head.ts). */
    __uplinePage?: PageData;
  }
}

/** How long after being asked an early answer may still be taken (older: asked again). */
export const EARLY_ANSWER_LIFETIME_MS = 10_000;

/** The key of a GET: its path and its query, parameters in name order (the head builds the same). */
export function callKey(path: string, query: Record<string, string | string[]>): string | null {
  const names = Object.keys(query).sort();
  const parts: string[] = [];
  for (const name of names) {
    const value = query[name];
    if (typeof value !== 'string') return null;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  }
  return `${path}?${parts.join('&')}`;
}

/**
 * The page head's side: asks a GET now with the headers the client will send, or, when the server's page
 * brought its answer along (`given`), hands that over as if it had been asked, and leaves it for the client.
 * With `after`, it is asked once that has settled (a call that must not slow down one asked before it); the
 * client taking it waits for it all the same.
 */
export function askEarly(
  path: string,
  query: Record<string, string>,
  headers: Record<string, string>,
  given?: Record<string, unknown>,
  after?: Promise<unknown>,
): Promise<Response> {
  const key = callKey(path, query)!;
  const answer = given?.[key];
  const ask = () => fetch(key, { headers, credentials: 'same-origin' });
  const response =
    answer !== undefined
      ? Promise.resolve(new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } }))
      : after
        ? after.then(ask, ask)
        : ask();
  (window.__uplineEarly ??= {})[key] = { headers, response, at: performance.now() };
  return response;
}

const sameHeaders = (a: Record<string, string>, b: Record<string, string>) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
};

/**
 * The early answer of this call with its body read as the client reads JSON (`_data`), taken (it is gone
 * afterwards); null when there is none to take: none asked, asked with other headers, too old, or the
 * connection failed before the whole answer arrived. A call asked with load_modules=1 also serves the same
 * call without it: its answer carries all the other would, and the module data on top (applied as usual).
 */
export async function takeEarlyAnswer(
  path: string,
  query: Record<string, string | string[]>,
  headers: Record<string, string>,
): Promise<(Response & { _data: unknown }) | null> {
  const calls = typeof window !== 'undefined' ? window.__uplineEarly : undefined;
  if (!calls) return null;
  const keys = [callKey(path, query)];
  if (!('load_modules' in query)) keys.push(callKey(path, { ...query, load_modules: '1' }));
  const key = keys.find((k) => k !== null && calls[k]);
  const call = key ? calls[key] : undefined;
  if (!call) return null;
  calls[key!] = undefined;
  if (!sameHeaders(call.headers, headers) || performance.now() - call.at > EARLY_ANSWER_LIFETIME_MS) return null;
  try {
    const response = await call.response;
    return Object.assign(response, { _data: readJson(await response.text()) });
  } catch {
    return null;
  }
}

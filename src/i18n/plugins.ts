/**
 * The two i18next plugins the app needs, written small because they sit on the /login critical path:
 * - `FetchBackend` reads /locales/{lng}/{ns}.json with fetch; a failed read asks i18next to retry (i18next then
 *   retries up to `maxRetries` times, starting at `retryTimeout` ms and doubling — spec §8), a 4xx is final.
 * - `languageDetector` picks the language from ?lng, the `i18next` cookie, localStorage `i18nextLng`, the browser
 *   languages and <html lang>, in that order, and caches the choice in localStorage and a one-year cookie.
 */
import type { BackendModule, LanguageDetectorModule, ReadCallback } from 'i18next';

export interface FetchBackendOptions {
  loadPath: string;
}

/** Where a language's namespace is read from. */
export const LOAD_PATH = '/locales/{{lng}}/{{ns}}.json';

/** The address of one translation file (the backend reads it; the page head preloads the first ones). */
export function localeUrl(language: string, namespace: string, loadPath: string = LOAD_PATH): string {
  return loadPath.replace('{{lng}}', encodeURIComponent(language)).replace('{{ns}}', encodeURIComponent(namespace));
}

export class FetchBackend implements BackendModule<FetchBackendOptions> {
  static type = 'backend' as const;
  type = 'backend' as const;
  private loadPath = LOAD_PATH;

  init(_services: unknown, options: Partial<FetchBackendOptions> = {}): void {
    if (options.loadPath) this.loadPath = options.loadPath;
  }

  read(language: string, namespace: string, callback: ReadCallback): void {
    const url = localeUrl(language, namespace, this.loadPath);
    fetch(url)
      .then(async (res) => {
        if (res.status >= 400 && res.status < 500) return callback(new Error(`failed loading ${url}: ${res.status}`), false);
        if (!res.ok) return callback(new Error(`failed loading ${url}: ${res.status}`), true);
        try {
          callback(null, (await res.json()) as Record<string, unknown>);
        } catch {
          callback(new Error(`failed parsing ${url}`), false);
        }
      })
      .catch(() => callback(new Error(`failed loading ${url}`), true));
  }
}

export const LOOKUP = { querystring: 'lng', cookie: 'i18next', localStorage: 'i18nextLng' } as const;
export const COOKIE_MAX_AGE_SECONDS = 31536000;

function fromCookie(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const m = new RegExp(`(?:^|;\\s*)${LOOKUP.cookie}=([^;]*)`).exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : undefined;
}

function fromStorage(): string | undefined {
  try {
    return localStorage.getItem(LOOKUP.localStorage) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The languages this browser asks for, in the detector's order: ?lng, cookie, localStorage, the browser's, <html lang>. */
export function detectedLanguages(): string[] {
  const found: string[] = [];
  if (typeof location !== 'undefined') {
    const q = new URLSearchParams(location.search).get(LOOKUP.querystring);
    if (q) found.push(q);
  }
  const c = fromCookie();
  if (c) found.push(c);
  const s = fromStorage();
  if (s) found.push(s);
  if (typeof navigator !== 'undefined') found.push(...(navigator.languages ?? []), ...(navigator.language ? [navigator.language] : []));
  if (typeof document !== 'undefined' && document.documentElement.lang) found.push(document.documentElement.lang);
  return found;
}

export const languageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  init() {},
  detect: detectedLanguages,
  cacheUserLanguage(lng: string) {
    try {
      localStorage.setItem(LOOKUP.localStorage, lng);
    } catch {
      /* unavailable */
    }
    if (typeof document !== 'undefined') {
      document.cookie = `${LOOKUP.cookie}=${encodeURIComponent(lng)}; path=/; max-age=${COOKIE_MAX_AGE_SECONDS}; samesite=lax`;
    }
  },
};

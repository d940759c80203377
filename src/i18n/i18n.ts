/**
 * Translations (spec §7 "Other", §8, §9): one JSON file per language and namespace under
 * /locales/{lng}/{ns}.json, English default and fallback, namespaces loaded on demand by
 * `useTranslation(ns)`. Language detection order: ?lng=, cookie, localStorage, browser, <html lang>;
 * the choice is cached in localStorage and a cookie.
 */
import i18next, { type i18n as I18n, type InitOptions, type Resource } from 'i18next';
import { FetchBackend, languageDetector, LOAD_PATH, LOOKUP, COOKIE_MAX_AGE_SECONDS, type FetchBackendOptions } from './plugins';
import { getI18n, initReactI18next } from 'react-i18next';
import {
  FALLBACK_LANGUAGE,
  NAMESPACES,
  PRELOADED_NAMESPACES,
  SUPPORTED_LANGUAGES,
} from './languages';

/** Detection order and caches (spec §7): implemented by `languageDetector` in ./plugins. */
export const detection = {
  order: ['querystring', 'cookie', 'localStorage', 'navigator', 'htmlTag'],
  lookupQuerystring: LOOKUP.querystring,
  lookupCookie: LOOKUP.cookie,
  lookupLocalStorage: LOOKUP.localStorage,
  caches: ['localStorage', 'cookie'],
  cookieMaxAgeSeconds: COOKIE_MAX_AGE_SECONDS,
} as const;

/** Options shared by the app and the tests. */
function baseOptions(): InitOptions {
  return {
    supportedLngs: [...SUPPORTED_LANGUAGES],
    fallbackLng: FALLBACK_LANGUAGE,
    load: 'languageOnly',
    nonExplicitSupportedLngs: true,
    defaultNS: 'common',
    fallbackNS: 'common',
    ns: PRELOADED_NAMESPACES,
    interpolation: { escapeValue: false },
    // Spec §8/§9: failed translation reads are retried up to 5 times, first after 350 ms, each
    // wait twice the previous one; at most 10 reads run at once.
    maxRetries: 5,
    retryTimeout: 350,
    maxParallelReads: 10,
    react: { useSuspense: true },
  };
}

/** Keeps <html lang> (and text direction) in step with the active language. */
function syncHtmlLang(instance: I18n): void {
  const apply = (lng: string | undefined) => {
    if (typeof document === 'undefined' || !lng) return;
    document.documentElement.lang = lng;
    document.documentElement.dir = instance.dir(lng);
  };
  instance.on('languageChanged', apply);
  apply(instance.resolvedLanguage ?? instance.language);
}

/**
 * Boots translations for the app: HTTP backend, language detection, react-i18next binding. The first
 * screen's translations that a server-rendered page brought along are used as they are; the backend
 * loads the rest.
 */
export async function initI18n(instance: I18n = i18next): Promise<I18n> {
  if (instance.isInitialized) return instance;
  const backend: FetchBackendOptions = { loadPath: LOAD_PATH };
  const bundled = typeof window !== 'undefined' ? window.__uplinePage?.translations : undefined;
  await instance
    .use(FetchBackend)
    .use(languageDetector)
    .use(initReactI18next)
    .init({ ...baseOptions(), backend, ...(bundled ? { resources: bundled, partialBundledLanguages: true } : {}) });
  syncHtmlLang(instance);
  return instance;
}

/** Switches the app language; the detector caches the choice (localStorage + cookie). */
export function changeLanguage(code: string): Promise<unknown> {
  return (getI18n() ?? i18next).changeLanguage(code);
}

/** The active language code (one of SUPPORTED_LANGUAGES once initialised). */
export function currentLanguage(): string {
  const instance = getI18n() ?? i18next;
  return instance.resolvedLanguage ?? instance.language ?? FALLBACK_LANGUAGE;
}

interface NodeFs {
  readdirSync(path: string): string[];
  readFileSync(path: string, encoding: 'utf8'): string;
  existsSync(path: string): boolean;
}

/**
 * Reads public/locales from disk synchronously. Only usable under Node (the test runner); the
 * browser build never calls it, and because it reaches fs through process.getBuiltinModule no
 * translation file is bundled into the app.
 */
export function readLocaleFiles(root?: string): Resource {
  const proc = (globalThis as { process?: { cwd(): string; getBuiltinModule?(id: string): unknown } }).process;
  const fs = proc?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  if (!proc || !fs) throw new Error('readLocaleFiles needs Node');
  const dir = root ?? `${proc.cwd()}/public/locales`;
  const resources: Resource = {};
  for (const lng of SUPPORTED_LANGUAGES) {
    resources[lng] = {};
    for (const ns of NAMESPACES) {
      const file = `${dir}/${lng}/${ns}.json`;
      resources[lng][ns] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
    }
  }
  return resources;
}

/**
 * Translations that are all at hand (the server rendering a page, with the files of public/locales): no
 * backend, no detection, not bound globally (give it to <I18nextProvider>).
 */
export function createStaticI18n(resources: Resource, lng: string): I18n {
  const instance = i18next.createInstance();
  void instance.init({ ...baseOptions(), ns: [...NAMESPACES], resources, lng, initAsync: false, react: { useSuspense: false } });
  return instance;
}

export interface TestI18nOptions {
  /** Language to start in; `en` unless `detect` is set. */
  lng?: string;
  /** Run the real language detector (query string, cookie, storage, browser, html tag). */
  detect?: boolean;
}

/**
 * Synchronous, fetch-free translations for tests: a fresh i18next instance with the real files of
 * public/locales (or the given resources), bound to react-i18next so views render real text.
 */
export function initI18nForTests(resources?: Resource, options: TestI18nOptions = {}): I18n {
  const instance = i18next.createInstance();
  if (options.detect) instance.use(languageDetector);
  instance.use(initReactI18next);
  void instance.init({
    ...baseOptions(),
    ns: [...NAMESPACES],
    resources: resources ?? readLocaleFiles(),
    lng: options.detect ? options.lng : (options.lng ?? FALLBACK_LANGUAGE),
    initAsync: false,
    react: { useSuspense: false },
  });
  syncHtmlLang(instance);
  return instance;
}

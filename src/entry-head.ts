/**
 * The page head's script: built with the app's own modules into one small classic script and inlined into
 * index.html's <head> (vite.config.ts, inlineEntries), so that it runs before the first paint and long before
 * the app's scripts have arrived. Every rule it applies is the app's own, imported from where the app keeps
 * it (nothing here may import a library: it would be inlined into every page). In this order:
 *
 * 1. the colour scheme the member chose, read as the app's scheme manager reads it, before the first paint;
 * 2. a form of the server-rendered sign-in page does not submit natively until the app handles the page: the
 *    submission is kept and made again then (src/app/server-page.ts pageReady);
 * 3. the server's markup is hidden at once when this browser will not settle on it (another language or
 *    scheme, a stored sign-in, a demo plan, a saved flow state): the app renders afresh then;
 * 4. the first screen's translations are fetched while the scripts load (unless the page brought them);
 * 5. the first calls (the boot call and, on the sign-in page, its fields) are asked now with the client's
 *    headers and query, or handed over from the page's data, for the client to take (src/api/early.ts).
 */
import { AUTH_CHECK_PATH, AUTH_DUMMY_PATH, LOGIN_FIELDS_PATH } from './api/auth-paths';
import { APP_KEY, callHeaders, commonParams } from './api/call-common';
import { askEarly, type PageData } from './api/early';
import { PAGE_DATA_ID, SERVER_LANGUAGE_ATTRIBUTE, SERVER_OFF_ATTRIBUTE, SERVER_SCHEME_ATTRIBUTE } from './app/server-page';
import { FALLBACK_LANGUAGE, PRELOADED_NAMESPACES, pickSupportedLanguage } from './i18n/languages';
import { detectedLanguages, localeUrl } from './i18n/plugins';
import { COLOUR_SCHEME_ATTRIBUTE, DEFAULT_COLOUR_SCHEME, storedColourScheme } from './lib/colour-scheme';
import { LOGIN_PATH, ROOT_PATH } from './lib/paths';
import { FLOW_SNAPSHOT_KEY, storage } from './lib/storage';

const root = document.documentElement;

// 1. The colour scheme ("auto" follows the system once Mantine runs; light until then).
const scheme = storedColourScheme(DEFAULT_COLOUR_SCHEME);
if (scheme !== 'auto') root.setAttribute(COLOUR_SCHEME_ATTRIBUTE, scheme);

// 2. Submissions wait for the app.
document.addEventListener(
  'submit',
  (e) => {
    if (window.__uplineReady) return;
    e.preventDefault();
    window.__uplinePendingSubmit = { form: e.target, submitter: (e as SubmitEvent).submitter ?? null };
  },
  true,
);

// 3. The language the app's detector will settle on; the server's markup only where the app will show the same.
let language: string = FALLBACK_LANGUAGE;
try {
  language = pickSupportedLanguage(detectedLanguages());
} catch {
  /* an unreadable cookie or storage: the app falls back too */
}
const hide = document.createElement('style');
hide.textContent = `html[${SERVER_OFF_ATTRIBUTE}] #root { display: none; }`;
document.head.appendChild(hide);
try {
  const rendered = root.getAttribute(SERVER_LANGUAGE_ATTRIBUTE);
  if (
    rendered &&
    (rendered !== language ||
      root.getAttribute(SERVER_SCHEME_ATTRIBUTE) !== scheme ||
      storage.get('auth_token') ||
      storage.get('demo_plan') ||
      sessionStorage.getItem(FLOW_SNAPSHOT_KEY))
  )
    root.setAttribute(SERVER_OFF_ATTRIBUTE, '');
} catch {
  root.setAttribute(SERVER_OFF_ATTRIBUTE, '');
}

// 4. What the server's page brought along, and the first screen's translations.
let page: PageData | null = null;
try {
  const data = !root.hasAttribute(SERVER_OFF_ATTRIBUTE) && document.getElementById(PAGE_DATA_ID);
  if (data) page = window.__uplinePage = JSON.parse(data.textContent ?? '') as PageData;
} catch {
  /* unreadable: the app asks for everything itself */
}
if (!page?.translations?.[language]) {
  for (const namespace of PRELOADED_NAMESPACES) {
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'fetch';
    link.crossOrigin = 'anonymous';
    link.href = localeUrl(language, namespace);
    document.head.appendChild(link);
  }
}

// 5. The first calls, as the client will make them (a GET before the module data has arrived: load_modules=1).
// Where the app renders the sign-in page itself (the root, an "auto" colour scheme, a page rendered afresh) its
// form shows a few hundred milliseconds sooner on a slow network. The company logo is fetched as soon as the
// boot answer names it.
try {
  if (typeof fetch === 'function' && window.performance) {
    const signedIn = !!storage.get('auth_token');
    const headers = callHeaders(APP_KEY);
    const path = location.pathname;
    askEarly(signedIn ? AUTH_CHECK_PATH : AUTH_DUMMY_PATH, commonParams(path, true), headers, page?.answers)
      .then((r) => (r.ok ? (r.clone().json() as Promise<{ loaded_modules?: { company?: { logo?: unknown } } } | null>) : null))
      .then((body) => {
        const logo = body?.loaded_modules?.company?.logo;
        if (typeof logo === 'string' && logo) new Image().src = logo;
      })
      .catch(() => {});
    // A guest at the root is sent on to the sign-in page, which asks its fields from there.
    if (!signedIn && (path === ROOT_PATH || path === LOGIN_PATH)) askEarly(LOGIN_FIELDS_PATH, commonParams(LOGIN_PATH, true), headers, page?.answers);
  }
} catch {
  /* the client asks them itself */
}

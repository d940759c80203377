/**
 * The page head (src/entry-head.ts) before the app's scripts arrive: the remembered colour scheme before the
 * first paint, submissions kept for the app, the server's markup hidden where this browser would show something
 * else, and the first screen's translations fetched early. (Its early calls: tests/api/early.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

const html = document.documentElement;

/** Runs the page head at `url`, as the browser does on a page load. */
async function runHead(url = '/login') {
  history.replaceState(null, '', url);
  vi.resetModules();
  await import('../../src/entry-head');
}

/** The server's markup, in the language and scheme it was rendered in, with what it brought along. */
function serverPage(language: string, scheme: string, data: unknown = { answers: {} }) {
  html.setAttribute('data-server-language', language);
  html.setAttribute('data-server-scheme', scheme);
  html.setAttribute('data-mantine-color-scheme', scheme);
  const tag = Object.assign(document.createElement('script'), { type: 'application/json', id: 'upline-page', textContent: JSON.stringify(data) });
  document.head.appendChild(tag);
  const root = Object.assign(document.createElement('div'), { id: 'root' });
  root.innerHTML = '<form><input name="username"><button type="submit">Continue</button></form>';
  document.body.appendChild(root);
}

const preloaded = () =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]')].filter((l) => l.as === 'fetch').map((l) => new URL(l.href).pathname);
const hidden = () => html.hasAttribute('data-server-off') && getComputedStyle(document.getElementById('root')!).display === 'none';

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 200 })));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  document.cookie = 'color-scheme=; path=/; max-age=0';
  document.cookie = 'i18next=; path=/; max-age=0';
  document.head.replaceChildren();
  document.body.replaceChildren();
  for (const name of ['data-server-language', 'data-server-scheme', 'data-server-off']) html.removeAttribute(name);
  html.setAttribute('data-mantine-color-scheme', 'light');
  window.__uplinePage = undefined;
  window.__uplineReady = undefined;
  window.__uplinePendingSubmit = undefined;
});

describe('the colour scheme, before the first paint', () => {
  test('is the one stored, else the one its cookie remembers; light by default; "auto" is left to the app', async () => {
    localStorage.setItem('mantine-color-scheme-value', 'dark');
    await runHead();
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('dark');

    localStorage.clear();
    document.cookie = 'color-scheme=dark; path=/';
    await runHead();
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('dark');

    document.cookie = 'color-scheme=; path=/; max-age=0';
    await runHead();
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('light');

    html.setAttribute('data-mantine-color-scheme', 'dark');
    localStorage.setItem('mantine-color-scheme-value', 'auto');
    await runHead();
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('dark');
  });
});

describe('a submission before the app handles the page', () => {
  test('is kept (with the button that made it) instead of going anywhere; once the app is there it goes through', async () => {
    serverPage('en', 'light');
    await runHead();
    const form = document.querySelector('form')!;
    const button = form.querySelector('button')!;
    const early = new SubmitEvent('submit', { bubbles: true, cancelable: true, submitter: button });
    form.dispatchEvent(early);
    expect(early.defaultPrevented).toBe(true);
    expect(window.__uplinePendingSubmit).toEqual({ form, submitter: button });

    window.__uplineReady = true;
    window.__uplinePendingSubmit = undefined;
    const late = new SubmitEvent('submit', { bubbles: true, cancelable: true });
    form.addEventListener('submit', (e) => e.preventDefault()); // (jsdom does not navigate)
    form.dispatchEvent(late);
    expect(window.__uplinePendingSubmit).toBeUndefined();
  });
});

describe("the server's markup", () => {
  test('stays when this browser will show the same: its language and scheme, nothing stored; what it brought is handed on', async () => {
    serverPage('en', 'light', { answers: {}, translations: { en: { common: { x: 'y' } } } });
    await runHead();
    expect(hidden()).toBe(false);
    expect(window.__uplinePage).toEqual({ answers: {}, translations: { en: { common: { x: 'y' } } } });
  });

  test.each([
    ['another language stored', () => localStorage.setItem('i18nextLng', 'es')],
    ['another language asked for', () => history.replaceState(null, '', '/login?lng=es')],
    ['another colour scheme stored', () => localStorage.setItem('mantine-color-scheme-value', 'dark')],
    ['a stored sign-in', () => localStorage.setItem('auth_token', 'a-token')],
    ['a demo plan', () => localStorage.setItem('demo_plan', 'gold')],
    ['a saved flow state', () => sessionStorage.setItem('upline.flow', '{}')],
  ])('is hidden at once with %s (the app renders afresh), and its data is left alone', async (_what, arrange) => {
    serverPage('en', 'light');
    arrange();
    await runHead(location.pathname + location.search);
    expect(hidden()).toBe(true);
    expect(window.__uplinePage).toBeUndefined();
  });

  test('in Spanish stays for a Spanish browser', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-MX', 'en']);
    serverPage('es', 'light');
    await runHead();
    expect(hidden()).toBe(false);
  });
});

describe("the first screen's translations", () => {
  test("are fetched in the language the app will pick while the scripts load: ?lng, cookie, storage, the browser's", async () => {
    await runHead('/login');
    expect(preloaded()).toEqual(['/locales/en/common.json', '/locales/en/auth.json', '/locales/en/validation.json']);

    document.head.replaceChildren();
    await runHead('/login?lng=es-ES');
    expect(preloaded()).toEqual(['/locales/es/common.json', '/locales/es/auth.json', '/locales/es/validation.json']);

    document.head.replaceChildren();
    document.cookie = 'i18next=es; path=/';
    localStorage.setItem('i18nextLng', 'en');
    await runHead('/login');
    expect(preloaded()[0]).toBe('/locales/es/common.json');

    document.head.replaceChildren();
    document.cookie = 'i18next=; path=/; max-age=0';
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'es-ES']);
    localStorage.clear();
    await runHead('/login');
    expect(preloaded()[0]).toBe('/locales/es/common.json');
  });

  test("are not fetched when the server's page brought them", async () => {
    serverPage('en', 'light', { answers: {}, translations: { en: { common: {}, auth: {}, validation: {} } } });
    await runHead();
    expect(preloaded()).toEqual([]);
  });
});

/**
 * End to end in Chromium: /login as the server sends it (server/page-render.ts). The markup is there before
 * the app's script runs; the app takes it over without drawing it again (no node replaced, no hydration
 * error); what a visitor typed or submitted before that is kept; a browser that would show something else
 * (a signed-in member, another language) never shows the server's markup.
 */
import { describe, expect, test } from 'vitest';
import type { Frame, Page, Route } from 'playwright-core';
import { newPage, PASSWORD } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

/** Holds the app's entry script back until `release()`; records the page's errors. */
async function held(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/app-[A-Za-z0-9_-]{8}\.js$/, async (route: Route) => {
    await gate;
    await route.continue();
  });
  const errors: string[] = [];
  // What the page loaded next reports: the one before it, still open until that navigation commits, is not it.
  const committed = (frame: Frame) => {
    if (frame !== page.mainFrame()) return;
    errors.length = 0;
    page.off('framenavigated', committed);
  };
  page.on('framenavigated', committed);
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { release, errors };
}

const ready = (page: Page) => page.waitForFunction(() => window.__uplineReady === true);

/** Marks the first form so that we can tell later whether it is still the same node. */
const markForm = (page: Page) => page.evaluate(() => document.querySelector('#root form')!.setAttribute('data-test-mark', 'from-server'));
const formStillMarked = (page: Page) => page.evaluate(() => document.querySelector('#root form')?.getAttribute('data-test-mark') ?? null);

/** Holds the whole library stylesheet back until the returned function is called: the page is painted with its part. */
async function heldStyles(page: Page): Promise<() => void> {
  let releaseStyles!: () => void;
  const stylesGate = new Promise<void>((r) => (releaseStyles = r));
  await page.route(/\/assets\/vendor-[A-Za-z0-9_-]{8}\.css$/, async (route: Route) => {
    await stylesGate;
    await route.continue();
  });
  return releaseStyles;
}

/** The form's look (computed styles and boxes) with the page's part of the stylesheet, then with the whole one: the same. */
async function looksTheSameWithTheWholeStylesheet(page: Page, releaseStyles: () => void) {
  const looks = () =>
    page.evaluate(() =>
      ['#root form', '#root h1, #root h2', '#root input', '#root button[type="submit"]', '#root img'].map((selector) => {
        const el = document.querySelector(selector);
        if (!el) return `${selector}: missing`;
        const s = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return [selector, s.display, s.color, s.backgroundColor, s.borderColor, s.padding, s.borderRadius, s.fontSize, s.fontWeight, box.x, box.y, box.width, box.height].join(' ');
      }),
    );
  const styleSheets = () => page.evaluate(() => ({ part: document.querySelectorAll('style[data-used]').length, whole: document.querySelectorAll('link[rel="stylesheet"]').length }));
  expect((await styleSheets()).part).toBeGreaterThan(0);
  const withPart = await looks();
  expect(withPart.join('\n')).not.toContain('missing');
  releaseStyles();
  await page.waitForFunction(() => document.querySelectorAll('style[data-used]').length === 0);
  expect((await styleSheets()).whole).toBeGreaterThan(0);
  expect(await looks()).toEqual(withPart);
}

describe('the server-rendered sign-in page', () => {
  test('is there before the app runs, asks nothing, and the app takes it over without redrawing it', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    const { release, errors } = await held(page);
    // The whole library stylesheet held back too: the page is painted with the part of it that its markup uses.
    const releaseStyles = await heldStyles(page);
    const api: string[] = [];
    const fonts: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) api.push(new URL(r.url()).pathname);
      if (r.resourceType() === 'font') fonts.push(new URL(r.url()).pathname);
    });
    const encodings = new Map<string, string | undefined>();
    page.on('response', (r) => {
      const p = new URL(r.url()).pathname;
      if (p === '/login' || /\/assets\/vendor-[^/]*\.js$/.test(p)) encodings.set(p === '/login' ? 'page' : 'vendor', r.headers()['content-encoding']);
    });
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('textbox', { name: 'Username' }).waitFor();
    await page.getByRole('img', { name: /Upline Demo logo/ }).waitFor();
    expect(await page.evaluate(() => window.__uplineReady)).toBeUndefined();
    // Until the app's scripts are there the text is drawn in the system fonts: no web font shares the link with them.
    const bodyFont = () => page.evaluate(() => getComputedStyle(document.body).fontFamily);
    expect(await bodyFont()).not.toMatch(/Ubuntu/);
    expect(fonts).toEqual([]);
    await markForm(page);

    // What the form looks like with the page's part of the stylesheet, and then with the whole one: the same.
    await looksTheSameWithTheWholeStylesheet(page, releaseStyles);
    expect(await page.evaluate(() => window.__uplineReady)).toBeUndefined();

    release();
    await ready(page);
    await page.waitForLoadState('networkidle');
    expect(await formStillMarked(page)).toBe('from-server');
    // Once they are, the app's font is asked for and used.
    expect(await bodyFont()).toMatch(/^Ubuntu,/);
    expect(fonts.some((f) => /ubuntu-latin-400/.test(f))).toBe(true);
    // The page brought the boot answer and the fields: the app asked neither again.
    expect(api.filter((p) => p === '/api/auth/dummy' || p === '/api/auth/login_fields')).toEqual([]);
    expect(errors).toEqual([]);
    // The page and the scripts travel compressed (Chromium accepts brotli).
    expect(Object.fromEntries(encodings)).toEqual({ page: 'br', vendor: 'br' });

    await page.getByRole('textbox', { name: 'Username' }).fill('demo');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/login/continue');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('[data-shell="member"]').waitFor();
    await context.close();
  });

  test('what a visitor typed and submitted before the app ran is kept and submitted then; nothing goes into the URL', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    const { release, errors } = await held(page);
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    const username = page.getByRole('textbox', { name: 'Username' });
    await username.fill('demo');
    await username.press('Enter');
    await page.waitForTimeout(200);
    expect(new URL(page.url()).search).toBe('');
    expect(new URL(page.url()).pathname).toBe('/login');

    release();
    await page.waitForURL('**/login/continue');
    await page.getByText('demo', { exact: true }).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('in Spanish for a Spanish browser, in the dark scheme its cookie remembers, and taken over all the same', async () => {
    const { context, page } = await newPage(app.browser, app.server, { locale: 'es-ES' });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    const { release, errors } = await held(page);
    const releaseStyles = await heldStyles(page);
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.getAttribute('data-mantine-color-scheme')])).toEqual([
      'es',
      'dark',
    ]);
    // Drawn in the dark scheme with the page's part of the stylesheet as with the whole one.
    await looksTheSameWithTheWholeStylesheet(page, releaseStyles);
    await markForm(page);
    release();
    await ready(page);
    expect(await formStillMarked(page)).toBe('from-server');
    await page.getByRole('textbox', { name: 'Nombre de usuario' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a browser that will settle elsewhere never shows it: a signed-in member goes to the dashboard, another stored language renders afresh', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    await page.getByRole('textbox', { name: 'Username' }).fill('demo');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('[data-shell="member"]').waitFor();

    // Signed in: the server still sends the markup (it cannot know), the page head hides it at once.
    const { release } = await held(page);
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    await page.locator('#root form').waitFor({ state: 'attached' });
    expect(await page.locator('#root').isVisible()).toBe(false);
    expect(await page.getByRole('textbox', { name: 'Username' }).isVisible()).toBe(false);
    release();
    await page.waitForURL('**/member/home/dashboard');
    await page.locator('[data-shell="member"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-server-off'))).toBe(false);
    await page.unrouteAll();

    // A guest whose stored language differs from what the server could know (no cookie): rendered afresh in it.
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
      localStorage.setItem('i18nextLng', 'es');
      document.cookie = 'i18next=; path=/; max-age=0';
    });
    const second = await held(page);
    await page.goto('/login', { waitUntil: 'domcontentloaded' });
    await page.locator('#root form').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-server-language'))).toBe('en');
    expect(await page.locator('#root').isVisible()).toBe(false);
    second.release();
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    await ready(page);
    expect(second.errors).toEqual([]);
    await context.close();
  });

  test('without JavaScript it still shows, and a submission puts nothing into a URL', async () => {
    const context = await app.browser.newContext({ baseURL: app.server.url, javaScriptEnabled: false, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.content()).toContain('This back office needs JavaScript to work.');
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname === '/login' && r.method() !== 'GET');
    await page.getByRole('textbox', { name: 'Username' }).fill('demo');
    await page.getByRole('textbox', { name: 'Username' }).press('Enter');
    const request = await sent;
    expect(request.method()).toBe('POST');
    expect(new URL(request.url()).search).toBe('');
    await context.close();
  });
});

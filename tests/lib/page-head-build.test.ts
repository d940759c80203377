// @vitest-environment node
/**
 * The page head as browsers get it: src/entry-head.ts built with the app's env and inlined into index.html
 * (vite.config.ts inlineEntryScripts), run as a classic script while the page is parsed.
 */
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inlineEntryScripts } from '../../vite.config';

const KEY = 'key-of-this-build';
let page: string;
let previousKey: string | undefined;

beforeAll(async () => {
  previousKey = process.env.VITE_APP_KEY;
  process.env.VITE_APP_KEY = KEY;
  page = await inlineEntryScripts(readFileSync('index.html', 'utf8'));
});
afterAll(() => {
  process.env.VITE_APP_KEY = previousKey;
});

/** Loads the page at `url` with what is stored; answers what it asks with `answer`. */
function load(url: string, stored: Record<string, string> = {}) {
  const asked: Array<{ url: string; headers: Record<string, string> }> = [];
  const dom = new JSDOM(page, {
    url: `http://upline.test${url}`,
    runScripts: 'dangerously',
    beforeParse(window) {
      for (const [k, v] of Object.entries(stored)) window.localStorage.setItem(k, v);
      Object.assign(window, {
        Response,
        fetch: async (u: string, init: RequestInit) => {
          asked.push({ url: u, headers: init.headers as Record<string, string> });
          return new Response(JSON.stringify({ data: {}, loaded_modules: { company: { logo: '/logo.svg' } } }), { status: 200 });
        },
      });
    },
  });
  return { dom, asked, html: dom.window.document.documentElement };
}

describe('the built page head', () => {
  test('is one small inline script in the head, ahead of the app', () => {
    expect(page).not.toContain('data-inline-entry');
    const head = /<head>([\s\S]*)<\/head>/.exec(page)![1];
    const scripts = [...head.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    // Only the app's own small modules go into every page: no library.
    expect(scripts[0].length).toBeLessThan(6 * 1024);
    expect(page.indexOf('<script>')).toBeLessThan(page.indexOf('<script type="module"'));
  });

  test("asks the first calls with this build's application key, as the client will", () => {
    const guest = load('/login');
    expect(guest.asked).toEqual([
      {
        url: '/api/auth/dummy?load_modules=1&route=%2Flogin',
        headers: { Accept: 'application/json', 'X-App-Key': KEY, 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' },
      },
      { url: '/api/auth/login_fields?load_modules=1&route=%2Flogin', headers: guest.asked[0].headers },
    ]);
    expect(Object.keys(guest.dom.window.__uplineEarly ?? {})).toEqual(guest.asked.map((a) => a.url));

    const member = load('/member/wallet', { auth_token: 'a-token' });
    expect(member.asked.map((a) => [a.url, a.headers.Authorization])).toEqual([['/api/auth_check?load_modules=1&route=%2Fmember%2Fwallet', 'Bearer a-token']]);
  });

  test('applies the stored colour scheme and preloads the translations of the language asked for', () => {
    const { dom, html } = load('/login?lng=es', { 'mantine-color-scheme-value': 'dark' });
    expect(html.getAttribute('data-mantine-color-scheme')).toBe('dark');
    const links = [...dom.window.document.head.querySelectorAll('link[rel="preload"]')].map((l) => l.getAttribute('href'));
    expect(links).toEqual(['/locales/es/common.json', '/locales/es/auth.json', '/locales/es/validation.json']);
  });
});

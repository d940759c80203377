// @vitest-environment node
/**
 * The sign-in page with its markup (server/page-render.ts), in-process with the app's own render module
 * (src/entry-server.tsx) and the real index.html as template (its page head built and inlined, as in dist/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server';
import { withSettings } from './helpers';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { pickColourScheme, pickEncoding, pickLanguage } from '../../server/page-render';
import { renderLoginPage } from '../../src/entry-server';
import { readLocaleFiles } from '../../src/i18n/i18n';
import { inlineEntryScripts } from '../../vite.config';

let s: TestServer;
let dist: string;
// Rules of one colour scheme of the page (the root's attribute, quoted or not, or the host's), and one about it that no
// scheme decides.
const LIGHT_STYLES = ':root[data-mantine-color-scheme=light],:host([data-mantine-color-scheme=light]){--used-blue:#00f}';
const DARK_STYLES = ":root[data-mantine-color-scheme='dark'],:host([data-mantine-color-scheme='dark']){--used-blue:#99f}";
const EITHER_SCHEME = ':root:not([data-mantine-color-scheme=dark]){--used-gap:4px}';
const SCHEME_STYLES = LIGHT_STYLES + DARK_STYLES + EITHER_SCHEME;
// A library stylesheet in small: rules the sign-in markup uses (its Button and Paper classes, the page's elements, the
// variables and keyframes those read) and rules it cannot use (a class on no element, a variable and keyframes nobody reads).
const STYLES =
  '@font-face{font-family:Ubuntu;src:url(/assets/ubuntu-latin-400-normal.woff2)format("woff2")}body{margin:0}' +
  ':root{--used-gap:4px;--used-colour:var(--used-blue);--used-blue:#00f;--unused-gap:8px}' +
  SCHEME_STYLES +
  '.mantine-Button-root{gap:var(--used-gap);color:var(--used-colour);animation:spin 1s}' +
  '.mantine-Paper-root:not(.never-on-the-page),.never-on-the-page{padding:0}' +
  '@media (min-width:40em){.mantine-Paper-root .never-on-the-page{margin:1px}.mantine-Paper-root{margin:2px}}' +
  '.never-on-the-page{color:red}@keyframes spin{to{rotate:1turn}}@keyframes fade{to{opacity:0}}';
/** What of STYLES the sign-in page carries: the same rules in the same order, without what its markup cannot use. */
const USED_STYLES =
  'body{margin:0}:root{--used-gap:4px;--used-colour:var(--used-blue);--used-blue:#00f}' +
  LIGHT_STYLES +
  EITHER_SCHEME +
  '.mantine-Button-root{gap:var(--used-gap);color:var(--used-colour);animation:spin 1s}' +
  '.mantine-Paper-root:not(.never-on-the-page){padding:0}@media (min-width:40em){.mantine-Paper-root{margin:2px}}' +
  '@keyframes spin{to{rotate:1turn}}';
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'upline-pages-'));
  // As built: the entry's stylesheet linked in the head, under /assets/.
  const template = readFileSync('index.html', 'utf8').replace('</head>', '<link rel="stylesheet" crossorigin href="/assets/app-test.css">\n  </head>');
  writeFileSync(path.join(dist, 'index.html'), await inlineEntryScripts(template));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'app-test.css'), STYLES);
  cpSync('public/locales', path.join(dist, 'locales'), { recursive: true });
  s = await startTestServer({ staticDir: dist, pageRenderer: path.resolve('src/entry-server.tsx') });
});
afterAll(async () => {
  await s?.close();
  rmSync(dist, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url, headers });

/** The JSON the page brings along (answers and translations). */
function pageData(html: string) {
  const m = /<script type="application\/json" id="upline-page">([^<]*)<\/script>/.exec(html);
  return m ? (JSON.parse(m[1]) as { answers: Record<string, any>; translations: Record<string, Record<string, unknown>> }) : null;
}

describe('the language and colour scheme the browser will pick', () => {
  it('takes ?lng, then the i18next cookie, then Accept-Language by preference, then English', () => {
    expect(pickLanguage('es', 'i18next=en', 'en-US')).toBe('es');
    expect(pickLanguage(null, 'a=1; i18next=es', 'en-US')).toBe('es');
    expect(pickLanguage('fr', undefined, 'fr-FR, de;q=0.9, es-MX;q=0.8, en;q=0.5')).toBe('es');
    expect(pickLanguage(null, undefined, 'en;q=0.2, es;q=0.9')).toBe('es');
    expect(pickLanguage(null, 'i18next=%E0%A4%A', 'de, *;q=0.1')).toBe('en');
    expect(pickLanguage(null, undefined, undefined)).toBe('en');
  });

  it('picks brotli, else gzip, from Accept-Encoding, honouring q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('deflate, identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding(' BR ')).toBe('br');
  });

  it('knows the colour scheme from its cookie, light by default, and cannot know "auto"', () => {
    expect(pickColourScheme('color-scheme=dark')).toBe('dark');
    expect(pickColourScheme('x=1; color-scheme=light')).toBe('light');
    expect(pickColourScheme(undefined)).toBe('light');
    expect(pickColourScheme('color-scheme=<script>')).toBe('light');
    expect(pickColourScheme('color-scheme=auto')).toBeNull();
  });
});

describe('GET /login', () => {
  it('comes with the sign-in form rendered, the state it shows, and the answers and translations it was made from', async () => {
    const res = await page('/login');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers.vary).toMatch(/Cookie/);
    const html = res.body;
    expect(html).toMatch(/<html lang="en" data-mantine-color-scheme="light" data-server-language="en" data-server-scheme="light" data-fonts-later>/);
    // Its text is drawn in the system fonts until the app's scripts have arrived: the web fonts do not share a slow link with them.
    expect(html).toMatch(/<style>html\[data-fonts-later\]\{--mantine-font-family:system-ui[^;}]*sans-serif;--mantine-font-family-headings:system-ui[^}]*\}<\/style>/);
    expect(html).not.toMatch(/data-fonts-later[^>]*Ubuntu/);
    const root = /<div id="root" data-server-key="([^"]*)">([\s\S]*)<\/div>\s*(?:<script>[^<]*<\/script>\s*)?(?:<link rel="(?:modulepreload|preload)"[^>]*>\s*)*<\/body>/.exec(html);
    expect(root).not.toBeNull();
    const key = JSON.parse(root![1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    expect(key).toEqual({ state: { value: { unauthenticated: 'login' }, children: { login: { value: { identify: 'editing' } } } }, language: 'en', colourScheme: 'light' });
    const markup = root![2];
    expect(markup).toContain('Sign in');
    expect(markup).toMatch(/<form[^>]*novalidate/i);
    expect(markup).toContain('Username');
    expect(markup).toContain('Upline Demo logo');
    expect(markup).toContain('Upline Demo. All rights reserved.');
    expect(html).toContain('<link rel="preload" as="image" href="/logo.svg" />');
    const data = pageData(html)!;
    expect(Object.keys(data.answers).sort()).toEqual(['/api/auth/dummy?load_modules=1&route=%2Flogin', '/api/auth/login_fields?load_modules=1&route=%2Flogin']);
    expect(data.answers['/api/auth/login_fields?load_modules=1&route=%2Flogin'].data.countries.length).toBeGreaterThan(20);
    expect(Object.keys(data.translations)).toEqual(['en']);
    expect(Object.keys(data.translations.en).sort()).toEqual(['auth', 'common', 'validation']);
    // The app's entry starts after the first paint; the stylesheets come before the page head's script.
    expect(html).not.toMatch(/<script type="module"[^>]*src=/);
    expect(html).toMatch(/s\.type = 'module'/);
    // Its loader waits for a frame from after the markup: a frame asked for from the head would come with nothing to show.
    expect(html.indexOf("s.type = 'module'")).toBeGreaterThan(html.lastIndexOf('</form>'));
    expect(html.indexOf('requestAnimationFrame')).toBeGreaterThan(html.indexOf('<div id="root"'));
    // …but every file it starts is asked for once the page has arrived, not only once it has painted.
    const started = JSON.parse(/(\[[^\]]*\])\.forEach\(function \(src\)/.exec(html)![1]) as string[];
    expect(started.length).toBeGreaterThan(0);
    // The stylesheet's rules that the markup uses come inside the page, ahead of the page head's script: no second
    // round trip before the first paint, and only a part of the library's CSS to parse and match then.
    expect(html).not.toContain('<link rel="stylesheet"');
    expect(html.indexOf(`<style data-href="/assets/app-test.css" data-used>${USED_STYLES}</style>`)).toBeGreaterThan(0);
    expect(html.indexOf(`<style data-href="/assets/app-test.css"`)).toBeLessThan(html.indexOf('<script>'));
    // The whole stylesheet is asked for with the scripts and takes the part's place before the app starts.
    const sheets = JSON.parse(/(\[[^\]]*\])\.forEach\(function \(href\)/.exec(html)![1]) as string[];
    expect(sheets).toEqual(['/assets/app-test.css']);
    expect(html).toMatch(/<link rel="preload" as="style" crossorigin href="\/assets\/app-test.css">\s*(<link rel="modulepreload"[^>]*>\s*)+<\/body>/);
    for (const src of started) expect(html).toMatch(new RegExp(`<link rel="modulepreload" crossorigin href="${src}">\\s*(<link rel="modulepreload"[^>]*>\\s*)*</body>`));
  });

  it("in the dark scheme its cookie remembers, carries the dark scheme's rules of the stylesheet and not the light one's", async () => {
    const html = (await page('/login', { cookie: 'color-scheme=dark' })).body;
    expect(html).toMatch(/<html lang="en" data-mantine-color-scheme="dark" data-server-language="en" data-server-scheme="dark"/);
    expect(html).toContain(`<style data-href="/assets/app-test.css" data-used>${USED_STYLES.replace(LIGHT_STYLES, DARK_STYLES)}</style>`);
  });

  it("runs its page head on the markup: the page's answers handed to the app without asking; hidden for a stored sign-in", async () => {
    const html = (await page('/login')).body;
    const open = (stored: Record<string, string>) => {
      const asked: string[] = [];
      const dom = new JSDOM(html, {
        url: 'http://upline.test/login',
        runScripts: 'dangerously',
        pretendToBeVisual: true,
        beforeParse(window) {
          for (const [k, v] of Object.entries(stored)) window.localStorage.setItem(k, v);
          Object.assign(window, { Response, fetch: async (u: string) => (asked.push(u), new Response('{}', { status: 200 })) });
        },
      });
      return { asked, window: dom.window };
    };
    const guest = open({});
    expect(guest.window.document.documentElement.hasAttribute('data-server-off')).toBe(false);
    expect(Object.keys(guest.window.__uplineEarly ?? {}).sort()).toEqual(Object.keys(pageData(html)!.answers).sort());
    expect(guest.asked).toEqual([]);
    const member = open({ auth_token: 'a-token' });
    expect(member.window.document.documentElement.hasAttribute('data-server-off')).toBe(true);
    expect(member.asked).toEqual(['/api/auth_check?load_modules=1&route=%2Flogin']);
  });

  it('is in Spanish for ?lng=es, a Spanish cookie or a Spanish browser, and dark when its cookie says so', async () => {
    for (const [url, headers] of [
      ['/login?lng=es', {}],
      ['/login', { cookie: 'i18next=es' }],
      ['/login', { 'accept-language': 'es-ES,es;q=0.9,en;q=0.8' }],
    ] as const) {
      const html = (await page(url, headers)).body;
      expect(html, url).toContain('data-server-language="es"');
      expect(html, url).toContain('Iniciar sesión');
      expect(Object.keys(pageData(html)!.translations)).toEqual(['es']);
    }
    const dark = (await page('/login', { cookie: 'color-scheme=dark' })).body;
    expect(dark).toContain('data-mantine-color-scheme="dark" data-server-language="en" data-server-scheme="dark"');
    expect(dark).toContain('Switch to light mode');
  });

  it('renders again as soon as the settings change (a kept page is never older than them)', async () => {
    const first = (await page('/login')).body;
    expect((await page('/login')).body).toBe(first);
    await withSettings(s.app, 'company', { name: 'Renamed Company' }, async () => {
      const html = (await page('/login')).body;
      expect(html).toContain('Renamed Company logo');
      expect(html).not.toContain('Upline Demo logo');
    });
    expect((await page('/login')).body).toContain('Upline Demo logo');
  });

  it('travels brotli- or gzip-encoded to a browser that accepts it, as the same page', async () => {
    const plain = (await page('/login')).body;
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip;q=0.5', 'gzip', gunzipSync],
    ] as const) {
      const res = await page('/login', { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(decode(res.rawPayload).toString('utf8'), accept).toBe(plain);
      expect(res.rawPayload.length).toBeLessThan(plain.length / 2);
    }
    expect((await page('/login', { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
  });

  it('is the plain page when the server cannot know what the browser shows: "auto" colour scheme, other routes', async () => {
    for (const [url, headers] of [
      ['/login', { cookie: 'color-scheme=auto' }],
      ['/', {}],
      ['/login/continue', {}],
      ['/signup', {}],
    ] as const) {
      const res = await page(url, headers);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect(res.body, url).not.toContain('id="upline-page"');
    }
  });

  it('keeps a hostile company name and logo inert: escaped in the markup, the data and the head', async () => {
    await withSettings(s.app, 'company', { name: '</script><script>alert(1)</script><!--', logo: '/x.svg"><script>alert(2)</script>' }, async () => {
      const html = (await page('/login')).body;
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<script>alert(2)');
      const json = /<script type="application\/json" id="upline-page">([\s\S]*?)<\/script>/.exec(html)![1];
      expect(json).not.toContain('<');
      const data = pageData(html)!;
      expect(data.answers['/api/auth/dummy?load_modules=1&route=%2Flogin'].loaded_modules.company.name).toBe('</script><script>alert(1)</script><!--');
      expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    });
  });

  it('answers the page (without markup) and no 5xx when module data does not pass its schema', async () => {
    await withSettings(s.app, 'company', { name: 42 as unknown as string }, async () => {
      const res = await page('/login');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"></div>');
    });
  });
});

describe('the render module with answers it cannot use', () => {
  const answers = async () => {
    const get = async (url: string) => JSON.parse((await page(url, { 'x-app-key': s.config.appKey })).body);
    return {
      bootAnswer: await get('/api/auth/dummy?load_modules=1&route=%2Flogin'),
      fieldsAnswer: await get('/api/auth/login_fields?load_modules=1&route=%2Flogin'),
    };
  };
  const base = { path: '/login', search: '', language: 'en', colourScheme: 'light' as const, translations: readLocaleFiles().en };

  it('renders the real answers, and nothing for malformed or hostile ones or another page', async () => {
    const good = await answers();
    expect((await renderLoginPage({ ...base, ...good }))?.html).toContain('Username');
    const broken = [
      { ...good, bootAnswer: null },
      { ...good, bootAnswer: { data: {}, loaded_modules: { ...good.bootAnswer.loaded_modules, company: 'x' } } },
      { ...good, fieldsAnswer: { data: { ...good.fieldsAnswer.data, countries: 'all' } } },
      { ...good, fieldsAnswer: '<html>' },
      { bootAnswer: { data: {} }, fieldsAnswer: { data: good.fieldsAnswer.data } },
    ];
    for (const b of broken) expect(await renderLoginPage({ ...base, ...b })).toBeNull();
    expect(await renderLoginPage({ ...base, ...good, path: '/signup' })).toBeNull();
  });
});

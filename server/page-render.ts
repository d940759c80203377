/**
 * The sign-in page with its markup (spec §2 /login): for a guest the most visited page, so the server
 * sends it rendered instead of an empty shell the scripts fill a few hundred milliseconds later.
 *
 * The markup comes from the app's own code (src/entry-server.tsx, built by `vite build --ssr` into
 * dist-ssr/): the real session machine and views, fed with this server's answers to the two calls a
 * guest's browser makes first (asked here in memory with `inject`, exactly as the browser asks them).
 * The language is the one the browser will pick (?lng, the i18next cookie, Accept-Language), the colour
 * scheme the one its cookie remembers. The page head (src/entry-head.ts, inlined into index.html) hides the
 * markup at once when this browser will not settle on it (a stored sign-in, a demo plan, a saved flow state,
 * another language or scheme), and the app hydrates it only when its own session settles on the same state
 * (src/app/server-page.ts). Anything unusual here (a call not answered 200, a render error) sends the
 * page without markup, as before.
 */
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readTranslations } from './lib/i18n';
import { parseCss, usedCss, type CssNode } from './lib/used-css';
import { AUTH_DUMMY_PATH, LOGIN_FIELDS_PATH } from '../src/api/auth-paths';
import { callKey as earlyCallKey, type PageData } from '../src/api/early';
import {
  FONT_FALLBACK,
  FONTS_LATER_ATTRIBUTE,
  PAGE_DATA_ID,
  SERVER_KEY_ATTRIBUTE,
  SERVER_LANGUAGE_ATTRIBUTE,
  SERVER_RENDERED_PATH,
  SERVER_SCHEME_ATTRIBUTE,
} from '../src/app/server-page';
import { PRELOADED_NAMESPACES, pickSupportedLanguage } from '../src/i18n/languages';
import { LOOKUP } from '../src/i18n/plugins';
import { COLOUR_SCHEME_ATTRIBUTE, COLOUR_SCHEME_COOKIE, isMantineColorScheme } from '../src/lib/colour-scheme';

/** The built render module has the source's shape (a type-only import: nothing of the app is loaded here). */
type RenderModule = Pick<typeof import('../src/entry-server'), 'renderLoginPage'>;

export interface PageRendererOptions {
  /** The built index.html. */
  template: string;
  /** The render module (dist-ssr/entry-server.js, or src/entry-server.tsx under the test runner). */
  entry: string;
  /** public/locales (or dist/locales). */
  localesDir: string;
  appKey: string;
  /**
   * The text of a built stylesheet by its address in the page (/assets/x.css), or null: the page carries it
   * inline instead of linking it (see withStylesFirst).
   */
  stylesheet?: (href: string) => string | null;
  /**
   * Changes whenever what a guest is answered may have changed (the settings' version, kept in step with
   * every server process on the database: a change made by any of them drops the pages kept here).
   */
  dataVersion: () => number | Promise<number>;
}

/** Rendered pages kept: a guest's page depends only on the settings, the language, the scheme and the query. */
const KEPT_PAGES = 32;
const KEPT_FOR_MS = 60_000;

function cookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) {
      try {
        return decodeURIComponent(v.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The items of an Accept-Language or Accept-Encoding header that are accepted (q > 0), most wanted first. */
function accepted(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((x) => x.tag);
}

/** The language the app's detector picks in this browser, as far as the server can know it (not localStorage). */
export function pickLanguage(query: string | null, cookieHeader: string | undefined, acceptLanguage: string | undefined): string {
  return pickSupportedLanguage([query, cookie(cookieHeader, LOOKUP.cookie), ...accepted(acceptLanguage)]);
}

/** The colour scheme the browser's cookie remembers (light unless it says dark); null for "auto" (the server can't know). */
export function pickColourScheme(cookieHeader: string | undefined): 'light' | 'dark' | null {
  const value = cookie(cookieHeader, COLOUR_SCHEME_COOKIE);
  if (!isMantineColorScheme(value)) return 'light';
  return value === 'auto' ? null : value;
}

/** A guest's first GET of a page (before the module data: load_modules=1), keyed as the page head and the client key it. */
const callKey = (path: string, route: string) => earlyCallKey(path, { load_modules: '1', route })!;

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');


/**
 * The page's markup is there to be seen at once: the app's entry script is started right after the first frame is
 * painted instead of before it, so that half a second of script evaluation does not hold that frame back. (A hidden
 * tab paints no frames: a timer starts it there.) The loader that waits for that frame sits at the end of the body,
 * after the markup: asked for from the head, the frame would come as soon as the head was read, with nothing to
 * show yet, and its style pass over the whole stylesheet would hold back the frame that shows the form. The files
 * are asked for as soon as the page itself has arrived all the same (modulepreload at the end of the body: not
 * sooner, so they do not share a slow link with the page's own markup and styles): they arrive while the page
 * paints, ahead of the fonts the painting discovers. The whole stylesheets of which the page carries a part (withStylesFirst)
 * are asked for first; the loader puts each in the place of its part once it has arrived and starts the scripts then.
 */
function withScriptsAfterFirstPaint(html: string): string {
  // Every module script of the page (the build may write the runtime, the libraries and the app as three),
  // started in their order by one loader at the place of the first.
  const tag = /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>\s*/g;
  const sources = [...html.matchAll(tag)].map((m) => m[1]);
  if (!sources.length) return html;
  // The stylesheets the page carries only in part (withStylesFirst): each whole one takes the place of its part before the app starts.
  const sheets = [...html.matchAll(/<style data-href="([^"]+)" data-used>/g)].map((m) => m[1]);
  const urls = JSON.stringify(sources);
  const loader =
    `<script>(function () { var started = false; function start() { if (started) return; started = true; ` +
    `var left = ${sheets.length}; function run() { ` +
    `${urls}.forEach(function (src) { var s = document.createElement('script'); s.type = 'module'; s.crossOrigin = ''; s.async = false; s.src = src; document.head.appendChild(s); }); } ` +
    `${JSON.stringify(sheets)}.forEach(function (href) { var used = document.querySelector('style[data-href="' + href + '"]'); var l = document.createElement('link'); l.rel = 'stylesheet'; l.crossOrigin = ''; ` +
    `l.onload = function () { if (used) used.remove(); if (--left === 0) run(); }; l.onerror = function () { if (--left === 0) run(); }; l.href = href; ` +
    `if (used) used.parentNode.insertBefore(l, used); else document.head.appendChild(l); }); if (!left) run(); } ` +
    `requestAnimationFrame(function () { setTimeout(start, 0); }); setTimeout(start, 250); })();</script>`;
  const preloads = [
    ...sheets.map((href) => `<link rel="preload" as="style" crossorigin href="${href}">`),
    ...sources.map((src) => `<link rel="modulepreload" crossorigin href="${src}">`),
  ].join('\n    ');
  return html.replace(tag, () => '').replace('</body>', () => `  ${loader}\n    ${preloads}\n  </body>`);
}

/**
 * The stylesheets ahead of the page head's script (and the place of the page's data after them): the page can be
 * painted once they are there. Those the renderer can read are carried in the page itself: the first paint then
 * waits for no second round trip (on a 150 ms mobile link, the stylesheet's request would start only once the page
 * has arrived, and share the link with the scripts). Of each, the page carries only the rules its markup can use
 * (server/lib/used-css.ts: a quarter of the UI library's 90 KB), so that less travels and the style pass before the
 * first paint matches fewer rules; the whole stylesheet is asked for with the scripts and takes the place of that
 * part, in the same place of the cascade, before the app's scripts start (withScriptsAfterFirstPaint): the app, and
 * every page after this one, have every rule. The page looks the same with either (the part is the rules matching
 * this markup, in the stylesheet's order).
 */
const PAGE_DATA_PLACE = '<!-- page data -->';
/** Where a rendered page's part of a stylesheet goes (the rules its markup can use: server/lib/used-css.ts). */
const usedPlace = (href: string) => `/*used:${href}*/`;

/** The template with its stylesheets placed, and the stylesheets carried in part (by address, parsed). */
function withStylesFirst(html: string, stylesheet: (href: string) => string | null = () => null): { html: string; sheets: Map<string, CssNode[]> } {
  const styles = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
  const sheets = new Map<string, CssNode[]>();
  let out = html;
  for (const tag of styles) out = out.replace(tag, () => '');
  const placed = styles.map((tag) => {
    const href = /href="([^"]+)"/.exec(tag)?.[1];
    const css = href ? stylesheet(href) : null;
    if (css === null || /<\/style/i.test(css) || !/^[\w/.-]+$/.test(href!)) return tag;
    sheets.set(href!, parseCss(css));
    return `<style data-href="${href}" data-used>${usedPlace(href!)}</style>`;
  });
  return { html: out.replace('</title>', () => `</title>\n    ${[...placed, PAGE_DATA_PLACE].join('\n    ')}`), sheets };
}

/** A rendered page, with its brotli and gzip encodings (made once, sent to browsers that accept them). */
export interface EncodedPage {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

function encoded(html: string): EncodedPage {
  const data = Buffer.from(html);
  return {
    html,
    br: brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
    gzip: gzipSync(data, { level: 9 }),
  };
}

/** The best encoding of the two a page comes in that Accept-Encoding allows (q=0 refuses one), or null. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const ok = accepted(acceptEncoding);
  return ok.includes('br') ? 'br' : ok.includes('gzip') ? 'gzip' : null;
}

export interface PageRenderer {
  /** The sign-in page with its markup, or null to send the plain page. */
  render(req: FastifyRequest): Promise<EncodedPage | null>;
}

export async function createPageRenderer(app: FastifyInstance, options: PageRendererOptions): Promise<PageRenderer> {
  const mod = (await import(pathToFileURL(options.entry).href)) as RenderModule;
  const translations = readTranslations(options.localesDir);
  const styled = withStylesFirst(options.template, options.stylesheet);
  const template = withScriptsAfterFirstPaint(styled.html);
  const headers = { accept: 'application/json', 'x-app-key': options.appKey, 'x-requested-with': 'XMLHttpRequest' };
  const ask = async (url: string, req: FastifyRequest) => {
    const res = await app.inject({ method: 'GET', url, headers, remoteAddress: req.ip });
    return res.statusCode === 200 ? (JSON.parse(res.body) as unknown) : null;
  };

  const kept = new Map<string, { page: EncodedPage; at: number }>();
  const keep = (key: string, page: EncodedPage) => {
    kept.delete(key);
    kept.set(key, { page, at: Date.now() });
    if (kept.size > KEPT_PAGES) kept.delete(kept.keys().next().value!);
  };

  return {
    async render(req) {
      const url = new URL(req.url, 'http://server.invalid');
      if (url.pathname !== SERVER_RENDERED_PATH) return null;
      const colourScheme = pickColourScheme(req.headers.cookie);
      if (!colourScheme) return null;
      const language = pickLanguage(url.searchParams.get('lng'), req.headers.cookie, req.headers['accept-language']);
      const cacheKey = `${await options.dataVersion()}|${language}|${colourScheme}|${url.search}`;
      const hit = kept.get(cacheKey);
      if (hit && Date.now() - hit.at < KEPT_FOR_MS) return hit.page;
      const html = await renderPage(req, url, language, colourScheme);
      if (!html) return null;
      const page = encoded(html);
      // Kept only when rendered from the settings it was keyed with (they may have changed meanwhile).
      if (cacheKey.startsWith(`${await options.dataVersion()}|`)) keep(cacheKey, page);
      return page;
    },
  };

  async function renderPage(req: FastifyRequest, url: URL, language: string, colourScheme: 'light' | 'dark'): Promise<string | null> {
    try {
      const route = url.pathname;
      const [bootAnswer, fieldsAnswer] = await Promise.all([
        ask(callKey(AUTH_DUMMY_PATH, route), req),
        ask(callKey(LOGIN_FIELDS_PATH, route), req),
      ]);
      if (!bootAnswer || !fieldsAnswer) return null;
      const page = await mod.renderLoginPage({
        path: url.pathname,
        search: url.search,
        language,
        colourScheme,
        translations: translations[language],
        bootAnswer,
        fieldsAnswer,
      });
      if (!page) return null;
      // Everything the first screen needs comes with the page: the two answers (the page head hands them to
      // the app as if it had asked them, src/api/early.ts) and the first screen's translations.
      const data: PageData = {
        answers: { [callKey(AUTH_DUMMY_PATH, route)]: bootAnswer, [callKey(LOGIN_FIELDS_PATH, route)]: fieldsAnswer },
        translations: { [language]: Object.fromEntries(PRELOADED_NAMESPACES.map((ns) => [ns, translations[language][ns] ?? {}])) },
      };
      // JSON inside <script>: no "<" may reach the HTML parser ("</script>" in a company name, "<!--").
      const dataTag = `<script type="application/json" id="${PAGE_DATA_ID}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
      const logo = page.logo ? `<link rel="preload" as="image" href="${escapeAttribute(page.logo)}" />` : '';
      // The text is drawn in the system fonts until the app's scripts are there (src/app/server-page.ts FONTS_LATER_ATTRIBUTE).
      const fontsLater = `<style>html[${FONTS_LATER_ATTRIBUTE}]{--mantine-font-family:${FONT_FALLBACK};--mantine-font-family-headings:${FONT_FALLBACK}}</style>`;
      // Of each stylesheet, the rules this markup can use: the whole one follows after the first paint.
      let html = template;
      for (const [href, sheet] of styled.sheets) {
        html = html.replace(usedPlace(href), () => usedCss(sheet, page.html, colourScheme));
      }
      // (Replacer functions: the markup may hold "$" sequences that a replacement string would expand.)
      return html
        .replace(
          /<html[^>]*>/,
          () =>
            `<html lang="${language}" ${COLOUR_SCHEME_ATTRIBUTE}="${colourScheme}" ${SERVER_LANGUAGE_ATTRIBUTE}="${language}" ${SERVER_SCHEME_ATTRIBUTE}="${colourScheme}" ${FONTS_LATER_ATTRIBUTE}>`,
        )
        .replace(PAGE_DATA_PLACE, () => `${fontsLater}${logo}${dataTag}`)
        .replace('<div id="root"></div>', () => `<div id="root" ${SERVER_KEY_ATTRIBUTE}="${escapeAttribute(page.key)}">${page.html}</div>`);
    } catch (e) {
      req.log.warn({ err: e }, 'the sign-in page was sent without its markup');
      return null;
    }
  }
}

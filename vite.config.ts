/// <reference types="vitest/config" />
import { build, defineConfig, type Plugin } from 'vite';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';
// The application key the client sends (X-App-Key): VITE_APP_KEY, else the server's APP_KEY (so that
// `APP_KEY=… npm start` builds a client that matches its server), else the demo key. The page head's early
// calls are built with it too (inlineEntries).
process.env.VITE_APP_KEY ||= process.env.APP_KEY || 'upline-demo-key';
// The version a support snapshot names (package.json).
process.env.VITE_APP_VERSION ||= (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Files of the first page's chunks (the groups of build.rolldownOptions.output.codeSplitting, and the runtime). */
const FIRST_PAGE_FILE = /^assets\/(rolldown-runtime|vendor|app)-[\w-]+\.(js|css)$/;

/** The app's build target, for the app and for the scripts inlined into its page. */
const TARGET = 'es2022';

/** `<script data-inline-entry="/src/entry-head.ts"></script>` in index.html: built and inlined there. */
const INLINE_ENTRY = /<script data-inline-entry="([^"]+)"><\/script>/g;

/**
 * One source file of the app (and what it imports) built into a single classic script, minified, with the
 * app's env (import.meta.env.VITE_*) and target: what inlineEntries puts into the page.
 */
export async function buildInlineScript(entry: string, options: { root?: string; mode?: string } = {}): Promise<string> {
  const root = options.root ?? process.cwd();
  const result = await build({
    configFile: false,
    root,
    mode: options.mode ?? 'production',
    logLevel: 'silent',
    build: {
      write: false,
      target: TARGET,
      minify: true,
      copyPublicDir: false,
      emptyOutDir: false,
      lib: { entry: path.resolve(root, entry.replace(/^\//, '')), formats: ['iife'], name: 'uplineInline' },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  const chunks = outputs.flatMap((o) => ('output' in o ? o.output : [])).filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`${entry} must build into one script (got ${chunks.length})`);
  const code = chunks[0].code.trim();
  // Inside <script> nothing may end the element or open an HTML comment; in a string or a pattern "<\/" reads as "</".
  if (/<!--/.test(code)) throw new Error(`${entry}: "<!--" cannot be inlined into a script element`);
  return code.replace(/<\/(script)/gi, '<\\/$1');
}

/** index.html with each `<script data-inline-entry="…"></script>` replaced by its entry built (by `script`). */
export async function inlineEntryScripts(html: string, script: (entry: string) => Promise<string> = buildInlineScript): Promise<string> {
  const entries = [...html.matchAll(INLINE_ENTRY)].map((m) => m[1]);
  const codes = new Map(await Promise.all(entries.map(async (e) => [e, await script(e)] as const)));
  return html.replace(INLINE_ENTRY, (_all, entry: string) => `<script>${codes.get(entry)}</script>`);
}

/**
 * The page's first scripts are written in src like the rest of the app and share its modules (src/entry-head.ts:
 * the client's headers and keys, the language detector, the colour-scheme manager); index.html names them with
 * `<script data-inline-entry="…"></script>` and they are built and inlined there, in the build and in dev (built
 * again after a source change). The server renders its pages from the built index.html.
 */
export function inlineEntries(): Plugin {
  let root = process.cwd();
  let mode = 'production';
  const built = new Map<string, Promise<string>>();
  const script = (entry: string) => {
    let code = built.get(entry);
    if (!code) {
      code = buildInlineScript(entry, { root, mode });
      code.catch(() => built.delete(entry));
      built.set(entry, code);
    }
    return code;
  };
  return {
    name: 'upline:inline-entries',
    configResolved(config) {
      root = config.root;
      mode = config.mode;
    },
    configureServer(server) {
      server.watcher.on('change', () => built.clear());
    },
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => inlineEntryScripts(html, script),
    },
  };
}

/**
 * Vite's preload helper (`__vitePreload`, in front of every dynamic import) is replaced by src/app/preload-helper.ts,
 * the same behaviour in a third of the bytes of the first chunk.
 */
export function preloadHelper(): Plugin {
  const helper = path.resolve(import.meta.dirname, 'src/app/preload-helper.ts');
  return {
    name: 'upline:preload-helper',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => (source === '\0vite/preload-helper.js' ? helper : null),
  };
}

/**
 * Brotli and gzip copies of the built text files (name.br, name.gz next to each), served by the reference server
 * to browsers that accept them (@fastify/static preCompressed): the 0.5 MB of scripts travel as ~140 KB.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const file = path.join(dir, name);
      return statSync(file).isDirectory() ? walk(file) : [file];
    });
  return {
    name: 'upline:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|json|svg)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
        const gz = gzipSync(data, { level: 9 });
        if (br.length < data.length) writeFileSync(`${file}.br`, br);
        if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), ...(isSsrBuild ? [] : [preloadHelper(), inlineEntries(), precompress()])],
  server: {
    proxy: { '/api': apiTarget, '/locales': apiTarget },
  },
  build: {
    target: TARGET,
    sourcemap: false,
    manifest: true,
    // No modulepreload polyfill in the first chunk (1.2 KB): current browsers all know <link rel="modulepreload">, and
    // one that does not still loads every module the page imports, only without fetching it ahead.
    // The files of the first page (the runtime, vendor and app chunks and their stylesheets) are there before any
    // lazily loaded chunk is asked for: they are left out of the lists of files to fetch alongside one.
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps) => deps.filter((dep) => !FIRST_PAGE_FILE.test(dep)) },
    rolldownOptions: {
      // The support replay is an entry of its own (replay.html → src/replay/main.tsx); its code is a chunk the member app never loads.
      ...(isSsrBuild ? {} : { input: { main: path.resolve(import.meta.dirname, 'index.html'), replay: path.resolve(import.meta.dirname, 'replay.html') } }),
      output: {
        // What the first page needs arrives in a few files instead of dozens of small shared chunks;
        // code used only by lazily loaded areas stays out of them.
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'] },
            { name: 'app', tags: ['$initial'] },
          ],
        },
      },
    },
    chunkSizeWarningLimit: 600,
    // The server's page renderer (vite build --ssr src/entry-server.tsx): code only, run by the server.
    ...(isSsrBuild ? { copyPublicDir: false, manifest: false, outDir: 'dist-ssr', emptyOutDir: true } : {}),
  },
  test: {
    globals: true,
    environment: 'jsdom',
    setupFiles: ['tests/support/setup.ts'],
    include: ['tests/**/*.test.{ts,tsx}'],
    // tests/server-pg needs a PostgreSQL server (TEST_DATABASE_URL); .ci/run gives it one.
    exclude: ['tests/e2e/**', 'node_modules/**', ...(process.env.TEST_DATABASE_URL ? [] : ['tests/server-pg/**'])],
    testTimeout: 20000,
    hookTimeout: 60000,
  },
}));

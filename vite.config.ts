/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';
// The application key the client sends (X-App-Key): VITE_APP_KEY, else the server's APP_KEY (so that
// `APP_KEY=… npm start` builds a client that matches its server), else the demo key. index.html's early
// calls read it as %VITE_APP_KEY%.
process.env.VITE_APP_KEY ||= process.env.APP_KEY || 'upline-demo-key';

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
  plugins: [react(), ...(isSsrBuild ? [] : [precompress()])],
  server: {
    proxy: { '/api': apiTarget, '/locales': apiTarget },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    rolldownOptions: {
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

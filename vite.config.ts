/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';
// The application key the client sends (X-App-Key): VITE_APP_KEY, else the server's APP_KEY (so that
// `APP_KEY=… npm start` builds a client that matches its server), else the demo key. index.html's early
// calls read it as %VITE_APP_KEY%.
process.env.VITE_APP_KEY ||= process.env.APP_KEY || 'upline-demo-key';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
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

/** One real server (fresh database) and one Chromium for the tests of a file, stopped after them. */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { cspViolations, launchBrowser, startServer, type RunningServer } from './harness';

export function realAppForFile(env: Record<string, string> = { RATE_LIMIT_SCALE: '100' }) {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    browser = await launchBrowser();
  });
  // The app works under its Content-Security-Policy: a test that met a violation fails.
  afterEach(() => {
    expect(cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server(): RunningServer {
      if (!server) throw new Error('the server starts in beforeAll');
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error('the browser starts in beforeAll');
      return browser;
    },
  };
}

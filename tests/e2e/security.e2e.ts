/**
 * End to end in Chromium: the pages run under their Content-Security-Policy. The app works (every e2e file
 * fails a test that met a violation, tests/e2e/support/suite.ts); here: the policy is in force (a script
 * slipped into the page is refused and reported) and the sign-in page cannot be framed.
 */
import { describe, expect, test } from 'vitest';
import { cspViolations, newPage, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

describe('Content-Security-Policy', () => {
  test('an inline script slipped into the page does not run, and the violation is reported', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    try {
      await page.goto('/login');
      await page.waitForFunction(() => window.__uplineReady === true);
      const ran = await page.evaluate(async () => {
        const w = window as unknown as { __injected?: boolean };
        const s = document.createElement('script');
        s.textContent = 'window.__injected = true';
        document.body.appendChild(s);
        const img = document.createElement('img');
        img.src = 'http://127.0.0.2:9/x.png';
        await new Promise((r) => setTimeout(r, 200));
        return w.__injected === true;
      });
      expect(ran).toBe(false);
      await expect.poll(() => cspViolations.some((v) => /script-src/.test(v))).toBe(true);
    } finally {
      // Expected here: the suite's check must not fail this test for them.
      cspViolations.length = 0;
      await context.close();
    }
  });

  test("a context a test opens itself (another viewport, no harness page) reports violations too", async () => {
    const context = await app.browser.newContext({ baseURL: app.server.url, viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      await page.waitForFunction(() => window.__uplineReady === true);
      expect(cspViolations).toEqual([]);
      await page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__injected = true';
        document.body.appendChild(s);
      });
      // Both reports of the violation: the page's event and the console's message.
      await expect.poll(() => cspViolations.filter((v) => /script-src/.test(v)).length).toBeGreaterThanOrEqual(2);
    } finally {
      await context.close();
      cspViolations.length = 0;
    }
  });

  test('a member signs in and works under the policy; the page cannot be framed', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    try {
      await signIn(page);
      const res = await page.request.get('/login');
      expect(res.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers()['x-frame-options']).toBe('DENY');
      expect(res.headers()['content-security-policy']).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    } finally {
      await context.close();
    }
  });
});

/**
 * Every member page of spec §2 (and the ones built beyond it) checked with axe in Chromium against the real
 * server and seeded data, in the light and the dark colour scheme: no serious or critical finding. A page
 * is checked once its calls have settled (loaded, empty or an error screen: each is what a member sees).
 * The list pages are checked as the desktop tables they are at 1280 px (column headers, rows and cells).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { SPEC_PATHS, TABLE_PATHS } from '../support/member-paths';
import { newPage, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Finding {
  rule: string;
  impact: string;
  nodes: string[];
}

/** axe's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules, best practices). */
async function seriousFindings(page: Page): Promise<Finding[]> {
  // Evaluated by the browser's debugger, not as a page script: the page's CSP stays in force for the app.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        rule: v.id,
        impact: v.impact ?? '',
        nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 200)}`),
      }));
  });
}

/** The page has drawn what its calls answered: the network is quiet and no loader is left. */
async function settled(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.locator('[data-shell="member"]').waitFor();
  await expect.poll(() => page.locator('[aria-busy="true"], .mantine-Loader-root').count(), { timeout: 15_000 }).toBe(0).catch(() => {});
  await page.waitForTimeout(150);
}

async function checkAll(scheme: 'light' | 'dark') {
  const { context, page } = await newPage(app.browser, app.server);
  await context.addCookies([{ name: 'color-scheme', value: scheme, url: app.server.url }]);
  await signIn(page);
  expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe(scheme);
  const found: Record<string, Finding[]> = {};
  const withoutTable: string[] = [];
  for (const path of SPEC_PATHS) {
    await page.goto(`/member${path}`);
    await settled(page);
    const findings = await seriousFindings(page);
    if (findings.length) found[path] = findings;
    if (TABLE_PATHS.includes(path) && !(await page.locator('main [role="table"] [role="columnheader"]').count())) withoutTable.push(path);
  }
  await context.close();
  // What axe checked on the list pages includes their tables.
  expect(withoutTable).toEqual([]);
  return found;
}

describe('accessibility of every member page', () => {
  test('light scheme: no serious or critical axe finding', async () => {
    expect(await checkAll('light')).toEqual({});
  }, 600_000);

  test('dark scheme: no serious or critical axe finding', async () => {
    expect(await checkAll('dark')).toEqual({});
  }, 600_000);
});

/**
 * The sign-in page in each colour scheme and language: as the server sends it, painted with the part of the
 * stylesheet its markup uses before the app's scripts run (server/lib/used-css.ts), and once the app is in control
 * of it with the whole stylesheet.
 */
describe('accessibility of the sign-in page', () => {
  for (const scheme of ['light', 'dark'] as const)
    test(`${scheme} scheme, English and Spanish: no serious or critical axe finding, before and after the app runs`, async () => {
      const found: Record<string, Finding[]> = {};
      for (const locale of ['en-US', 'es-ES']) {
        const { context, page } = await newPage(app.browser, app.server, { locale });
        await context.addCookies([{ name: 'color-scheme', value: scheme, url: app.server.url }]);
        // The app's scripts and the whole stylesheet held back: the server's page as first painted.
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        await page.route(/\/assets\/(app-[A-Za-z0-9_-]{8}\.js|vendor-[A-Za-z0-9_-]{8}\.css)$/, async (route) => {
          await gate;
          await route.continue();
        });
        await page.goto('/login', { waitUntil: 'domcontentloaded' });
        await page.locator('#root form').waitFor();
        expect(await page.evaluate(() => [document.documentElement.getAttribute('data-mantine-color-scheme'), document.querySelectorAll('style[data-used]').length > 0])).toEqual([scheme, true]);
        const before = await seriousFindings(page);
        if (before.length) found[`${locale} before the app`] = before;
        release();
        await page.waitForFunction(() => window.__uplineReady === true);
        await page.waitForLoadState('networkidle');
        const after = await seriousFindings(page);
        if (after.length) found[`${locale} with the app`] = after;
        await context.close();
      }
      expect(found).toEqual({});
    }, 120_000);
});

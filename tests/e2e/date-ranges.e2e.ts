/**
 * End to end in Chromium against the real server: a custom date range on the earnings, payouts and orders
 * lists opens the day picker, is kept in the URL, survives a reload, and lists only the rows of those days.
 */
import { describe, expect, test } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { newPage, signIn as signInAs } from './support/harness';
import { realAppForFile } from './support/suite';
import { chooseCustomRange } from './support/date-range';

const app = realAppForFile();

const rows = (page: Page) => page.locator('[aria-label="Rows"] > :is([role="row"], [role="listitem"])');
const status = (page: Page) => page.locator('[data-list-status]').first();

/** Scrolls the list's end into view until the list reports that nothing more is left. */
async function scrollToEnd(page: Page, maxSteps = 200) {
  for (let i = 0; i < maxSteps; i++) {
    const s = await status(page).getAttribute('data-list-status');
    if (s === 'noMoreItems' || s === 'noItems') return;
    if (s === 'readyToLoadMore') await page.locator('[data-list-sentinel]').scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 4000);
    await page.waitForTimeout(100);
  }
  throw new Error('the list did not reach its end');
}

type Item = { created_at: string };
const itemsOf = async (res: Response) => ((await res.json()) as { data: { items: Item[] } }).data.items;

const LISTS = [
  { name: 'earnings', path: '/member/wallet/recent-earnings', api: /\/api\/wallet\/recent_earnings\?/ },
  { name: 'payouts', path: '/member/wallet/recent-payouts', api: /\/api\/payout\/transactions\?/ },
  { name: 'orders', path: '/member/orders', api: /\/api\/orders\/recent_orders\?/ },
] as const;

describe('custom date ranges', () => {
  for (const list of LISTS) {
    test(`${list.name}: "Custom range" opens the day picker, the chosen days go into the URL and survive a reload, and only their rows are listed`, async () => {
      const { context, page } = await newPage(app.browser, app.server);
      await signInAs(page);
      // Every answer of the list while the range is custom, to compare with what is listed.
      const answers: Array<{ url: string; items: Promise<Item[]> }> = [];
      page.on('response', (r) => {
        if (list.api.test(r.url()) && r.url().includes('date_range=custom') && r.url().includes('end_date=')) answers.push({ url: r.url(), items: itemsOf(r) });
      });
      const unfilteredAnswers: Array<Promise<Item[]>> = [];
      page.on('response', (r) => {
        if (list.api.test(r.url()) && !r.url().includes('date_range=')) unfilteredAnswers.push(itemsOf(r));
      });
      await page.goto(list.path);
      await status(page).waitFor();

      const { range, picker } = await chooseCustomRange(page);

      await picker.click();
      // The demo's wallet history ends in October 2026: the picker goes to that month, so the days chosen have rows.
      const now = new Date();
      const steps = now.getFullYear() * 12 + now.getMonth() - (2026 * 12 + 9);
      for (let i = 0; i < Math.abs(steps); i++) await page.locator(`button[data-direction="${steps > 0 ? 'previous' : 'next'}"]`).first().click();
      const days = page.locator('table button:not([data-outside])');
      await days.first().click();
      await days.nth(9).click();
      await page.waitForURL(/start_date=\d{4}-\d{2}-01&end_date=\d{4}-\d{2}-10/);
      const url = new URL(page.url());
      const start = url.searchParams.get('start_date')!;
      const end = url.searchParams.get('end_date')!;
      const from = Date.parse(`${start}T00:00:00Z`);
      const to = Date.parse(`${end}T00:00:00Z`) + 86_400_000;
      const within = (i: Item) => Date.parse(i.created_at) >= from && Date.parse(i.created_at) < to;
      // The range means something here: the unfiltered list had rows outside it.
      const unfiltered = (await Promise.all(unfilteredAnswers)).flat();
      expect(unfiltered.some((i) => !within(i))).toBe(true);

      const check = async () => {
        await scrollToEnd(page);
        // Each page once (a reload that asks again replaces what the page showed before).
        const items = [...new Map((await Promise.all(answers.map((a) => a.items))).flat().map((i) => [JSON.stringify(i), i])).values()];
        for (const a of answers) {
          expect(new URL(a.url).searchParams.get('start_date')).toBe(start);
          expect(new URL(a.url).searchParams.get('end_date')).toBe(end);
        }
        expect(items.filter((i) => !within(i))).toEqual([]);
        expect(items.length).toBeGreaterThan(0);
        await expect.poll(() => rows(page).count()).toBe(items.length);
        expect(await range.inputValue()).toBe('Custom range');
        await picker.waitFor();
        return items.length;
      };
      await expect.poll(() => answers.length).toBeGreaterThan(0);
      const listed = await check();

      // A reload keeps the range: the picker, the URL and the same rows (restored, or asked again for the same days).
      await page.reload();
      await page.waitForURL((u) => u.searchParams.get('start_date') === start && u.searchParams.get('end_date') === end && u.searchParams.get('date_range') === 'custom');
      await status(page).waitFor();
      expect(await check()).toBe(listed);
      await context.close();
    });
  }
});

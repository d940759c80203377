/**
 * End to end in Chromium against the real server and a fresh database: the wallet's endless lists (filter in the URL,
 * scrolling to the end, a failed page that keeps the rows shown), a payout request (wrong then right password), order
 * detail from the orders list, and a CSV download.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, PASSWORD, signIn as signInAs } from './support/harness';
import { realAppForFile } from './support/suite';
import { chooseCustomRange } from './support/date-range';

const app = realAppForFile();

async function signedIn(path: string, opts?: { width?: number }) {
  const { context, page } = await newPage(app.browser, app.server, opts);
  await signInAs(page);
  await page.goto(path);
  return { context, page };
}

const rows = (page: Page) => page.locator('[aria-label="Rows"] > :is([role="row"], [role="listitem"])');
const status = (page: Page) => page.locator('[data-list-status]').first();
const money = (text: string) => Number(text.replace(/[^0-9.-]/g, ''));

/** Scrolls the list's end into view until the list reports that nothing more is left. */
async function scrollToEnd(page: Page, maxSteps = 200) {
  for (let i = 0; i < maxSteps; i++) {
    const s = await status(page).getAttribute('data-list-status');
    if (s === 'noMoreItems') return;
    if (s === 'readyToLoadMore') await page.locator('[data-list-sentinel]').scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 4000);
    await page.waitForTimeout(100);
  }
  throw new Error('the list did not reach its end');
}

describe('wallet lists', () => {
  test('a transaction-type filter goes into the URL, scrolling reaches the end, a reload keeps the filter', async () => {
    const { context, page } = await signedIn('/member/wallet/transactions');
    await rows(page).first().waitFor();
    await page.getByRole('combobox', { name: 'Transaction types' }).or(page.getByRole('textbox', { name: 'Transaction types' })).first().click();
    await page.getByRole('option', { name: 'Binary bonus' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/type=binary_bonus/);
    await rows(page).first().waitFor();

    await scrollToEnd(page);
    const count = await rows(page).count();
    expect(count).toBeGreaterThan(0);
    expect(await rows(page).filter({ hasNotText: 'Binary bonus' }).count()).toBe(0);
    await page.getByText(`That is all: ${count} ${count === 1 ? 'entry' : 'entries'}.`).waitFor();

    await page.reload();
    await rows(page).first().waitFor();
    expect(page.url()).toContain('type=binary_bonus');
    await scrollToEnd(page);
    expect(await rows(page).count()).toBe(count);
    expect(await rows(page).filter({ hasNotText: 'Binary bonus' }).count()).toBe(0);

    // Back undoes the filter and stays on the page: every type is listed again.
    await page.goBack();
    await page.waitForURL(/\/member\/wallet\/transactions$/);
    await expect.poll(() => rows(page).filter({ hasNotText: 'Binary bonus' }).count()).toBeGreaterThan(0);
    await context.close();
  });

  test('choosing "Custom range" keeps it and opens the day picker (also after a reload); two days filter the list', async () => {
    const { context, page } = await signedIn('/member/wallet/transactions');
    await rows(page).first().waitFor();
    const { range, picker } = await chooseCustomRange(page);
    await page.reload();
    await picker.waitFor();
    await rows(page).first().waitFor();
    await picker.click();
    const days = page.locator('table button:not([data-outside])');
    await days.first().click();
    const call = page.waitForRequest((r) => /\/api\/wallet\/transactions\?/.test(r.url()) && r.url().includes('date_range=custom'));
    await days.nth(9).click();
    expect(new URL((await call).url()).searchParams.get('end_date')).toMatch(/^\d{4}-\d{2}-10$/);
    await page.waitForURL(/start_date=\d{4}-\d{2}-01&end_date=\d{4}-\d{2}-10/);
    await status(page).waitFor();
    expect(await range.inputValue()).toBe('Custom range');
    await context.close();
  });

  test('a failed third page keeps the first two pages; retry continues from there', async () => {
    const { context, page } = await signedIn('/member/home/dashboard');
    let calls = 0;
    await page.route('**/api/wallet/transactions?*', async (route) => {
      calls += 1;
      if (calls === 3) await route.abort('internetdisconnected');
      else await route.continue();
    });
    // A short window: the dense rows of a desktop would otherwise bring the list's end near enough for the
    // next page to load by itself; here only Load more asks for the pages.
    await page.setViewportSize({ width: 1280, height: 480 });
    await page.goto('/member/wallet/transactions');
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows(page).count()).toBe(40);
    const firstForty = await rows(page).allTextContents();

    await page.getByRole('button', { name: 'Load more' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'No connection' });
    await alert.waitFor();
    expect(await status(page).getAttribute('data-list-status')).toBe('networkErrorMoreData');
    expect(await rows(page).allTextContents()).toEqual(firstForty);

    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => rows(page).count()).toBe(60);
    expect((await rows(page).allTextContents()).slice(0, 40)).toEqual(firstForty);
    expect(calls).toBe(4);
    await context.close();
  });

  test('the CSV of a list is a real file with a header row', async () => {
    const { context, page } = await signedIn('/member/wallet/transactions?type=level_commission');
    await rows(page).first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('id,date,type,description,cash_flow,amount,from_user,level,rank');
    expect(lines.length).toBeGreaterThan(1);
    // The filter applies to the file too.
    expect(lines.slice(1).every((l) => l.split(',')[2] === 'level_commission')).toBe(true);
    await context.close();
  });
});

describe('earnings date range', () => {
  test('the range lives in the URL, the totals and chart follow it, a reset goes back to the last 30 days', async () => {
    const { context, page } = await signedIn('/member/wallet/earning?start_date=2026-09-01&end_date=2026-10-31');
    await page.getByRole('heading', { name: /^By bonus type, Sep 0?1, 2026 – Oct 31, 2026$/ }).waitFor();
    // One bar per day, drawn with axes; hovering a bar names its day and amount.
    const chart = page.locator('[data-chart]');
    expect(await chart.getAttribute('data-chart')).toBe('61');
    await expect.poll(() => chart.locator('.recharts-cartesian-axis-tick-value').count()).toBeGreaterThan(2);
    const bars = chart.locator('.recharts-bar-rectangle path');
    await expect.poll(() => bars.count()).toBeGreaterThan(0);
    await bars.first().hover({ force: true });
    await chart.locator('.recharts-tooltip-wrapper').getByText(/\$[\d,]+\.\d\d/).first().waitFor();
    // The table alternative lists the 61 days with their exact amounts.
    await page.getByText('Table', { exact: true }).click();
    expect(await page.locator('[data-chart-table] tbody tr').count()).toBe(61);
    await page.getByText('Chart', { exact: true }).click();
    const requests: string[] = [];
    page.on('request', (r) => r.url().includes('/api/wallet/earnings_total_datewise') && requests.push(r.url()));
    await page.reload();
    await page.getByRole('heading', { name: /^By bonus type, Sep 0?1, 2026 – Oct 31, 2026$/ }).waitFor();
    expect(requests.some((u) => u.includes('start_date=2026-09-01') && u.includes('end_date=2026-10-31'))).toBe(true);

    await page.getByRole('button', { name: 'Last 30 days' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => page.locator('[data-chart]').getAttribute('data-chart')).toBe('30');

    // A link written with the earlier parameter names opens the same range.
    await page.goto('/member/wallet/earning?from=2026-09-01&to=2026-10-31');
    await page.getByRole('heading', { name: /^By bonus type, Sep 0?1, 2026 – Oct 31, 2026$/ }).waitFor();
    await context.close();
  });
});

describe('orders', () => {
  test('an order opens from the orders list; an unknown one says it was not found', async () => {
    const { context, page } = await signedIn('/member/orders');
    const first = page.getByRole('link', { name: /^Order INV-/ }).first();
    const name = (await first.textContent())!;
    await first.click();
    await page.waitForURL(/\/member\/orders\/\d+$/);
    await page.getByRole('heading', { name }).waitFor();
    await page.getByRole('heading', { name: 'Billing address' }).waitFor();
    await page.getByRole('heading', { name: 'Products' }).waitFor();

    await page.goto('/member/orders/987654');
    await page.getByText('Order not found').waitFor();
    await page.getByRole('link', { name: 'Back to orders' }).click();
    await page.waitForURL(/\/member\/orders$/);
    await context.close();
  });
});

describe('payout request', () => {
  test('a wrong password keeps what was typed; the right one pays out once and the balance drops by amount + fee', async () => {
    const { context, page } = await signedIn('/member/wallet/statement');
    const balanceCard = page.getByText('Wallet balance').locator('..');
    const before = money((await balanceCard.locator('p').nth(1).textContent())!);
    expect(before).toBeGreaterThan(60);

    await page.goto('/member/wallet/request-payout');
    const amount = page.getByRole('textbox', { name: 'Amount' });
    await amount.fill('50');
    const preview = (await page.getByText(/^Fee .* taken from your wallet:/).textContent())!;
    const total = money(preview.split('taken from your wallet:')[1]);
    expect(total).toBeGreaterThan(50);
    await page.getByLabel('Account password').fill('not-the-password');
    await page.getByRole('button', { name: 'Request payout' }).click();
    await page.getByText('The password is incorrect.').waitFor();
    expect(await amount.inputValue()).toBe('50');
    expect(await page.getByLabel('Account password').inputValue()).toBe('not-the-password');

    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/payout')) posts += 1;
    });
    await page.getByLabel('Account password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Request payout' }).dblclick();
    await page.getByRole('heading', { name: 'Payout requested' }).waitFor();
    expect(posts).toBe(1);

    await page.getByRole('link', { name: 'Back to the wallet' }).click();
    await page.waitForURL('**/member/wallet/statement');
    await expect
      .poll(async () => money((await balanceCard.locator('p').nth(1).textContent()) ?? ''))
      .toBeCloseTo(before - total, 2);

    await page.goto('/member/wallet/recent-payouts');
    const newest = rows(page).first();
    await newest.waitFor();
    expect(await newest.textContent()).toContain('Pending');
    expect(money((await newest.locator('p').last().textContent())!)).toBeCloseTo(50, 2);
    await context.close();
  });
});

/**
 * End to end in Chromium against the real server: support replay. The member (demo) stops mid-flow in several
 * areas — a half-filled payout request with a field error, a list whose load failed (an injected 500), the third
 * page of a filtered list, an expanded network tree (as a list, and drawn) — and downloads the diagnostic from the account hub each
 * time, reached through the app's own menu. Support then opens each file at /support/replay in a fresh browser
 * with every request but the replay page's own files refused (the sign-in's token check aside, nothing reaches
 * /api/ once the token is accepted), and sees the same screen (by its visible text) and the same machine states
 * (read from the replayed actors), steps backwards and forwards through the trail and sees the screen and the
 * diagram follow.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { newPage, runOperator, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const WRONG_PASSWORD = 'Not-the-pass-77';

interface Taken {
  file: string;
  text: string;
  json: { route: { path: string }; pages: Array<{ key: string; snapshot: { value: unknown } }>; events: Array<{ actor: string; value: unknown }> };
}

/**
 * The account hub within the app (no reload: what is in memory stays; the phone's bottom bar links it, a desktop
 * reaches it by its address), then "Download diagnostic".
 */
async function downloadFromHub(page: Page): Promise<Taken> {
  await inApp(page, '/member/account');
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download diagnostic' }).click();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'upline-replay-')), (await download).suggestedFilename());
  await (await download).saveAs(file);
  const text = readFileSync(file, 'utf8');
  return { file, text, json: JSON.parse(text) as Taken['json'] };
}

/** Goes to `path` the way the app's links do (history, no reload). */
async function inApp(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Opens a group of the member menu (Wallet, Network…) unless it is open. */
async function openMenuGroup(page: Page, id: string) {
  const group = page.locator(`nav [data-menu-id="${id}"]`);
  if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
}

/** The state value a page had in the snapshot. */
const capturedValue = (taken: Taken, key: string) => taken.json.pages.find((p) => p.key === key)?.snapshot.value;

/** The replay in a fresh browser: token sign-in, then every request but the page's own files refused, then the file. */
async function replay(token: string, taken: Taken): Promise<{ context: BrowserContext; page: Page; apiCalls: string[] }> {
  const { context, page } = await newPage(app.browser, app.server);
  const origin = new URL(app.server.url).origin;
  const apiCalls: string[] = [];
  let signedIn = false;
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== origin) return route.abort();
    if (url.pathname.startsWith('/api/')) {
      // Only the token check of the sign-in is let through; after it, nothing.
      if (!signedIn && url.pathname.startsWith('/api/support/replay/snapshots/')) return route.continue();
      apiCalls.push(`${route.request().method()} ${url.pathname}${url.search}`);
      return route.abort();
    }
    return route.request().method() === 'GET' ? route.continue() : route.abort();
  });
  await page.goto('/support/replay');
  await page.getByLabel('Operator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('Open a member’s snapshot').waitFor();
  signedIn = true;
  await page.setInputFiles('input[type=file]', taken.file);
  await page.locator('[data-replay-panel]').waitFor();
  await page.waitForURL(`**${taken.json.route.path}`);
  return { context, page, apiCalls };
}

/** Opens a recorded page in the replayed app (the panel's button) and waits for its live state. */
async function openReplayed(page: Page, key: string) {
  await page.locator(`[data-replay-open="${key}"]`).click();
  await page.locator(`[data-replay-page="${key}"] [data-replay-live]`).waitFor();
}

const liveState = (page: Page, key: string) => page.locator(`[data-replay-page="${key}"] [data-replay-live]`).innerText().then((t) => JSON.parse(t) as unknown);
const described = (page: Page) => page.locator('[data-focus-description]').textContent().then((t) => t ?? '');
const screenText = (page: Page) => page.locator('[data-replay-screen] main').innerText();

describe('support replay', () => {
  test('mid-flow snapshots of several areas restore to the same screen and machine states, with the network blocked', { timeout: 400_000 }, async () => {
    const created = await runOperator(app.server, ['token', 'create', '--label', 'e2e', '--hours', '1']);
    expect(created.code).toBe(0);
    const token = created.stdout.trim().split('\n').at(-1)!;

    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);

    // 1. A half-filled payout request, turned down with a field error.
    await page.goto('/member/wallet/request-payout');
    const amount = page.getByRole('textbox', { name: 'Amount' });
    await amount.fill('50');
    await page.getByLabel('Account password').fill(WRONG_PASSWORD);
    await page.getByRole('button', { name: 'Request payout' }).click();
    await page.getByText('The password is incorrect.').waitFor();
    const payoutText = await page.locator('main').innerText();
    const payout = await downloadFromHub(page);
    expect(payout.text).not.toContain(WRONG_PASSWORD);

    // 2. A list whose load failed: the server answers 500.
    await page.route('**/api/orders/recent_orders?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }));
    await page.locator('nav a[href="/member/orders"]').click();
    await page.locator('[data-error-kind="server"]').waitFor();
    const ordersText = await page.locator('main').innerText();
    const orders = await downloadFromHub(page);
    await page.unroute('**/api/orders/recent_orders?*');

    // 3. The third page of a filtered list: wallet transactions of one type, "Load more" twice.
    const rows = page.locator('[aria-label="Rows"] > :is([role="row"], [role="listitem"])');
    // A short window: a desktop's dense rows would otherwise bring the list's end near enough for the next
    // page to load by itself; here only Load more asks for the pages.
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 1280, height: 320 });
    await openMenuGroup(page, 'wallet');
    await page.locator('nav a[href="/member/wallet/transactions"]').click();
    await rows.first().waitFor();
    await page.getByRole('combobox', { name: 'Transaction types' }).or(page.getByRole('textbox', { name: 'Transaction types' })).first().click();
    await page.getByRole('option', { name: 'Binary bonus' }).click();
    await page.keyboard.press('Escape');
    await page.waitForURL(/type=binary_bonus/);
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(40);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(40);
    const listRows = await rows.allInnerTexts();
    const listSearch = new URL(page.url()).search;
    const list = await downloadFromHub(page);
    if (viewport) await page.setViewportSize(viewport);

    // 4. The network as a list with a level expanded that was not loaded before (memory-only page).
    await openMenuGroup(page, 'network');
    await page.locator('nav a[href="/member/network/tabular"]').click();
    const tree = page.getByRole('tree', { name: 'Network as a list' });
    await tree.waitFor();
    await tree.getByRole('button', { name: /^Expand / }).first().click();
    const expanded = page.waitForResponse((r) => r.url().includes('/api/network/table_view_single/') && r.status() === 200);
    await tree.getByRole('button', { name: /^Expand / }).first().click();
    await expanded;
    await expect.poll(async () => (await tree.getByRole('treeitem').allInnerTexts()).length).toBeGreaterThan(2);
    const treeRows = await tree.getByRole('treeitem').evaluateAll((items) => items.map((i) => i.getAttribute('data-row')));
    const network = await downloadFromHub(page);

    // 5. The genealogy with a member expanded by keyboard; the keys that walk to its first child are kept.
    await openMenuGroup(page, 'network');
    await page.locator('nav a[href="/member/network/genealogy"]').click();
    const canvasTree = page.getByRole('application', { name: 'Genealogy tree' });
    await canvasTree.waitFor();
    await canvasTree.focus();
    const keys: string[] = [];
    const press = async (key: string) => (keys.push(key), canvasTree.press(key));
    await expect.poll(() => described(page)).toMatch(/^demo, /);
    for (let i = 0; i < 200 && !(await described(page)).includes('press Enter to expand'); i++) {
      const text = await described(page);
      if (text.startsWith('Empty') || text.includes('No members below')) await press('ArrowRight');
      else await press('ArrowDown');
    }
    const expandedMember = (await described(page)).split(',')[0];
    const grown = page.waitForResponse((r) => /\/api\/network\/genealogy\/\d+/.test(r.url()) && r.status() === 200);
    await canvasTree.press('Enter');
    await grown;
    await page.waitForFunction((u) => document.querySelector('[data-focus-description]')?.textContent?.startsWith(`${u},`) && document.querySelector('[data-focus-description]')?.textContent?.includes('Expanded.'), expandedMember);
    await canvasTree.press('ArrowDown');
    const firstChild = await described(page);
    expect(firstChild).not.toMatch(/^Empty|^demo,/);
    const genealogy = await downloadFromHub(page);
    await context.close();

    // Support, one fresh browser per snapshot.
    {
      const r = await replay(token, payout);
      await openReplayed(r.page, 'wallet.requestPayout');
      await r.page.getByText('The password is incorrect.').waitFor();
      expect(await r.page.getByRole('textbox', { name: 'Amount' }).inputValue()).toBe('50');
      expect(await r.page.getByLabel('Account password').inputValue()).toBe('');
      expect(await screenText(r.page)).toBe(payoutText);
      expect(await liveState(r.page, 'wallet.requestPayout')).toEqual(capturedValue(payout, 'wallet.requestPayout'));
      expect(r.apiCalls).toEqual([]);
      await r.context.close();
    }
    {
      const r = await replay(token, orders);
      await openReplayed(r.page, 'orders');
      await r.page.locator('[data-error-kind="server"]').getByRole('button', { name: /Retry/ }).waitFor();
      expect(await screenText(r.page)).toBe(ordersText);
      expect(await liveState(r.page, 'orders')).toEqual(capturedValue(orders, 'orders'));
      expect(r.apiCalls).toEqual([]);
      await r.context.close();
    }
    {
      const r = await replay(token, list);
      await openReplayed(r.page, 'wallet.transactions');
      expect(new URL(r.page.url()).search).toBe(listSearch);
      const replayedRows = r.page.locator('[aria-label="Rows"] > :is([role="row"], [role="listitem"])');
      await expect.poll(() => replayedRows.count()).toBe(listRows.length);
      expect(await replayedRows.allInnerTexts()).toEqual(listRows);
      expect(await liveState(r.page, 'wallet.transactions')).toEqual(capturedValue(list, 'wallet.transactions'));

      // Back through the trail to the list as it was before its third page came: two pages, the state that
      // waits for more, highlighted on the list's diagram; forward again to the end: the third page is back.
      const step = r.page.locator('[data-replay-step]');
      const end = await step.innerText();
      const recorded = r.page.locator('[data-replay-page="wallet.transactions"] [data-replay-state]');
      for (let i = 0; i < 80 && (await replayedRows.count()) !== 40; i++) await r.page.locator('[data-replay-back]').click();
      expect(await replayedRows.allInnerTexts()).toEqual(listRows.slice(0, 40));
      expect(await step.innerText()).not.toBe(end);
      expect(JSON.parse(await recorded.innerText())).toBe('readyToLoadMore');
      expect(await liveState(r.page, 'wallet.transactions')).toBe('readyToLoadMore');
      const diagram = r.page.locator('[data-replay-page="wallet.transactions"] [data-replay-diagram="transactionsList"]');
      expect(await diagram.getAttribute('data-active-states')).toBe('readyToLoadMore');
      const highlighted = diagram.locator('[data-state="readyToLoadMore"] > rect');
      await expect.poll(() => highlighted.evaluate((el) => getComputedStyle(el).strokeWidth)).toBe('4px');
      expect(await diagram.locator('[data-state="loadingMore"] > rect').evaluate((el) => getComputedStyle(el).strokeWidth)).not.toBe('4px');
      while ((await step.innerText()) !== end) await r.page.locator('[data-replay-forward]').click();
      await expect.poll(() => replayedRows.count()).toBe(listRows.length);
      expect(await replayedRows.allInnerTexts()).toEqual(listRows);
      expect(await liveState(r.page, 'wallet.transactions')).toEqual(capturedValue(list, 'wallet.transactions'));
      expect(r.apiCalls).toEqual([]);
      await r.context.close();
    }
    {
      const r = await replay(token, network);
      await openReplayed(r.page, 'network.tabular');
      const replayedTree = r.page.getByRole('tree', { name: 'Network as a list' });
      await replayedTree.waitFor();
      expect(await replayedTree.getByRole('treeitem').evaluateAll((items) => items.map((i) => i.getAttribute('data-row')))).toEqual(treeRows);
      expect(await liveState(r.page, 'network.tabular')).toEqual(capturedValue(network, 'network.tabular'));
      expect(r.apiCalls).toEqual([]);
      await r.context.close();
    }
    {
      const r = await replay(token, genealogy);
      await openReplayed(r.page, 'network.genealogy');
      const replayedTree = r.page.getByRole('application', { name: 'Genealogy tree' });
      await replayedTree.waitFor();
      expect(await liveState(r.page, 'network.genealogy')).toEqual(capturedValue(genealogy, 'network.genealogy'));
      // The same keys reach the same member, already expanded (nothing is loaded), and its first child.
      await replayedTree.focus();
      await expect.poll(() => described(r.page)).toMatch(/^demo, /);
      for (const key of keys) await replayedTree.press(key);
      expect(await described(r.page)).toMatch(new RegExp(`^${expandedMember},.*Expanded\\.`));
      await replayedTree.press('ArrowDown');
      expect(await described(r.page)).toBe(firstChild);
      expect(r.apiCalls).toEqual([]);
      await r.context.close();
    }
  });
});

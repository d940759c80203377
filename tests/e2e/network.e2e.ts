/**
 * End to end in Chromium against the real server and a fresh database: the genealogy (expand, search, up,
 * details, refusal outside the network), the tabular tree and the downline report.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { answerNetworkCall, newPage, openGenealogy, signIn as signInAs } from './support/harness';
import { realAppForFile } from './support/suite';
import { fullTree, genealogyAnswer, tableNode } from '../support/network-fixtures';

const app = realAppForFile();

async function signedIn(path: string) {
  const { context, page } = await newPage(app.browser, app.server, { width: 1280, height: 900 });
  await signInAs(page);
  await page.goto(path);
  return { context, page };
}

const described = (page: Page) => page.locator('[data-focus-description]').textContent().then((t) => t ?? '');

/**
 * Walks from the focused node to a member whose next levels are not loaded yet: down through expanded
 * members, right along a row past empty slots and leaves, up a row when a row ends.
 */
async function focusUnloaded(page: Page): Promise<string> {
  const tree = page.getByRole('application', { name: 'Genealogy tree' });
  for (let i = 0; i < 200; i++) {
    const text = await described(page);
    if (text.includes('press Enter to expand')) return text;
    if (text.startsWith('Empty') || text.includes('No members below')) {
      await tree.press('ArrowRight');
      if ((await described(page)) === text) {
        await tree.press('ArrowUp');
        await tree.press('ArrowRight');
      }
    } else await tree.press('ArrowDown');
  }
  throw new Error(`no unloaded member found; last: ${await described(page)}`);
}

describe('genealogy', () => {
  test('expand three levels, details, search, up, refusal outside the network', async () => {
    const { context, page } = await signedIn('/member/network');
    await page.waitForURL('**/member/network/genealogy');
    const tree = page.getByRole('application', { name: 'Genealogy tree' });
    await tree.waitFor();
    await tree.focus();
    expect(await described(page)).toMatch(/^demo, /);

    let deepest = '';
    for (let level = 0; level < 3; level++) {
      const before = await focusUnloaded(page);
      const username = before.split(',')[0];
      const answer = page.waitForResponse((r) => /\/api\/network\/genealogy\/\d+/.test(r.url()) && r.status() === 200);
      await tree.press('Enter');
      await answer;
      await page.waitForFunction(
        (u) => document.querySelector('[data-focus-description]')?.textContent?.startsWith(`${u},`) &&
          document.querySelector('[data-focus-description]')?.textContent?.includes('Expanded.'),
        username,
      );
      deepest = username;
    }
    // Details of the focused member.
    const details = page.getByRole('region', { name: 'Member details' });
    await expect(details.textContent()).resolves.toContain(deepest);
    await expect(details.textContent()).resolves.toMatch(/PV.*TV.*CV.*Left total.*Right total.*Left carry.*Right carry/);

    // Search a downline username: the tree is drawn from it; up goes to its parent.
    await page.getByLabel('Search a username').fill(deepest);
    await page.getByRole('button', { name: 'Find' }).click();
    // The search is in the URL.
    await page.waitForURL((u) => u.searchParams.get('username') === deepest);
    const up = page.getByRole('button', { name: 'Up one level' });
    await expect.poll(() => up.isEnabled()).toBe(true);
    await tree.focus();
    await tree.press('Escape');
    await tree.blur();
    await tree.focus();
    await expect.poll(() => described(page)).toMatch(new RegExp(`^${deepest.replace('.', '\\.')},`));
    await up.click();
    // Refocused, the tree starts from the parent now.
    await expect.poll(() => page.getByRole('button', { name: 'Back to me' }).isEnabled()).toBe(true);
    await tree.focus();
    await tree.press('Escape');
    await tree.blur();
    await tree.focus();
    await expect.poll(async () => (await described(page)).startsWith(`${deepest},`)).toBe(false);
    await tree.press('ArrowDown');
    await tree.press('ArrowRight');
    await tree.press('ArrowLeft');
    await expect.poll(async () => (await described(page)).length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Back to me' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Back to me' }).isDisabled()).toBe(true);
    // Back to me leaves no member searched: not in the URL, not in the box.
    await page.waitForURL((u) => u.pathname === '/member/network/genealogy' && !u.searchParams.has('username'));
    expect(await page.getByLabel('Search a username').inputValue()).toBe('');

    // A username outside the downline (the company's top member) is refused, the tree stays.
    await page.getByLabel('Search a username').fill('admin');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByText('“admin” is not in your network.').waitFor();
    await tree.waitFor();
    await page.waitForURL((u) => u.searchParams.get('username') === 'admin');
    // A reload keeps the search in the box; Back returns to the previous search, on the page.
    await page.reload();
    await expect.poll(() => page.getByLabel('Search a username').inputValue()).toBe('admin');
    await page.getByLabel('Search a username').fill('typed but not sent');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/member/network/genealogy' && !u.searchParams.has('username'));
    await expect.poll(() => page.getByLabel('Search a username').inputValue()).toBe('');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/member/network/genealogy' && u.searchParams.get('username') === deepest);
    await tree.waitFor();
    // The box shows the search of the URL, not what was typed last.
    await expect.poll(() => page.getByLabel('Search a username').inputValue()).toBe(deepest);
    await context.close();
  });

  test('a failed expansion marks the node and a retry loads it', async () => {
    const { context, page } = await signedIn('/member/network/genealogy');
    const tree = page.getByRole('application', { name: 'Genealogy tree' });
    await tree.waitFor();
    await tree.focus();
    await focusUnloaded(page);
    await page.route(/\/api\/network\/genealogy\/\d+/, (route) => route.abort());
    await tree.press('Enter');
    await page.getByRole('button', { name: 'Retry loading' }).waitFor();
    await page.unroute(/\/api\/network\/genealogy\/\d+/);
    await page.getByRole('button', { name: 'Retry loading' }).click();
    await expect.poll(() => described(page)).toContain('Expanded.');
    await context.close();
  });

  test('it opens legibly over both legs on a desktop and on a phone; Fit to screen draws status-coloured cards', async () => {
    for (const width of [1280, 360]) {
      const { context, page } = await newPage(app.browser, app.server, { width, height: width < 600 ? 740 : 900 });
      await signInAs(page);
      const tree = await openGenealogy(page);
      // Names or initials (never text under 12 px), not bare boxes; more than the member is drawn.
      await expect.poll(() => tree.getAttribute('data-detail')).toMatch(/^(full|names|initials)$/);
      const drawn = await page.evaluate(() => {
        const marks = performance.getEntriesByName('genealogy:paint') as PerformanceMark[];
        return (marks[marks.length - 1].detail as { drawn: number }).drawn;
      });
      expect(drawn, `cards drawn at ${width} px`).toBeGreaterThan(3);
      await page.getByRole('button', { name: 'Fit to screen' }).click();
      await page.waitForTimeout(300);
      // The cards carry the status colour (green for active members), not white boxes with nothing in them.
      const coloured = await tree.locator('canvas').evaluate((canvas: HTMLCanvasElement) => {
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 1] > 140 && data[i] < 120 && data[i + 2] < 140) n++;
        return n;
      });
      expect(coloured, `status-coloured pixels after Fit at ${width} px`).toBeGreaterThan(500);
      await context.close();
    }
  });
});

/** A table view answer: the member with `rows` members below it (generated here, same schema as the server's). */
function tableAnswer(rows: number, bad = false) {
  const member = (id: number, over: Record<string, unknown> = {}) => ({
    ...tableNode(id, 1, { username: `row${id}`, first_name: `Row${id}`, level: 1, total_earnings: '10.5' }),
    children: [],
    ...over,
  });
  const children = Array.from({ length: rows }, (_, i) => member(i + 2, bad && i === rows - 2 ? { status: 2 } : {}));
  return JSON.stringify({
    data: {
      genealogy: member(1, { username: 'demo', parent_id: null, level: 0, child_count: rows, downlines_count: rows, children }),
      search_valid: false,
      max_levels: 1,
      levels_loaded: 2,
    },
  });
}

/** A flat genealogy answer: a full binary tree of `levels` levels below the member. */
function treeAnswer(levels: number, bad = false) {
  const affiliates = fullTree(1, levels, 2, 'binary', 0, false);
  affiliates[0].username = 'demo';
  if (bad) affiliates[affiliates.length - 1].cv = 'lots';
  return JSON.stringify({ data: genealogyAnswer(affiliates, { max_levels: levels, root_affiliate_id: 1 }) });
}

describe('big answers: every member is checked', () => {
  test('tabular: 20 000 rows are listed; a member breaking a rule anywhere is refused', async () => {
    const { context, page } = await signedIn('/member/home');
    let body = tableAnswer(20_000);
    await answerNetworkCall(page, 'table_view', () => body);
    await page.goto('/member/network/tabular');
    const list = page.getByRole('tree', { name: 'Network as a list' });
    await list.waitFor();
    await page.getByText('20001 rows shown').waitFor();
    await expect.poll(() => list.getByRole('treeitem').first().getAttribute('data-row')).toBe('demo');
    expect(await list.getByRole('treeitem').nth(1).textContent()).toContain('$10.50');
    await page.getByRole('button', { name: 'Fold demo' }).click();
    await page.getByText('1 rows shown').waitFor();
    await page.getByRole('button', { name: 'Expand demo' }).click();
    await page.getByText('20001 rows shown').waitFor();
    // The next-to-last member has status 2: the whole answer is refused.
    body = tableAnswer(20_000, true);
    await page.reload();
    await page.locator('[data-error-kind="server"]').waitFor();
    expect(await page.locator('[data-row]').count()).toBe(0);
    await context.close();
  });

  test('genealogy: 4 000 members are drawn; a member breaking a rule anywhere is refused', async () => {
    const { context, page } = await signedIn('/member/home');
    let body = treeAnswer(11);
    await answerNetworkCall(page, 'genealogy', () => body);
    const tree = await openGenealogy(page);
    await tree.focus();
    await expect.poll(() => described(page)).toMatch(/^demo, First1 Last1/);
    await tree.press('ArrowDown');
    await expect.poll(() => described(page)).toMatch(/^m[23], First[23] Last[23]/);
    const details = page.getByRole('region', { name: 'Member details' });
    await expect(details.textContent()).resolves.toMatch(/Gold.*Starter/);
    // The last member's cv is not a number: the whole answer is refused.
    body = treeAnswer(11, true);
    await page.reload();
    await page.locator('[data-error-kind="server"]').waitFor();
    await context.close();
  });
});

describe('tabular and downline report', () => {
  test('tabular view expands a level that was not loaded', async () => {
    const { context, page } = await signedIn('/member/network/tabular');
    const list = page.getByRole('tree', { name: 'Network as a list' });
    await list.waitFor();
    const rows = () => list.getByRole('treeitem').count();
    const first = list.getByRole('button', { name: /^Expand / }).first();
    await first.click();
    const before = await rows();
    const answer = page.waitForResponse((r) => r.url().includes('/api/network/table_view_single/') && r.status() === 200);
    await list.getByRole('button', { name: /^Expand / }).first().click();
    await answer;
    await expect.poll(rows).toBeGreaterThan(before);
    await context.close();
  });

  test('downline report pages and sorts', async () => {
    const { context, page } = await signedIn('/member/network/downline');
    const table = page.getByRole('table', { name: 'Downline report' });
    await table.waitFor();
    const count = () => table.locator('tbody tr').count();
    expect(await count()).toBe(20);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(count).toBe(40);
    const newestFirst = await table.locator('tbody tr').first().getAttribute('data-member');
    await page.getByLabel('Sort').selectOption('asc');
    await page.waitForURL('**/member/network/downline?sort=asc');
    await expect.poll(() => table.locator('tbody tr').first().getAttribute('data-member')).not.toBe(newestFirst);
    expect(await count()).toBe(20);
    await context.close();
  });

  test('the downline report\'s boxes show the search whose results are listed, after Find and after Back', async () => {
    const { context, page } = await signedIn('/member/network/downline');
    const table = page.getByRole('table', { name: 'Downline report' });
    await table.waitFor();
    const someone = (await table.locator('tbody tr').nth(3).getAttribute('data-member'))!;
    const search = page.getByRole('textbox', { name: 'Username' });
    const level = page.getByRole('textbox', { name: 'Level' });
    await search.fill(someone);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL(new RegExp(`username=${someone}`));
    await expect.poll(() => table.locator('tbody tr').first().getAttribute('data-member')).toBe(someone);
    expect(await search.inputValue()).toBe(someone);
    await level.fill('1');
    await search.fill('');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL(/level=1/);
    expect(await search.inputValue()).toBe('');
    expect(await level.inputValue()).toBe('1');
    await page.goBack();
    await page.waitForURL(new RegExp(`username=${someone}`));
    await expect.poll(() => search.inputValue()).toBe(someone);
    expect(await level.inputValue()).toBe('');
    await context.close();
  });
});

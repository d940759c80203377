/**
 * Wallet list figures in Chromium against the real server, for `demo` with a very long wallet history
 * (the runner adds 100 000 ledger rows before the server starts: bench/support/ledger-rows.ts):
 * time to the first rows of /member/wallet/transactions, time to the 20th page while scrolling, rows
 * appended per second while scrolling, and the longest main-thread task while a page is appended
 * (PerformanceObserver 'longtask', 50 ms and up) with 400 and with 2 000 rows loaded.
 * Start the server on a data folder prepared by addLedgerRows (see there).
 */
import type { Browser, Page } from 'playwright-core';
import { newPage, signIn, type RunningServer } from '../tests/e2e/support/harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PAGE = 20;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (n: number) => `${Math.round(n)} ms`;


/** Collects long tasks from the start of every document of the context. */
async function observeLongTasks(page: Page) {
  await page.context().addInitScript(`
    window.__longTasks = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    } catch (e) {}
  `);
}

/** Opens the transactions list; ms from navigation start to the first row on screen. */
async function openList(page: Page): Promise<number> {
  await page.goto('/member/wallet/transactions');
  const handle = await page.waitForFunction(`document.querySelector('[role="list"] [role="listitem"]') ? performance.now() : 0`, undefined, {
    polling: 'raf',
    timeout: 30_000,
  });
  return (await handle.jsonValue()) as number;
}

// In-page code is passed as text: the TypeScript loader would otherwise add helper calls the page lacks.
const COUNT = `Number(document.querySelector('[data-list-count]')?.getAttribute('data-list-count') ?? 0)`;

/** Keeps scrolling to the bottom (the sentinel loads the next page) until `target` rows are loaded; ms taken. */
async function scrollUntil(page: Page, target: number): Promise<number> {
  return page.evaluate(`(async () => {
    const t0 = performance.now();
    while (${COUNT} < ${target}) {
      window.scrollTo(0, document.documentElement.scrollHeight);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      if (performance.now() - t0 > 120000) throw new Error('stuck at ' + ${COUNT} + ' rows');
    }
    return performance.now() - t0;
  })()`) as Promise<number>;
}

/** Longest task (ms, 0 when none reached 50 ms) from scrolling to the end of the list until the next page is on screen. */
async function appendLongestTask(page: Page): Promise<number> {
  return page.evaluate(`(async () => {
    const status = () => document.querySelector('[data-list-status]').getAttribute('data-list-status');
    while (status() !== 'readyToLoadMore') await new Promise((r) => setTimeout(r, 5));
    const before = ${COUNT};
    const t0 = performance.now();
    window.scrollTo(0, document.documentElement.scrollHeight);
    while (${COUNT} === before) await new Promise((r) => setTimeout(r, 5));
    // Let the appended rows render and paint before reading the tasks.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))));
    return window.__longTasks.filter((t) => t.start + t.duration >= t0).reduce((m, t) => Math.max(m, t.duration), 0);
  })()`) as Promise<number>;
}

export async function run(ctx: { browser: Browser; server: RunningServer }): Promise<string[]> {
  const first: number[] = [];
  const toPage20: number[] = [];
  const rowsPerSecond: number[] = [];
  const longest400: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { context, page } = await newPage(ctx.browser, ctx.server);
    await observeLongTasks(page);
    await signIn(page);
    first.push(await openList(page));
    const t = await scrollUntil(page, 20 * PAGE);
    toPage20.push(t);
    rowsPerSecond.push((19 * PAGE) / (t / 1000));
    longest400.push(await appendLongestTask(page));
    await context.close();
  }

  // One long session: 2 000 rows loaded, then the longest task while the 101st page is appended.
  const { context, page } = await newPage(ctx.browser, ctx.server);
  await observeLongTasks(page);
  await signIn(page);
  await openList(page);
  const t2000 = await scrollUntil(page, 100 * PAGE);
  const longest2000: number[] = [];
  for (let i = 0; i < RUNS; i++) longest2000.push(await appendLongestTask(page));
  const domRows = await page.locator('[role="list"] [role="listitem"]').count();
  await context.close();

  return [
    `wallet transactions (demo with 100 000 ledger rows, ${RUNS} runs, medians):`,
    `  first rows after navigation: ${ms(median(first))}`,
    `  20th page reached by scrolling: ${ms(median(toPage20))} after the first rows`,
    `  rows appended per second while scrolling: ${Math.round(median(rowsPerSecond))} (pages 2–20); ${Math.round((99 * PAGE) / (t2000 / 1000))} (pages 2–100)`,
    `  longest task appending a page: ${ms(median(longest400))} with 400 rows, ${ms(median(longest2000))} with 2 000+ rows (0 = none over 50 ms); rows in the DOM at 2 000+: ${domRows}`,
  ];
}

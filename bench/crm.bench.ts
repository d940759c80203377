/**
 * CRM figures against the real server and its seeded data (`demo` gets CRM_LEADS leads; the runner seeds
 * 10 000 unless CRM_LEADS says otherwise): the leads list's first page and a filter change over HTTP
 * (median of BENCH_RUNS), and in Chromium the board: ms from navigation to the cards on screen, the cards
 * drawn, and a keyboard move until it shows in the next column.
 */
import type { Browser } from 'playwright-core';
import { APP_KEY } from '../src/api/call-common';
import { newPage, PASSWORD, signIn, type RunningServer } from '../tests/e2e/support/harness';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function timed(server: RunningServer, token: string, path: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(new URL(path, server.url), { headers: { 'x-app-key': APP_KEY, accept: 'application/json', authorization: `Bearer ${token}` } });
  await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return performance.now() - t;
}

export async function run({ browser, server }: { browser: Browser; server: RunningServer }): Promise<string[]> {
  const login = await fetch(new URL('/api/auth/login', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-key': APP_KEY, accept: 'application/json' },
    body: JSON.stringify({ login_using: 'username', username: 'demo', password: PASSWORD }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const first: number[] = [];
  const filtered: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    first.push(await timed(server, token, '/api/crm/leads'));
    filtered.push(await timed(server, token, `/api/crm/leads?status=qualified&source=event&q=${i % 2 ? 'ana' : 'son'}`));
  }
  const lines = [`leads list, first page (HTTP, median of ${RUNS}): ${median(first).toFixed(1)} ms`, `leads list, a filter change (HTTP, median of ${RUNS}): ${median(filtered).toFixed(1)} ms`];

  const { context, page } = await newPage(browser, server);
  await signIn(page);
  const start = Date.now();
  await page.goto('/member/crm/leads/board');
  await page.locator('[data-card-id]').first().waitFor({ timeout: 60_000 });
  const mounted = Date.now() - start;
  const cards = await page.locator('[data-card-id]').count();
  lines.push(`board mount: ${mounted} ms to the first card, ${cards} cards drawn`);
  const handle = page.locator('[data-column="new"] [data-handle]').first();
  const id = await page.locator('[data-column="new"] [data-card-id]').first().getAttribute('data-card-id');
  await handle.focus();
  const t = Date.now();
  await page.keyboard.press('Space');
  await page.waitForTimeout(150);
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(250);
  await page.keyboard.press('Space');
  await page.locator(`[data-column="contacted"] [data-card-id="${id}"]`).waitFor({ timeout: 30_000 });
  lines.push(`board keyboard move (pick up, move, drop, shown): ${Date.now() - t} ms (400 ms of it the keyboard's own pauses)`);
  await context.close();
  return lines;
}

/**
 * Home figures, measured in Chromium against the real server: how much JavaScript (gzip -9 of what the browser
 * downloaded) the dashboard route loads on top of what /login already loaded. (Sign in submit → dashboard figures
 * visible is one of the sign-in figures of bench/run.ts.)
 */
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { newPage, toPasswordStep, type RunningServer } from '../tests/e2e/support/harness';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const WALLET_FIGURE = '[data-figure="Wallet balance"] [data-value]';
const walletFigure = (page: Page) => page.locator(WALLET_FIGURE);

/** Scripts (gzip -9 sizes by path) loaded by /login, and those the signed-in dashboard adds. */
async function dashboardScripts(browser: Browser, server: RunningServer) {
  const { context, page } = await newPage(browser, server);
  const login = new Map<string, number>();
  const dashboard = new Map<string, number>();
  let phase: 'login' | 'dashboard' = 'login';
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    const into = phase === 'login' ? login : dashboard;
    pending.push(
      res
        .body()
        .then((body) => {
          into.set(new URL(res.url()).pathname, gzipSync(body, { level: 9 }).length);
        })
        .catch(() => undefined),
    );
  });
  try {
    await page.goto('/login', { waitUntil: 'networkidle' });
    const submit = await toPasswordStep(page);
    await Promise.all(pending);
    phase = 'dashboard';
    await submit.click();
    await walletFigure(page).waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
  } finally {
    await context.close();
  }
  const added = [...dashboard].filter(([f]) => !login.has(f));
  return { login, added };
}

export async function run(ctx: { browser: Browser; server: RunningServer }): Promise<string[]> {
  const { browser, server } = ctx;
  const { login, added } = await dashboardScripts(browser, server);
  const loginTotal = [...login.values()].reduce((a, b) => a + b, 0);
  const addedTotal = added.reduce((a, [, n]) => a + n, 0);
  return [
    '',
    'Home dashboard',
    `  JS loaded by /login (gzip -9): ${kb(loginTotal)} in ${login.size} files`,
    `  JS the dashboard route adds (gzip -9): ${kb(addedTotal)} in ${added.length} files`,
    ...added.sort((a, b) => b[1] - a[1]).map(([f, n]) => `    js ${kb(n).padStart(9)}  ${f}`),
  ];
}

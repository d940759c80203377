/**
 * Performance figures (not tests): what /login costs and how fast sign-in shows the member's dashboard figures,
 * measured in Chromium against the real server with a fresh embedded database; then each member area's own figures,
 * and the server times of the network calls on 10^4, 10^5 and 10^6 members (bench/server-network.ts). Run with
 * `npm run bench` (builds first); the sign-in figures alone:
 * `BENCH_AREAS=none BENCH_SERVER_SIZES=none BENCH_LOAD=none npm run bench`.
 *
 * The sign-in figures:
 * - the gzipped JS /login loads, and how much of it is above the fixed libraries' floor (bench/floor);
 * - /login on the phone profile (bench/support/phone.ts: CPU 4× slower, 150 ms RTT, 1.6 Mbit/s down), cold cache:
 *   LCP, hydrated (the app in control of the form) and the load event, medians;
 * - /login on this machine unthrottled: LCP;
 * - Sign in pressed → the dashboard's wallet balance on screen with its value (not a skeleton), page clock.
 *
 *   BENCH_RUNS=9                     runs per browser figure (default 7)
 *   BENCH_AREAS=network              only these member areas (comma-separated; default all; none: no area)
 *   BENCH_SERVER_SIZES=10000,100000  tree sizes of the server bench (default 10000,100000,1000000; none skips it)
 *   BENCH_LOAD=none                  skips the throughput figures (bench/server-load.ts, also `npm run bench:load`:
 *                                    every member read endpoint under autocannon at 20 and 50 connections on PGlite and
 *                                    PostgreSQL — BENCH_DATABASE_URL, or one the bench starts — next to a bare keyset baseline)
 */
import { readFileSync, readdirSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { launchBrowser, newPage, startServer, PASSWORD, toPasswordStep, type RunningServer } from '../tests/e2e/support/harness';
import type { Browser } from 'playwright-core';
import { addLedgerRows } from './support/ledger-rows';
import { watchAppearance } from './support/appear';
import { emulatePhone, pageMoments, watchReady, type PageMoments } from './support/phone';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
/** BENCH_AREAS=network (comma-separated) runs only those member areas after the /login figures. */
const AREAS = (process.env.BENCH_AREAS?.split(',') ?? ['home', 'wallet', 'network', 'crm']).filter((a) => a !== 'none').filter((a) => existsSync(path.resolve(`bench/${a}.bench.ts`)));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

interface Manifest {
  [key: string]: { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
}

/** Files of chunks reachable only from member-area dynamic entries (src/views/member/**, member machines). */
function memberFiles(): Set<string> {
  const p = path.resolve('dist/.vite/manifest.json');
  if (!existsSync(p)) return new Set();
  const m = JSON.parse(readFileSync(p, 'utf8')) as Manifest;
  const out = new Set<string>();
  for (const [key, v] of Object.entries(m)) {
    const src = v.src ?? key;
    if (/src\/views\/member\//.test(src) || /src\/app\/member/.test(src)) out.add(v.file);
  }
  return out;
}

async function loginPagePayload(browser: Browser, server: RunningServer) {
  const { context, page } = await newPage(browser, server);
  const js: Record<string, number> = {};
  const css: Record<string, number> = {};
  const html: Record<string, number> = {};
  page.on('response', async (res) => {
    const pathname = new URL(res.url()).pathname;
    // Scripts asked for by a modulepreload are not always typed as scripts: their extension says what they are.
    const type = pathname.endsWith('.js') ? 'script' : pathname.endsWith('.css') ? 'stylesheet' : res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet' && type !== 'document') return;
    try {
      const body = await res.body();
      const size = gzipSync(body, { level: 9 }).length;
      (type === 'script' ? js : type === 'stylesheet' ? css : html)[pathname] = size;
      // Stylesheets the server put inside the page count as stylesheets too (and are part of the page's size).
      if (type === 'document')
        for (const m of body.toString('utf8').matchAll(/<style data-href="([^"]+)">([\s\S]*?)<\/style>/g))
          css[`${m[1]} (inside the page)`] = gzipSync(Buffer.from(m[2]), { level: 9 }).length;
    } catch {
      /* body unavailable */
    }
  });
  await page.goto('/login', { waitUntil: 'networkidle' });
  await context.close();
  return { js, css, html };
}

/** Gzipped JS of bench/floor: the fixed libraries with one bare sign-in form and none of the app's code. */
async function librariesAlone(): Promise<number> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  const outDir = mkdtempSync(path.join(tmpdir(), 'upline-floor-'));
  try {
    await build({
      configFile: false,
      root: path.resolve('bench/floor'),
      logLevel: 'silent',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, target: 'es2022' },
    });
    const dir = path.join(outDir, 'assets');
    return readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .reduce((sum, f) => sum + gzipSync(readFileSync(path.join(dir, f)), { level: 9 }).length, 0);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function lcp(browser: Browser, server: RunningServer): Promise<number> {
  const { context, page } = await newPage(browser, server);
  await page.goto('/login', { waitUntil: 'networkidle' });
  const value = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1].startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(-1), 3000);
      }),
  );
  await context.close();
  return value;
}

/** /login on the phone profile, cold cache: LCP, hydrated and the load event (ms since navigation start). */
async function phoneLogin(browser: Browser, server: RunningServer): Promise<PageMoments> {
  const { context, page } = await newPage(browser, server, { width: 390, height: 844 });
  try {
    await watchReady(page);
    await emulatePhone(page);
    await page.goto('/login', { waitUntil: 'load', timeout: 60_000 });
    return await pageMoments(page);
  } finally {
    await context.close();
  }
}

/** The dashboard's wallet balance with its value: the figure cards are drawn only once the summary has arrived. */
const WALLET_FIGURE = '[data-figure="Wallet balance"] [data-value]';

/**
 * Sign in pressed → the dashboard's wallet balance on screen, in ms of the page's own clock; and how much of it came
 * after the sign-in answer had arrived (the rest is the request and the server checking the password). "Pressed" is
 * the click event's own time stamp in the page: the driver's click first waits for the button to hold still over
 * two animation frames, which is the driver's time, not the member's.
 */
async function signInToFigures(
  browser: Browser,
  server: RunningServer,
): Promise<{ total: number; afterToken: number; toRequest: number; answer: number; driverStart: number }> {
  const { context, page } = await newPage(browser, server);
  try {
    await page.goto('/login', { waitUntil: 'networkidle' });
    const submit = await toPasswordStep(page);
    const appeared = await watchAppearance(page, WALLET_FIGURE);
    await page.evaluate(`document.addEventListener('click', (e) => { window.__pressedAt = e.timeStamp; }, { capture: true, once: true })`);
    const t0 = (await page.evaluate(() => performance.now())) as number;
    await submit.click();
    const t1 = await appeared();
    const pressed = (await page.evaluate('window.__pressedAt')) as number;
    const login = (await page.evaluate(
      `(() => { const e = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === '/api/auth/login').pop(); return [e.startTime, e.responseEnd]; })()`,
    )) as [number, number];
    return { total: t1 - pressed, afterToken: t1 - login[1], toRequest: login[0] - pressed, answer: login[1] - login[0], driverStart: pressed - t0 };
  } finally {
    await context.close();
  }
}

const runs = (xs: number[]) => `runs: ${xs.map((x) => x.toFixed(0)).join(' ')}`;

async function main() {
  // The wallet bench wants a member with 100 000 ledger rows: add them to the database before the server starts.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'upline-bench-'));
  const ledger = await addLedgerRows(dataDir, { rows: 100_000, env: { SEED_PASSWORD: PASSWORD, SEED_MEMBERS: '600' } });
  console.log(`(bench database: 600 members; demo has ${ledger.rows.toLocaleString('en-US')} extra ledger rows)`);
  const server = await startServer({ DATA_DIR: dataDir, SEED_MEMBERS: '600', RATE_LIMIT_SCALE: '1000', CRM_LEADS: process.env.CRM_LEADS ?? '10000' });
  const browser = await launchBrowser();
  try {
    const { js, css, html } = await loginPagePayload(browser, server);
    const jsTotal = Object.values(js).reduce((a, b) => a + b, 0);
    const cssTotal = Object.values(css).reduce((a, b) => a + b, 0);
    const member = memberFiles();
    const leaked = Object.keys(js).filter((f) => member.has(f.replace(/^\//, '')));
    const floor = await librariesAlone();
    const phone: PageMoments[] = [];
    for (let i = 0; i < RUNS; i++) phone.push(await phoneLogin(browser, server));
    const lcps: number[] = [];
    for (let i = 0; i < RUNS; i++) lcps.push(await lcp(browser, server));
    const signIns: Awaited<ReturnType<typeof signInToFigures>>[] = [];
    for (let i = 0; i < RUNS; i++) signIns.push(await signInToFigures(browser, server));
    const logins = signIns.map((x) => x.total);
    const afterToken = signIns.map((x) => x.afterToken);
    const toRequest = signIns.map((x) => x.toRequest);
    const answer = signIns.map((x) => x.answer);
    const driverStart = signIns.map((x) => x.driverStart);

    console.log('\n/login payload (gzip -9 of what Chromium downloaded)');
    for (const [f, n] of Object.entries(js)) console.log(`  js   ${kb(n).padStart(9)}  ${f}`);
    for (const [f, n] of Object.entries(css)) console.log(`  css  ${kb(n).padStart(9)}  ${f}`);
    for (const [f, n] of Object.entries(html)) console.log(`  html ${kb(n).padStart(9)}  ${f}  (rendered by the server, with the first screen's answers, translations and stylesheets)`);
    console.log(`  JS total  ${kb(jsTotal)}  (budget 140 KB)  ${jsTotal <= 140 * 1024 ? 'OK' : 'OVER'}`);
    console.log(`  CSS total ${kb(cssTotal)}  (budget 15 KB)  ${cssTotal <= 15 * 1024 ? 'OK' : 'OVER'}`);
    console.log(`  the fixed libraries alone (bench/floor: one bare form, no app code): ${kb(floor)}`);
    console.log(`  JS above the floor: ${kb(jsTotal - floor)}  (${kb(jsTotal)} − ${kb(floor)}; was 33 KB, keep it from growing)`);
    console.log(`  member code in public chunks: ${leaked.length ? leaked.join(', ') : 'none'}`);
    const lcpPhone = phone.map((m) => m.lcp);
    const hydrated = phone.map((m) => m.hydrated);
    const loads = phone.map((m) => m.load);
    console.log(`\n/login on the phone profile (CPU ×4, 150 ms RTT, 1.6 Mbit/s down, cold cache; median of ${RUNS})`);
    console.log(`  LCP       ${median(lcpPhone).toFixed(0).padStart(5)} ms  (target ≤ 600 ms)  ${runs(lcpPhone)}`);
    console.log(`  hydrated  ${median(hydrated).toFixed(0).padStart(5)} ms  (target ≤ 2000 ms; the app in control of the form)  ${runs(hydrated)}`);
    console.log(`  load      ${median(loads).toFixed(0).padStart(5)} ms  (the load event)  ${runs(loads)}`);
    console.log(`\nLCP of /login, unthrottled (median of ${RUNS}): ${median(lcps).toFixed(0)} ms  (target < 200 ms)  ${runs(lcps)}`);
    console.log(`Sign in pressed → dashboard figures visible (median of ${RUNS}): ${median(logins).toFixed(0)} ms  (target ≤ 250 ms)  ${runs(logins)}`);
    console.log(`  of which the press until the sign-in request left: ${median(toRequest).toFixed(0)} ms  ${runs(toRequest)}`);
    console.log(`  of which the sign-in request until its answer: ${median(answer).toFixed(0)} ms  ${runs(answer)}`);
    console.log(`  of which after the sign-in answer arrived: ${median(afterToken).toFixed(0)} ms  ${runs(afterToken)}`);
    console.log(`  (not counted: the driver's click waiting for the button to hold still: ${median(driverStart).toFixed(0)} ms)`);

    // Each member area measures itself (bench/<area>.bench.ts).
    for (const area of AREAS) {
      const mod = (await import(`./${area}.bench.ts`)) as { run(ctx: { browser: Browser; server: RunningServer }): Promise<string[]> };
      console.log(`\n${area}`);
      try {
        for (const line of await mod.run({ browser, server })) console.log(`  ${line}`);
      } catch (e) {
        console.log(`  failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // The server times run once the browser and its server are gone (the machine to themselves).
  const sizes = process.env.BENCH_SERVER_SIZES ?? '10000,100000,1000000';
  if (sizes !== 'none') {
    console.log('\nnetwork calls on the server (in-process, fresh embedded database per size)');
    const run = spawnSync(process.execPath, [...process.execArgv, path.resolve('bench/server-network.ts'), '--sizes', sizes], { stdio: 'inherit' });
    if (run.status !== 0) console.log(`  failed (exit ${run.status})`);
  }
  // Requests per second of every member read endpoint at 20 and 50 connections, PGlite and PostgreSQL, against the
  // bare stack's keyset page of the same run (BENCH_LOAD=none skips it).
  if (process.env.BENCH_LOAD !== 'none') {
    console.log('\nthroughput of the real server (bench/server-load.ts)');
    const run = spawnSync(process.execPath, [...process.execArgv, path.resolve('bench/server-load.ts')], { stdio: 'inherit' });
    if (run.status !== 0) console.log(`  failed (exit ${run.status})`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

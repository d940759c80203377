/**
 * Network figures in Chromium against the real server with 100 000 seeded members (no answer is made up
 * here: every tree the page draws is what the server answered, at most 500 members a call).
 *
 *  - genealogy first paint: a fresh page opens /member/network/genealogy; from the answer's responseEnd
 *    (resource timing) to the end of the first 'genealogy:paint' mark of the tree canvas.
 *  - genealogy expansion: the member walks the tree with the keyboard (arrow keys; key events sent to the tree
 *    in the page, so no driver round trip is timed) and presses Enter on every member that has members below it not loaded yet, row after row four levels
 *    apart, until 10 000 members are loaded. Per expansion: Enter → the first paint with the new members
 *    (what the member waits) and the answer's responseEnd → that paint (what the page spends).
 *  - genealogy pan: with those members loaded, a scripted drag at zoom 1 and then with the whole tree fitted
 *    on screen (every card in view: the worst frame); paint times and frame intervals.
 *  - tabular: a fresh page opens /member/network/tabular; mount after the answer; then rows are expanded
 *    through their Expand buttons (each asks the server for that row's children) until BENCH_TABULAR_ROWS
 *    rows are loaded; fold and unfold of the member's row (every loaded row below it); scroll frames.
 *
 * The database: seeded once per run in a temporary folder (about a minute and a half for 100 000 members);
 * BENCH_NETWORK_DATA=<folder> seeds that folder the first time and reuses it after (copied, never changed).
 *
 *   npm run -s build && npx tsx bench/network.bench.ts          # these figures alone
 *   BENCH_AREAS=network npm run bench                           # with the /login figures
 *
 *   BENCH_RUNS=5                 first-paint runs (default 5)
 *   BENCH_NETWORK_MEMBERS=100000 members seeded (default 100 000)
 *   BENCH_GENEALOGY_NODES=10000  members to load in the genealogy (default 10 000)
 *   BENCH_TABULAR_ROWS=2000      rows to load in the tabular view (default 2 000)
 *   BENCH_WALK_SECONDS=300       time budget of each walk (expansions stop there; the figures say how far it got)
 */
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, PASSWORD, signIn as signInAs, startServer, type RunningServer } from '../tests/e2e/support/harness';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { seedIfEmpty } from '../server/seed';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MEMBERS = Number(process.env.BENCH_NETWORK_MEMBERS ?? 100_000);
const TREE_NODES = Number(process.env.BENCH_GENEALOGY_NODES ?? 10_000);
const TABLE_ROWS = Number(process.env.BENCH_TABULAR_ROWS ?? 2_000);
/** Time budget of each walk (expansions stop there, with what was loaded by then). */
const WALK_MS = Number(process.env.BENCH_WALK_SECONDS ?? 300) * 1000;

const sorted = (xs: number[]) => [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
const pct = (xs: number[], p: number) => {
  const s = sorted(xs);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] : NaN;
};
const median = (xs: number[]) => pct(xs, 0.5);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const spread = (xs: number[]) => `median ${ms(median(xs))}, p95 ${ms(pct(xs, 0.95))} (n=${sorted(xs).length})`;

/** A database folder seeded with MEMBERS members (as the server seeds on first start), then analysed. */
async function seededFolder(): Promise<{ dir: string; cleanup: () => void }> {
  const keep = process.env.BENCH_NETWORK_DATA;
  const source = keep ?? mkdtempSync(path.join(tmpdir(), 'upline-network-seed-'));
  if (!keep || !existsSync(path.join(keep, 'PG_VERSION'))) {
    const t = performance.now();
    const config = loadConfig({ ...process.env, DATABASE_URL: '', SEED_PASSWORD: PASSWORD, SEED_MEMBERS: String(MEMBERS), DATA_DIR: source });
    const database = await openDatabase({ dataDir: source, databaseUrl: null });
    try {
      await migrate(database);
      await seedIfEmpty(database, config);
      await database.execText('ANALYZE');
    } finally {
      await database.close();
    }
    console.log(`  (seeded ${MEMBERS.toLocaleString('en-US')} members in ${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
  // The server writes to its folder (sessions, throttles): it gets a copy, so every run starts the same.
  const dir = mkdtempSync(path.join(tmpdir(), 'upline-network-run-'));
  cpSync(source, dir, { recursive: true });
  return {
    dir,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      if (!keep) rmSync(source, { recursive: true, force: true });
    },
  };
}

async function signedIn(browser: Browser, server: RunningServer): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await newPage(browser, server, { width: 1280, height: 900 });
  // Room for every expansion's resource timing (the default keeps 250).
  await page.addInitScript('performance.setResourceTimingBufferSize(100000);');
  // The bench runs under tsx, whose transform names functions with a helper the page does not have.
  await page.addInitScript('window.__name = (f) => f;');
  await signInAs(page);
  return { page, close: () => context.close() };
}

/** Page-side code is passed as text (the TypeScript loader would add helper calls the page lacks). */
const evaluate = <T>(page: Page, code: string): Promise<T> => page.evaluate(code) as Promise<T>;

/** From the last answer whose address contains `part` (responseEnd) to the end of the first paint after it. */
const firstPaintAfter = (page: Page, part: string) =>
  evaluate<number>(
    page,
    `(() => {
      const res = performance.getEntriesByType('resource').filter((e) => e.name.includes(${JSON.stringify(part)})).at(-1);
      if (!res) return NaN;
      const paint = performance.getEntriesByName('genealogy:paint').find((m) => m.startTime >= res.responseEnd);
      return paint ? paint.startTime + paint.detail.ms - res.responseEnd : NaN;
    })()`,
  );

async function genealogyFirstPaint(browser: Browser, server: RunningServer) {
  const { page, close } = await signedIn(browser, server);
  await page.goto('/member/network/genealogy');
  await page.getByRole('application', { name: 'Genealogy tree' }).waitFor();
  await page.waitForFunction(() => performance.getEntriesByName('genealogy:paint').length > 0);
  const first = await firstPaintAfter(page, '/api/network/genealogy?');
  await close();
  return first;
}

/**
 * Loads TREE_NODES members by expanding real nodes with the keyboard; answers the timings of each expansion
 * and the number of members loaded. The walk runs in the page (key events sent to the tree, the handler a
 * keyboard reaches), so it waits for the page only, never for a round trip to the driver.
 */
async function genealogyWalk(page: Page) {
  const tree = page.getByRole('application', { name: 'Genealogy tree' });
  // Members loaded: every member of every answer, by id.
  const loaded = new Set<number>();
  page.on('response', async (res) => {
    if (!/\/api\/network\/genealogy(\/\d+)?\?/.test(res.url()) || res.status() !== 200) return;
    try {
      for (const m of ((await res.json()) as { data: { affiliates: Array<{ id: number }> } }).data.affiliates) loaded.add(m.id);
    } catch {
      /* not JSON */
    }
  });
  await page.exposeFunction('__loaded', () => loaded.size);
  await page.goto('/member/network/genealogy');
  await tree.waitFor();
  await page.waitForFunction(() => performance.getEntriesByName('genealogy:paint').length > 0);
  await tree.focus();
  const started = Date.now();
  const walk = await evaluate<{ times: number[][]; rows: number; failed: number }>(
    page,
    `(async () => {
      const want = ${TREE_NODES};
      const until = performance.now() + ${WALK_MS};
      const el = document.querySelector('[data-tree-canvas]');
      const desc = () => document.querySelector('[data-focus-description]')?.textContent ?? '';
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const send = (key) => el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
      const press = async (key) => {
        const before = desc();
        send(key);
        await new Promise((r) => setTimeout(r, 0));
        if (desc() === before) await frame();
        return desc() !== before;
      };
      const paints = () => performance.getEntriesByName('genealogy:paint');
      const times = [];
      let failed = 0;
      let count = await window.__loaded();
      const expand = async () => {
        const before = paints().at(-1)?.detail.nodes ?? 0;
        const t0 = performance.now();
        send('Enter');
        for (;;) {
          await new Promise((r) => requestAnimationFrame(r));
          const p = paints().find((m) => m.startTime > t0 && m.detail.nodes > before);
          if (p) {
            const end = p.startTime + p.detail.ms;
            const res = performance.getEntriesByType('resource').filter((e) => /\\/api\\/network\\/genealogy\\/\\d+/.test(e.name)).at(-1);
            times.push([end - t0, end - res.responseEnd, res.responseStart - res.requestStart]);
            break;
          }
          if (performance.now() - t0 > 30000) { failed++; break; }
        }
        count = await window.__loaded();
      };
      const done = () => count >= want || performance.now() > until;
      // Rows four levels apart (a genealogy answer carries four levels): sweep a row right, then left,
      // pressing Enter on every member with members below it not loaded; then go four levels down from an
      // item of the row that has them (from the left end, moving right until one does), and so on.
      let rows = 0;
      for (let i = 0; i < 4; i++) await press('ArrowDown');
      while (!done()) {
        rows++;
        for (const dir of ['ArrowRight', 'ArrowLeft']) {
          for (;;) {
            if (desc().includes('press Enter to expand')) await expand();
            if (done() || !(await press(dir))) break;
          }
          if (done()) break;
        }
        if (done()) break;
        let down = false;
        for (;;) {
          let moves = 0;
          while (moves < 4 && (await press('ArrowDown'))) moves++;
          if (moves === 4) { down = true; break; }
          for (let i = 0; i < moves; i++) await press('ArrowUp');
          if (!(await press('ArrowRight'))) break;
        }
        if (!down) break;
      }
      return { times, rows, failed };
    })()`,
  );
  return {
    members: loaded.size,
    rows: walk.rows,
    failed: walk.failed,
    keyToPaint: walk.times.map((t) => t[0]),
    answerToPaint: walk.times.map((t) => t[1]),
    server: walk.times.map((t) => t[2]),
    seconds: (Date.now() - started) / 1000,
  };
}

/** Frame intervals and paint times while dragging the tree in a circle. */
async function pan(page: Page) {
  const tree = page.getByRole('application', { name: 'Genealogy tree' });
  const box = (await tree.boundingBox())!;
  await evaluate(
    page,
    `(() => {
      performance.clearMarks('genealogy:paint');
      const out = [];
      let last = performance.now();
      window.__frames = { on: true, out };
      const tick = (t) => { out.push(t - last); last = t; if (window.__frames.on) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`,
  );
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 0; i < 120; i++) await page.mouse.move(cx + Math.sin(i / 10) * 60, cy + Math.cos(i / 10) * 40);
  await page.mouse.up();
  const intervals = await evaluate<number[]>(page, `(() => { window.__frames.on = false; return window.__frames.out.slice(2); })()`);
  const paints = await evaluate<Array<{ ms: number; drawn: number; nodes: number }>>(page, `performance.getEntriesByName('genealogy:paint').map((m) => m.detail)`);
  return { paintMs: paints.map((p) => p.ms), drawn: paints.map((p) => p.drawn), items: paints.at(-1)?.nodes ?? 0, intervals };
}

async function tabularRun(browser: Browser, server: RunningServer) {
  const { page, close } = await signedIn(browser, server);
  await page.addInitScript(`(() => {
    new MutationObserver(() => {
      if (window.__rows === undefined && document.querySelector('[data-row]')) window.__rows = performance.now();
    }).observe(document, { childList: true, subtree: true });
  })()`);
  await page.goto('/member/network/tabular');
  await page.locator('[data-row]').first().waitFor();
  // The first row is the member's own.
  const rootName = (await page.locator('[data-row]').first().getAttribute('data-row'))!;
  const mount = await evaluate<number>(
    page,
    `(() => {
      const res = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/network/table_view')).at(-1);
      return window.__rows - res.responseEnd;
    })()`,
  );
  // Expansions through the rows' Expand buttons, in the page (one round trip for the whole walk): the first
  // Expand button in the window, scrolling on when the window has none; timed from the click to the rows
  // count growing.
  const walk = await evaluate<{ rows: number; times: number[] }>(
    page,
    `(async () => {
      const want = ${TABLE_ROWS};
      const until = performance.now() + ${WALK_MS};
      const scroller = document.querySelector('[data-tabular-scroll]');
      const count = () => Number((/(\\d+)/.exec(scroller.parentElement.querySelector('[aria-live]').textContent) || [0, 0])[1]);
      const times = [];
      while (count() < want && performance.now() < until) {
        const btn = [...scroller.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') || '').startsWith('Expand '));
        if (!btn) {
          const top = scroller.scrollTop;
          scroller.scrollTop = top + scroller.clientHeight;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          if (scroller.scrollTop === top) break;
          continue;
        }
        const before = count();
        const t0 = performance.now();
        const grew = await new Promise((resolve) => {
          const timer = setTimeout(() => { obs.disconnect(); resolve(false); }, 30000);
          const obs = new MutationObserver(() => {
            if (count() > before) { clearTimeout(timer); obs.disconnect(); resolve(true); }
          });
          obs.observe(scroller.parentElement, { childList: true, subtree: true, characterData: true });
          btn.click();
        });
        if (!grew) {
          // A row with no members below after all, or a failed call: leave it, try the next.
          if (btn.isConnected && (btn.getAttribute('aria-label') || '').startsWith('Expand ')) btn.setAttribute('aria-label', 'skipped');
          continue;
        }
        times.push(performance.now() - t0);
      }
      return { rows: count(), times };
    })()`,
  );
  await evaluate(page, `document.querySelector('[data-tabular-scroll]').scrollTop = 0`);
  await page.locator(`[data-row="${rootName}"]`).waitFor();
  const toggle = (label: string, expectRows: (n: number) => boolean) =>
    evaluate<number>(
      page,
      `new Promise((resolve) => {
        const scroller = document.querySelector('[data-tabular-scroll]');
        const count = () => Number((/(\\d+)/.exec(scroller.parentElement.querySelector('[aria-live]').textContent) || [0, 0])[1]);
        const test = ${expectRows.toString()};
        const btn = [...document.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === ${JSON.stringify(label)});
        const t0 = performance.now();
        const obs = new MutationObserver(() => { if (test(count())) { obs.disconnect(); resolve(performance.now() - t0); } });
        obs.observe(scroller.parentElement, { childList: true, subtree: true, characterData: true });
        btn.click();
      })`,
    );
  const fold = await toggle(`Fold ${rootName}`, (n) => n === 1);
  const unfold = await toggle(`Expand ${rootName}`, (n) => n > 1);
  const intervals = await evaluate<number[]>(
    page,
    `new Promise((resolve) => {
      const el = document.querySelector('[data-tabular-scroll]');
      el.scrollTop = 0;
      const out = [];
      let last = performance.now();
      let n = 0;
      const tick = (t) => {
        out.push(t - last);
        last = t;
        el.scrollTop += 400;
        if (++n < 120) requestAnimationFrame(tick);
        else resolve(out.slice(2));
      };
      requestAnimationFrame(tick);
    })`,
  );
  await close();
  return { mount, rows: walk.rows, expand: walk.times, fold, unfold, intervals };
}

export async function run(ctx: { browser: Browser }): Promise<string[]> {
  const { browser } = ctx;
  const folder = await seededFolder();
  const server = await startServer({ DATA_DIR: folder.dir, RATE_LIMIT_SCALE: '1000', LOG_LEVEL: 'warn' });
  const lines: string[] = [`genealogy on ${MEMBERS.toLocaleString('en-US')} seeded members, real answers (≤ 500 members each)`];
  const section = async (name: string, measure: () => Promise<string[]>) => {
    try {
      lines.push(...(await measure()));
    } catch (e) {
      lines.push(`${name} failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    // Printed as it goes too (a run takes minutes).
    console.error(lines.slice(-1)[0]);
  };
  try {
    await section('first paint', async () => {
      const firsts: number[] = [];
      for (let i = 0; i < RUNS; i++) firsts.push(await genealogyFirstPaint(browser, server));
      return [`first paint after its answer: ${spread(firsts)} (target 150 ms)`];
    });
    await section('expansions and pan', async () => {
      const { page, close } = await signedIn(browser, server);
      try {
        const walk = await genealogyWalk(page);
        const out = [
          `expansions: ${walk.keyToPaint.length} (${walk.failed} unanswered) until ${walk.members.toLocaleString('en-US')} members were loaded (${walk.seconds.toFixed(0)} s walk over ${walk.rows} rows of the tree)`,
          `  Enter → new members painted: ${spread(walk.keyToPaint)}`,
          `  answer → new members painted (the page's part, target 100 ms): ${spread(walk.answerToPaint)}; the last 50: ${spread(walk.answerToPaint.slice(-50))}`,
          `  server (request → first byte): ${spread(walk.server)}`,
        ];
        console.error(out.join('\n'));
        // Pan at the zoom the walk left (1: a few dozen cards in view), then with the whole tree fitted on
        // screen (every card in view: the worst frame).
        const normal = await pan(page);
        const tree = page.getByRole('application', { name: 'Genealogy tree' });
        await tree.focus();
        await tree.press('0');
        const fitted = await pan(page);
        out.push(
          `pan, zoom 1 (same tree): paint ${spread(normal.paintMs)}; frame interval ${spread(normal.intervals)}`,
          `pan, whole tree fitted (${fitted.items} items, all in view): paint ${spread(fitted.paintMs)}; frame interval ${spread(fitted.intervals)} (target 16 ms); cards drawn median ${median(fitted.drawn)}`,
        );
        return out;
      } finally {
        await close();
      }
    });
    await section('tabular', async () => {
      const tab = await tabularRun(browser, server);
      return [
        `tabular: mount after its answer ${ms(tab.mount)} (target 100 ms)`,
        `  expansions: ${tab.expand.length} until ${tab.rows} rows were loaded; click → rows shown ${spread(tab.expand)}`,
        `  fold ${ms(tab.fold)}, unfold ${ms(tab.unfold)} of the member's row with ${tab.rows} rows (target 50 ms)`,
        `  scroll frame interval ${spread(tab.intervals)}`,
      ];
    });
    return lines;
  } finally {
    await server.stop();
    folder.cleanup();
  }
}

// Run alone: `npx tsx bench/network.bench.ts` (after `npm run build`).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const browser = await launchBrowser();
  try {
    console.log('network');
    for (const line of await run({ browser })) console.log(`  ${line}`);
  } finally {
    await browser.close();
  }
}

/**
 * Server time of the network calls on large trees (not a test): for each size, seed a fresh embedded
 * database in a temporary folder with `size` members below `demo`, then time in-process requests
 * (app.inject) and print the median and 95th percentile per call.
 *
 *   tsx bench/server-network.ts                       # 10 000, 100 000 and 1 000 000 members
 *   tsx bench/server-network.ts --sizes 10000,100000  # choose the sizes
 *   tsx bench/server-network.ts --runs 50 --keep      # more samples; keep the data folders (printed)
 *
 * Seeding a million members takes a few minutes; progress is printed as it goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../server/config';
import { openDatabase, type Database } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { seed } from '../server/seed';
import { buildApp } from '../server/app';
import { createSession } from '../server/lib/auth';
import { encodeCursor } from '../server/lib/genealogy';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const SIZES = (arg('sizes') ?? '10000,100000,1000000')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);
const RUNS = Number(arg('runs') ?? 30);
const KEEP = args.includes('--keep');
const APP_KEY = 'bench-app-key';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const ms = (n: number) => `${n.toFixed(1)} ms`;
const log = (...a: unknown[]) => console.log(...a);

/**
 * Prints the time spent every 15 s from a worker thread: the embedded database runs on the main thread
 * and keeps its event loop busy while seeding, so a timer there would not fire.
 */
function ticker(label: string): () => void {
  const code = `const { writeSync } = require('node:fs'); const t0 = Date.now();
    setInterval(() => writeSync(1, '  … ' + ${JSON.stringify(label)} + ' (' + Math.round((Date.now() - t0) / 1000) + ' s)\\n'), 15000);`;
  const worker = new Worker(code, { eval: true });
  worker.unref();
  return () => void worker.terminate();
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await fn();
  log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return out;
}

async function benchSize(size: number) {
  log(`\n== ${size.toLocaleString('en-US')} members`);
  const dir = mkdtempSync(path.join(tmpdir(), 'upline-network-bench-'));
  const config = loadConfig(
    { APP_KEY, SEED_PASSWORD: 'Bench-pass-2026', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv,
    { dataDir: dir, databaseUrl: null, staticDir: null, seedMembers: size },
  );
  const database: Database = await openDatabase({ dataDir: dir, databaseUrl: null });
  try {
    await timed('migrate', () => migrate(database));
    const stop = ticker('seeding');
    try {
      await timed(`seed ${size.toLocaleString('en-US')} members`, () => seed(database, config, { members: size }));
    } finally {
      stop();
    }
    await timed('analyze', () => database.execText('ANALYZE'));

    const app = await buildApp(database, config);
    await app.ready();
    const [demo] = await database.rows<{ id: number; path: string; depth: number }>(
      sql`SELECT id, path, depth FROM members WHERE username = 'demo'`,
    );
    const { token } = await createSession(database.db, Number(demo.id));
    const headers = { 'x-app-key': APP_KEY, authorization: `Bearer ${token}`, accept: 'application/json' };
    const call = async (url: string, as: Record<string, string> = headers) => {
      const res = await app.inject({ method: 'GET', url, headers: as });
      if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res.json() as { data: Record<string, unknown> };
    };

    // A node deep in the tree: three quarters of the way down demo's downline.
    const height = Number(((await call('/api/network/max_levels')).data as { max_levels: number }).max_levels);
    const deepLevel = Math.max(1, Math.floor(height * 0.75));
    const [deep] = await database.rows<{ id: number }>(
      sql`SELECT id FROM members WHERE depth = ${Number(demo.depth) + deepLevel}
          AND path LIKE ${demo.path + '%'} ORDER BY id DESC LIMIT 1`,
    );
    // A leader with an eighth of the tree: its report is read from its path range and sorted.
    const [leader] = await database.rows<{ id: number; downline_count: number }>(
      sql`SELECT id, downline_count FROM members WHERE depth = ${Number(demo.depth) + 3} AND path LIKE ${demo.path + '%'}
          ORDER BY downline_count DESC LIMIT 1`,
    );
    const leaderHeaders = { ...headers, authorization: `Bearer ${(await createSession(database.db, Number(leader.id))).token}` };
    // A deep page of the report, asked by number (rows skipped) and through next_page_url (continues after the
    // last row of the page before, here taken straight from the database).
    const deepPage = Math.max(2, Math.floor(size / 20 / 10));
    const [before] = await database.rows<{ at: string; id: number }>(sql`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id FROM members
      WHERE path LIKE ${demo.path + '%'} AND depth > ${Number(demo.depth)}
      ORDER BY created_at DESC, id DESC OFFSET ${(deepPage - 1) * 20 - 1} LIMIT 1`);
    const after = encodeCursor({ createdAt: before.at, id: Number(before.id) });
    const report1 = await call('/api/network/downline_report/placement?page=1');
    const cases: [string, string, Record<string, string>?][] = [
      ['genealogy root (nested)', '/api/network/genealogy?is_nested=1'],
      [`genealogy expand (a node ${deepLevel} levels down)`, `/api/network/genealogy/${deep.id}?is_nested=1`],
      ['table view root', '/api/network/table_view'],
      [`table view, level ${height - 1} (page 1)`, `/api/network/table_view_single?level=${height - 1}`],
      ['max levels', '/api/network/max_levels'],
      ['downline report page 1', '/api/network/downline_report/placement?page=1'],
      ['downline report page 2 (next_page_url)', String((report1.data as { next_page_url: string }).next_page_url)],
      [`downline report page ${deepPage} (next_page_url)`, `/api/network/downline_report/placement?page=${deepPage}&sort=desc&after=${after}`],
      [`downline report page ${deepPage} (by number)`, `/api/network/downline_report/placement?page=${deepPage}`],
      [`downline report level ${height - 1}`, `/api/network/downline_report/placement?level=${height - 1}`],
      ['downline report level 3, asc', '/api/network/downline_report/placement?level=3&sort=asc'],
      ['sponsor report page 1', '/api/network/downline_report/sponsor?page=1'],
      [`report of a leader (${Number(leader.downline_count).toLocaleString('en-US')} below) page 1`, '/api/network/downline_report/placement', leaderHeaders],
    ];
    log(`  demo's downline: ${height} levels; ${RUNS} runs per call (after 2 warm-up runs)`);
    log(`  ${'call'.padEnd(58)} ${'median'.padStart(10)} ${'p95'.padStart(10)}`);
    for (const [label, url, as] of cases) {
      for (let i = 0; i < 2; i++) await call(url, as);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await call(url, as);
        times.push(performance.now() - t);
      }
      log(`  ${label.padEnd(58)} ${ms(quantile(times, 0.5)).padStart(10)} ${ms(quantile(times, 0.95)).padStart(10)}`);
    }
    await app.close();
  } finally {
    await database.close();
    if (KEEP) log(`  data kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

for (const size of SIZES) await benchSize(size);

/**
 * Throughput of the real server (not a test): requests per second and latency percentiles of two signed-in
 * calls, GET /api/home/dashboard and GET /api/wallet/transactions, with 20 connections kept busy, against
 * `npm start`'s own entry (server/main.ts, seeded database) — one process on the embedded PGlite, and one
 * process and WORKERS=2 on PostgreSQL when BENCH_DATABASE_URL names a server whose role may create
 * databases (a database of its own is created and dropped per run).
 *
 *   tsx bench/server-load.ts                      PGlite only
 *   BENCH_DATABASE_URL=postgres://upline:upline@127.0.0.1:5432/postgres tsx bench/server-load.ts
 *   BENCH_LOAD_SECONDS=10 BENCH_LOAD_CONNECTIONS=20 (defaults)
 *
 * The load comes from this process (undici, one keep-alive pool of N connections, each connection sending
 * its next request when the previous answer arrived), so the figures include the client's own cost.
 */
import path from 'node:path';
import { Pool } from 'undici';
import { startServer, PASSWORD, type RunningServer } from '../tests/e2e/support/harness';
import { createScratchDatabase } from '../tests/support/server';

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 20);
const APP_KEY = 'bench-app-key';
const CALLS = ['/api/home/dashboard', '/api/wallet/transactions'];

interface Result {
  requests: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** `connections` loops sending GET `url` back to back for `seconds`. */
export async function load(origin: string, url: string, headers: Record<string, string>, seconds = SECONDS, connections = CONNECTIONS): Promise<Result> {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const times: number[] = [];
  let errors = 0;
  const one = async () => {
    const t0 = performance.now();
    const res = await pool.request({ method: 'GET', path: url, headers });
    await res.body.text();
    if (res.statusCode !== 200) errors++;
    times.push(performance.now() - t0);
  };
  // Warm-up: every connection opened, every cache filled.
  await Promise.all(Array.from({ length: connections * 2 }, one));
  times.length = 0;
  errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) await one();
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  await pool.close();
  const sorted = [...times].sort((a, b) => a - b);
  return { requests: times.length, errors, perSecond: times.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function signIn(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-app-key': APP_KEY, 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ login_using: 'username', username: 'demo', password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

async function measure(label: string, env: Record<string, string>): Promise<string[]> {
  const server = await startServer({ APP_KEY, SEED_MEMBERS: '3000', LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '1', ...env });
  try {
    // Every worker is listening once the first process prints its banner.
    for (let i = 0; i < 600 && !server.logs.some((l) => l.includes('Upline is running')); i++) await new Promise((r) => setTimeout(r, 100));
    const token = await signIn(server);
    const headers = { accept: 'application/json', 'x-app-key': APP_KEY, 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${token}` };
    const lines: string[] = [];
    for (const call of CALLS) {
      const r = await load(server.url, call, headers);
      lines.push(
        `${label.padEnd(30)} ${call.padEnd(26)} ${r.perSecond.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99
          .toFixed(1)
          .padStart(6)} ms   (${r.requests} requests${r.errors ? `, ${r.errors} not 200` : ''})`,
      );
    }
    return lines;
  } finally {
    await server.stop();
  }
}

async function main() {
  console.log(`${CONNECTIONS} connections, ${SECONDS} s per call, seeded database (3000 members), signed in as demo`);
  const print = (lines: string[]) => lines.forEach((l) => console.log(`  ${l}`));
  print(await measure('PGlite, 1 process', {}));
  const admin = process.env.BENCH_DATABASE_URL;
  if (!admin) {
    console.log('  PostgreSQL: set BENCH_DATABASE_URL to measure it (one process and WORKERS=2)');
    return;
  }
  for (const workers of ['1', '2']) {
    const db = await createScratchDatabase(admin);
    try {
      print(await measure(`PostgreSQL, ${workers === '1' ? '1 process' : `WORKERS=${workers}`}`, { DATABASE_URL: db.url, WORKERS: workers }));
    } finally {
      await db.drop();
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve('bench/server-load.ts')) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

/**
 * Throughput of the real server (not a test): autocannon against `npm start`'s own entry (server/main.ts,
 * one process, seeded database) for every member read endpoint and the heaviest call of each area, at 20
 * and 50 connections, on the embedded PGlite and on PostgreSQL in the same run, next to a bare Fastify + pg
 * keyset page (bench/support/keyset-baseline.ts) on the same PostgreSQL database as the ceiling of the stack
 * on this machine. Each figure prints req/s, p50, p99, errors and its ratio to that baseline.
 *
 *   npm run bench:load
 *   BENCH_DATABASE_URL=postgres://user:pw@host:5432/postgres   a server whose role may create databases (a
 *                                                             database of its own is created and dropped);
 *                                                             else DATABASE_URL; else a PostgreSQL of its own is
 *                                                             started from /usr/lib/postgresql/<v>/bin when present
 *   BENCH_LOAD_SECONDS=5  BENCH_LOAD_CONNECTIONS=20,50  BENCH_LOAD_MEMBERS=3000  BENCH_LOAD_DATABASES=pglite,postgres
 *   BENCH_LOAD_CALLS=dashboard,transactions (only these calls)
 *   BENCH_LOAD_WORKERS=2  server processes on PostgreSQL (the server's WORKERS; PGlite always runs one)
 *
 * Next to each figure: the CPU time the server's processes (with PGlite: the database's thread too) and the
 * PostgreSQL backends serving them spent per answered request, read from /proc while the figure ran.
 *
 * The machine is shared with the load generator (and whatever else runs): compare figures with the baseline
 * of the same run rather than across runs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { startServer, PASSWORD, type RunningServer } from '../tests/e2e/support/harness';
import { createScratchDatabase } from '../tests/support/server';
import { freePort, startPostgres } from './support/postgres';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { seedIfEmpty } from '../server/seed';

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
// autocannon ships no types: the part used here is declared.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<CannonResult>;

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 5);
const CONNECTIONS = (process.env.BENCH_LOAD_CONNECTIONS ?? '20,50').split(',').map(Number);
const MEMBERS = process.env.BENCH_LOAD_MEMBERS ?? '3000';
const DATABASES = (process.env.BENCH_LOAD_DATABASES ?? 'pglite,postgres').split(',');
/** BENCH_LOAD_CALLS=dashboard,transactions: only the calls whose path contains one of these. */
const ONLY = process.env.BENCH_LOAD_CALLS?.split(',');
const WORKERS = Number(process.env.BENCH_LOAD_WORKERS ?? 1);
const APP_KEY = 'bench-app-key';

/** Every member read endpoint of the throughput table, then the heaviest read of each other area. */
export const CALLS = [
  '/api/home/dashboard',
  '/api/wallet/transactions',
  '/api/network/genealogy?is_nested=1',
  '/api/network/downline_report?page=1',
  '/api/auth/login_fields',
  '/api/wallet/statement',
  '/api/payout/statement',
  '/api/referral/summary',
  '/api/orders/recent_orders',
  '/api/home/notifications',
  // The heaviest first-load read of each area added since: its list or summary as the page asks for it.
  '/api/crm/leads',
  '/api/crm/dashboard?tz=America/Chicago',
  '/api/mail/inbox',
  '/api/support/tickets',
  '/api/stories/articles',
  '/api/events',
  '/api/shop/products',
  '/api/packages',
  '/api/otc/requests',
  '/api/user/account',
  '/api/user/profile',
];

interface Figure {
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU milliseconds per request of the server's processes, and of the database backends serving them. */
  serverCpu: number | null;
  databaseCpu: number | null;
  /** Server processes (cluster workers) that spent at least a tenth of the servers' CPU time of the figure: those that served. */
  serving: number;
}

/** Where CPU time is read from: the processes of the server, and those of its database backends. */
interface CpuSources {
  server: () => number[];
  database: () => Promise<number[]>;
}

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) of each process, in ms (processes that are gone or not on this machine are left out). */
function cpuMs(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Is `pid` a process of the server (a cluster worker), not a helper it started (the TypeScript loader's compiler)? */
function isServerProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server/main.ts');
  } catch {
    return false;
  }
}

/**
 * A process and all its descendants: the server the entry starts (server/main.ts runs it in a process of its
 * own, with its heap settings), its cluster workers, and the TypeScript loader's compilers.
 */
function processTree(pid: number): number[] {
  const pids = [pid];
  for (const task of existsSync(`/proc/${pid}/task`) ? readdirSync(`/proc/${pid}/task`) : []) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number)) pids.push(...processTree(child));
    } catch {
      /* gone */
    }
  }
  return pids;
}

/** The backends of a PostgreSQL database (their CPU is read from /proc when the server runs on this machine). */
function databaseBackends(databaseUrl: string | null): () => Promise<number[]> {
  if (!databaseUrl) return async () => [];
  return async () => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      return rows.map((r) => r.pid);
    } finally {
      await client.end();
    }
  };
}

/** CPU ms per request spent by `pids` between two readings (only processes seen in both). */
function perRequest(before: Map<number, number>, after: Map<number, number>, requests: number): number | null {
  let ms = 0;
  let seen = 0;
  for (const [pid, t] of after) {
    const t0 = before.get(pid);
    if (t0 === undefined) continue;
    ms += t - t0;
    seen++;
  }
  return seen && requests ? ms / requests : null;
}

/** Cluster workers (not the primary, not helpers) whose CPU time grew by at least a tenth of all of theirs. */
function servingProcesses(before: Map<number, number>, after: Map<number, number>): number {
  const spent = [...after]
    .filter(([pid]) => before.has(pid) && isServerProcess(pid) && process.pid !== pid)
    .map(([pid, t]) => ({ pid, ms: t - before.get(pid)! }));
  const workers = spent.filter((s) => spent.length > 1 && !isPrimary(s.pid, spent));
  const total = workers.reduce((n, s) => n + s.ms, 0);
  return total > 0 ? workers.filter((s) => s.ms >= total / 10).length : 1;
}
/** The primary of a cluster is the parent of the others. */
function isPrimary(pid: number, all: Array<{ pid: number }>): boolean {
  return all.some((s) => s.pid !== pid && parentOf(s.pid) === pid);
}
function parentOf(pid: number): number | null {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    return null;
  }
}

async function hit(url: string, connections: number, headers: Record<string, string> = {}, cpu?: CpuSources): Promise<Figure> {
  // Warm-up: connections opened, caches filled, the JIT at work.
  await autocannon({ url, connections, duration: 1, headers });
  const backends = cpu ? await cpu.database() : [];
  const servers = cpu ? cpu.server() : [];
  const before = { server: cpuMs(servers), database: cpuMs(backends) };
  const r = await autocannon({ url, connections, duration: SECONDS, headers });
  const after = { server: cpuMs(servers), database: cpuMs(backends) };
  return {
    perSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    serverCpu: cpu ? perRequest(before.server, after.server, r.requests.total) : null,
    serving: servingProcesses(before.server, after.server),
    databaseCpu: cpu && backends.length ? perRequest(before.database, after.database, r.requests.total) : null,
  };
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

const line = (label: string, call: string, c: number, f: Figure, baseline?: Figure) =>
  `${label.padEnd(10)} ${call.padEnd(38)} ${String(c).padStart(3)} conns ${f.perSecond.toFixed(0).padStart(6)} req/s  p50 ${f.p50
    .toFixed(0)
    .padStart(5)} ms  p99 ${f.p99.toFixed(0).padStart(5)} ms  errors ${String(f.errors).padStart(3)}${
    baseline ? `  ${((f.perSecond / baseline.perSecond) * 100).toFixed(0).padStart(4)} % of baseline` : ''
  }${f.serverCpu === null ? '' : `  cpu/req: server ${f.serverCpu.toFixed(2)} ms`}${f.databaseCpu === null ? '' : `, database ${f.databaseCpu.toFixed(2)} ms`}${
    f.serving > 1 ? `  (${f.serving} processes served)` : ''
  }`;

/**
 * Migrate and seed a database here, before its server starts (a server seeding 3000 members on a busy
 * machine may take longer than the harness waits for it), with fresh planner statistics as `npm start` leaves them.
 */
async function prepare(target: { dataDir: string } | { databaseUrl: string }) {
  const dataDir = 'dataDir' in target ? target.dataDir : null;
  const databaseUrl = 'databaseUrl' in target ? target.databaseUrl : null;
  const config = loadConfig({ ...process.env, SEED_PASSWORD: PASSWORD, SEED_MEMBERS: MEMBERS, DATABASE_URL: databaseUrl ?? '', DATA_DIR: dataDir ?? '' });
  const database = await openDatabase({ dataDir, databaseUrl });
  try {
    await migrate(database);
    const started = Date.now();
    await seedIfEmpty(database, config);
    await database.execText('ANALYZE');
    console.log(`  ${databaseUrl ? 'PostgreSQL' : 'PGlite'}: ${MEMBERS} members seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await database.close();
  }
}

/** The seeded server on one database: every call at every connection count. */
async function measureServer(label: string, env: Record<string, string>, baseline: Map<number, Figure>, print: (s: string) => void) {
  const server = await startServer({ APP_KEY, SEED_MEMBERS: MEMBERS, LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '1000000', ...env });
  try {
    const token = await signIn(server);
    const headers = { accept: 'application/json', 'x-app-key': APP_KEY, 'x-requested-with': 'XMLHttpRequest', authorization: `Bearer ${token}` };
    const cpu: CpuSources = { server: () => processTree(server.pid), database: databaseBackends(env.DATABASE_URL || null) };
    // The entry starts the server in a process of its own; with WORKERS > 1 that one only starts the workers
    // (its children running the server), which serve: the server processes that started none.
    const servers = cpu.server().filter(isServerProcess);
    const workers = servers.filter((pid) => !servers.some((other) => parentOf(other) === pid)).length;
    print(`${label}: ${workers > 1 ? `${workers} server processes (cluster workers)` : 'one server process'} serving`);
    for (const call of CALLS.filter((c) => !ONLY || ONLY.some((o) => c.includes(o)))) {
      for (const c of CONNECTIONS) print(line(label, call, c, await hit(`${server.url}${call}`, c, headers, cpu), baseline.get(c)));
    }
  } finally {
    await server.stop();
  }
}

/** The bare stack: Fastify answering a keyset page of one account's ledger entries from pg, nothing else. */
async function measureBaseline(databaseUrl: string, print: (s: string) => void): Promise<Map<number, Figure>> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./support/keyset-baseline.ts', import.meta.url))], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/page`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(url)).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 200) throw new Error('the keyset baseline did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const out = new Map<number, Figure>();
    const cpu: CpuSources = { server: () => [child.pid!], database: databaseBackends(databaseUrl) };
    for (const c of CONNECTIONS) {
      const f = await hit(url, c, {}, cpu);
      out.set(c, f);
      print(line('baseline', 'bare Fastify + pg keyset page', c, f));
    }
    return out;
  } finally {
    child.kill('SIGTERM');
  }
}

export async function main(print: (s: string) => void = (s) => console.log(`  ${s}`)) {
  console.log(
    `${SECONDS} s per figure after 1 s of warm-up, ${CONNECTIONS.join(' and ')} connections, ${MEMBERS} members seeded, signed in as demo, ` +
      `${WORKERS} server process${WORKERS === 1 ? '' : 'es'} on PostgreSQL (BENCH_LOAD_WORKERS), one on PGlite`,
  );
  const admin = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || null;
  const own = admin ? null : await startPostgres();
  const adminUrl = admin ?? own?.url ?? null;
  try {
    if (!adminUrl) console.log('  (no PostgreSQL: set BENCH_DATABASE_URL, or install a server in /usr/lib/postgresql; no baseline either)');
    const scratch = adminUrl ? await createScratchDatabase(adminUrl) : null;
    try {
      let baseline = new Map<number, Figure>();
      if (scratch && DATABASES.includes('postgres')) {
        // The baseline reads the same seeded rows as the server.
        await prepare({ databaseUrl: scratch.url });
        baseline = await measureBaseline(scratch.url, print);
        await measureServer('PostgreSQL', { DATABASE_URL: scratch.url, WORKERS: String(WORKERS) }, baseline, print);
      }
      if (DATABASES.includes('pglite')) {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'upline-load-'));
        try {
          await prepare({ dataDir });
          await measureServer('PGlite', { DATA_DIR: dataDir, WORKERS: '1' }, baseline, print);
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
          rmSync(`${dataDir}-uploads`, { recursive: true, force: true });
        }
      }
    } finally {
      await scratch?.drop();
    }
  } finally {
    await own?.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

/**
 * The reference server (started by server/main.ts): open (and if new, migrate and seed) the database, serve API and SPA.
 *
 * WORKERS=N runs N server processes (node:cluster) on one port and one PostgreSQL database (DATABASE_URL):
 * the first process prepares the database, then each worker serves. Everything that matters across
 * requests lives in the database (sessions, codes, idempotency keys, throttling counters, the settings'
 * version), so the workers, or several `npm start`s on one DATABASE_URL, answer as one server.
 * The embedded PGlite database belongs to one process: WORKERS > 1 needs DATABASE_URL.
 */
import cluster from 'node:cluster';
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/client';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './seed';
import { buildApp } from './app';

// The page renderer (React on the server) loads later: in production mode unless told otherwise.
process.env.NODE_ENV ||= 'production';
const config = loadConfig();
const workers = workerCount(process.env.WORKERS);

if (cluster.isPrimary) {
  if (workers > 1 && !config.databaseUrl) {
    console.error(
      [
        `WORKERS=${workers} needs PostgreSQL: set DATABASE_URL (e.g. postgres://user:password@host:5432/upline).`,
        'The embedded PGlite database lives inside one process and cannot be shared by several, so without',
        'DATABASE_URL the server runs as one process (leave WORKERS unset or set it to 1).',
      ].join('\n'),
    );
    process.exit(1);
  }
  const { database, seeded } = await prepareDatabase(config);
  if (workers > 1) {
    await database.close();
    await startWorkers(workers);
  } else {
    await serve(config, database);
  }
  printBanner(seeded);
} else {
  // A worker ends with the process that started it.
  process.on('disconnect', () => process.exit(0));
  await serve(config, await openDatabase({ dataDir: null, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize }));
  process.send?.({ listening: true });
}

function workerCount(value: string | undefined): number {
  if (value === undefined || value === '') return 1;
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`WORKERS must be a whole number of processes (1 or more) or "auto", not "${value}".`);
    process.exit(1);
  }
  return n;
}

/**
 * Migrate and seed once. Several servers starting at the same time on one PostgreSQL take turns (an
 * advisory lock): the first migrates and seeds, the others find it done.
 */
async function prepareDatabase(cfg: Config): Promise<{ database: Database; seeded: boolean }> {
  if (cfg.dataDir && !cfg.databaseUrl) mkdirSync(cfg.dataDir, { recursive: true });
  // The embedded database runs in a thread of its own, so requests are served while it works.
  const database = await openDatabase({ dataDir: cfg.databaseUrl ? null : cfg.dataDir, databaseUrl: cfg.databaseUrl, thread: true, poolSize: cfg.databasePoolSize });
  const lock = cfg.databaseUrl ? await setupLock(cfg.databaseUrl) : null;
  try {
    await migrate(database);
    const seeded = await seedIfEmpty(database, cfg);
    // Fresh statistics for the planner after the bulk load (an index scan where the seeded tree makes it pay).
    if (seeded) await database.execText('ANALYZE');
    // Answers kept by an earlier start (migration 0047) were written by the code of that start, which may have
    // written them otherwise: none counts now.
    await database.execText('SELECT member_kept_new_epoch()');
    return { database, seeded };
  } finally {
    await lock?.release();
  }
}

async function setupLock(url: string) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`SELECT pg_advisory_lock(hashtext('upline:setup'))`);
  return {
    async release() {
      await client.query(`SELECT pg_advisory_unlock(hashtext('upline:setup'))`).catch(() => {});
      await client.end();
    },
  };
}

async function serve(cfg: Config, database: Database) {
  const app = await buildApp(database, cfg);
  await app.listen({ port: cfg.port, host: cfg.host });
  let stopping = false;
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, async () => {
      // Once (a terminal's Ctrl-C may arrive both directly and passed on by server/main.ts).
      if (stopping) return;
      stopping = true;
      await app.close();
      await database.close();
      process.exit(0);
    });
  }
}

/** N workers on one port; a worker that dies is replaced (unless the server is stopping). */
async function startWorkers(n: number) {
  let stopping = false;
  const fork = () =>
    new Promise<void>((resolve, reject) => {
      const w = cluster.fork();
      w.on('message', (m: { listening?: boolean }) => m?.listening && resolve());
      w.on('exit', (code) => {
        if (stopping) return;
        reject(new Error(`a worker stopped while starting (exit code ${code})`));
      });
    });
  cluster.on('exit', (w, code, signal) => {
    if (stopping) return;
    console.error(`worker ${w.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another`);
    cluster.fork();
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      const timer = setInterval(() => {
        if (!Object.values(cluster.workers ?? {}).some(Boolean)) process.exit(0);
      }, 100);
      timer.unref();
    });
  }
  await Promise.all(Array.from({ length: n }, fork));
}

function printBanner(seeded: boolean) {
  const url = `http://localhost:${config.port}`;
  const lines = [
    '',
    `Upline is running at ${url}`,
    `  database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}${config.demoMode ? ' · demo mode' : ''}`,
    `  processes: ${workers}${workers > 1 ? ' (WORKERS)' : ''}`,
    `  API description: ${url}/api/openapi.json`,
  ];
  if (seeded) {
    lines.push(
      '  demo members (seeded just now):',
      `    demo          password: ${config.seedPassword}   (active affiliate, large downline)`,
      `    blocked       password: ${config.seedPassword}   (blocked member)`,
      `    demo.expired  password: ${config.seedPassword}   (demo access not allowed)`,
    );
    if (config.seedPasswordGenerated) lines.push('  (password generated for this database; set SEED_PASSWORD to choose it)');
  } else {
    lines.push('  database already seeded: demo members are demo, blocked, demo.expired (password as when it was seeded)');
  }
  console.log(lines.join('\n') + '\n');
}

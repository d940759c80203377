/**
 * The real server in-process on a fresh in-memory PGlite, for tests/server. TEST_DATABASE_THREAD=1 runs that
 * PGlite in its worker thread, as `npm start` does (the same answers must come back through it).
 */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { buildApp } from '../../server/app';
import type { RouteModule } from '../../server/lib/app-context';
import { seedIfEmpty } from '../../server/seed';

export const TEST_APP_KEY = 'test-app-key';
export const TEST_PASSWORD = 'Demo-pass-2026';

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** `extraRoutes`: route modules only a test registers (next to every area's routes). */
export async function startTestServer(overrides: Partial<Config> = {}, extraRoutes: RouteModule[] = []): Promise<TestServer> {
  const config = loadConfig(
    { APP_KEY: TEST_APP_KEY, SEED_PASSWORD: TEST_PASSWORD, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv,
    { dataDir: null, databaseUrl: process.env.TEST_DATABASE_URL ?? null, staticDir: null, seedMembers: 200, uploadsDir: null, ...overrides },
  );
  const scratch = config.databaseUrl ? await createScratchDatabase(config.databaseUrl) : null;
  if (scratch) config.databaseUrl = scratch.url;
  const database = await openDatabase({ dataDir: null, databaseUrl: config.databaseUrl, thread: process.env.TEST_DATABASE_THREAD === '1' });
  await migrate(database);
  await seedIfEmpty(database, config);
  const app = await buildApp(database, config, extraRoutes);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await scratch?.drop();
    },
  };
}

/** Headers every API call carries. */
export function apiHeaders(token?: string): Record<string, string> {
  const h: Record<string, string> = { 'x-app-key': TEST_APP_KEY, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

/**
 * With TEST_DATABASE_URL (a PostgreSQL server), each test server gets a database of its own, created here and
 * dropped on close, so files run in parallel without seeing each other's rows.
 */
export async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const name = `upline_test_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

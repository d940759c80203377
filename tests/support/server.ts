/** The real server in-process on a fresh in-memory PGlite, for tests/server. */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { buildApp } from '../../server/app';
import { seedIfEmpty } from '../../server/seed';

export const TEST_APP_KEY = 'test-app-key';
export const TEST_PASSWORD = 'Demo-pass-2026';

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const config = loadConfig(
    { APP_KEY: TEST_APP_KEY, SEED_PASSWORD: TEST_PASSWORD, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv,
    { dataDir: null, databaseUrl: process.env.TEST_DATABASE_URL ?? null, staticDir: null, seedMembers: 200, ...overrides },
  );
  const database = await openDatabase({ dataDir: null, databaseUrl: config.databaseUrl });
  await migrate(database);
  await seedIfEmpty(database, config);
  const app = await buildApp(database, config);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Headers every API call carries. */
export function apiHeaders(token?: string): Record<string, string> {
  const h: Record<string, string> = { 'x-app-key': TEST_APP_KEY, accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  if (token) h.authorization = `Bearer ${token}`;
  return h;
}

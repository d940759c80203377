// @vitest-environment node
/**
 * The connections a server process keeps to PostgreSQL (DATABASE_POOL_SIZE): the setting as read, and reads
 * sent at once sharing no more connections than it allows (PGlite, and PostgreSQL with TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client';
import { databasePoolSize, loadConfig } from '../../server/config';
import { createScratchDatabase } from '../support/server';

let database: Database;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL ?? null;
  scratch = url ? await createScratchDatabase(url) : null;
  database = await openDatabase({ dataDir: null, databaseUrl: scratch?.url ?? null, poolSize: 2 });
});
afterAll(async () => {
  await database.close();
  await scratch?.drop();
});

describe('DATABASE_POOL_SIZE', () => {
  it('is read as a whole number of connections, and refused otherwise', () => {
    expect(databasePoolSize({ DATABASE_POOL_SIZE: '3' })).toBe(3);
    expect(loadConfig({ DATABASE_POOL_SIZE: '7' }).databasePoolSize).toBe(7);
    for (const text of ['0', '-2', '2.5', 'many']) expect(() => databasePoolSize({ DATABASE_POOL_SIZE: text })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('has a default of at least one connection when unset or empty', () => {
    expect(databasePoolSize({})).toBeGreaterThanOrEqual(1);
    expect(databasePoolSize({ DATABASE_POOL_SIZE: '' })).toBe(databasePoolSize({}));
  });

  it('reads sent at once all answer, over no more connections than the pool allows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        database.rows<{ pid: number; n: number }>(sql`SELECT pg_backend_pid() AS pid, ${i}::int AS n, pg_sleep(0.02) IS NULL AS slept`),
      ),
    );
    expect(answers.map(([row]) => Number(row.n))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(answers.map(([row]) => row.pid)).size).toBeLessThanOrEqual(2);
  });
});

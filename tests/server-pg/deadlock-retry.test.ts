// @vitest-environment node
/**
 * Two transactions that take the same two rows in opposite orders wait on each other; PostgreSQL aborts one
 * of them (a deadlock). The server runs the aborted one again, so both callers get their answer and both
 * changes are kept, each once.
 */
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { abortedForAnother } from '../../server/db/client';

let s: TestServer;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer({ seedMembers: 0 });
  await s.database.rows(sql`CREATE TABLE lock_order_probe (id int PRIMARY KEY, n int NOT NULL)`);
  await s.database.rows(sql`INSERT INTO lock_order_probe VALUES (1, 0), (2, 0)`);
}, 120_000);
afterAll(async () => {
  await s?.database.rows(sql`DROP TABLE IF EXISTS lock_order_probe`);
  await s?.close();
});

test('a transaction aborted for a deadlock runs again: both callers succeed and each change is kept once', async () => {
  // Each transaction's first run waits until the other holds its first row, so they must meet.
  let holding = 0;
  let bothHold!: () => void;
  const met = new Promise<void>((r) => (bothHold = r));
  const runs = { a: 0, b: 0 };
  const swap = (name: 'a' | 'b', first: number, second: number) =>
    s.database.db.transaction(async (tx) => {
      runs[name]++;
      await tx.execute(sql`UPDATE lock_order_probe SET n = n + 1 WHERE id = ${first}`);
      if (runs[name] === 1) {
        if (++holding === 2) bothHold();
        await met;
      }
      await tx.execute(sql`UPDATE lock_order_probe SET n = n + 10 WHERE id = ${second}`);
      return name;
    });
  expect(await Promise.all([swap('a', 1, 2), swap('b', 2, 1)])).toEqual(['a', 'b']);
  // One of them ran twice (the deadlock's victim); the kept sums count each transaction once.
  expect(runs.a + runs.b).toBe(3);
  const rows = await s.database.rows<{ id: number; n: number }>(sql`SELECT id, n FROM lock_order_probe ORDER BY id`);
  expect(rows.map((r) => Number(r.n))).toEqual([11, 11]);
}, 60_000);

test('only a deadlock or a serialization failure is run again', () => {
  expect(abortedForAnother(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(true);
  expect(abortedForAnother(new Error('wrapped', { cause: Object.assign(new Error('could not serialize'), { code: '40001' }) }))).toBe(true);
  expect(abortedForAnother(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  expect(abortedForAnother(new Error('plain'))).toBe(false);
});

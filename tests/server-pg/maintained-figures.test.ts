// @vitest-environment node
/**
 * Maintained figures on PostgreSQL (TEST_DATABASE_URL): after random sequences of postings, placements and purchases,
 * every figure the member pages read (balance, payout totals, investment, earnings per bonus type, monthly
 * credit and debit, sponsored members per month, downline counts) equals its recomputation from scratch.
 * tests/server/maintained-figures.test.ts holds the embedded database to the same property; here the operations
 * also run several at a time, as requests of different members do.
 */
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../support/server';
import { apply, figuresAndRecomputation, operation, startingPool } from '../support/maintained-figures';

let s: TestServer;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer({ seedMembers: 40 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

test('every maintained figure equals its recomputation after random postings, placements and purchases', async () => {
  const pool = await startingPool(s.database);
  // The seeded database already holds figures: they match before anything happens.
  for (const f of await figuresAndRecomputation(s.database)) expect(f.kept, f.figure).toEqual(f.recomputed);
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (ops) => {
      // Three at a time: concurrent writers of the same figures neither lose updates nor deadlock.
      for (let i = 0; i < ops.length; i += 3) await Promise.all(ops.slice(i, i + 3).map((op) => apply(s.database, pool, op)));
      for (const f of await figuresAndRecomputation(s.database)) expect(f.kept, f.figure).toEqual(f.recomputed);
    }),
    { numRuns: 12 },
  );
}, 300_000);

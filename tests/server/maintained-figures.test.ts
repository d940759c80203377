// @vitest-environment node
/**
 * Maintained figures on the embedded database: after random sequences of postings, placements and purchases,
 * every figure the member pages read (balance, payout totals, investment, earnings per bonus type, monthly
 * credit and debit, sponsored members per month, downline counts) equals its recomputation from scratch.
 * tests/server-pg/maintained-figures.test.ts holds PostgreSQL to the same property.
 */
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../support/server';
import { apply, figuresAndRecomputation, operation, startingPool } from '../support/maintained-figures';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedMembers: 40, databaseUrl: null });
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
      for (const op of ops) await apply(s.database, pool, op);
      for (const f of await figuresAndRecomputation(s.database)) expect(f.kept, f.figure).toEqual(f.recomputed);
    }),
    { numRuns: 12 },
  );
}, 300_000);

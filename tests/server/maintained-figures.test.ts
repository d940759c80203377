// @vitest-environment node
/**
 * Maintained figures on the embedded database: after random sequences of postings, placements, sponsor changes and purchases
 * (and changes of names, usernames, KYC, special members, recruitment targets and ranks, which the kept dashboard follows),
 * every figure the member pages read (balance, payout totals, investment, earnings per bonus type, monthly
 * credit and debit, sponsored members per month, sponsor downline sizes, downline counts) equals its recomputation
 * from scratch, and the dashboard's kept parts equal the same parts computed afresh.
 * tests/server-pg/maintained-figures.test.ts holds PostgreSQL to the same property.
 */
import { startTestServer, type TestServer } from '../support/server';
import { holdsFiguresToRecomputation } from '../support/maintained-figures';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedMembers: 40, databaseUrl: null });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

test('every maintained figure equals its recomputation after random postings, placements, sponsor changes and purchases', async () => {
  await holdsFiguresToRecomputation(s.database, 1);
}, 300_000);

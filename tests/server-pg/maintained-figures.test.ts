// @vitest-environment node
/**
 * Maintained figures on PostgreSQL (TEST_DATABASE_URL): after random sequences of postings, placements, sponsor changes and purchases
 * (and changes of names, usernames, KYC, special members, recruitment targets and ranks, which the kept dashboard follows),
 * every figure the member pages read (balance, payout totals, investment, earnings per bonus type, monthly
 * credit and debit, sponsored members per month, sponsor downline sizes, downline counts) equals its recomputation
 * from scratch, and the dashboard's kept parts equal the same parts computed afresh.
 * tests/server/maintained-figures.test.ts holds the embedded database to the same property; here the operations
 * also run several at a time, as requests of different members do.
 */
import { startTestServer, type TestServer } from '../support/server';
import { holdsFiguresToRecomputation } from '../support/maintained-figures';

let s: TestServer;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer({ seedMembers: 40 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

test('every maintained figure equals its recomputation after random postings, placements, sponsor changes and purchases', async () => {
  await holdsFiguresToRecomputation(s.database, 3);
}, 300_000);

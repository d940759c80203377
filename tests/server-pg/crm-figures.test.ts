// @vitest-environment node
/**
 * The CRM dashboard's maintained figures on PostgreSQL (TEST_DATABASE_URL): after random sequences of lead
 * and contact writes, the leads and their value per status, the open leads per follow-up day and the
 * contacts of every member equal their recount from scratch.
 * tests/server/crm-figures.test.ts holds the embedded database to the same property; here the writes also
 * run several at a time, as requests do.
 */
import { startTestServer, type TestServer } from '../support/server';
import { holdsCrmFiguresToRecount } from '../support/crm-figures';

let s: TestServer;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer({ seedMembers: 40 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

test('every maintained CRM figure equals its recount after random lead and contact writes', async () => {
  await holdsCrmFiguresToRecount(s.database, 3);
}, 300_000);

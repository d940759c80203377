// @vitest-environment node
/**
 * The CRM dashboard's maintained figures on the embedded database: after random sequences of lead and
 * contact writes, the leads and their value per status, the open leads per follow-up day and the contacts
 * of every member equal their recount from scratch.
 * tests/server-pg/crm-figures.test.ts holds PostgreSQL to the same property.
 */
import { startTestServer, type TestServer } from '../support/server';
import { holdsCrmFiguresToRecount } from '../support/crm-figures';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedMembers: 40, databaseUrl: null });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

test('every maintained CRM figure equals its recount after random lead and contact writes', async () => {
  await holdsCrmFiguresToRecount(s.database, 1);
}, 300_000);

// @vitest-environment node
/**
 * Kept dashboard answers (migration 0047, server/lib/kept-answers.ts) on the embedded database: a member's
 * personal data erased leaves no kept answer holding it — not the member's own, not one of the members above
 * who listed them among their newest joinings — and the dashboards read afterwards show the erased member as
 * the erasure left them.
 */
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { get, login } from './helpers';
import { erasePersonalData } from '../../server/lib/personal-data';
import { memberDashboardParts } from '../../server/lib/home';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seedMembers: 20, databaseUrl: null });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

test('erasing a member clears every kept answer naming them, and the next dashboards show the erasure', async () => {
  const { token } = await login(s.app, 'demo');
  const dashboard = async () => {
    const res = await get<{ data: { recent_joinings: Array<{ id: number; first_name: string; last_name: string | null }> } }>(s.app, '/api/home/dashboard', { token });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const before = await dashboard();
  expect(before.recent_joinings.length).toBeGreaterThan(0);
  const newest = before.recent_joinings[0];
  const [demo] = await s.database.rows<{ id: number }>(sql`SELECT id FROM members WHERE username = 'demo'`);
  // The answer is kept (read again from the kept row) and holds the newest member's name.
  expect((await memberDashboardParts(s.database.db, Number(demo.id), new Date())).kept).toBe(true);
  // (The parts are kept as JSON text whose lists are themselves JSON text: the name appears escaped.)
  const holding = sql`SELECT count(*)::int AS n FROM member_kept_answers WHERE strpos(answer, ${`first_name\\":\\"${newest.first_name}\\"`}) > 0`;
  expect((await s.database.rows<{ n: number }>(holding))[0].n).toBeGreaterThan(0);

  await s.database.db.transaction((tx) => erasePersonalData(tx, newest.id));

  expect((await s.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM member_kept_answers WHERE answer IS NOT NULL`))[0].n).toBe(0);
  const after = await dashboard();
  const erased = after.recent_joinings.find((j) => j.id === newest.id);
  expect(erased?.first_name).toBe('Deleted');
  expect(erased?.last_name).toBe('member');
});

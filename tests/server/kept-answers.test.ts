// @vitest-environment node
/**
 * Kept answers (migrations 0047, 0048, server/lib/kept-answers.ts) on the embedded database: a member's personal data
 * erased leaves no kept answer holding it — not the member's own, not one of the members above who listed them among
 * their newest joinings — and the dashboards read afterwards show the erased member as the erasure left them. The
 * genealogy and the downline report a member opens on are answered from kept answers, and a change of a member they
 * show is in the next answer.
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

interface TreeNode {
  id: number;
  package_name: string | null;
  children: TreeNode[];
}

test('the genealogy a member opens on is kept, and a new package of a member in it shows at the next read', async () => {
  const { token, user } = await login(s.app, 'demo');
  const genealogy = async () => {
    const res = await get<{ data: { genealogy: TreeNode } }>(s.app, '/api/network/genealogy?is_nested=1', { token });
    expect(res.status).toBe(200);
    return res.body.data.genealogy;
  };
  const keptText = async (kind: string) =>
    (await s.database.rows<{ answer: string | null }>(sql`SELECT answer FROM member_kept_answers WHERE member_id = ${user.id} AND kind = ${kind}`))[0]?.answer ?? null;
  const first = await genealogy();
  const child = first.children[0];
  expect(child).toBeDefined();
  expect(await keptText('genealogy')).not.toBeNull();
  expect(await genealogy()).toEqual(first);

  const [other] = await s.database.rows<{ id: number; name: string }>(
    sql`SELECT id, name FROM packages WHERE name IS DISTINCT FROM ${child.package_name} ORDER BY id LIMIT 1`,
  );
  await s.database.rows(sql`UPDATE members SET package_id = ${other.id} WHERE id = ${child.id}`);
  expect(await keptText('genealogy')).toBeNull();
  const after = await genealogy();
  expect(after.children.find((c) => c.id === child.id)?.package_name).toBe(other.name);
});

test('the first page of the downline report is kept, and a new sponsor of a member on it shows at the next read', async () => {
  const { token, user } = await login(s.app, 'demo');
  const report = async () => {
    const res = await get<{ data: { data: Array<{ id: number; sponsor_username: string | null }>; next_page_url: string | null } }>(
      s.app,
      '/api/network/downline_report?page=1',
      { token },
    );
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const first = await report();
  const row = first.data[0];
  expect(row).toBeDefined();
  const [kept] = await s.database.rows<{ answer: string | null }>(
    sql`SELECT answer FROM member_kept_answers WHERE member_id = ${user.id} AND kind = 'downline_report'`,
  );
  expect(kept.answer).not.toBeNull();
  expect(await report()).toEqual(first);

  // A new sponsor: the demo member itself (above every member of its downline, so no sponsor cycle).
  expect(row.sponsor_username).not.toBe('demo');
  await s.database.rows(sql`UPDATE members SET sponsor_id = ${user.id} WHERE id = ${row.id}`);
  const after = await report();
  expect(after.data.find((r) => r.id === row.id)?.sponsor_username).toBe('demo');
  expect(after.next_page_url).toBe(first.next_page_url);
});

// @vitest-environment node
/**
 * The notifications history (the page's "All" lists): every item of a kind, read ones marked, newest first,
 * paged by cursor past the 50 the overview list carries; only the caller's own items; bad paging refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { startTestServer, type TestServer } from '../support/server';
import { call, get, login, rows } from './helpers';
import { NOTIFICATION_HISTORY, NOTIFICATION_LIST_LIMIT } from '../../src/schemas/home.schema';

let server: TestServer;
let token: string;
let demoId: number;
let other: { id: number; username: string };
let otherToken: string;

type Tab = keyof typeof NOTIFICATION_HISTORY;

/** Every page of one tab's history, following next_page_url; the items and how many pages it took. */
async function walk(tab: Tab, as: string, limit: number) {
  const items: Array<{ id: number; updated_at: string; read?: boolean }> = [];
  let url: string | null = `/api/home/notifications/history/${tab}?limit=${limit}`;
  let pages = 0;
  while (url) {
    const res = await get(server.app, url, { token: as });
    expect(res.status, url).toBe(200);
    const page = z.parse(NOTIFICATION_HISTORY[tab], res.body.data) as { items: typeof items; next_page_url: string | null };
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    url = page.next_page_url;
    pages += 1;
    expect(pages).toBeLessThan(500);
  }
  return { items, pages };
}

const newestFirst = <T extends { at: string | Date; id: number }>(list: T[]) =>
  [...list].sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime() || Number(b.id) - Number(a.id)).map((r) => Number(r.id));

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  token = (await login(server.app, 'demo')).token;
  [{ id: demoId }] = await rows<{ id: number }>(server.database, sql`SELECT id FROM members WHERE username = 'demo'`);
  [other] = await rows<{ id: number; username: string }>(
    server.database,
    sql`SELECT m.id, m.username FROM members m WHERE m.id <> ${demoId} AND m.status = 1 AND EXISTS (SELECT 1 FROM orders o WHERE o.member_id = m.id) ORDER BY m.id LIMIT 1`,
  );
  otherToken = (await login(server.app, other.username)).token;
  // More notices than one overview list carries, half of them read, and some of another member's.
  await server.database.db.execute(
    sql`INSERT INTO member_notices (member_id, event, subject, body, link, read_at, created_at)
        SELECT ${demoId}, 'new_member', 'History notice ' || g, 'Body ' || g, NULL, CASE WHEN g % 2 = 0 THEN now() END, now() - g * interval '1 minute'
        FROM generate_series(1, ${NOTIFICATION_LIST_LIMIT + 25}) g`,
  );
  await server.database.db.execute(
    sql`INSERT INTO member_notices (member_id, event, subject, body, link, created_at)
        SELECT ${other.id}, 'new_member', 'Not yours ' || g, 'Body', NULL, now() - g * interval '1 minute' FROM generate_series(1, 7) g`,
  );
}, 120_000);
afterAll(() => server?.close());

describe('notifications history', () => {
  it('pages through every notice of the member past the overview limit, newest first, each once, read ones marked', async () => {
    const { items, pages } = await walk('notices', token, 20);
    const mine = await rows<{ id: number; at: string; read: boolean }>(
      server.database,
      sql`SELECT id, created_at AS at, read_at IS NOT NULL AS read FROM member_notices WHERE member_id = ${demoId}`,
    );
    expect(mine.length).toBeGreaterThan(NOTIFICATION_LIST_LIMIT);
    expect(pages).toBeGreaterThan(1);
    expect(items.map((i) => i.id)).toEqual(newestFirst(mine));
    const readById = new Map(mine.map((m) => [Number(m.id), !!m.read]));
    for (const item of items) expect(item.read, `notice ${item.id}`).toBe(readById.get(item.id));
    expect(items.some((i) => i.read)).toBe(true);
    expect(items.some((i) => !i.read)).toBe(true);
  });

  it("orders, payouts and messages: exactly the member's own, newest first — another member's never appear", async () => {
    const sources = {
      orders: (id: number) => sql`SELECT id, created_at AS at FROM orders WHERE member_id = ${id}`,
      payouts: (id: number) => sql`SELECT id, updated_at AS at FROM payout_requests WHERE member_id = ${id}`,
      messages: (id: number) => sql`SELECT id, created_at AS at FROM messages WHERE recipient_id = ${id}`,
    };
    for (const tab of ['orders', 'payouts', 'messages'] as const) {
      const mine = await rows<{ id: number; at: string }>(server.database, sources[tab](demoId));
      const theirs = new Set((await rows<{ id: number; at: string }>(server.database, sources[tab](other.id))).map((r) => Number(r.id)));
      const { items } = await walk(tab, token, 7);
      expect(items.length, tab).toBeGreaterThan(0);
      expect(items.map((i) => i.id), tab).toEqual(newestFirst(mine));
      expect(items.filter((i) => theirs.has(i.id)), tab).toEqual([]);
    }
    // And the other way round: their history holds none of the demo member's notices.
    const theirNotices = await walk('notices', otherToken, 50);
    expect(theirNotices.items.length).toBe(7);
    const demoNotices = new Set((await rows<{ id: number }>(server.database, sql`SELECT id FROM member_notices WHERE member_id = ${demoId}`)).map((r) => Number(r.id)));
    expect(theirNotices.items.filter((i) => demoNotices.has(i.id))).toEqual([]);
  });

  it('an item marked read shows as read in the history; the overview list still stops at its limit', async () => {
    const [first] = (await walk('orders', token, 100)).items;
    const mark = await call(server.app, 'PUT', '/api/home/notifications/read', { kind: 'order', ids: [first.id] }, { token });
    expect(mark.status).toBe(200);
    expect((await walk('orders', token, 100)).items[0]).toMatchObject({ id: first.id, read: true });
    const overview = await get(server.app, '/api/home/notifications?show=all', { token });
    expect(overview.body.data.notices).toHaveLength(NOTIFICATION_LIST_LIMIT);
  });

  it('a cursor that is not one, a bad limit → a field map, never 5xx; without a session → 401', async () => {
    for (const [query, field] of [
      ['cursor=%25%25%25', 'cursor'],
      [`cursor=${Buffer.from('v1|desc|99999999999999|1').toString('base64url')}`, 'cursor'],
      [`cursor=${Buffer.from('v1|asc|1700000000000|1').toString('base64url')}`, 'cursor'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
    ] as const) {
      const res = await get(server.app, `/api/home/notifications/history/notices?${query}`, { token });
      expect(res.status, query).toBe(422);
      expect(res.body.errors?.[field], query).toEqual(expect.arrayContaining([expect.stringMatching(/^validation:/)]));
    }
    expect((await get(server.app, '/api/home/notifications/history/orders')).status).toBe(401);
  });
});

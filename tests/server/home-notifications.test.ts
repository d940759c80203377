// @vitest-environment node
/** Notifications: the lists are the unread items, the counts equal the lists, marking read makes them drop. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { startTestServer, type TestServer } from '../support/server';
import { call, get, login, rows } from './helpers';
import { notificationCountsSchema, notificationsSchema, type NotificationCounts, type Notifications } from '../../src/schemas/home.schema';
import { markPayoutPaid } from '../../server/lib/ledger';

let server: TestServer;
let token: string;
let demoId: number;

const ms = (d: Date | string) => new Date(d).getTime();

async function lists(as = token, query = ''): Promise<Notifications> {
  const res = await get(server.app, `/api/home/notifications${query}`, { token: as });
  expect(res.status).toBe(200);
  return z.parse(notificationsSchema, res.body.data);
}

async function counts(as = token): Promise<NotificationCounts> {
  const res = await get(server.app, '/api/home/notifications_count', { token: as });
  expect(res.status).toBe(200);
  return z.parse(notificationCountsSchema, res.body.data);
}

const markRead = (body: unknown, as = token) => call(server.app, 'PUT', '/api/home/notifications/read', body, { token: as });

function expectCountsMatch(n: Notifications, c: NotificationCounts) {
  expect(c.order_count).toBe(n.orders.length);
  expect(c.payout_count).toBe(n.payouts.length);
  expect(c.message_count).toBe(n.messages.length);
  expect(c.total_count).toBe(n.orders.length + n.payouts.length + n.messages.length);
}

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  token = (await login(server.app, 'demo')).token;
  [{ id: demoId }] = await rows<{ id: number }>(server.database, sql`SELECT id FROM members WHERE username = 'demo'`);
}, 120_000);
afterAll(() => server?.close());

describe('notifications', () => {
  it('the counts equal the unread items of the lists, which are what the tables say is unread', async () => {
    const n = await lists();
    const c = await counts();
    expectCountsMatch(n, c);
    expect(n.orders.length).toBeGreaterThan(0);
    expect(n.payouts.length).toBeGreaterThan(0);
    expect(n.messages.length).toBeGreaterThan(0);

    // Recount: orders placed after the member's mark, payouts changed after it, messages without read_at.
    const marks = new Map(
      (await rows<{ kind: string; read_before: string }>(server.database, sql`SELECT kind, read_before FROM notification_marks WHERE member_id = ${demoId}`)).map(
        (m) => [m.kind, ms(m.read_before)],
      ),
    );
    const orders = await rows<{ id: number; created_at: string; invoice_no: string; status: string; total: string }>(
      server.database,
      sql`SELECT id, created_at, invoice_no, status, total::text AS total FROM orders WHERE member_id = ${demoId}`,
    );
    const unreadOrders = orders
      .filter((o) => ms(o.created_at) > (marks.get('order') ?? -Infinity))
      .sort((a, b) => ms(b.created_at) - ms(a.created_at) || b.id - a.id);
    expect(n.orders.map((o) => o.id)).toEqual(unreadOrders.map((o) => Number(o.id)));
    expect(n.orders.map((o) => o.invoice_no)).toEqual(unreadOrders.map((o) => o.invoice_no));
    expect(n.orders.map((o) => o.name)).toEqual(unreadOrders.map((o) => o.status));

    const payouts = await rows<{ id: number; updated_at: string; status: number }>(
      server.database,
      sql`SELECT id, updated_at, status FROM payout_requests WHERE member_id = ${demoId}`,
    );
    const unreadPayouts = payouts
      .filter((p) => ms(p.updated_at) > (marks.get('payout') ?? -Infinity))
      .sort((a, b) => ms(b.updated_at) - ms(a.updated_at) || b.id - a.id);
    expect(n.payouts.map((p) => p.id)).toEqual(unreadPayouts.map((p) => Number(p.id)));
    expect(n.payouts.map((p) => p.status_id)).toEqual(unreadPayouts.map((p) => Number(p.status)));

    const messages = await rows<{ id: number; created_at: string }>(
      server.database,
      sql`SELECT id, created_at FROM messages WHERE recipient_id = ${demoId} AND read_at IS NULL`,
    );
    expect(n.messages.map((m) => m.id)).toEqual(messages.sort((a, b) => ms(b.created_at) - ms(a.created_at) || b.id - a.id).map((m) => Number(m.id)));
    const [first] = await rows<{ subject: string; first_name: string }>(
      server.database,
      sql`SELECT t.subject, s.first_name FROM messages m JOIN message_threads t ON t.id = m.thread_id JOIN members s ON s.id = m.sender_id WHERE m.id = ${n.messages[0].id}`,
    );
    expect([n.messages[0].subject, n.messages[0].first_name]).toEqual([first.subject, first.first_name]);
  });

  it('marking one order read drops it from the list and the count', async () => {
    const before = await lists();
    const target = before.orders[0];
    const res = await markRead({ kind: 'order', ids: [target.id] });
    expect(res.status).toBe(200);
    const c = z.parse(notificationCountsSchema, res.body.data);
    expect(c.order_count).toBe(before.orders.length - 1);
    const after = await lists();
    expect(after.orders.map((o) => o.id)).toEqual(before.orders.slice(1).map((o) => o.id));
    expectCountsMatch(after, await counts());

    // The history (?show=all) still lists it, now read; the unread ones stay unread.
    const history = await lists(token, '?show=all');
    const listed = history.orders.find((o) => o.id === target.id);
    expect(listed?.read).toBe(true);
    expect(history.orders.filter((o) => !o.read).map((o) => o.id)).toEqual(after.orders.map((o) => o.id));
    expect(after.orders.every((o) => o.read === false)).toBe(true);
  });

  it('the history lists read notices and messages too, each saying so; a bad show is refused with a field map', async () => {
    await server.database.db.execute(
      sql`INSERT INTO member_notices (member_id, event, subject, body, link, read_at) VALUES (${demoId}, 'kyc_decision', 'Old KYC decision', 'Approved.', '/member/kyc', now())`,
    );
    expect((await lists()).notices?.some((n) => n.subject === 'Old KYC decision')).toBe(false);
    const history = await lists(token, '?show=all');
    const notice = history.notices?.find((n) => n.subject === 'Old KYC decision');
    expect(notice).toMatchObject({ read: true, link: '/member/kyc' });
    // Each listed message says what its row says.
    const stored = new Map(
      (await rows<{ id: number; read: boolean }>(server.database, sql`SELECT id, read_at IS NOT NULL AS read FROM messages WHERE recipient_id = ${demoId}`)).map((m) => [Number(m.id), m.read]),
    );
    expect(history.messages.length).toBeGreaterThan(0);
    for (const m of history.messages) expect(m.read).toBe(stored.get(m.id));
    const bad = await get(server.app, '/api/home/notifications?show=everything', { token });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('show');
  });

  it("another member's ids change nothing, for either member", async () => {
    const [other] = await rows<{ id: number; member_id: number; username: string }>(
      server.database,
      sql`SELECT o.id, o.member_id, m.username FROM orders o JOIN members m ON m.id = o.member_id
          WHERE o.member_id <> ${demoId} AND m.status = 1 ORDER BY o.created_at DESC LIMIT 1`,
    );
    const otherToken = (await login(server.app, other.username)).token;
    const theirsBefore = await counts(otherToken);
    expect(theirsBefore.order_count).toBeGreaterThan(0);
    const mineBefore = await counts();
    const res = await markRead({ kind: 'order', ids: [Number(other.id)] });
    expect(res.status).toBe(200);
    expect(await counts()).toEqual(mineBefore);
    expect(await counts(otherToken)).toEqual(theirsBefore);
  });

  it('marking every payout read empties the list until a payout changes again', async () => {
    const res = await markRead({ kind: 'payout' });
    expect(res.status).toBe(200);
    expect(res.body.data.payout_count).toBe(0);
    expect((await lists()).payouts).toEqual([]);

    const [open] = await rows<{ id: number }>(
      server.database,
      sql`SELECT id FROM payout_requests WHERE member_id = ${demoId} AND status IN (1, 2) ORDER BY id LIMIT 1`,
    );
    expect(open).toBeTruthy();
    await markPayoutPaid(server.database.db, Number(open.id), new Date(Date.now() + 1000));
    const n = await lists();
    expect(n.payouts.map((p) => [p.id, p.status_id, p.name])).toEqual([[Number(open.id), 3, 'paid']]);
    expectCountsMatch(n, await counts());
  });

  it('messages: one by id, a new one arrives, then everything at once', async () => {
    const before = await lists();
    const res = await markRead({ kind: 'message', ids: [before.messages[0].id] });
    expect(res.body.data.message_count).toBe(before.messages.length - 1);
    const [read] = await rows<{ read_at: string | null }>(server.database, sql`SELECT read_at FROM messages WHERE id = ${before.messages[0].id}`);
    expect(read.read_at).not.toBeNull();

    const [thread] = await rows<{ id: number }>(server.database, sql`INSERT INTO message_threads (subject) VALUES ('Hello again') RETURNING id`);
    await rows(
      server.database,
      sql`INSERT INTO messages (thread_id, sender_id, recipient_id, body) SELECT ${thread.id}, id, ${demoId}, '<b>Bold</b> news &amp; more' FROM members WHERE role_id = 1 LIMIT 1`,
    );
    const withNew = await lists();
    expect(withNew.messages[0].subject).toBe('Hello again');
    expect(withNew.messages[0].body).toBe('Bold news & more');
    expect(withNew.messages).toHaveLength(before.messages.length);

    const all = await markRead({ kind: 'all' });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({ order_count: 0, payout_count: 0, message_count: 0, notice_count: 0, total_count: 0 });
    expect(await lists()).toEqual({ orders: [], payouts: [], messages: [], notices: [] });
  });

  it('refuses bad requests with a field map, and strangers', async () => {
    const bad = async (body: unknown, field: string) => {
      const res = await markRead(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error_code).toBe('validation_error');
      expect(Object.keys(res.body.errors)).toContain(field);
    };
    await bad({ kind: 'bogus' }, 'kind');
    await bad({}, 'kind');
    await bad({ kind: 'all', ids: [1] }, 'ids');
    await bad({ kind: 'order', ids: [] }, 'ids');
    await bad({ kind: 'order', ids: ['x'] }, 'ids.0');
    await bad({ kind: 'order', extra: 1 }, 'extra');
    const anonymous = await call(server.app, 'PUT', '/api/home/notifications/read', { kind: 'all' });
    expect(anonymous.status).toBe(401);
  });
});

// @vitest-environment node
/**
 * GET/PUT /api/user/notification_settings and what the switches decide: a recruit joining the team
 * (signup) and a payout status change reach the member by e-mail (the outbox) only with the e-mail
 * switch on, and as a notice in the notifications answer (and its count) only with the push switch on.
 * The same for every other event where it happens: an order paid (shop checkout, package purchase), a rank
 * reached through a package purchase, a meeting reminder of the CRM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { adjustWallet } from '../../server/lib/ledger';
import * as money from '../../server/lib/money';
import { decidePayout } from '../../server/lib/payout';
import { PAYOUT_LINK } from '../../src/schemas/home.schema';
import { announce } from '../../server/lib/member-notices';
import { remindMeetings } from '../../server/lib/crm-people';
import { walletBalance } from '../../server/lib/ledger';
import { bulkMembers, call, freshIp, get, login, post, rows, TEST_PASSWORD, withSettings } from './helpers';

let s: TestServer;
const EVENTS = ['team_member_joined', 'payout_status', 'order_status', 'new_message', 'kyc_decision', 'rank_achieved', 'meeting_reminder'];

const settingsOf = (token: string) => get(s.app, '/api/user/notification_settings', { token });
const change = (token: string | undefined, body: unknown) => call(s.app, 'PUT', '/api/user/notification_settings', body, { token });
const notices = async (token: string) => (await get(s.app, '/api/home/notifications', { token })).body.data.notices as Array<{ event: string; subject: string; link: string }>;
const noticeCount = async (token: string) => (await get(s.app, '/api/home/notifications_count', { token })).body.data as { notice_count: number; total_count: number };
const mails = (email: string, subject: string) =>
  rows<{ id: number }>(s.database, sql`SELECT id FROM outbox WHERE destination = ${email} AND subject LIKE ${subject + '%'}`);

let offset = 30;
async function member() {
  const [m] = await bulkMembers(s.database, 1, offset++);
  return { ...m, token: (await login(s.app, m.username)).token };
}

let n = 0;
async function recruit(sponsor: string) {
  let status = 0;
  await withSettings(s.app, 'signup', { otp_verification: false }, async () => {
    n++;
    const res = await post(
      s.app,
      '/api/users/signup',
      { referral: sponsor, first_name: 'Rita', last_name: `Recruit${n}`, email: `rita.${n}.${randomUUID().slice(0, 6)}@example.org`, password: 'Signup-pass-1' },
      { ip: freshIp() },
    );
    status = res.status;
  });
  expect(status).toBe(200);
}

beforeAll(async () => {
  s = await startTestServer();
}, 120_000);
afterAll(() => s?.close());

describe('the settings', () => {
  it('are all on until changed; a change keeps the other switches and leaves an audit row', async () => {
    const m = await member();
    const first = await settingsOf(m.token);
    expect(first.status).toBe(200);
    expect(first.body.data.events).toEqual(EVENTS.map((event) => ({ event, email: true, push: true })));

    const res = await change(m.token, { events: [{ event: 'payout_status', email: false }, { event: 'rank_achieved', push: false }] });
    expect(res.status).toBe(200);
    const after = Object.fromEntries((res.body.data.events as Array<{ event: string }>).map((e) => [e.event, e]));
    expect(after.payout_status).toEqual({ event: 'payout_status', email: false, push: true });
    expect(after.rank_achieved).toEqual({ event: 'rank_achieved', email: true, push: false });
    expect(after.order_status).toEqual({ event: 'order_status', email: true, push: true });
    expect((await settingsOf(m.token)).body.data).toEqual(res.body.data);

    const trail = await rows<{ detail: Record<string, boolean> }>(
      s.database,
      sql`SELECT detail FROM account_audit WHERE member_id = ${m.id} AND action = 'notification_settings.changed'`,
    );
    expect(trail.map((r) => r.detail)).toEqual([{ 'email.payout_status': false, 'push.rank_achieved': false }]);
  });

  it('refuses bad bodies with a field map, never a 5xx', async () => {
    const m = await member();
    for (const body of [{}, { events: [] }, { events: [{ event: 'weather', email: false }] }, { events: [{ event: 'payout_status', email: 'no' }] }, { events: 'all' }, []]) {
      const res = await change(m.token, body);
      expect(res.status).toBe(422);
      expect(res.body.error_code).toBe('validation_error');
      expect(Object.keys(res.body.errors).length).toBeGreaterThan(0);
    }
  });

  it('are only ever about the caller', async () => {
    const a = await member();
    const b = await member();
    expect((await get(s.app, '/api/user/notification_settings')).status).toBe(401);
    expect((await change(undefined, { events: [{ event: 'new_message', email: false }] })).status).toBe(401);
    await change(a.token, { events: [{ event: 'new_message', email: false }] });
    const other = await change(b.token, { member_id: a.id, events: [{ event: 'new_message', push: false }] });
    expect(other.status).toBe(422);
    expect((await settingsOf(b.token)).body.data.events.every((e: { email: boolean; push: boolean }) => e.email && e.push)).toBe(true);
    expect((await settingsOf(a.token)).body.data.events.find((e: { event: string }) => e.event === 'new_message')).toEqual({ event: 'new_message', email: false, push: true });
  });
});

describe('what the switches decide', () => {
  it('a new recruit: e-mail and a notice with both on; neither with both off', async () => {
    const sponsor = await member();
    await recruit(sponsor.username);
    expect(await mails(sponsor.email, 'New member in your team')).toHaveLength(1);
    const listed = await notices(sponsor.token);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ event: 'team_member_joined', link: '/member/referral/joinings' });
    expect(listed[0].subject).toContain('Rita');
    expect((await noticeCount(sponsor.token)).notice_count).toBe(1);

    await change(sponsor.token, { events: [{ event: 'team_member_joined', email: false }] });
    await recruit(sponsor.username);
    expect(await mails(sponsor.email, 'New member in your team')).toHaveLength(1);
    expect(await notices(sponsor.token)).toHaveLength(2);

    await change(sponsor.token, { events: [{ event: 'team_member_joined', push: false, email: true }] });
    await recruit(sponsor.username);
    expect(await mails(sponsor.email, 'New member in your team')).toHaveLength(2);
    expect(await notices(sponsor.token)).toHaveLength(2);
    const counts = await noticeCount(sponsor.token);
    expect(counts.notice_count).toBe(2);
  });

  it('a payout status change follows the payout_status switches', async () => {
    const m = await member();
    await adjustWallet(s.database.db, { memberId: m.id, amount: money.parse('800'), memo: 'test funds' });
    await s.database.db.execute(sql`INSERT INTO member_kyc (member_id, status) VALUES (${m.id}, 'approved') ON CONFLICT (member_id) DO UPDATE SET status = 'approved'`);
    await s.database.db.execute(sql`INSERT INTO payout_methods (member_id, method, destination) VALUES (${m.id}, 'e_wallet', 'pay@example.com')`);
    const requestOne = async () => {
      const res = await call(s.app, 'POST', '/api/payout/request_payout', { amount: '60', password: TEST_PASSWORD }, { token: m.token, headers: { 'idempotency-key': randomUUID() } });
      expect(res.status).toBe(201);
      return res.body.data.payout.id as number;
    };

    await change(m.token, { events: [{ event: 'payout_status', email: false }] });
    const first = await requestOne();
    await decidePayout(s.app.ctx, first, 'approve');
    expect(await mails(m.email, 'Payout')).toHaveLength(0);
    expect((await notices(m.token)).map((x) => x.event)).toEqual(['payout_status']);
    // The notice leads where the notifications page's payout card leads: the payouts list.
    expect((await notices(m.token))[0].link).toBe(PAYOUT_LINK);
    expect(PAYOUT_LINK).toBe('/member/wallet/recent-payouts');

    await decidePayout(s.app.ctx, first, 'pay');
    await change(m.token, { events: [{ event: 'payout_status', email: true, push: false }] });
    const second = await requestOne();
    await decidePayout(s.app.ctx, second, 'reject', 'Wrong wallet');
    expect(await mails(m.email, 'Payout')).toHaveLength(1);
    expect(await notices(m.token)).toHaveLength(2);
  });

  it('a KYC decision goes by the same switches, and reading a notice drops it', async () => {
    const m = await member();
    await change(m.token, { events: [{ event: 'kyc_decision', email: false }] });
    await announce(s.app.ctx, m.id, 'kyc_decision', { key: 'kyc_approved', link: '/member/kyc' });
    expect(await mails(m.email, 'Your identity documents were approved')).toHaveLength(0);
    const [notice] = await notices(m.token);
    expect(notice).toMatchObject({ event: 'kyc_decision', subject: 'Your identity documents were approved' });
    const before = await noticeCount(m.token);
    const read = await call(s.app, 'PUT', '/api/home/notifications/read', { kind: 'notice', ids: [(notice as unknown as { id: number }).id] }, { token: m.token });
    expect(read.status).toBe(200);
    expect(read.body.data.notice_count).toBe(before.notice_count - 1);
    expect(read.body.data.total_count).toBe(before.total_count - 1);
  });

  it('a member who reads the product in Spanish is told in Spanish, by notice and by e-mail; others in English', async () => {
    const es = await member();
    const en = await member();
    expect((await call(s.app, 'PUT', '/api/user/preferences', { language: 'es' }, { token: es.token })).status).toBe(200);
    for (const m of [es, en]) {
      await adjustWallet(s.database.db, { memberId: m.id, amount: money.parse('300'), memo: 'test funds' });
      await s.database.db.execute(sql`INSERT INTO member_kyc (member_id, status) VALUES (${m.id}, 'approved') ON CONFLICT (member_id) DO UPDATE SET status = 'approved'`);
      await s.database.db.execute(sql`INSERT INTO payout_methods (member_id, method, destination) VALUES (${m.id}, 'e_wallet', 'pay@example.com')`);
      const res = await call(s.app, 'POST', '/api/payout/request_payout', { amount: '60', password: TEST_PASSWORD }, { token: m.token, headers: { 'idempotency-key': randomUUID() } });
      expect(res.status).toBe(201);
      await decidePayout(s.app.ctx, res.body.data.payout.id as number, 'reject', 'Cuenta equivocada');
    }
    const [spanish] = await notices(es.token);
    expect(spanish.subject).toMatch(/^Pago PO-\d{6} rechazado$/);
    expect((spanish as unknown as { body: string }).body).toMatch(/^Tu solicitud de pago PO-\d{6} de 60\.00 ahora está rechazada\. Motivo: Cuenta equivocada$/);
    expect(await mails(es.email, 'Pago PO-')).toHaveLength(1);
    const [english] = await notices(en.token);
    expect(english.subject).toMatch(/^Payout PO-\d{6} rejected$/);
    expect(await mails(en.email, 'Payout PO-')).toHaveLength(1);
  });

  /** Exactly `amount` in the member's wallet. */
  async function fundExactly(memberId: number, amount: string) {
    const had = await walletBalance(s.database.db, memberId);
    if (had !== 0n) await adjustWallet(s.database.db, { memberId, amount: -had, memo: 'test reset' });
    await adjustWallet(s.database.db, { memberId, amount: money.parse(amount), memo: 'test funds' });
  }

  it('an order paid from the wallet at checkout follows the order_status switches', async () => {
    const m = await member();
    await fundExactly(m.id, '100');
    const [p] = await rows<{ id: number }>(s.database, sql`INSERT INTO products (sku, name, price, bv, pv, stock) VALUES (${`N-${randomUUID().slice(0, 8)}`}, 'Notice test', '10.00', '1', '1', 50) RETURNING id`);
    const [us] = await rows<{ id: number }>(s.database, sql`SELECT id FROM countries WHERE iso_code_2 = 'US'`);
    const buy = async () => {
      expect((await post(s.app, '/api/shop/cart', { product_id: Number(p.id), quantity: 1 }, { token: m.token })).status).toBe(200);
      const res = await call(
        s.app,
        'POST',
        '/api/shop/checkout',
        { address: { first_name: 'Rae', address_1: '1 Main St', city: 'Springfield', country_id: Number(us.id) }, payment_method: 'wallet', password: TEST_PASSWORD },
        { token: m.token, headers: { 'idempotency-key': randomUUID() } },
      );
      expect(res.status).toBe(201);
      return res.body.data as { order_id: number; invoice_no: string };
    };
    const first = await buy();
    expect(await mails(m.email, `Your order ${first.invoice_no} is paid`)).toHaveLength(1);
    expect(await notices(m.token)).toEqual([expect.objectContaining({ event: 'order_status', subject: `Your order ${first.invoice_no} is paid`, link: `/member/orders/${first.order_id}` })]);

    await change(m.token, { events: [{ event: 'order_status', email: false, push: false }] });
    const second = await buy();
    expect(await mails(m.email, `Your order ${second.invoice_no}`)).toHaveLength(0);
    expect((await notices(m.token)).map((x) => x.subject)).toEqual([`Your order ${first.invoice_no} is paid`]);
  });

  it('a package bought from the wallet tells of the order and of the rank it reaches, each by its switches', async () => {
    const m = await member();
    // No package, no rank, a recruit and 300 on each leg: the Starter package's 50 PV makes the member Bronze (Silver asks for PV 100).
    await s.database.db.execute(sql`UPDATE members SET package_id = NULL, package_expiry = NULL, rank_id = NULL, pv = 0, tv = 600, total_left = 300, total_right = 300 WHERE id = ${m.id}`);
    await s.database.db.execute(sql`DELETE FROM rank_achievements WHERE member_id = ${m.id}`);
    const [recruited] = await bulkMembers(s.database, 1, 150);
    await s.database.db.execute(sql`UPDATE members SET sponsor_id = ${m.id} WHERE id = ${recruited.id}`);
    await fundExactly(m.id, '500');
    await change(m.token, { events: [{ event: 'rank_achieved', email: false }] });

    const [starter] = await rows<{ id: number }>(s.database, sql`SELECT id FROM packages WHERE name = 'Starter'`);
    const purchase = await post(s.app, '/api/packages/purchases', { package_id: Number(starter.id) }, { token: m.token });
    expect(purchase.status).toBeLessThan(300);
    const paid = await post(s.app, `/api/packages/purchases/${purchase.body.data.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token });
    expect(paid.status).toBe(200);
    const orderId = paid.body.data.purchase.order_id as number;

    const listed = await notices(m.token);
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'order_status', subject: 'Your package Starter is paid', link: `/member/orders/${orderId}` }),
        expect.objectContaining({ event: 'rank_achieved', subject: 'You reached the rank Bronze', link: '/member/home/rank' }),
      ]),
    );
    expect(await mails(m.email, 'Your package Starter is paid')).toHaveLength(1);
    // The rank's e-mail switch is off.
    expect(await mails(m.email, 'You reached the rank')).toHaveLength(0);
  });

  it('a meeting reminder follows the meeting_reminder switches', async () => {
    const m = await member();
    const meeting = (title: string) =>
      s.database.db.execute(
        sql`INSERT INTO crm_meetings (member_id, title, starts_at, time_zone, who, place) VALUES (${m.id}, ${title}, now() + interval '10 minutes', 'UTC', 'Ana', 'Cafe')`,
      );
    await meeting('Coffee with Ana');
    expect(await remindMeetings(s.app.ctx)).toBeGreaterThanOrEqual(1);
    expect(await notices(m.token)).toEqual([expect.objectContaining({ event: 'meeting_reminder', subject: expect.stringContaining('Coffee with Ana'), link: '/member/crm/meetings' })]);
    expect(await mails(m.email, 'Meeting at')).toHaveLength(1);

    await change(m.token, { events: [{ event: 'meeting_reminder', email: false, push: false }] });
    await meeting('Lunch with Ana');
    expect(await remindMeetings(s.app.ctx)).toBeGreaterThanOrEqual(1);
    expect((await notices(m.token)).map((x) => x.subject)).toEqual([expect.stringContaining('Coffee with Ana')]);
    expect(await mails(m.email, 'Meeting at')).toHaveLength(1);
  });
});

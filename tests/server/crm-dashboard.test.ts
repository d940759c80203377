// @vitest-environment node
/**
 * The CRM's dashboard, analytics and hub counts, and meetings with several invitees: figures checked
 * against records the test creates for a member of its own (follow-ups due today and overdue in the
 * member's time zone, today's and upcoming meetings with their invitees, the pipeline's value in exact
 * decimals, wins this month; leads per month by source and status, win and lead → contact rates);
 * another member sees none of it and cannot invite someone else's contacts or leads (422, nothing stored);
 * bad periods and time zones are field maps; an existing meeting's one invitee survives the migration.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { createSession } from '../../server/lib/auth';
import { addMonths, percent } from '../../server/lib/crm-dashboard';
import type { CrmAnalytics, CrmCounts, CrmDashboard } from '../../src/schemas/crm-dashboard.schema';
import type { Contact, Lead, Meeting } from '../../src/schemas/crm.schema';
import type { Sale, SaleChoices } from '../../src/schemas/crm-sales.schema';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, type Answer } from './helpers';

let s: TestServer;
let mine: string;
let theirs: string;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
  // Two members without CRM records of their own, so every figure is the test's.
  const [a, b] = await bulkMembers(s.database, 2, 40);
  mine = (await createSession(s.database.db, a.id)).token;
  theirs = (await createSession(s.database.db, b.id)).token;
});
afterAll(async () => {
  await s?.close();
});

const TZ = 'Europe/Madrid';
const api = <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown): Promise<Answer<T>> =>
  call<T>(s.app, method, url, body, { token });
const created = async <T,>(url: string, body: object, token = mine): Promise<T> => {
  const res = await api('POST', url, token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as T;
};
const lead = (name: string, over: object = {}) => created<Lead>('/api/crm/leads', { name, source: 'website', status: 'new', ...over });
/** The day in the test's time zone, `days` from today. */
const day = (days = 0) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));
const meeting = (title: string, date: string, invitees: string[], time = '12:00', token = mine) =>
  created<Meeting>('/api/crm/meetings', { title, date, time, time_zone: TZ, duration_minutes: '30', invitees }, token);
const dashboard = async (token = mine) => {
  const res = await api<{ data: CrmDashboard }>('GET', `/api/crm/dashboard?tz=${encodeURIComponent(TZ)}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

describe('CRM dashboard', () => {
  it('is empty, with zero figures, for a member without CRM records', async () => {
    const d = await dashboard(theirs);
    expect(d).toMatchObject({
      today: day(),
      has_records: false,
      pipeline: { value: '0.00', count: 0 },
      won_this_month: { count: 0, value: '0.00' },
      sales_this_month: { count: 0, total: '0.00' },
      follow_ups: { overdue: [], today: [], overdue_total: 0, today_total: 0 },
      meetings: { today: [], upcoming: [], upcoming_total: 0 },
    });
    expect(d.by_status.map((x) => [x.status, x.count])).toEqual(['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'].map((x) => [x, 0]));
  });

  it('answers follow-ups due, meetings with their invitees, the pipeline and the month’s wins', async () => {
    const dueToday = await lead('Today Person', { status: 'contacted', estimated_value: '100.50', next_follow_up: day() });
    const overdue = await lead('Late Person', { status: 'qualified', estimated_value: '200.25', next_follow_up: day(-2) });
    await lead('Later Person', { status: 'proposal', estimated_value: '0.05', next_follow_up: day(3) });
    await lead('Won Person', { status: 'won', estimated_value: '300.10', next_follow_up: day(-1) });
    await lead('Lost Person', { status: 'lost', estimated_value: '50', lost_reason: 'No budget' });
    const moved = await lead('Moved Person', { status: 'proposal', estimated_value: '0.10' });
    expect((await api('PUT', `/api/crm/leads/${moved.id}/status`, mine, { status: 'won' })).status).toBe(200);
    const contact = await created<Contact>('/api/crm/contacts', { name: 'Carla Contact' });

    const todays = await meeting('Morning review', day(), [`contact:${contact.id}`, `lead:${dueToday.id}`]);
    const next = await meeting('Next week call', day(6), [`lead:${overdue.id}`]);
    await meeting('Old chat', day(-3), [`contact:${contact.id}`]);

    const d = await dashboard();
    expect(d.has_records).toBe(true);
    expect(d.follow_ups.today.map((f) => f.name)).toEqual(['Today Person']);
    expect(d.follow_ups.overdue).toEqual([
      { id: overdue.id, name: 'Late Person', company: '', status: 'qualified', estimated_value: '200.25', next_follow_up: day(-2) },
    ]);
    expect([d.follow_ups.today_total, d.follow_ups.overdue_total]).toEqual([1, 1]);
    expect(d.meetings.today.map((m) => m.id)).toEqual([todays.id]);
    expect(d.meetings.today[0].invitees).toEqual([
      { kind: 'contact', id: contact.id, name: 'Carla Contact' },
      { kind: 'lead', id: dueToday.id, name: 'Today Person' },
    ]);
    expect(d.meetings.upcoming.map((m) => m.id)).toEqual([next.id]);
    expect(d.meetings.upcoming_total).toBe(1);
    // 100.50 + 200.25 + 0.05: exact decimals.
    expect(d.pipeline).toEqual({ value: '300.80', count: 3 });
    expect(d.won_this_month).toEqual({ count: 2, value: '300.20' });
    expect(d.by_status.find((x) => x.status === 'lost')).toEqual({ status: 'lost', count: 1, value: '50.00' });

    // Reopening a won lead takes it out of the month's wins.
    expect((await api('PUT', `/api/crm/leads/${moved.id}/status`, mine, { status: 'qualified' })).status).toBe(200);
    expect((await dashboard()).won_this_month).toEqual({ count: 1, value: '300.10' });
    // The other member sees none of it.
    expect((await dashboard(theirs)).has_records).toBe(false);
  });

  it('refuses a time zone that names none', async () => {
    const bad = await api('GET', '/api/crm/dashboard?tz=Mars%2FOlympus', mine);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ tz: ['validation:invalidChoice'] });
    expect((await api('GET', '/api/crm/dashboard?tz=', mine)).status).toBe(422);
    expect((await api('GET', '/api/crm/dashboard', undefined)).status).toBe(401);
  });
});

describe('meetings with several invitees', () => {
  it('invites contacts and leads, shows them on the detail, the agenda and each timeline; edits them', async () => {
    const a = await created<Contact>('/api/crm/contacts', { name: 'Ana Invitee' });
    const b = await lead('Bruno Invitee');
    const c = await lead('Cora Invitee');
    const m = await meeting('Three of us', day(10), [`contact:${a.id}`, `lead:${b.id}`, `lead:${b.id}`]);
    expect(m.invitees).toEqual([
      { kind: 'contact', id: a.id, name: 'Ana Invitee' },
      { kind: 'lead', id: b.id, name: 'Bruno Invitee' },
    ]);
    expect(m.who).toBe('Ana Invitee, Bruno Invitee');
    expect((await api('GET', `/api/crm/meetings/${m.id}`, mine)).body.data.invitees).toHaveLength(2);
    const agenda = (await api('GET', '/api/crm/agenda?sort=asc&limit=100', mine)).body.data.items as Meeting[];
    expect(agenda.find((x) => x.id === m.id)?.invitees.map((i) => i.name)).toEqual(['Ana Invitee', 'Bruno Invitee']);
    for (const url of [`/api/crm/contacts/${a.id}/timeline`, `/api/crm/leads/${b.id}/timeline`]) {
      const items = (await api('GET', url, mine)).body.data.items;
      expect(items.find((e: { kind: string; id: number }) => e.kind === 'meeting' && e.id === m.id), url).toBeTruthy();
    }

    const edited = await api('PUT', `/api/crm/meetings/${m.id}`, mine, { title: 'Three of us', date: day(10), time: '12:00', time_zone: TZ, duration_minutes: '30', invitees: [`lead:${c.id}`] });
    expect(edited.status).toBe(200);
    expect(edited.body.data.invitees).toEqual([{ kind: 'lead', id: c.id, name: 'Cora Invitee' }]);
    const timeline = (await api('GET', `/api/crm/contacts/${a.id}/timeline`, mine)).body.data.items;
    expect(timeline.some((e: { kind: string; id: number }) => e.kind === 'meeting' && e.id === m.id)).toBe(false);
    // A deleted lead is no longer shown as invited.
    await api('DELETE', `/api/crm/leads/${c.id}`, mine);
    expect((await api('GET', `/api/crm/meetings/${m.id}`, mine)).body.data.invitees).toEqual([]);
  });

  it("refuses another member's contacts and leads and bad references with a field error, storing nothing", async () => {
    const mineContact = await created<Contact>('/api/crm/contacts', { name: 'Own Contact' });
    const theirLead = await lead('Their Lead', {}).then(async () => created<Lead>('/api/crm/leads', { name: 'Foreign Lead', source: 'event', status: 'new' }, theirs));
    const before = await s.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM crm_meetings`);
    const body = (invitees: unknown) => ({ title: 'Sneaky', date: day(5), time: '10:00', time_zone: TZ, duration_minutes: '30', invitees });
    for (const invitees of [[`contact:${mineContact.id}`, `lead:${theirLead.id}`], ['lead:2147483000'], ['person:1'], 'contact:1']) {
      const res = await api('POST', '/api/crm/meetings', mine, body(invitees));
      expect(res.status, JSON.stringify(invitees)).toBe(422);
      expect(res.body.errors, JSON.stringify(invitees)).toEqual({ invitees: ['validation:invalidChoice'] });
    }
    const notText = await api('POST', '/api/crm/meetings', mine, body([5]));
    expect(notText.status).toBe(422);
    expect(notText.body.errors).toEqual({ 'invitees.0': ['validation:invalidChoice'] });
    const tooMany = await api('POST', '/api/crm/meetings', mine, body(Array.from({ length: 51 }, (_, i) => `lead:${i + 1}`)));
    expect(tooMany.status).toBe(422);
    expect((await s.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM crm_meetings`))[0].n).toBe(before[0].n);
    // Their meeting cannot be read, changed or given my people.
    const theirs1 = await meeting('Theirs', day(4), [`lead:${theirLead.id}`], '09:00', theirs);
    expect((await api('GET', `/api/crm/meetings/${theirs1.id}`, mine)).status).toBe(404);
    expect((await api('PUT', `/api/crm/meetings/${theirs1.id}`, mine, body([`contact:${mineContact.id}`]))).status).toBe(404);
    expect((await api('GET', `/api/crm/meetings/${theirs1.id}`, theirs)).body.data.invitees).toEqual([{ kind: 'lead', id: theirLead.id, name: 'Foreign Lead' }]);
  });
});

describe('CRM analytics', () => {
  it('counts leads per month by source and status, and the win and lead → contact rates', async () => {
    const token = (await createSession(s.database.db, (await bulkMembers(s.database, 1, 45))[0].id)).token;
    const make = (name: string, source: string, status: string) => created<Lead>('/api/crm/leads', { name, source, status }, token);
    const l1 = await make('A1', 'event', 'won');
    const l2 = await make('A2', 'event', 'lost');
    const l3 = await make('A3', 'referral', 'new');
    const l4 = await make('A4', 'website', 'won');
    const old = await make('A5', 'social', 'contacted');
    // Two leads created two months ago (in the member's zone), one long before any period.
    await s.database.rows(sql`UPDATE crm_leads SET created_at = now() - interval '62 days' WHERE id IN (${l4.id}, ${old.id})`);
    const ancient = await make('A6', 'advert', 'new');
    await s.database.rows(sql`UPDATE crm_leads SET created_at = now() - interval '900 days' WHERE id = ${ancient.id}`);
    expect((await api('POST', `/api/crm/leads/${l1.id}/convert`, token)).status).toBe(201);

    const res = await api<{ data: CrmAnalytics }>('GET', `/api/crm/analytics?period=6m&tz=${encodeURIComponent(TZ)}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const a = res.body.data;
    const thisMonth = day().slice(0, 7);
    expect(a.months).toHaveLength(6);
    expect(a.months[5]).toBe(thisMonth);
    expect(a.months[0]).toBe(addMonths(thisMonth, -5));
    const now = a.leads_by_source.find((r) => r.month === thisMonth)!.values;
    expect(now).toEqual({ website: 0, referral: 1, social: 0, event: 2, advert: 0, other: 0 });
    const sum = (rows: CrmAnalytics['leads_by_source'], key: string) => rows.reduce((n, r) => n + r.values[key], 0);
    expect(sum(a.leads_by_source, 'website')).toBe(1);
    expect(sum(a.leads_by_source, 'social')).toBe(1);
    expect(sum(a.leads_by_source, 'advert')).toBe(0);
    expect(a.leads_by_status.find((r) => r.month === thisMonth)!.values).toMatchObject({ won: 1, lost: 1, new: 1 });
    // Closed in the period: A1, A2, A4 (closed today); 2 won of 3. Created in the period: 5, one became a contact.
    expect(a.conversion).toEqual({ won: 2, closed: 3, win_rate: '66.7', leads: 5, to_contact: 1, contact_rate: '20.0' });

    const longer = (await api<{ data: CrmAnalytics }>('GET', '/api/crm/analytics?period=24m', token)).body.data;
    expect(longer.months).toHaveLength(24);
    expect((await api<{ data: CrmAnalytics }>('GET', '/api/crm/analytics', token)).body.data.period).toBe('12m');
    // Another member's analytics hold none of these leads.
    const other = (await api<{ data: CrmAnalytics }>('GET', '/api/crm/analytics?period=24m', theirs)).body.data;
    expect(['website', 'referral', 'social'].map((k) => sum(other.leads_by_source, k))).toEqual([0, 0, 0]);
    expect(other.conversion.won).toBe(0);
  });

  it('refuses periods and time zones it does not know', async () => {
    for (const q of ['period=5m', 'period=', 'period=12', 'period[]=3m', 'tz=Nowhere%2FCity'])
      expect((await api('GET', `/api/crm/analytics?${q}`, mine)).status, q).toBe(422);
    const bad = await api('GET', '/api/crm/analytics?period=forever', mine);
    expect(bad.body.errors).toEqual({ period: ['validation:invalidChoice'] });
  });

  it('answers rates in exact tenths of a percent', () => {
    expect(percent(2, 3)).toBe('66.7');
    expect(percent(1, 8)).toBe('12.5');
    expect(percent(0, 4)).toBe('0.0');
    expect(percent(3, 0)).toBeNull();
    expect(addMonths('2026-11', 2)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
  });
});

/** Decimal text as hundredths, and back (the test's own arithmetic, without floats). */
const cents = (v: string) => {
  const [i, f = ''] = v.split('.');
  return BigInt(i) * 100n + BigInt((f + '00').slice(0, 2));
};
const decimal = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
const sumOf = (sales: Sale[]) => decimal(sales.reduce((n, x) => n + cents(x.total), 0n));

describe('sales in the CRM analytics, dashboard and hub', () => {
  it("sums the member's own live sales per month in the member's time zone, exactly", async () => {
    const [member] = await bulkMembers(s.database, 1, 49);
    const token = (await createSession(s.database.db, member.id)).token;
    const buyer = await created<Contact>('/api/crm/contacts', { name: 'Berta Buyer' }, token);
    const { catalogue } = (await api<{ data: SaleChoices }>('GET', '/api/crm/sales/choices', token)).body.data;
    const product = catalogue.find((c) => c.kind === 'product')!;
    const pack = catalogue.find((c) => c.kind === 'package')!;
    const sale = (lines: Array<[typeof product, number]>, who = token, contact = buyer.id) =>
      created<Sale>('/api/crm/sales', { contact_id: String(contact), due_days: '30', lines: lines.map(([c, q]) => ({ item: c.item, quantity: String(q) })) }, who);

    const empty = (await api<{ data: CrmAnalytics }>('GET', `/api/crm/analytics?period=3m&tz=${encodeURIComponent(TZ)}`, token)).body.data;
    expect(empty.sales_per_month).toEqual(empty.months.map((month) => ({ month, total: '0.00', count: 0 })));

    const a = await sale([[product, 3], [pack, 1]]);
    // The server's total is the catalogue's prices times the quantities.
    expect(cents(a.total)).toBe(cents(product.price) * 3n + cents(pack.price));
    const b = await sale([[product, 7]]);
    const early = await sale([[pack, 2]]);
    const lastMonth = await sale([[product, 1]]);
    const older = await sale([[pack, 1], [product, 2]]);
    const gone = await sale([[product, 5]]);
    const ancient = await sale([[product, 4]]);
    // 00:30 on the 1st of this month in the member's zone: still the day before in UTC, this month for the member.
    await s.database.rows(sql`UPDATE crm_sales SET created_at = (date_trunc('month', now() AT TIME ZONE ${TZ}) + interval '30 minutes') AT TIME ZONE ${TZ} WHERE id = ${early.id}`);
    await s.database.rows(sql`UPDATE crm_sales SET created_at = (date_trunc('month', now() AT TIME ZONE ${TZ}) - interval '1 day') AT TIME ZONE ${TZ} WHERE id = ${lastMonth.id}`);
    await s.database.rows(sql`UPDATE crm_sales SET created_at = (date_trunc('month', now() AT TIME ZONE ${TZ}) - interval '1 month' - interval '1 day') AT TIME ZONE ${TZ} WHERE id = ${older.id}`);
    await s.database.rows(sql`UPDATE crm_sales SET created_at = now() - interval '900 days' WHERE id = ${ancient.id}`);
    await s.database.rows(sql`UPDATE crm_sales SET deleted_at = now() WHERE id = ${gone.id}`);
    await s.database.rows(sql`UPDATE crm_invoices SET deleted_at = now() WHERE sale_id = ${gone.id}`);
    // Another member's sales count for them only.
    const theirBuyer = await created<Contact>('/api/crm/contacts', { name: 'Their Buyer' }, theirs);
    await sale([[product, 9]], theirs, theirBuyer.id);

    const res = await api<{ data: CrmAnalytics }>('GET', `/api/crm/analytics?period=3m&tz=${encodeURIComponent(TZ)}`, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [m2, m1, m0] = res.body.data.months;
    expect(res.body.data.sales_per_month).toEqual([
      { month: m2, total: sumOf([older]), count: 1 },
      { month: m1, total: sumOf([lastMonth]), count: 1 },
      { month: m0, total: sumOf([a, b, early]), count: 3 },
    ]);
    // In UTC the sale of the 1st at 00:30 belongs to the month before.
    const utc = (await api<{ data: CrmAnalytics }>('GET', '/api/crm/analytics?period=3m&tz=UTC', token)).body.data.sales_per_month;
    // (Unless the test runs in the first hour of the member's month, when UTC is still in the month before.)
    if (utc.at(-1)!.month === m0) expect(utc.at(-1)).toEqual({ month: m0, total: sumOf([a, b]), count: 2 });
    const longest = (await api<{ data: CrmAnalytics }>('GET', `/api/crm/analytics?period=24m&tz=${encodeURIComponent(TZ)}`, token)).body.data.sales_per_month;
    expect(longest.reduce((n, m) => n + m.count, 0)).toBe(5);

    const d = (await api<{ data: CrmDashboard }>('GET', `/api/crm/dashboard?tz=${encodeURIComponent(TZ)}`, token)).body.data;
    expect(d.sales_this_month).toEqual({ count: 3, total: sumOf([a, b, early]) });
    const counts = (await api<{ data: CrmCounts }>('GET', '/api/crm/counts', token)).body.data;
    expect([counts.sales, counts.invoices]).toEqual([6, 6]);
    // The other member: their one sale only.
    const theirsNow = (await api<{ data: CrmAnalytics }>('GET', `/api/crm/analytics?period=3m&tz=${encodeURIComponent(TZ)}`, theirs)).body.data;
    expect(theirsNow.sales_per_month.reduce((n, m) => n + m.count, 0)).toBe(1);
    expect((await dashboard(theirs)).sales_this_month.count).toBe(1);
  });
});

describe('CRM hub counts', () => {
  it("counts the member's own records only", async () => {
    const token = (await createSession(s.database.db, (await bulkMembers(s.database, 1, 47))[0].id)).token;
    await created('/api/crm/leads', { name: 'Open', source: 'other', status: 'new' }, token);
    await created('/api/crm/leads', { name: 'Closed', source: 'other', status: 'lost' }, token);
    const c = await created<Contact>('/api/crm/contacts', { name: 'Counted' }, token);
    await created('/api/crm/calls', { contact_id: String(c.id), direction: 'incoming', outcome: 'busy', duration_minutes: '1', date: day(), time: '09:00' }, token);
    await meeting('Soon', day(2), [`contact:${c.id}`], '10:00', token);
    const res = await api<{ data: CrmCounts }>('GET', '/api/crm/counts', token);
    expect(res.body.data).toEqual({ leads: 2, open_leads: 1, contacts: 1, upcoming_meetings: 1, calls: 1, sales: 0, invoices: 0 });
    expect((await api('GET', '/api/crm/counts', undefined)).status).toBe(401);
  });
});

describe('the migration of meetings to several invitees', () => {
  it("keeps an existing meeting's contact and lead as its invitees", async () => {
    const db = await openDatabase({ dataDir: null, databaseUrl: null });
    try {
      const files = readdirSync(path.join(__dirname, '../../server/db/migrations')).filter((f) => f.endsWith('.sql')).sort();
      const mine25 = files.find((f) => f.startsWith('0025_'))!;
      const later = files.filter((f) => f > mine25);
      // Everything before this migration is applied first.
      await db.execText('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      for (const f of [mine25, ...later]) await db.execText(`INSERT INTO schema_migrations (name) VALUES ('${f}')`);
      await migrate(db);
      await db.execText(`
        INSERT INTO members (id, username, password_hash, first_name) VALUES (900, 'old.member', 'x', 'Old');
        INSERT INTO crm_leads (id, member_id, name, source, status) VALUES (901, 900, 'Old Lead', 'event', 'won');
        INSERT INTO crm_contacts (id, member_id, name) VALUES (902, 900, 'Old Contact');
        INSERT INTO crm_meetings (id, member_id, title, starts_at, time_zone, lead_id, contact_id, who)
          VALUES (903, 900, 'Both', now(), 'UTC', 901, 902, 'Old Contact, Old Lead'), (904, 900, 'Lead only', now(), 'UTC', 901, NULL, 'Old Lead');
        DELETE FROM schema_migrations WHERE name >= '${mine25}';`);
      await migrate(db);
      const rows = await db.rows<{ meeting_id: number; lead_id: number | null; contact_id: number | null }>(
        sql`SELECT meeting_id, lead_id, contact_id FROM crm_meeting_invitees ORDER BY meeting_id, lead_id NULLS FIRST`,
      );
      expect(rows).toEqual([
        { meeting_id: 903, lead_id: null, contact_id: 902 },
        { meeting_id: 903, lead_id: 901, contact_id: null },
        { meeting_id: 904, lead_id: 901, contact_id: null },
      ]);
      // A lead won before the migration counts as closed when it was last changed.
      const [lead] = await db.rows<{ closed: boolean; interest: string }>(sql`SELECT closed_at IS NOT NULL AS closed, interest FROM crm_leads WHERE id = 901`);
      expect(lead).toEqual({ closed: true, interest: 'customer' });
    } finally {
      await db.close();
    }
  });
});

/**
 * The CRM's dashboard (what to do next), its analytics per month and the phone hub's counts. Every query
 * names the member; each answer's independent queries run together (Promise.all). Days and months are the
 * member's, in the time zone the client names (`tz`); sums of money stay decimal (numeric in SQL, then
 * server/lib/money.ts).
 */
import { and, asc, count, eq, gte, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import {
  DASHBOARD_LIST_LIMIT,
  periodMonths,
  type AnalyticsPeriod,
  type CrmAnalytics,
  type CrmCounts,
  type CrmDashboard,
  type FollowUp,
  type MonthRow,
} from '../../src/schemas/crm-dashboard.schema';
import { LEAD_SOURCES, LEAD_STATUSES, OPEN_LEAD_STATUSES } from '../../src/schemas/crm.schema';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { crmCalls, crmContacts, crmLeads, crmMeetings } from '../db/schema-crm';
import { crmInvoices, crmSales } from '../db/schema-crm-sales';
import { money2 } from './crm-leads';
import { localParts, toMeeting, withInvitees, zonedInstant } from './crm-people';
import { add, format, parse } from './money';

const OPEN = sql`${crmLeads.status} NOT IN ('won', 'lost')`;
const liveLeads = (member: MemberRow) => and(eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt));
/** The member's sales recorded from `from` on (deleted ones left out). */
const salesSince = (member: MemberRow, from: Date) => and(eq(crmSales.memberId, member.id), isNull(crmSales.deletedAt), gte(crmSales.createdAt, from));
/** How many sales and their summed total, exact (numeric in SQL, decimal text out). */
const salesSums = { count: sql<number>`count(*)::int`, total: sql<string>`coalesce(sum(${crmSales.total}), 0)::text` };

/** yyyy-MM-dd plus `days` (calendar arithmetic, no time zone involved). */
const addDays = (ymd: string, days: number) => new Date(Date.parse(`${ymd}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** yyyy-MM plus `months`. */
export function addMonths(ym: string, months: number): string {
  const [y, m] = ym.split('-').map(Number);
  const i = y * 12 + (m - 1) + months;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** A share as percent text with one digit (integers only: no float decides a figure), or null of nothing. */
export function percent(part: number, whole: number): string | null {
  if (!whole) return null;
  const tenths = Math.round((part * 1000) / whole);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}

const toFollowUp = (r: typeof crmLeads.$inferSelect): FollowUp => ({
  id: r.id,
  name: r.name,
  company: r.company,
  status: r.status,
  estimated_value: money2(r.estimatedValue),
  next_follow_up: r.nextFollowUp ?? '',
});

/** What to do next: follow-ups due, today's and the next meetings, the pipeline by status, the month's wins. */
export async function crmDashboard(db: Db, member: MemberRow, timeZone: string, now = new Date()): Promise<CrmDashboard> {
  const today = localParts(now, timeZone).date;
  const dayStart = zonedInstant(today, '00:00', timeZone)!;
  const tomorrowStart = zonedInstant(addDays(today, 1), '00:00', timeZone)!;
  const monthStart = zonedInstant(`${today.slice(0, 8)}01`, '00:00', timeZone)!;
  const due = (when: 'overdue' | 'today') =>
    and(liveLeads(member), OPEN, when === 'overdue' ? lt(crmLeads.nextFollowUp, today) : eq(crmLeads.nextFollowUp, today));
  const liveMeetings = and(eq(crmMeetings.memberId, member.id), isNull(crmMeetings.deletedAt));

  const [overdue, dueToday, dueCounts, meetingsToday, upcoming, upcomingTotal, byStatus, won, sales, records] = await Promise.all([
    db.select().from(crmLeads).where(due('overdue')).orderBy(asc(crmLeads.nextFollowUp), asc(crmLeads.id)).limit(DASHBOARD_LIST_LIMIT),
    db.select().from(crmLeads).where(due('today')).orderBy(asc(crmLeads.name), asc(crmLeads.id)).limit(DASHBOARD_LIST_LIMIT),
    db
      .select({ overdue: sql<number>`count(*) FILTER (WHERE ${crmLeads.nextFollowUp} < ${today})::int`, today: sql<number>`count(*) FILTER (WHERE ${crmLeads.nextFollowUp} = ${today})::int` })
      .from(crmLeads)
      .where(and(liveLeads(member), OPEN, lte(crmLeads.nextFollowUp, today))),
    db
      .select()
      .from(crmMeetings)
      .where(and(liveMeetings, gte(crmMeetings.startsAt, dayStart), lt(crmMeetings.startsAt, tomorrowStart)))
      .orderBy(asc(crmMeetings.startsAt), asc(crmMeetings.id))
      .limit(DASHBOARD_LIST_LIMIT)
      .then((rows) => withInvitees(db, member, rows.map(toMeeting))),
    db
      .select()
      .from(crmMeetings)
      .where(and(liveMeetings, gte(crmMeetings.startsAt, tomorrowStart)))
      .orderBy(asc(crmMeetings.startsAt), asc(crmMeetings.id))
      .limit(DASHBOARD_LIST_LIMIT)
      .then((rows) => withInvitees(db, member, rows.map(toMeeting))),
    db.select({ n: count() }).from(crmMeetings).where(and(liveMeetings, gte(crmMeetings.startsAt, tomorrowStart))),
    db
      .select({ status: crmLeads.status, count: sql<number>`count(*)::int`, value: sql<string>`coalesce(sum(${crmLeads.estimatedValue}), 0)::text` })
      .from(crmLeads)
      .where(liveLeads(member))
      .groupBy(crmLeads.status),
    db
      .select({ count: sql<number>`count(*)::int`, value: sql<string>`coalesce(sum(${crmLeads.estimatedValue}), 0)::text` })
      .from(crmLeads)
      .where(and(liveLeads(member), eq(crmLeads.status, 'won'), isNotNull(crmLeads.closedAt), gte(crmLeads.closedAt, monthStart))),
    db.select(salesSums).from(crmSales).where(salesSince(member, monthStart)),
    db
      .select({
        any: sql<boolean>`EXISTS (SELECT 1 FROM ${crmLeads} WHERE ${crmLeads.memberId} = ${member.id} AND ${crmLeads.deletedAt} IS NULL)
          OR EXISTS (SELECT 1 FROM ${crmContacts} WHERE ${crmContacts.memberId} = ${member.id} AND ${crmContacts.deletedAt} IS NULL)`,
      })
      .from(sql`(SELECT 1) AS one`),
  ]);

  const statusRow = (s: string) => byStatus.find((r) => r.status === s);
  const open = OPEN_LEAD_STATUSES.map((s) => statusRow(s));
  const brief = (m: Awaited<typeof meetingsToday>[number]) => ({
    id: m.id,
    title: m.title,
    starts_at: m.starts_at,
    date: m.date,
    time: m.time,
    time_zone: m.time_zone,
    duration_minutes: m.duration_minutes,
    place: m.place,
    link: m.link,
    invitees: m.invitees,
  });
  return {
    today,
    follow_ups: {
      overdue: overdue.map(toFollowUp),
      overdue_total: Number(dueCounts[0]?.overdue ?? 0),
      today: dueToday.map(toFollowUp),
      today_total: Number(dueCounts[0]?.today ?? 0),
    },
    meetings: { today: meetingsToday.map(brief), upcoming: upcoming.map(brief), upcoming_total: Number(upcomingTotal[0]?.n ?? 0) },
    by_status: LEAD_STATUSES.map((status) => ({ status, count: Number(statusRow(status)?.count ?? 0), value: money2(statusRow(status)?.value) })),
    pipeline: {
      value: format(add(...open.map((r) => parse(r?.value ?? '0'))), 2),
      count: open.reduce((n, r) => n + Number(r?.count ?? 0), 0),
    },
    won_this_month: { count: Number(won[0]?.count ?? 0), value: money2(won[0]?.value) },
    sales_this_month: { count: Number(sales[0]?.count ?? 0), total: money2(sales[0]?.total) },
    has_records: !!records[0]?.any,
  };
}

/** Rows of `(month, key, n)` as one row per month of `months`, every key present (zeros included). */
function monthly(months: string[], keys: readonly string[], rows: Array<{ month: string; key: string; n: number }>): MonthRow[] {
  return months.map((month) => ({
    month,
    values: Object.fromEntries(keys.map((k) => [k, Number(rows.find((r) => r.month === month && r.key === k)?.n ?? 0)])),
  }));
}

/**
 * Per month of the period: leads created by source and by the status they have now; leads closed in the
 * period (won / closed) and leads created in it that became contacts; sales recorded (total and count).
 *
 * A new series is one more query in the Promise.all below and one more field of the answer
 * (crmAnalyticsSchema).
 */
export async function crmAnalytics(db: Db, member: MemberRow, period: AnalyticsPeriod, timeZone: string, now = new Date()): Promise<CrmAnalytics> {
  const thisMonth = localParts(now, timeZone).date.slice(0, 7);
  const n = periodMonths(period);
  const months = Array.from({ length: n }, (_, i) => addMonths(thisMonth, i - n + 1));
  const from = zonedInstant(`${months[0]}-01`, '00:00', timeZone)!;
  const inPeriod = and(liveLeads(member), gte(crmLeads.createdAt, from));
  const month = sql<string>`to_char(${crmLeads.createdAt} AT TIME ZONE ${timeZone}, 'YYYY-MM')`;
  const perMonth = (key: typeof crmLeads.source | typeof crmLeads.status) =>
    db
      .select({ month, key: sql<string>`${key}`, n: sql<number>`count(*)::int` })
      .from(crmLeads)
      .where(inPeriod)
      // By position: the month expression carries the zone as a parameter of its own.
      .groupBy(sql`1`, sql`2`);

  const [bySource, byStatus, closed, created, sales] = await Promise.all([
    perMonth(crmLeads.source),
    perMonth(crmLeads.status),
    db
      .select({ won: sql<number>`count(*) FILTER (WHERE ${crmLeads.status} = 'won')::int`, closed: sql<number>`count(*)::int` })
      .from(crmLeads)
      .where(and(liveLeads(member), isNotNull(crmLeads.closedAt), gte(crmLeads.closedAt, from))),
    db
      .select({ leads: sql<number>`count(*)::int`, toContact: sql<number>`count(${crmLeads.contactId})::int` })
      .from(crmLeads)
      .where(inPeriod),
    db
      .select({ month: sql<string>`to_char(${crmSales.createdAt} AT TIME ZONE ${timeZone}, 'YYYY-MM')`, ...salesSums })
      .from(crmSales)
      .where(salesSince(member, from))
      .groupBy(sql`1`),
  ]);
  const won = Number(closed[0]?.won ?? 0);
  const closedCount = Number(closed[0]?.closed ?? 0);
  const leads = Number(created[0]?.leads ?? 0);
  const toContact = Number(created[0]?.toContact ?? 0);
  return {
    period,
    months,
    leads_by_source: monthly(months, LEAD_SOURCES, bySource),
    leads_by_status: monthly(months, LEAD_STATUSES, byStatus),
    conversion: { won, closed: closedCount, win_rate: percent(won, closedCount), leads, to_contact: toContact, contact_rate: percent(toContact, leads) },
    sales_per_month: months.map((m) => {
      const row = sales.find((r) => r.month === m);
      return { month: m, total: money2(row?.total), count: Number(row?.count ?? 0) };
    }),
  };
}

/** The hub's counts: one round trip of sub-selects. */
export async function crmCounts(db: Db, member: MemberRow, now = new Date()): Promise<CrmCounts> {
  const id = member.id;
  const [row] = await db
    .select({
      leads: sql<number>`(SELECT count(*)::int FROM ${crmLeads} WHERE ${crmLeads.memberId} = ${id} AND ${crmLeads.deletedAt} IS NULL)`,
      open_leads: sql<number>`(SELECT count(*)::int FROM ${crmLeads} WHERE ${crmLeads.memberId} = ${id} AND ${crmLeads.deletedAt} IS NULL AND ${OPEN})`,
      contacts: sql<number>`(SELECT count(*)::int FROM ${crmContacts} WHERE ${crmContacts.memberId} = ${id} AND ${crmContacts.deletedAt} IS NULL)`,
      upcoming_meetings: sql<number>`(SELECT count(*)::int FROM ${crmMeetings} WHERE ${crmMeetings.memberId} = ${id} AND ${crmMeetings.deletedAt} IS NULL AND ${crmMeetings.startsAt} >= ${now.toISOString()}::timestamptz)`,
      calls: sql<number>`(SELECT count(*)::int FROM ${crmCalls} WHERE ${crmCalls.memberId} = ${id} AND ${crmCalls.deletedAt} IS NULL)`,
      sales: sql<number>`(SELECT count(*)::int FROM ${crmSales} WHERE ${crmSales.memberId} = ${id} AND ${crmSales.deletedAt} IS NULL)`,
      invoices: sql<number>`(SELECT count(*)::int FROM ${crmInvoices} WHERE ${crmInvoices.memberId} = ${id} AND ${crmInvoices.deletedAt} IS NULL)`,
    })
    .from(sql`(SELECT 1) AS one`);
  return {
    leads: Number(row.leads),
    open_leads: Number(row.open_leads),
    contacts: Number(row.contacts),
    upcoming_meetings: Number(row.upcoming_meetings),
    calls: Number(row.calls),
    sales: Number(row.sales),
    invoices: Number(row.invoices),
  };
}

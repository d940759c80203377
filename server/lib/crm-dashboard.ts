/**
 * The CRM's dashboard (what to do next), its analytics per month and the phone hub's counts. Every query
 * names the member; each answer's independent queries run together (Promise.all). Days and months are the
 * member's, in the time zone the client names (`tz`); sums of money stay decimal (numeric in SQL, then
 * server/lib/money.ts).
 */
import { and, eq, gte, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
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
import { LEAD_SOURCES, LEAD_STATUSES, OPEN_LEAD_STATUSES, type Invitee } from '../../src/schemas/crm.schema';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { crmCalls, crmContacts, crmLeads, crmMeetings } from '../db/schema-crm';
import { crmInvoices, crmSales } from '../db/schema-crm-sales';
import { money2 } from './crm-leads';
import { localParts, zonedInstant } from './crm-people';
import { jsonOf } from './figures';
import { rowsOf } from './ledger';
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

/** A follow-up as the dashboard's statement lists it (JSON: numbers of money as text). */
interface FollowUpJson {
  id: number;
  name: string;
  company: string;
  status: string;
  estimated_value: string;
  next_follow_up: string | null;
}
/** A meeting as the dashboard's statement lists it. */
interface MeetingJson {
  id: number;
  title: string;
  starts_at: string;
  time_zone: string;
  duration_minutes: number;
  place: string;
  link: string;
}
/** An invitee of a listed meeting as the statement lists it: [meeting id, lead id, contact id, lead name, contact name]. */
type InviteeJson = [number, number | null, number | null, string | null, string | null];
interface DashboardRow {
  overdue: string | null;
  due_today: string | null;
  overdue_total: number;
  today_total: number;
  meetings_today: string | null;
  upcoming: string | null;
  upcoming_total: number;
  invitees: string | null;
  by_status: string | null;
  won_count: number;
  won_value: string;
  sales_count: number;
  sales_total: string;
  any: boolean;
}

const toFollowUp = (r: FollowUpJson): FollowUp => ({
  id: r.id,
  name: r.name,
  company: r.company,
  status: r.status,
  estimated_value: money2(r.estimated_value),
  next_follow_up: r.next_follow_up ?? '',
});

/**
 * Follow-ups as JSON text: open live leads of the member matching `due`, in `order`, at most
 * DASHBOARD_LIST_LIMIT. Columns are named by table, so the order is the table's (the overdue ones are read
 * in the order of crm_leads_follow_up_idx) rather than that of the listed text.
 */
const followUpsJson = (memberId: number, due: SQL, order: SQL) => sql`(SELECT json_agg(f)::text FROM (
    SELECT l.id, l.name, l.company, l.status, l.estimated_value::text AS estimated_value, l.next_follow_up::text AS next_follow_up
    FROM crm_leads l WHERE l.member_id = ${memberId} AND l.deleted_at IS NULL AND l.status NOT IN ('won', 'lost') AND ${due}
    ORDER BY ${order} LIMIT ${DASHBOARD_LIST_LIMIT}) f)`;

/** The member's live meetings `when`, soonest first, at most DASHBOARD_LIST_LIMIT (a part of the statement's WITH). */
const meetingsOf = (memberId: number, when: SQL) => sql`(SELECT mt.id, mt.title, mt.starts_at, mt.time_zone, mt.duration_minutes, mt.place, mt.link
    FROM crm_meetings mt WHERE mt.member_id = ${memberId} AND mt.deleted_at IS NULL AND ${when}
    ORDER BY mt.starts_at, mt.id LIMIT ${DASHBOARD_LIST_LIMIT})`;

/** A meeting of the statement as the dashboard shows it (its day and time in its own zone). */
function meetingBrief(m: MeetingJson, invitees: Invitee[] = []) {
  const startsAt = new Date(m.starts_at);
  return {
    id: m.id,
    title: m.title,
    starts_at: startsAt.toISOString(),
    ...localParts(startsAt, m.time_zone),
    time_zone: m.time_zone,
    duration_minutes: m.duration_minutes,
    place: m.place,
    link: m.link,
    invitees,
  };
}

/**
 * What to do next: follow-ups due, today's and the next meetings, the pipeline by status, the month's wins.
 * One statement (lists as JSON text), so one round trip and one prepared plan per connection.
 */
export async function crmDashboard(db: Db, member: MemberRow, timeZone: string, now = new Date()): Promise<CrmDashboard> {
  const today = localParts(now, timeZone).date;
  const dayStart = zonedInstant(today, '00:00', timeZone)!.toISOString();
  const tomorrowStart = zonedInstant(addDays(today, 1), '00:00', timeZone)!.toISOString();
  const monthStart = zonedInstant(`${today.slice(0, 8)}01`, '00:00', timeZone)!.toISOString();
  const m = member.id;
  // Leads per status, follow-ups per day and whether there are leads or contacts are maintained figures
  // (migration 0039), read by key; invitees of the listed meetings come in one list (a contact by its key,
  // ordered by it, as a plan may otherwise scan a table of few contacts once per invitee). The statement
  // starts with SELECT, so it is kept prepared as a read (server/db/client.ts).
  const [r] = await rowsOf<DashboardRow>(
    db,
    sql`SELECT * FROM (WITH meetings_today AS ${meetingsOf(m, sql`mt.starts_at >= ${dayStart}::timestamptz AND mt.starts_at < ${tomorrowStart}::timestamptz`)},
             upcoming AS ${meetingsOf(m, sql`mt.starts_at >= ${tomorrowStart}::timestamptz`)}
        SELECT
          ${followUpsJson(m, sql`l.next_follow_up < ${today}::date`, sql`l.next_follow_up, l.id`)} AS overdue,
          ${followUpsJson(m, sql`l.next_follow_up = ${today}::date`, sql`l.name, l.id`)} AS due_today,
          d.overdue_total, d.today_total,
          (SELECT json_agg(mt)::text FROM meetings_today mt) AS meetings_today,
          (SELECT json_agg(mt)::text FROM upcoming mt) AS upcoming,
          (SELECT count(*)::int FROM crm_meetings WHERE member_id = ${m} AND deleted_at IS NULL AND starts_at >= ${tomorrowStart}::timestamptz) AS upcoming_total,
          (SELECT json_agg(json_build_array(i.meeting_id, i.lead_id, i.contact_id,
                     (SELECT l.name FROM crm_leads l WHERE l.id = i.lead_id AND l.deleted_at IS NULL),
                     (SELECT c.name FROM crm_contacts c WHERE c.id = i.contact_id AND c.deleted_at IS NULL ORDER BY c.id LIMIT 1)) ORDER BY i.id)::text
             FROM crm_meeting_invitees i WHERE i.member_id = ${m} AND i.meeting_id IN (SELECT id FROM meetings_today UNION ALL SELECT id FROM upcoming)) AS invitees,
          (SELECT json_agg(json_build_array(status, leads, value::text))::text FROM crm_lead_figures WHERE member_id = ${m}) AS by_status,
          w.won_count, w.won_value, s.sales_count, s.sales_total,
          EXISTS (SELECT 1 FROM crm_lead_figures WHERE member_id = ${m} AND leads > 0)
            OR EXISTS (SELECT 1 FROM crm_figures WHERE member_id = ${m} AND contacts > 0) AS any
        FROM (SELECT coalesce(sum(leads) FILTER (WHERE day < ${today}::date), 0)::int AS overdue_total,
                     coalesce(sum(leads) FILTER (WHERE day = ${today}::date), 0)::int AS today_total
                FROM crm_follow_up_days WHERE member_id = ${m} AND day <= ${today}::date) d,
             (SELECT count(*)::int AS won_count, coalesce(sum(estimated_value), 0)::text AS won_value
                FROM crm_leads WHERE member_id = ${m} AND deleted_at IS NULL AND status = 'won' AND closed_at IS NOT NULL
                 AND closed_at >= ${monthStart}::timestamptz) w,
             (SELECT count(*)::int AS sales_count, coalesce(sum(total), 0)::text AS sales_total
                FROM crm_sales WHERE member_id = ${m} AND deleted_at IS NULL AND created_at >= ${monthStart}::timestamptz) s) dashboard`,
  );
  const byStatus = jsonOf<Array<[string, number, string]>>(r.by_status, []);
  const statusRow = (st: string) => byStatus.find(([status]) => status === st);
  const open = OPEN_LEAD_STATUSES.map((st) => statusRow(st));
  // Invitees of the listed meetings, in the order invited: leads and contacts still there.
  const invitees = new Map<number, Invitee[]>();
  for (const [meetingId, leadId, contactId, lead, contact] of jsonOf<InviteeJson[]>(r.invitees, [])) {
    const invitee: Invitee | null =
      leadId !== null ? (lead !== null ? { kind: 'lead', id: leadId, name: lead } : null) : contact !== null ? { kind: 'contact', id: contactId!, name: contact } : null;
    if (!invitee) continue;
    const list = invitees.get(meetingId);
    if (list) list.push(invitee);
    else invitees.set(meetingId, [invitee]);
  }
  const brief = (mt: MeetingJson) => meetingBrief(mt, invitees.get(mt.id));
  const meetingsToday = jsonOf<MeetingJson[]>(r.meetings_today, []).map(brief);
  const upcoming = jsonOf<MeetingJson[]>(r.upcoming, []).map(brief);
  return {
    today,
    follow_ups: {
      overdue: jsonOf<FollowUpJson[]>(r.overdue, []).map(toFollowUp),
      overdue_total: Number(r.overdue_total ?? 0),
      today: jsonOf<FollowUpJson[]>(r.due_today, []).map(toFollowUp),
      today_total: Number(r.today_total ?? 0),
    },
    meetings: { today: meetingsToday, upcoming, upcoming_total: Number(r.upcoming_total ?? 0) },
    by_status: LEAD_STATUSES.map((status) => ({ status, count: Number(statusRow(status)?.[1] ?? 0), value: money2(statusRow(status)?.[2]) })),
    pipeline: {
      value: format(add(...open.map((x) => parse(x?.[2] ?? '0'))), 2),
      count: open.reduce((n, x) => n + Number(x?.[1] ?? 0), 0),
    },
    won_this_month: { count: Number(r.won_count ?? 0), value: money2(r.won_value) },
    sales_this_month: { count: Number(r.sales_count ?? 0), total: money2(r.sales_total) },
    has_records: !!r.any,
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

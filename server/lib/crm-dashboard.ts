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
  type MonthRow,
} from '../../src/schemas/crm-dashboard.schema';
import { LEAD_SOURCES, LEAD_STATUSES, OPEN_LEAD_STATUSES, type Invitee } from '../../src/schemas/crm.schema';
import { fixedRead, fixedRows, type Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { crmCalls, crmContacts, crmLeads, crmMeetings } from '../db/schema-crm';
import { crmInvoices, crmSales } from '../db/schema-crm-sales';
import { money2 } from './crm-leads';
import { localParts, zonedInstant } from './crm-people';
import { jsonOf } from './figures';
import { isoUtc } from './ledger';
import { add, format, parse } from './money';
import { keptOr } from './kept-answers';

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

/** A meeting as the dashboard's statement lists it: [id, title, starts_at (ISO, UTC), time_zone, duration_minutes, place, link, today]. */
type MeetingJson = [number, string, string, string, number, string, string, boolean];
/** An invitee of a listed meeting as the statement lists it: [meeting id, lead id, contact id]. */
type InviteeJson = [number, number | null, number | null];

/** The values the dashboard's statement is run with, bound by name (the statement's text is written once). */
const at = {
  member: sql.placeholder('member'),
  today: sql.placeholder('today'),
  dayStart: sql.placeholder('dayStart'),
  tomorrowStart: sql.placeholder('tomorrowStart'),
  monthStart: sql.placeholder('monthStart'),
};
const LIMIT = sql.raw(String(DASHBOARD_LIST_LIMIT));

/**
 * Follow-ups as the answer's JSON text (objects joined by commas, in the schema's order, money rounded to
 * two digits as money2 rounds): open live leads of the member matching `due`, in `order`, at most
 * DASHBOARD_LIST_LIMIT. The overdue ones are read in the order of crm_leads_follow_up_idx.
 */
const followUpsJson = (due: SQL, order: SQL) => sql`(SELECT string_agg(row_to_json(f)::text, ',') FROM (
    SELECT l.id, l.name, l.company, l.status, round(l.estimated_value, 2)::text AS estimated_value, l.next_follow_up::text AS next_follow_up
    FROM crm_leads l WHERE l.member_id = ${at.member} AND l.deleted_at IS NULL AND l.next_follow_up IS NOT NULL
     AND l.status NOT IN ('won', 'lost') AND ${due}
    ORDER BY ${order} LIMIT ${LIMIT}) f)`;

/** The member's live meetings `when`, soonest first, at most DASHBOARD_LIST_LIMIT, each marked whether it is of today. */
const meetingsOf = (when: SQL, today: boolean) => sql`(SELECT mt.id, mt.title, mt.starts_at, mt.time_zone, mt.duration_minutes, mt.place, mt.link, ${sql.raw(String(today))} AS today
    FROM crm_meetings mt WHERE mt.member_id = ${at.member} AND mt.deleted_at IS NULL AND ${when}
    ORDER BY mt.starts_at, mt.id LIMIT ${LIMIT})`;

/**
 * The dashboard's one statement, its text written once (`fixedRead`): each call only binds the member, the
 * member's day and month (`at`), each value once. Follow-ups come as the answer's JSON text; meetings (today's,
 * then the next ones) and their invitees as JSON arrays, which the server completes with each meeting's local
 * day and time. Leads per status, follow-ups per day and whether there are contacts are maintained figures
 * (migration 0039), read by key; the listed meetings' invitees come in one list, their leads' and contacts'
 * names in one read each (not one read per invitee), among the member's own (an invitee is always one: the plan
 * reads the member's rows, not every member's).
 */
const CRM_DASHBOARD_READ = fixedRead(sql`SELECT
      ${followUpsJson(sql`l.next_follow_up < ${at.today}::date`, sql`l.next_follow_up, l.id`)} AS overdue,
      ${followUpsJson(sql`l.next_follow_up = ${at.today}::date`, sql`l.name, l.id`)} AS due_today,
      d.overdue_total,
      d.today_total,
      listed.meetings,
      (SELECT count(*)::int FROM crm_meetings
        WHERE member_id = ${at.member} AND deleted_at IS NULL AND starts_at >= ${at.tomorrowStart}::timestamptz) AS upcoming_total,
      inv.invitees,
      (SELECT json_agg(json_build_array(l.id, l.name))::text FROM crm_leads l WHERE inv.leads IS NOT NULL AND l.member_id = ${at.member} AND l.id = ANY (inv.leads) AND l.deleted_at IS NULL) AS lead_names,
      (SELECT json_agg(json_build_array(c.id, c.name))::text FROM crm_contacts c WHERE inv.contacts IS NOT NULL AND c.member_id = ${at.member} AND c.id = ANY (inv.contacts) AND c.deleted_at IS NULL) AS contact_names,
      (SELECT json_agg(json_build_array(status, leads, value::text))::text FROM crm_lead_figures WHERE member_id = ${at.member}) AS by_status,
      w.won_count, w.won_value, s.sales_count, s.sales_total,
      EXISTS (SELECT 1 FROM crm_figures WHERE member_id = ${at.member} AND contacts > 0) AS contacts
    FROM (SELECT json_agg(json_build_array(m.id, m.title, ${isoUtc(sql`m.starts_at`)}, m.time_zone, m.duration_minutes, m.place, m.link, m.today))::text AS meetings,
                 array_agg(m.id) AS ids
            FROM (${meetingsOf(sql`mt.starts_at >= ${at.dayStart}::timestamptz AND mt.starts_at < ${at.tomorrowStart}::timestamptz`, true)}
                  UNION ALL ${meetingsOf(sql`mt.starts_at >= ${at.tomorrowStart}::timestamptz`, false)}) m) listed,
         LATERAL (SELECT json_agg(json_build_array(i.meeting_id, i.lead_id, i.contact_id) ORDER BY i.id)::text AS invitees,
                         array_agg(i.lead_id) FILTER (WHERE i.lead_id IS NOT NULL) AS leads,
                         array_agg(i.contact_id) FILTER (WHERE i.contact_id IS NOT NULL) AS contacts
            FROM crm_meeting_invitees i WHERE i.meeting_id = ANY (listed.ids) AND i.member_id = ${at.member}) inv,
         (SELECT coalesce(sum(leads) FILTER (WHERE day < ${at.today}::date), 0)::int AS overdue_total,
                 coalesce(sum(leads) FILTER (WHERE day = ${at.today}::date), 0)::int AS today_total
            FROM crm_follow_up_days WHERE member_id = ${at.member} AND day <= ${at.today}::date) d,
         (SELECT count(*)::int AS won_count, coalesce(sum(estimated_value), 0)::text AS won_value
            FROM crm_leads WHERE member_id = ${at.member} AND deleted_at IS NULL AND status = 'won' AND closed_at IS NOT NULL
             AND closed_at >= ${at.monthStart}::timestamptz) w,
         (SELECT count(*)::int AS sales_count, coalesce(sum(total), 0)::text AS sales_total
            FROM crm_sales WHERE member_id = ${at.member} AND deleted_at IS NULL AND created_at >= ${at.monthStart}::timestamptz) s`);

/** The dashboard's read on a database: its one row, as the array of its columns; and its kept answer (kept-answers.ts). */
export const crmDashboardQuery = (db: Db) => ({
  keptOr: (memberId: number, forWhat: string, compute: () => Promise<string>) => keptOr(db, memberId, 'crm_dashboard', forWhat, compute),
  execute: async (values: { member: number; today: string; dayStart: string; tomorrowStart: string; monthStart: string }) =>
    (await fixedRows(db, CRM_DASHBOARD_READ, values))[0] as [
      overdue: string | null,
      dueToday: string | null,
      overdueTotal: number,
      todayTotal: number,
      meetings: string | null,
      upcomingTotal: number,
      invitees: string | null,
      leadNames: string | null,
      contactNames: string | null,
      byStatus: string | null,
      wonCount: number,
      wonValue: string,
      salesCount: number,
      salesTotal: string,
      contacts: boolean,
    ],
});

export type CrmDashboardQuery = ReturnType<typeof crmDashboardQuery>;

/** A meeting of the statement as the dashboard shows it (its day and time in its own zone), fields in the schema's order. */
function meetingBrief([id, title, startsAt, timeZone, durationMinutes, place, link]: MeetingJson, invitees: Invitee[] = []) {
  const { date, time } = localParts(new Date(startsAt), timeZone);
  return { id, title, starts_at: startsAt, date, time, time_zone: timeZone, duration_minutes: durationMinutes, place, link, invitees };
}

/**
 * What to do next: follow-ups due, today's and the next meetings, the pipeline by status, the month's wins —
 * GET /api/crm/dashboard's `data` as JSON text in the schema's order. The answer kept for the member's time zone
 * and day while nothing it shows has changed; else one statement (`crmDashboardQuery`), so one round trip, whose
 * answer is then kept: the follow-ups are written by the database, the rest here by one JSON.stringify each.
 */
export async function crmDashboardJson(query: CrmDashboardQuery, member: MemberRow, timeZone: string, now = new Date()): Promise<{ answer: string; kept: boolean }> {
  const today = localParts(now, timeZone).date;
  // What the answer depends on besides the member's records: the day, and where the member's days begin.
  return query.keptOr(member.id, `${timeZone} ${today}`, () => computeCrmDashboardJson(query, member, timeZone, today));
}

async function computeCrmDashboardJson(query: CrmDashboardQuery, member: MemberRow, timeZone: string, today: string): Promise<string> {
  const [overdue, dueToday, overdueTotal, todayTotal, meetingsJson, upcomingTotal, inviteesJson, leadNamesJson, contactNamesJson, byStatusJson, wonCount, wonValue, salesCount, salesTotal, hasContacts] = await query.execute({
    member: member.id,
    today,
    dayStart: zonedInstant(today, '00:00', timeZone)!.toISOString(),
    tomorrowStart: zonedInstant(addDays(today, 1), '00:00', timeZone)!.toISOString(),
    monthStart: zonedInstant(`${today.slice(0, 8)}01`, '00:00', timeZone)!.toISOString(),
  });
  const byStatus = jsonOf<Array<[string, number, string]>>(byStatusJson, []);
  const statusRow = (st: string) => byStatus.find(([status]) => status === st);
  const open = OPEN_LEAD_STATUSES.map((st) => statusRow(st));
  // Invitees of the listed meetings, in the order invited: leads and contacts still there (their names read by key).
  const leads = new Map(jsonOf<Array<[number, string]>>(leadNamesJson, []));
  const contacts = new Map(jsonOf<Array<[number, string]>>(contactNamesJson, []));
  const invitees = new Map<number, Invitee[]>();
  for (const [meetingId, leadId, contactId] of jsonOf<InviteeJson[]>(inviteesJson, [])) {
    const lead = leadId !== null ? leads.get(leadId) : undefined;
    const contact = contactId !== null ? contacts.get(contactId) : undefined;
    const invitee: Invitee | null =
      leadId !== null ? (lead !== undefined ? { kind: 'lead', id: leadId, name: lead } : null) : contact !== undefined ? { kind: 'contact', id: contactId!, name: contact } : null;
    if (!invitee) continue;
    const list = invitees.get(meetingId);
    if (list) list.push(invitee);
    else invitees.set(meetingId, [invitee]);
  }
  const meetingsToday: ReturnType<typeof meetingBrief>[] = [];
  const upcoming: ReturnType<typeof meetingBrief>[] = [];
  for (const m of jsonOf<MeetingJson[]>(meetingsJson, [])) (m[7] ? meetingsToday : upcoming).push(meetingBrief(m, invitees.get(m[0])));
  const meetings: CrmDashboard['meetings'] = { today: meetingsToday, upcoming, upcoming_total: Number(upcomingTotal ?? 0) };
  const tail: Pick<CrmDashboard, 'by_status' | 'pipeline' | 'won_this_month' | 'sales_this_month' | 'has_records'> = {
    by_status: LEAD_STATUSES.map((status) => ({ status, count: Number(statusRow(status)?.[1] ?? 0), value: money2(statusRow(status)?.[2]) })),
    pipeline: {
      value: format(add(...open.map((x) => parse(x?.[2] ?? '0'))), 2),
      count: open.reduce((n, x) => n + Number(x?.[1] ?? 0), 0),
    },
    won_this_month: { count: Number(wonCount ?? 0), value: money2(wonValue) },
    sales_this_month: { count: Number(salesCount ?? 0), total: money2(salesTotal) },
    has_records: byStatus.some(([, leads]) => Number(leads) > 0) || !!hasContacts,
  };
  return (
    `{"today":"${today}","follow_ups":{"overdue":[${overdue ?? ''}],"overdue_total":${Number(overdueTotal ?? 0)},` +
    `"today":[${dueToday ?? ''}],"today_total":${Number(todayTotal ?? 0)}},"meetings":${JSON.stringify(meetings)},${JSON.stringify(tail).slice(1)}`
  );
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

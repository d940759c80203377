/**
 * The member's leads: column values of a lead body, the answer of one row, the list's filters (search,
 * status, source), the board by status, a move on the board and the timeline of notes. Every query names
 * the member: a lead of another member is a lead that does not exist (404).
 */
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { LEAD_SOURCES, LEAD_STATUSES, BOARD_COLUMN_LIMIT, type Board, type Lead, type LeadMove, type LeadRequest, type TimelineEntry } from '../../src/schemas/crm.schema';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { crmLeads, crmNotes, type LeadRow } from '../db/schema-crm';
import { notFound } from './errors';
import { format, parse } from './money';
import type { ListQuery } from './pagination';
import { jsonOf } from './figures';
import { isoUtcText, rowsOf } from './ledger';
import type { Keyed } from './list-endpoint';

/** A search term as an ILIKE pattern that matches it literally anywhere. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Decimal text of the database (4 digits) as answered: 2 digits. */
export const money2 = (v: string | null | undefined) => format(parse(v ?? '0'), 2);

export function leadValues(b: LeadRequest) {
  return {
    name: b.name,
    company: b.company ?? '',
    email: b.email ?? '',
    phone: b.phone ?? '',
    source: b.source,
    status: b.status,
    interest: b.interest ?? 'customer',
    estimatedValue: b.estimated_value ? format(parse(b.estimated_value)) : '0',
    nextFollowUp: b.next_follow_up || null,
    lostReason: b.status === 'lost' ? (b.lost_reason ?? '') : '',
  };
}

export const toLead = (r: LeadRow): Lead => ({
  id: r.id,
  name: r.name,
  company: r.company,
  email: r.email,
  phone: r.phone,
  source: r.source,
  status: r.status,
  interest: r.interest,
  estimated_value: money2(r.estimatedValue),
  next_follow_up: r.nextFollowUp ?? null,
  lost_reason: r.lostReason,
  contact_id: r.contactId,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

export interface LeadFilterValues {
  q?: string;
  status?: string;
  source?: string;
}

export const leadFilters = (q: ListQuery): LeadFilterValues => ({
  q: q.text('q'),
  status: q.oneOf('status', LEAD_STATUSES),
  source: q.oneOf('source', LEAD_SOURCES),
});

export function leadWhere(f: LeadFilterValues): SQL | undefined {
  const parts: SQL[] = [];
  if (f.q) {
    const like = containsPattern(f.q);
    parts.push(sql`(${crmLeads.name} ILIKE ${like} OR ${crmLeads.company} ILIKE ${like} OR ${crmLeads.email} ILIKE ${like} OR ${crmLeads.phone} ILIKE ${like})`);
  }
  if (f.status) parts.push(eq(crmLeads.status, f.status));
  if (f.source) parts.push(eq(crmLeads.source, f.source));
  return parts.length ? and(...parts) : undefined;
}

/** A lead as the list's statement gives it (JSON: money and dates as text, times as ISO text in UTC). */
interface LeadJson {
  id: number;
  name: string;
  company: string;
  email: string;
  phone: string;
  source: string;
  status: string;
  interest: string;
  estimated_value: string;
  next_follow_up: string | null;
  lost_reason: string;
  contact_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The list's columns and the table's, written once as SQL text (a page's statement builds only what varies). */
const LEAD_LIST_COLUMNS = sql.raw(
  `"crm_leads"."id", "crm_leads"."name", "crm_leads"."company", "crm_leads"."email", "crm_leads"."phone", "crm_leads"."source", ` +
    `"crm_leads"."status", "crm_leads"."interest", "crm_leads"."estimated_value"::text AS estimated_value, ` +
    `"crm_leads"."next_follow_up"::text AS next_follow_up, "crm_leads"."lost_reason" AS lost_reason, "crm_leads"."contact_id" AS contact_id, ` +
    `${isoUtcText('"crm_leads"."created_at"')} AS created_at, ${isoUtcText('"crm_leads"."updated_at"')} AS updated_at, "crm_leads"."created_at" AS _at`,
);
const LEAD_CREATED = sql.raw(`"crm_leads"."created_at"`);
const LEAD_ID = sql.raw(`"crm_leads"."id"`);
const PAGE_AT = sql.raw('x._at');
const PAGE_ID = sql.raw('x.id');

/**
 * The member's live leads matching `f`, a page in the list's order after its cursor: one statement whose
 * rows come as JSON text (the same leads and fields as the table's rows through toLead). Each lead's paging
 * time is its ISO text (read back as a time only for the last lead of a page).
 */
export async function leadPage(db: Db, member: MemberRow, q: ListQuery, f: LeadFilterValues, limit: number): Promise<Array<Keyed<{ item: Lead }>>> {
  const extra = leadWhere(f);
  const [r] = await rowsOf<{ items: string | null }>(
    db,
    sql`SELECT json_agg(x ORDER BY ${q.orderSql(PAGE_AT, PAGE_ID)})::text AS items FROM (
          SELECT ${LEAD_LIST_COLUMNS}
          FROM "crm_leads"
          WHERE "crm_leads"."member_id" = ${member.id} AND "crm_leads"."deleted_at" IS NULL
            AND ${q.rangeSql(LEAD_CREATED)} AND ${q.afterCursorSql(LEAD_CREATED, LEAD_ID)}
            ${extra ? sql`AND ${extra}` : sql``}
          ORDER BY ${q.orderSql(LEAD_CREATED, LEAD_ID)}
          LIMIT ${limit}) x`,
  );
  return jsonOf<LeadJson[]>(r?.items, []).map((l) => ({
    item: {
      id: l.id,
      name: l.name,
      company: l.company,
      email: l.email,
      phone: l.phone,
      source: l.source,
      status: l.status,
      interest: l.interest,
      estimated_value: money2(l.estimated_value),
      next_follow_up: l.next_follow_up,
      lost_reason: l.lost_reason,
      contact_id: l.contact_id,
      created_at: l.created_at,
      updated_at: l.updated_at,
    } as Lead,
    _at: l.created_at,
    _id: l.id,
  }));
}

const liveLead = (member: MemberRow, id: number) => and(eq(crmLeads.id, id), eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt));

/** The member's live lead `id`, or 404. */
export async function ownLead(db: Db, member: MemberRow, id: number): Promise<LeadRow> {
  const [row] = await db.select().from(crmLeads).where(liveLead(member, id)).limit(1);
  if (!row) throw notFound();
  return row;
}

/** The board: per status the most recently changed cards (at most BOARD_COLUMN_LIMIT), the count and the summed value. */
export async function leadBoard(db: Db, member: MemberRow): Promise<Board> {
  const totals = await db
    .select({ status: crmLeads.status, total: sql<number>`count(*)::int`, value: sql<string>`coalesce(sum(${crmLeads.estimatedValue}), 0)::text` })
    .from(crmLeads)
    .where(and(eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt)))
    .groupBy(crmLeads.status);
  const columns = await Promise.all(
    LEAD_STATUSES.map(async (status) => {
      const rows = await db
        .select()
        .from(crmLeads)
        .where(and(eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt), eq(crmLeads.status, status)))
        .orderBy(desc(crmLeads.updatedAt), desc(crmLeads.id))
        .limit(BOARD_COLUMN_LIMIT);
      const t = totals.find((x) => x.status === status);
      return {
        status,
        total: Number(t?.total ?? 0),
        value: money2(t?.value),
        cards: rows.map((r) => ({ id: r.id, name: r.name, company: r.company, status: r.status, estimated_value: money2(r.estimatedValue), next_follow_up: r.nextFollowUp ?? null })),
      };
    }),
  );
  return { columns };
}

/** A move on the board: the lead's new status (a lost reason only with `lost`). */
export async function moveLead(db: Db, member: MemberRow, id: number, move: LeadMove): Promise<Lead> {
  const [row] = await db
    .update(crmLeads)
    .set({ status: move.status, lostReason: move.status === 'lost' ? (move.lost_reason ?? '') : '', updatedAt: new Date() })
    .where(liveLead(member, id))
    .returning();
  if (!row) throw notFound();
  return toLead(row);
}

export async function addLeadNote(db: Db, member: MemberRow, id: number, body: string): Promise<TimelineEntry> {
  await ownLead(db, member, id);
  const [n] = await db.insert(crmNotes).values({ memberId: member.id, leadId: id, body, createdAt: new Date() }).returning();
  return { kind: 'note', id: n.id, at: n.createdAt.toISOString(), text: n.body };
}

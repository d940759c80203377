/**
 * The member's contacts, calls and meetings: column values of their bodies, their answers, the lead →
 * contact conversion (once per lead, race-proof), the CSV import checked row by row, the agenda, the
 * timeline of a contact and the meeting reminders. Every query names the member.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import {
  contactRequestSchema,
  type Call,
  type CallRequest,
  type Contact,
  type ContactImport,
  type ContactImportResult,
  type ContactRequest,
  type CrmChoices,
  type Invitee,
  type Meeting,
  type MeetingRequest,
  type TimelineEntry,
} from '../../src/schemas/crm.schema';
import { invoiceNumber } from '../../src/schemas/crm-sales.schema';
import * as z from 'zod/mini';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { crmCalls, crmContacts, crmLeads, crmMeetingInvitees, crmMeetings, crmNotes, type CallRow, type ContactRow, type MeetingRow } from '../db/schema-crm';
import { issuesToFieldMap, notFound, type FieldMap } from './errors';
import { containsPattern, money2 } from './crm-leads';
import { contactSales } from './crm-sales';
import type { ListQuery } from './pagination';
import type { AppContext } from './app-context';
import { announce } from './member-notices';

// ── Contacts ────────────────────────────────────────────────────────────────────────────────────────

export const contactValues = (b: ContactRequest) => ({ name: b.name, company: b.company ?? '', email: b.email ?? '', phone: b.phone ?? '', city: b.city ?? '' });

export const toContact = (r: ContactRow): Contact => ({
  id: r.id,
  name: r.name,
  company: r.company,
  email: r.email,
  phone: r.phone,
  city: r.city,
  lead_id: r.leadId,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

export const contactFilters = (q: ListQuery) => ({ q: q.text('q') });
export function contactWhere(f: { q?: string }) {
  if (!f.q) return undefined;
  const like = containsPattern(f.q);
  return sql`(${crmContacts.name} ILIKE ${like} OR ${crmContacts.company} ILIKE ${like} OR ${crmContacts.email} ILIKE ${like} OR ${crmContacts.phone} ILIKE ${like})`;
}

const liveContact = (member: MemberRow, id: number) => and(eq(crmContacts.id, id), eq(crmContacts.memberId, member.id), isNull(crmContacts.deletedAt));

export async function ownContact(db: Db, member: MemberRow, id: number): Promise<ContactRow> {
  const [row] = await db.select().from(crmContacts).where(liveContact(member, id)).limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * The lead becomes a contact, once: the contact carries the lead's name, company, e-mail and phone, the lead
 * points at it. A second conversion (or two at once: a unique index) answers the same contact.
 */
export async function convertLead(db: Db, member: MemberRow, leadId: number): Promise<{ contact: Contact; created: boolean }> {
  return db.transaction(async (tx) => {
    // The lead's row lock serialises conversions of one lead.
    const [lead] = await tx
      .select()
      .from(crmLeads)
      .where(and(eq(crmLeads.id, leadId), eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt)))
      .for('update')
      .limit(1);
    if (!lead) throw notFound();
    const [existing] = await tx.select().from(crmContacts).where(and(eq(crmContacts.leadId, leadId), eq(crmContacts.memberId, member.id))).limit(1);
    if (existing) return { contact: toContact(existing), created: false };
    const now = new Date();
    const [row] = await tx
      .insert(crmContacts)
      .values({ memberId: member.id, name: lead.name, company: lead.company, email: lead.email, phone: lead.phone, leadId, createdAt: now, updatedAt: now })
      .returning();
    await tx.update(crmLeads).set({ contactId: row.id, updatedAt: now }).where(eq(crmLeads.id, leadId));
    return { contact: toContact(row), created: true };
  });
}

/** One CSV row as a contact body: the known columns, each trimmed; a missing column is empty. */
const rowBody = (row: Record<string, string>) => {
  const pick = (k: string) => (row[k] ?? '').trim();
  return { name: pick('name'), company: pick('company'), email: pick('email'), phone: pick('phone'), city: pick('city') };
};

/**
 * Checks every row like a contact body; with `dry_run` only answers which rows fail and why. Without it,
 * imports every row in one transaction when none fails; otherwise imports nothing and answers 422 with the
 * field map per row (`rows.3.email`).
 */
export async function importContacts(db: Db, member: MemberRow, body: ContactImport): Promise<ContactImportResult & { errors?: FieldMap }> {
  const failed: ContactImportResult['failed'] = [];
  const good: ContactRequest[] = [];
  body.rows.forEach((row, i) => {
    const unknown = Object.keys(row).filter((k) => !(['name', 'company', 'email', 'phone', 'city'] as string[]).includes(k) && row[k] !== '');
    const parsed = z.safeParse(contactRequestSchema, rowBody(row));
    const errors: FieldMap = parsed.success ? {} : issuesToFieldMap(parsed.error.issues as never);
    for (const k of unknown.slice(0, 5)) errors[k.slice(0, 64)] = ['validation:unknownField'];
    if (Object.keys(errors).length) failed.push({ row: i + 1, errors });
    else good.push(parsed.data!);
  });
  const result = { imported: 0, valid: good.length, failed };
  if (body.dry_run || failed.length) return result;
  const now = new Date();
  await db.insert(crmContacts).values(good.map((g) => ({ ...contactValues(g), memberId: member.id, createdAt: now, updatedAt: now })));
  return { ...result, imported: good.length };
}

// ── Calls and meetings: about a contact or a lead of the member ─────────────────────────────────────

/** The names of the contact and lead a body names, or field errors when they are not the member's. */
export async function whoOf(db: Db, member: MemberRow, b: { contact_id?: string; lead_id?: string }): Promise<{ errors: FieldMap; who: string }> {
  const errors: FieldMap = {};
  const names: string[] = [];
  if (b.contact_id) {
    const [c] = await db.select({ name: crmContacts.name }).from(crmContacts).where(liveContact(member, Number(b.contact_id))).limit(1);
    if (c) names.push(c.name);
    else errors.contact_id = ['validation:invalidChoice'];
  }
  if (b.lead_id) {
    const [l] = await db
      .select({ name: crmLeads.name })
      .from(crmLeads)
      .where(and(eq(crmLeads.id, Number(b.lead_id)), eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt)))
      .limit(1);
    if (l) names.push(l.name);
    else errors.lead_id = ['validation:invalidChoice'];
  }
  return { errors, who: [...new Set(names)].join(', ') };
}

/** How many spellings of time zone names keep a formatter each. */
const FORMATTERS_KEPT = 1000;
/**
 * A formatter per time zone, made once: making one is far dearer than formatting with it. Null for a name
 * that is no time zone. Names that are no zone are never kept, and at most FORMATTERS_KEPT spellings are
 * (zone names are read in any letter case), so text from requests cannot fill the memory.
 */
function formatterCache(locale: string, options: Intl.DateTimeFormatOptions) {
  const made = new Map<string, Intl.DateTimeFormat>();
  return (timeZone: string): Intl.DateTimeFormat | null => {
    let fmt = made.get(timeZone);
    if (fmt) return fmt;
    try {
      fmt = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      return null;
    }
    if (made.size < FORMATTERS_KEPT) made.set(timeZone, fmt);
    return fmt;
  };
}
const clockFormat = formatterCache('en-US', { hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayFormat = formatterCache('en-CA', { hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });

/** A zone's offset (its wall clock minus UTC, in ms) at an instant of whole seconds, as its formatter says. */
function offsetOf(fmt: Intl.DateTimeFormat, t: number): number {
  const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - t;
}

const HOUR = 3_600_000;
/** Instants the offsets below are kept for (years 1900 to 2199); others are always asked of the formatter. */
const KEPT_FROM = Date.UTC(1900, 0, 1);
const KEPT_UNTIL = Date.UTC(2200, 0, 1);
/** How many hours of offsets are kept, all zones together (then they start again). */
const OFFSETS_KEPT = 100_000;
/**
 * Offsets per zone per UTC hour, kept when the hour's first and last second have the same one: no zone changes
 * its offset twice within an hour, so it holds for the whole hour. An hour in which a zone changes its offset
 * is never kept (each instant of it is asked of the formatter). Formatting is dear; reading this is not.
 */
const offsets = new Map<string, Map<number, number>>();
let offsetsKept = 0;

/** The zone's offset at `t` (whole seconds): read from the hours kept, else worked out (and its hour kept). */
function zoneOffset(fmt: Intl.DateTimeFormat, timeZone: string, t: number): number {
  if (!(t >= KEPT_FROM && t < KEPT_UNTIL)) return offsetOf(fmt, t);
  const hour = Math.floor(t / HOUR);
  let zone = offsets.get(timeZone);
  const kept = zone?.get(hour);
  if (kept !== undefined) return kept;
  const first = offsetOf(fmt, hour * HOUR);
  if (first !== offsetOf(fmt, hour * HOUR + HOUR - 1000)) return offsetOf(fmt, t);
  if (offsetsKept >= OFFSETS_KEPT) {
    offsets.clear();
    offsetsKept = 0;
    zone = undefined;
  }
  if (!zone) offsets.set(timeZone, (zone = new Map()));
  zone.set(hour, first);
  offsetsKept++;
  return first;
}

/** The milliseconds past the whole second of an instant. */
const millisOf = (t: number) => ((t % 1000) + 1000) % 1000;

/** The instant of a local date and time in an IANA time zone (null when the zone is unknown). */
export function zonedInstant(date: string, time: string, timeZone: string): Date | null {
  const fmt = clockFormat(timeZone);
  if (!fmt) return null;
  const wanted = Date.parse(`${date}T${time}:00Z`);
  // The wall clock of `t` minus `t`, as formatting `t` tells it (the fields are whole seconds).
  const offsetAt = (t: number) => (Number.isFinite(t) ? zoneOffset(fmt, timeZone, t - millisOf(t)) - millisOf(t) : offsetOf(fmt, t));
  // Two passes settle the offset across a change of summer time.
  let t = wanted - offsetAt(wanted);
  t = wanted - offsetAt(t);
  return new Date(t);
}

/** The local date and time of an instant in a time zone. */
export function localParts(at: Date, timeZone: string): { date: string; time: string } {
  const fmt = dayFormat(timeZone);
  if (!fmt) throw new RangeError(`Invalid time zone specified: ${timeZone}`);
  const t = at.getTime();
  if (t >= KEPT_FROM && t < KEPT_UNTIL) {
    // The wall clock in the zone, written as yyyy-MM-ddTHH:mm (within the years kept, four digits each).
    const whole = t - millisOf(t);
    const wall = new Date(whole + zoneOffset(clockFormat(timeZone)!, timeZone, whole)).toISOString();
    return { date: wall.slice(0, 10), time: wall.slice(11, 16) };
  }
  const p = Object.fromEntries(fmt.formatToParts(at).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

export const isTimeZone = (tz: string) => zonedInstant('2026-01-01', '12:00', tz) !== null;

export const callValues = (b: CallRequest, who: string) => ({
  contactId: b.contact_id ? Number(b.contact_id) : null,
  leadId: b.lead_id ? Number(b.lead_id) : null,
  who,
  direction: b.direction,
  outcome: b.outcome,
  durationSeconds: Number(b.duration_minutes) * 60,
  notes: b.notes ?? '',
  calledAt: zonedInstant(b.date, b.time, b.time_zone && isTimeZone(b.time_zone) ? b.time_zone : 'UTC')!,
});

export const toCall = (r: CallRow): Call => ({
  id: r.id,
  contact_id: r.contactId,
  lead_id: r.leadId,
  who: r.who,
  direction: r.direction,
  outcome: r.outcome,
  duration_minutes: Math.round(r.durationSeconds / 60),
  notes: r.notes,
  called_at: r.calledAt.toISOString(),
  created_at: r.createdAt.toISOString(),
});

export const meetingValues = (b: MeetingRequest, who: string) => ({
  title: b.title,
  startsAt: zonedInstant(b.date, b.time, b.time_zone)!,
  timeZone: b.time_zone,
  durationMinutes: Number(b.duration_minutes),
  place: b.place ?? '',
  link: b.link ?? '',
  who,
  notes: b.notes ?? '',
  // A moved meeting is reminded again.
  remindedAt: null,
});

export const toMeeting = (r: MeetingRow): Meeting => ({
  id: r.id,
  title: r.title,
  starts_at: r.startsAt.toISOString(),
  ...localParts(r.startsAt, r.timeZone),
  time_zone: r.timeZone,
  duration_minutes: r.durationMinutes,
  place: r.place,
  link: r.link,
  // Filled by withInvitees.
  invitees: [],
  who: r.who,
  notes: r.notes,
  created_at: r.createdAt.toISOString(),
});

/** The contacts and leads a meeting body invites (`contact:5`, `lead:12`), each once, in the order given. */
export function inviteeRefs(refs: readonly string[] | undefined): Array<{ kind: 'contact' | 'lead'; id: number }> {
  const seen = new Set<string>();
  const out: Array<{ kind: 'contact' | 'lead'; id: number }> = [];
  for (const ref of refs ?? []) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [kind, id] = ref.split(':');
    out.push({ kind: kind as 'contact' | 'lead', id: Number(id) });
  }
  return out;
}

/**
 * The names of the people a meeting body invites, or a field error (`invitees`) when any of them is not a
 * live contact or lead of the member — then nothing is stored.
 */
export async function inviteesOf(db: Db, member: MemberRow, refs: readonly string[] | undefined): Promise<{ errors: FieldMap; who: string }> {
  const wanted = inviteeRefs(refs);
  const ids = (kind: 'contact' | 'lead') => wanted.filter((w) => w.kind === kind).map((w) => w.id);
  const [contacts, leads] = await Promise.all([
    ids('contact').length
      ? db.select({ id: crmContacts.id, name: crmContacts.name }).from(crmContacts).where(and(eq(crmContacts.memberId, member.id), isNull(crmContacts.deletedAt), inArray(crmContacts.id, ids('contact'))))
      : [],
    ids('lead').length
      ? db.select({ id: crmLeads.id, name: crmLeads.name }).from(crmLeads).where(and(eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt), inArray(crmLeads.id, ids('lead'))))
      : [],
  ]);
  const names = new Map<string, string>([...contacts.map((c) => [`contact:${c.id}`, c.name] as const), ...leads.map((l) => [`lead:${l.id}`, l.name] as const)]);
  if (wanted.some((w) => !names.has(`${w.kind}:${w.id}`))) return { errors: { invitees: ['validation:invalidChoice'] }, who: '' };
  return { errors: {}, who: [...new Set(wanted.map((w) => names.get(`${w.kind}:${w.id}`)!))].join(', ') };
}

/** The meeting's invitees become those of the body (checked by inviteesOf before), in the record's transaction. */
export async function saveInvitees(tx: Db, member: MemberRow, meetingId: number, refs: readonly string[] | undefined): Promise<void> {
  await tx.delete(crmMeetingInvitees).where(and(eq(crmMeetingInvitees.meetingId, meetingId), eq(crmMeetingInvitees.memberId, member.id)));
  const rows = inviteeRefs(refs).map((w) => ({ meetingId, memberId: member.id, leadId: w.kind === 'lead' ? w.id : null, contactId: w.kind === 'contact' ? w.id : null }));
  if (rows.length) await tx.insert(crmMeetingInvitees).values(rows);
}

/** Meetings with their invitees (contacts and leads still on record, by name), one query for all of them. */
export async function withInvitees<T extends { id: number }>(db: Db, member: MemberRow, meetings: T[]): Promise<Array<T & { invitees: Invitee[] }>> {
  if (!meetings.length) return [];
  const rows = await db
    .select({ meetingId: crmMeetingInvitees.meetingId, leadId: crmMeetingInvitees.leadId, contactId: crmMeetingInvitees.contactId, lead: crmLeads.name, contact: crmContacts.name })
    .from(crmMeetingInvitees)
    .leftJoin(crmLeads, and(eq(crmLeads.id, crmMeetingInvitees.leadId), isNull(crmLeads.deletedAt)))
    .leftJoin(crmContacts, and(eq(crmContacts.id, crmMeetingInvitees.contactId), isNull(crmContacts.deletedAt)))
    .where(and(eq(crmMeetingInvitees.memberId, member.id), inArray(crmMeetingInvitees.meetingId, meetings.map((m) => m.id))))
    .orderBy(asc(crmMeetingInvitees.id));
  const of = new Map<number, Invitee[]>();
  for (const r of rows) {
    const invitee: Invitee | null =
      r.leadId !== null ? (r.lead !== null ? { kind: 'lead', id: r.leadId, name: r.lead } : null) : r.contact !== null ? { kind: 'contact', id: r.contactId!, name: r.contact } : null;
    if (invitee) of.set(r.meetingId, [...(of.get(r.meetingId) ?? []), invitee]);
  }
  return meetings.map((m) => ({ ...m, invitees: of.get(m.id) ?? [] }));
}

/** The agenda: upcoming meetings soonest first (sort=asc) or past ones latest first, keyset-paged by (starts_at, id). */
export async function agendaRows(db: Db, member: MemberRow, q: ListQuery, when: 'upcoming' | 'past', limit: number) {
  const now = new Date().toISOString();
  const rows = await db
    .select()
    .from(crmMeetings)
    .where(
      and(
        eq(crmMeetings.memberId, member.id),
        isNull(crmMeetings.deletedAt),
        when === 'upcoming' ? sql`${crmMeetings.startsAt} >= ${now}::timestamptz` : sql`${crmMeetings.startsAt} < ${now}::timestamptz`,
        q.afterCursorSql(sql`${crmMeetings.startsAt}`, sql`${crmMeetings.id}`),
      ),
    )
    .orderBy(q.orderSql(sql`${crmMeetings.startsAt}`, sql`${crmMeetings.id}`))
    .limit(limit);
  return withInvitees(db, member, rows.map((r) => ({ ...toMeeting(r), _at: r.startsAt, _id: r.id })));
}

/** A contact's timeline (or a lead's, with `lead`): notes, calls, meetings and a contact's sales, newest first. */
export async function timelineOf(db: Db, member: MemberRow, about: { leadId?: number; contactId?: number }): Promise<TimelineEntry[]> {
  const of = <T extends { leadId: unknown; contactId: unknown; memberId: unknown }>(t: T) =>
    and(eq(t.memberId as never, member.id), about.leadId ? eq(t.leadId as never, about.leadId) : eq(t.contactId as never, about.contactId!));
  const [notes, calls, meetings, sales] = await Promise.all([
    db.select().from(crmNotes).where(of(crmNotes)).orderBy(desc(crmNotes.createdAt)).limit(200),
    db.select().from(crmCalls).where(and(of(crmCalls), isNull(crmCalls.deletedAt))).orderBy(desc(crmCalls.calledAt)).limit(200),
    // Meetings that invite them (a meeting may invite several people).
    db
      .select()
      .from(crmMeetings)
      .where(
        and(
          eq(crmMeetings.memberId, member.id),
          isNull(crmMeetings.deletedAt),
          inArray(
            crmMeetings.id,
            db
              .select({ id: crmMeetingInvitees.meetingId })
              .from(crmMeetingInvitees)
              .where(and(eq(crmMeetingInvitees.memberId, member.id), about.leadId ? eq(crmMeetingInvitees.leadId, about.leadId) : eq(crmMeetingInvitees.contactId, about.contactId!))),
          ),
        ),
      )
      .orderBy(desc(crmMeetings.startsAt))
      .limit(200),
    // Sales are made to contacts (a lead buys once it is a contact).
    about.contactId ? contactSales(db, member, about.contactId) : Promise.resolve([]),
  ]);
  const entries: TimelineEntry[] = [
    ...notes.map((n) => ({ kind: 'note', id: n.id, at: n.createdAt.toISOString(), text: n.body })),
    ...calls.map((c) => ({ kind: 'call', id: c.id, at: c.calledAt.toISOString(), text: [`${c.direction} · ${c.outcome} · ${Math.round(c.durationSeconds / 60)} min`, c.notes].filter(Boolean).join('\n') })),
    ...meetings.map((m) => ({ kind: 'meeting', id: m.id, at: m.startsAt.toISOString(), text: [m.title, m.who, m.place || m.link].filter(Boolean).join(' · ') })),
    ...sales.map((x) => ({ kind: 'sale', id: x.id, at: x.createdAt.toISOString(), text: invoiceNumber(x.number), amount: money2(x.total) })),
  ];
  return entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.id - a.id));
}

export async function addContactNote(db: Db, member: MemberRow, id: number, body: string): Promise<TimelineEntry> {
  await ownContact(db, member, id);
  const [n] = await db.insert(crmNotes).values({ memberId: member.id, contactId: id, body, createdAt: new Date() }).returning();
  return { kind: 'note', id: n.id, at: n.createdAt.toISOString(), text: n.body };
}

/** The call and meeting forms' choices: the member's contacts and leads still open (at most 500 each, by name). */
export async function crmChoices(db: Db, member: MemberRow): Promise<CrmChoices> {
  const [contacts, leads] = await Promise.all([
    db.select({ id: crmContacts.id, name: crmContacts.name }).from(crmContacts).where(and(eq(crmContacts.memberId, member.id), isNull(crmContacts.deletedAt))).orderBy(asc(crmContacts.name)).limit(500),
    db
      .select({ id: crmLeads.id, name: crmLeads.name })
      .from(crmLeads)
      .where(and(eq(crmLeads.memberId, member.id), isNull(crmLeads.deletedAt), sql`${crmLeads.status} NOT IN ('won', 'lost')`))
      .orderBy(asc(crmLeads.name))
      .limit(500),
  ]);
  return { contacts, leads };
}

/** How long before a meeting its reminder goes out. */
export const REMINDER_LEAD_MS = 30 * 60_000;

/**
 * Meetings starting within REMINDER_LEAD_MS that were not reminded yet: each is claimed by one conditional
 * update (so two servers never remind twice) and its member is told by their switches for meeting
 * reminders (a notice in the notifications list, an e-mail). Answers how many reminders went out.
 */
export async function remindMeetings(ctx: Pick<AppContext, 'database' | 'outbox'>, now = new Date()): Promise<number> {
  const due = await ctx.database.db
    .update(crmMeetings)
    .set({ remindedAt: now })
    .where(
      and(
        isNull(crmMeetings.remindedAt),
        isNull(crmMeetings.deletedAt),
        gte(crmMeetings.startsAt, now),
        lte(crmMeetings.startsAt, new Date(now.getTime() + REMINDER_LEAD_MS)),
      ),
    )
    .returning();
  for (const m of due) {
    const { time } = localParts(m.startsAt, m.timeZone);
    await announce(ctx, m.memberId, 'meeting_reminder', {
      key: 'meeting_reminder',
      values: { time, title: m.title, details: [m.who, m.place || m.link].filter(Boolean).join(' · ') || m.title },
      link: '/member/crm/meetings',
    });
  }
  return due.length;
}

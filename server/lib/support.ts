/**
 * Support tickets (spec §2 /member/support, with the company's ticketing_system switch on): a member opens a
 * ticket (category, priority, subject, description, files through the upload pipeline), writes to support and
 * reads the answers, reopens a resolved ticket and closes one. Support (the operator commands) answers, asks
 * the member for something (awaiting_member), resolves and closes. Every status change is a row of the
 * ticket's trail (support_ticket_events) written in the same transaction as the change; an answer tells the
 * member through `announce` (their switches for new messages decide the channels).
 *
 * A member reaches only their own tickets: every statement names the member, and another member's id
 * answers 404 exactly like one that does not exist.
 */
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { AppContext } from './app-context';
import { HttpError, issuesToFieldMap, notFound, validationError, type FieldMap } from './errors';
import { keyedRow, type Keyed } from './list-endpoint';
import { rowsOf, type Executor } from './ledger';
import { announce } from './member-notices';
import type { ListQuery } from './pagination';
import { discardFiles, fieldOf, inspectFile, MB, storeUploads, type CheckedFile, type UploadPolicy, type UploadRequest } from './uploads';
import {
  SUPPORT_MAX_FILES,
  replyFieldsSchema,
  ticketCan,
  ticketFieldsSchema,
  type Ticket,
  type TicketStatus,
  type TicketSummary,
} from '../../src/schemas/support.schema';

/** Files sent with a ticket or a reply: JPG, PNG, WebP or PDF by their bytes, 10 MB each, five at most. */
export const SUPPORT_UPLOAD_POLICY: UploadPolicy = {
  kind: 'support',
  field: 'attachments[]',
  types: ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'],
  maxBytes: 10 * MB,
  maxFiles: SUPPORT_MAX_FILES,
};

export type TicketActor = 'member' | 'support';

/** Whether the company runs tickets (module ticketing_system); when off, the ticket calls answer 404. */
export async function ticketingOn(ctx: Pick<AppContext, 'settings'>): Promise<boolean> {
  return !!(await ctx.settings.get('modules')).ticketing_system;
}

const iso = (v: string | Date) => new Date(v).toISOString();

interface TicketDbRow {
  id: number;
  member_id: number;
  subject: string;
  category: TicketSummary['category'];
  priority: TicketSummary['priority'];
  status: TicketStatus;
  created_at: string | Date;
  updated_at: string | Date;
}
const TICKET_COLUMNS = sql.raw('id, member_id, subject, category, priority, status, created_at, updated_at');

const summaryOf = (r: TicketDbRow): TicketSummary => ({
  id: r.id,
  subject: r.subject,
  category: r.category,
  priority: r.priority,
  status: r.status,
  created_at: iso(r.created_at),
  updated_at: iso(r.updated_at),
});

export interface TicketFilters {
  status?: TicketStatus;
}

/** GET /api/support/tickets: the member's tickets (one status with ?status=), newest first. */
export async function ticketRows(db: Db, member: MemberRow, q: ListQuery, filters: TicketFilters, limit: number): Promise<Keyed<TicketSummary & { id: number; created_at: string }>[]> {
  const rows = await rowsOf<TicketDbRow>(
    db,
    sql`SELECT ${TICKET_COLUMNS} FROM support_tickets
        WHERE member_id = ${member.id} ${filters.status ? sql`AND status = ${filters.status}` : sql``}
          AND ${q.afterCursorSql(sql`created_at`, sql`id`)}
        ORDER BY ${q.orderSql(sql`created_at`, sql`id`)} LIMIT ${limit}`,
  );
  return rows.map((r) => {
    const { id, created_at, ...rest } = summaryOf(r);
    return keyedRow(id, created_at, rest);
  });
}

async function ticketRow(db: Executor, id: number, memberId: number | null, lock = false): Promise<TicketDbRow> {
  const [row] = await rowsOf<TicketDbRow>(
    db,
    sql`SELECT ${TICKET_COLUMNS} FROM support_tickets WHERE id = ${id} ${memberId === null ? sql`` : sql`AND member_id = ${memberId}`} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  if (!row) throw notFound();
  return row;
}

/** One ticket with its conversation (files included) and its trail; `memberId` null reads any (support). */
export async function ticketDetail(db: Executor, id: number, memberId: number | null): Promise<Ticket & { member_id: number }> {
  const t = await ticketRow(db, id, memberId);
  const messages = await rowsOf<{ id: number; author: TicketActor; body: string; created_at: string | Date }>(
    db,
    sql`SELECT id, author, body, created_at FROM support_messages WHERE ticket_id = ${id} ORDER BY created_at, id`,
  );
  const files = messages.length
    ? await rowsOf<{ message_id: number; id: number; name: string; content_type: string; size: number }>(
        db,
        sql`SELECT f.message_id, u.id::int AS id, u.original_name AS name, u.content_type, u.size_bytes AS size
            FROM support_message_files f JOIN uploads u ON u.id = f.upload_id
            WHERE f.message_id IN (${sql.join(messages.map((m) => sql`${m.id}`), sql`, `)}) ORDER BY f.message_id, f.position`,
      )
    : [];
  const events = await rowsOf<{ from_status: TicketStatus | null; to_status: TicketStatus; actor: TicketActor; created_at: string | Date }>(
    db,
    sql`SELECT from_status, to_status, actor, created_at FROM support_ticket_events WHERE ticket_id = ${id} ORDER BY created_at, id`,
  );
  return {
    ...summaryOf(t),
    member_id: t.member_id,
    messages: messages.map((m) => ({
      id: m.id,
      author: m.author,
      body: m.body,
      created_at: iso(m.created_at),
      attachments: files
        .filter((f) => f.message_id === m.id)
        .map((f) => ({ id: f.id, name: f.name, content_type: f.content_type, size: Number(f.size), url: `/api/uploads/${f.id}` })),
    })),
    events: events.map((e) => ({ from: e.from_status, to: e.to_status, actor: e.actor, created_at: iso(e.created_at) })),
  };
}

/** The member's own ticket as answered to them. */
export async function ownTicket(db: Executor, memberId: number, id: number): Promise<Ticket> {
  const { member_id: _m, ...t } = await ticketDetail(db, id, memberId);
  return t;
}

/** Move a ticket to `to` and write the trail row (inside the caller's transaction). */
async function setStatus(tx: Executor, t: Pick<TicketDbRow, 'id' | 'status'>, to: TicketStatus, actor: TicketActor): Promise<void> {
  await tx.execute(sql`UPDATE support_tickets SET status = ${to}, updated_at = now() WHERE id = ${t.id}`);
  if (t.status !== to) await tx.execute(sql`INSERT INTO support_ticket_events (ticket_id, from_status, to_status, actor) VALUES (${t.id}, ${t.status}, ${to}, ${actor})`);
}

/** Every text field of `upload` checked against `schema` (unknown fields refused), all problems at once. */
function checkFields<T>(upload: UploadRequest, schema: z.ZodMiniType<T>, known: string[]): { data: T | null; errors: FieldMap } {
  const errors: FieldMap = {};
  for (const k of Object.keys(upload.fields)) if (!known.includes(k)) errors[k] = ['validation:unknownField'];
  const raw = Object.fromEntries(known.map((k) => [k, upload.fields[k] ?? '']));
  const parsed = z.safeParse(schema, raw);
  if (!parsed.success) Object.assign(errors, issuesToFieldMap(parsed.error.issues));
  if (upload.files.length > SUPPORT_MAX_FILES) throw new HttpError(413, 'validation_error', 'Too many files.', { [fieldOf(SUPPORT_UPLOAD_POLICY)]: ['account:upload.tooManyFiles'] });
  return { data: parsed.success ? parsed.data : null, errors };
}

async function checkFiles(upload: UploadRequest): Promise<CheckedFile[]> {
  const out: CheckedFile[] = [];
  for (const f of upload.files) out.push(await inspectFile(f, SUPPORT_UPLOAD_POLICY));
  return out;
}

/** A message with its files (inside the caller's transaction); the stored names go to `stored`. */
async function addMessage(tx: Executor, ctx: Pick<AppContext, 'config'>, ticketId: number, memberId: number, author: TicketActor, body: string, files: CheckedFile[], stored: string[]) {
  const [m] = await rowsOf<{ id: number }>(tx, sql`INSERT INTO support_messages (ticket_id, author, body) VALUES (${ticketId}, ${author}, ${body.replace(/\r\n?/g, '\n')}) RETURNING id`);
  if (!files.length) return;
  const rows = await storeUploads(tx, ctx.config, memberId, SUPPORT_UPLOAD_POLICY, files);
  stored.push(...rows.map((r) => r.stored_name));
  for (const [i, r] of rows.entries()) await tx.execute(sql`INSERT INTO support_message_files (message_id, upload_id, position) VALUES (${m.id}, ${r.id}, ${i})`);
}

/** Runs `work` in a transaction; the bytes of files it stored are removed when it fails. */
async function withFiles<T>(ctx: Pick<AppContext, 'database' | 'config'>, work: (tx: Db, stored: string[]) => Promise<T>): Promise<T> {
  const stored: string[] = [];
  try {
    return await ctx.database.db.transaction(async (tx) => work(tx as unknown as Db, stored));
  } catch (e) {
    await discardFiles(ctx.config, stored);
    throw e;
  }
}

/** POST /api/support/tickets: a new ticket, open, its description the first message. */
export async function openTicket(ctx: Pick<AppContext, 'database' | 'config'>, memberId: number, upload: UploadRequest): Promise<Ticket> {
  const { data, errors } = checkFields(upload, ticketFieldsSchema, ['category', 'priority', 'subject', 'description']);
  if (!data || Object.keys(errors).length) throw validationError(errors);
  const files = await checkFiles(upload);
  const id = await withFiles(ctx, async (tx, stored) => {
    const [t] = await rowsOf<{ id: number }>(
      tx,
      sql`INSERT INTO support_tickets (member_id, category, priority, subject) VALUES (${memberId}, ${data.category}, ${data.priority}, ${data.subject}) RETURNING id`,
    );
    await tx.execute(sql`INSERT INTO support_ticket_events (ticket_id, from_status, to_status, actor) VALUES (${t.id}, NULL, 'open', 'member')`);
    await addMessage(tx, ctx, t.id, memberId, 'member', data.description, files, stored);
    return t.id;
  });
  return ownTicket(ctx.database.db, memberId, id);
}

const refused = (key: string) => validationError({ _body: [key] });

/** POST /api/support/tickets/{id}/replies: the member writes again; the ticket is open (support's turn). */
export async function replyAsMember(ctx: Pick<AppContext, 'database' | 'config'>, memberId: number, id: number, upload: UploadRequest): Promise<Ticket> {
  await ticketRow(ctx.database.db, id, memberId);
  const { data, errors } = checkFields(upload, replyFieldsSchema, ['body']);
  if (!data || Object.keys(errors).length) throw validationError(errors);
  const files = await checkFiles(upload);
  await withFiles(ctx, async (tx, stored) => {
    const t = await ticketRow(tx, id, memberId, true);
    if (!ticketCan.reply(t.status)) throw refused(t.status === 'resolved' ? 'support:tickets.errors.reopenFirst' : 'support:tickets.errors.closed');
    await addMessage(tx, ctx, id, memberId, 'member', data.body, files, stored);
    await setStatus(tx, t, 'open', 'member');
  });
  return ownTicket(ctx.database.db, memberId, id);
}

/** POST …/reopen (a resolved ticket → open) and …/close (any but closed → closed) by the member. */
export async function memberTransition(ctx: Pick<AppContext, 'database'>, memberId: number, id: number, action: 'reopen' | 'close'): Promise<Ticket> {
  await ctx.database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const t = await ticketRow(tx, id, memberId, true);
    if (!ticketCan[action](t.status)) throw refused(action === 'reopen' ? 'support:tickets.errors.notResolved' : 'support:tickets.errors.closed');
    await setStatus(tx, t, action === 'reopen' ? 'open' : 'closed', 'member');
  });
  return ownTicket(ctx.database.db, memberId, id);
}

// ── What support does (the operator commands) ─────────────────────────────────────────────────────

export const SUPPORT_REPLY_STATUSES = ['answered', 'awaiting_member', 'resolved'] as const;
export type SupportReplyStatus = (typeof SUPPORT_REPLY_STATUSES)[number];

/** Support answers a ticket (not a closed one): the ticket becomes `status`, the member is told. */
export async function replyAsSupport(ctx: Pick<AppContext, 'database' | 'config' | 'outbox'>, id: number, body: string, status: SupportReplyStatus = 'answered') {
  const text = body.trim();
  if (!text || text.length > 5000) throw validationError({ body: ['validation:required'] }, 'An answer needs a text of 1 to 5000 characters.');
  const t = await ctx.database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const row = await ticketRow(tx, id, null, true);
    if (row.status === 'closed') throw refused('support:tickets.errors.closed');
    await tx.execute(sql`INSERT INTO support_messages (ticket_id, author, body) VALUES (${id}, 'support', ${text})`);
    await setStatus(tx, row, status, 'support');
    return row;
  });
  await announce(ctx, t.member_id, 'new_message', {
    key: 'support_answered',
    values: { subject: t.subject, text: text.length > 300 ? `${text.slice(0, 297)}...` : text },
    link: `/member/support/tickets/${id}`,
  });
  return ticketDetail(ctx.database.db, id, null);
}

/** Support closes a ticket. */
export async function closeAsSupport(ctx: Pick<AppContext, 'database'>, id: number) {
  await ctx.database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const t = await ticketRow(tx, id, null, true);
    if (t.status === 'closed') throw refused('support:tickets.errors.closed');
    await setStatus(tx, t, 'closed', 'support');
  });
  return ticketDetail(ctx.database.db, id, null);
}

/** Tickets for support, oldest change first: those waiting for support (open) unless `status` says otherwise. */
export async function ticketsForSupport(db: Executor, opts: { status?: TicketStatus | 'all'; limit?: number } = {}) {
  const status = opts.status ?? 'open';
  return rowsOf<TicketDbRow & { username: string }>(
    db,
    sql`SELECT t.id, t.member_id, t.subject, t.category, t.priority, t.status, t.created_at, t.updated_at, m.username
        FROM support_tickets t JOIN members m ON m.id = t.member_id
        ${status === 'all' ? sql`` : sql`WHERE t.status = ${status}`}
        ORDER BY t.updated_at, t.id LIMIT ${opts.limit ?? 100}`,
  );
}

/**
 * The member's tickets in the personal data export (with the conversation and the history), and gone with the
 * account: the tickets, their messages and their history are deleted (the files go with the member's uploads).
 */
export const supportPersonalData = {
  key: 'support_tickets',
  async read(ex: Executor, memberId: number) {
    const ids = await rowsOf<{ id: number }>(ex, sql`SELECT id FROM support_tickets WHERE member_id = ${memberId} ORDER BY created_at, id`);
    const out: Ticket[] = [];
    for (const { id } of ids) out.push(await ownTicket(ex, memberId, id));
    return out;
  },
  async erase(ex: Executor, memberId: number) {
    await ex.execute(sql`DELETE FROM support_tickets WHERE member_id = ${memberId}`);
  },
};

/**
 * Mail (spec §2 Mail): threads between a member and someone of their team (sponsor, upline, downline) or the
 * company's mailbox. A thread has participants; a member reads only the threads they take part in (any
 * other thread, message or attachment reads as one that does not exist: 404). Bodies are HTML from the
 * rich-text editor, cleaned by `sanitizeHtml` before they are stored. Each side bins a message for itself
 * (binning a message one received also marks it read) and may restore it. A new message counts in the
 * recipient's `message_count`, is listed in their notifications, and is announced (`new_message`) by the
 * channels the recipient keeps on.
 *
 * The company's mailbox is the company administrator's (`companyAdmin`): staff read and answer it with the
 * operator commands of server/operator/mail.operator.ts, through the same functions.
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { pathStartsWith } from './genealogy';
import * as z from 'zod/mini';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import {
  COMPANY_RECIPIENT,
  MAIL_FILE_TYPES,
  MAIL_MAX_FILE_BYTES,
  MAIL_MAX_FILES,
  MAIL_BODY_MAX,
  mailComposeSchema,
  mailReplySchema,
  type MailAttachment,
  type MailConversation,
  type MailCounts,
  type MailListItem,
  type MailMessage,
  type MailParty,
  type MailRecipient,
  type MailRelation,
} from '../../src/schemas/mail.schema';
import type { AppContext } from './app-context';
import { issuesToFieldMap, notFound, validationError, type FieldMap } from './errors';
import { rowsOf, type Executor } from './ledger';
import { keyedRow, type Keyed } from './list-endpoint';
import { announce } from './member-notices';
import { companyAdmin } from './members';
import type { ListQuery } from './pagination';
import { htmlToText, sanitizeHtml } from './sanitize';
import { isoTime } from './timestamps';
import { discardFiles, inspectFile, readUploadBytes, sendFile, storeUploads, type CheckedFile, type UploadPolicy, type UploadRow } from './uploads';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config';

/** Files a message carries go through the upload pipeline under this policy. */
export const MAIL_UPLOAD_POLICY: UploadPolicy = {
  kind: 'mail',
  field: 'attachments[]',
  types: MAIL_FILE_TYPES,
  maxBytes: MAIL_MAX_FILE_BYTES,
  maxFiles: MAIL_MAX_FILES,
  // Four bytes per character at most: a body cut at this size is longer than MAIL_BODY_MAX and refused.
  fieldSize: 4 * MAIL_BODY_MAX + 4,
};

/** The page of a thread, where notifications link. */
export const conversationLink = (threadId: number) => `/member/mail/conversation/${threadId}`;

const SNIPPET = 160;
const RECIPIENT_LIMIT = 20;

/** How many snippets each process keeps (by their body, or the digest of a long one). */
const SNIPPETS_KEPT = 5000;
/** Bodies up to this many characters are their own key; a longer one is kept under its digest. */
const SNIPPET_KEY_MAX = 1024;
const snippets = new Map<string, string>();

/**
 * The start of a body as plain text. Reading HTML is far dearer than a list's query, so each process keeps
 * the snippets it made, keyed by the body itself (a long one by its digest, behind a NUL character no body
 * holds): the same body always gives the same snippet (the oldest are dropped first).
 */
function snippetOf(body: string): string {
  const key = body.length <= SNIPPET_KEY_MAX ? body : `\u0000${createHash('sha1').update(body).digest('base64')}`;
  let text = snippets.get(key);
  if (text === undefined) {
    text = htmlToText(body).slice(0, SNIPPET);
    if (snippets.size >= SNIPPETS_KEPT) snippets.delete(snippets.keys().next().value!);
    snippets.set(key, text);
  }
  return text;
}

// --- Who may write to whom ------------------------------------------------------------------------

type PartyRow = { id: number; username: string; first_name: string; last_name: string | null; avatar: string | null };

async function companyId(db: Executor): Promise<number> {
  const admin = await companyAdmin(db as Db);
  if (!admin) throw notFound('No company mailbox');
  return admin.id;
}

const party = (r: { username: string; first_name: string; last_name: string | null; avatar: string | null }, company: number, id: number): MailParty =>
  id === company
    ? { username: COMPANY_RECIPIENT, first_name: r.first_name, last_name: r.last_name, avatar: r.avatar, company: true }
    : { username: r.username, first_name: r.first_name, last_name: r.last_name, avatar: r.avatar, company: false };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Members above `m`: their sponsors up the chain and their placement ancestors. */
const uplineIdsSql = (m: Pick<MemberRow, 'id' | 'path'>) => sql`
  (WITH RECURSIVE up AS (
     SELECT sponsor_id AS id, 1 AS lvl FROM members WHERE id = ${m.id} AND sponsor_id IS NOT NULL
     UNION
     SELECT s.sponsor_id, up.lvl + 1 FROM members s JOIN up ON s.id = up.id WHERE s.sponsor_id IS NOT NULL AND up.lvl < 200
   )
   SELECT id FROM up
   UNION
   SELECT a.id FROM members a WHERE a.id <> ${m.id} AND a.path <> '' AND ${m.path} LIKE a.path || '%')`;

/** Members below `m`: their sponsor downline and their placement downline. */
const downlineIdsSql = (m: Pick<MemberRow, 'id' | 'path'>) => sql`
  (WITH RECURSIVE down AS (
     SELECT id, 1 AS lvl FROM members WHERE sponsor_id = ${m.id}
     UNION
     SELECT d.id, down.lvl + 1 FROM members d JOIN down ON d.sponsor_id = down.id WHERE down.lvl < 200
   )
   SELECT id FROM down
   UNION
   SELECT b.id FROM members b WHERE b.id <> ${m.id} AND ${pathStartsWith(sql`b.path`, m.path)})`;

/** Why `sender` may write to `recipientId`, or null when they may not. The company may write to anyone. */
export async function relationTo(db: Executor, sender: MemberRow, recipientId: number): Promise<MailRelation | null> {
  if (recipientId === sender.id) return null;
  const company = await companyId(db);
  if (recipientId === company) return 'company';
  const [r] = await rowsOf<{ active: boolean; up: boolean; down: boolean }>(
    db,
    sql`SELECT (m.status = 1 AND m.verified) AS active,
               m.id IN ${uplineIdsSql(sender)} AS up,
               m.id IN ${downlineIdsSql(sender)} AS down
        FROM members m WHERE m.id = ${recipientId}`,
  );
  if (!r?.active) return null;
  if (sender.id === company) return 'downline';
  if (recipientId === sender.sponsorId) return 'sponsor';
  if (r.up) return 'upline';
  if (r.down) return 'downline';
  return null;
}

/**
 * Whom the member may write to, matching `keyword` (username, name or e-mail; the company by its name):
 * the company, the sponsor and upline (nearest first), then the downline (nearest first).
 */
export async function mailRecipients(db: Executor, member: MemberRow, keyword: string | undefined): Promise<MailRecipient[]> {
  const company = await companyId(db);
  const k = keyword?.trim();
  const like = k ? `%${escapeLike(k)}%` : '%';
  const matches = sql`(m.username ILIKE ${like} OR m.first_name ILIKE ${like} OR coalesce(m.last_name, '') ILIKE ${like}
    OR (m.first_name || ' ' || coalesce(m.last_name, '')) ILIKE ${like} OR coalesce(m.email, '') ILIKE ${like})`;
  const out: MailRecipient[] = [];
  const [admin] = await rowsOf<PartyRow>(db, sql`SELECT id, username, first_name, last_name, avatar FROM members WHERE id = ${company}`);
  const companyName = 'company';
  if (member.id !== company && (!k || companyName.includes(k.toLowerCase()) || (await rowsOf(db, sql`SELECT 1 FROM members m WHERE m.id = ${company} AND ${matches}`)).length)) {
    out.push({ ...party(admin, company, company), relation: 'company' });
  }
  const ups = await rowsOf<PartyRow>(
    db,
    sql`SELECT m.id, m.username, m.first_name, m.last_name, m.avatar FROM members m
        WHERE m.id IN ${uplineIdsSql(member)} AND m.id <> ${company} AND m.status = 1 AND m.verified AND ${matches}
        ORDER BY m.depth DESC, m.id LIMIT ${RECIPIENT_LIMIT}`,
  );
  for (const r of ups) out.push({ ...party(r, company, r.id), relation: r.id === member.sponsorId ? 'sponsor' : 'upline' });
  const downs = await rowsOf<PartyRow>(
    db,
    sql`SELECT m.id, m.username, m.first_name, m.last_name, m.avatar FROM members m
        WHERE m.id IN ${downlineIdsSql(member)} AND m.id <> ${company} AND m.status = 1 AND m.verified AND ${matches}
        ORDER BY m.depth, m.id LIMIT ${RECIPIENT_LIMIT}`,
  );
  for (const r of downs) out.push({ ...party(r, company, r.id), relation: 'downline' });
  // The sponsor first among the upline.
  return out.sort((a, b) => order(a.relation) - order(b.relation)).slice(0, RECIPIENT_LIMIT * 2);
}
const order = (r: MailRelation) => ['company', 'sponsor', 'upline', 'downline'].indexOf(r);

// --- Lists ----------------------------------------------------------------------------------------

export interface MailFilters {
  keyword?: string;
  unread: boolean;
}

export const mailFilters = (q: ListQuery): MailFilters => ({ keyword: q.text('keyword'), unread: q.oneOf('unread', ['1']) === '1' });

type ListRow = Keyed<MailListItem>;

/** The columns every message query reads. */
interface MessageColumns {
  id: number;
  thread_id: number;
  subject: string;
  body: string;
  created_at: string | Date;
  read_at: string | Date | null;
  sender_id: number;
}

interface RawListRow extends MessageColumns {
  party_id: number;
  username: string;
  first_name: string;
  last_name: string | null;
  avatar: string | null;
  files: number;
  company_id: number | null;
}

/** The company's mailbox, read inside a query: the member `companyAdmin` finds. */
const companyIdSql = sql`(SELECT c.id FROM members c WHERE c.role_id = 1 ORDER BY c.id LIMIT 1)`;

async function listRows(db: Db, member: MemberRow, box: 'inbox' | 'sent' | 'bin', q: ListQuery, f: MailFilters, limit: number): Promise<ListRow[]> {
  const mine =
    box === 'inbox'
      ? sql`msg.recipient_id = ${member.id} AND msg.recipient_binned_at IS NULL`
      : box === 'sent'
        ? sql`msg.sender_id = ${member.id} AND msg.sender_binned_at IS NULL`
        : sql`((msg.recipient_id = ${member.id} AND msg.recipient_binned_at IS NOT NULL) OR (msg.sender_id = ${member.id} AND msg.sender_binned_at IS NOT NULL))`;
  const like = f.keyword ? `%${escapeLike(f.keyword)}%` : null;
  const search: SQL = like
    ? sql`(t.subject ILIKE ${like} OR p.username ILIKE ${like} OR p.first_name ILIKE ${like} OR coalesce(p.last_name, '') ILIKE ${like}
          OR (p.first_name || ' ' || coalesce(p.last_name, '')) ILIKE ${like})`
    : sql`TRUE`;
  const unread = f.unread ? sql`msg.recipient_id = ${member.id} AND msg.read_at IS NULL` : sql`TRUE`;
  // The company's id comes with the rows (one round trip); a page without rows asks for it on its own.
  const rows = await rowsOf<RawListRow>(
    db,
    sql`SELECT msg.id::int AS id, msg.thread_id::int AS thread_id, t.subject, msg.body, msg.created_at, msg.read_at, msg.sender_id,
               p.id AS party_id, p.username, p.first_name, p.last_name, p.avatar,
               (SELECT count(*)::int FROM message_attachments a WHERE a.message_id = msg.id) AS files,
               ${companyIdSql} AS company_id
        FROM messages msg
        JOIN message_threads t ON t.id = msg.thread_id
        JOIN members p ON p.id = CASE WHEN msg.recipient_id = ${member.id} THEN msg.sender_id ELSE msg.recipient_id END
        WHERE ${mine} AND ${unread} AND ${search}
          AND ${q.rangeSql(sql`msg.created_at`)} AND ${q.afterCursorSql(sql`msg.created_at`, sql`msg.id`)}
        ORDER BY ${q.orderSql(sql`msg.created_at`, sql`msg.id`)}
        LIMIT ${limit}`,
  );
  if (!rows.length) {
    await companyId(db);
    return [];
  }
  if (rows[0].company_id === null) throw notFound('No company mailbox');
  const company = Number(rows[0].company_id);
  return rows.map((r) => {
    const received = Number(r.sender_id) !== member.id;
    const row = keyedRow(r.id, r.created_at, {
      thread_id: Number(r.thread_id),
      box: (received ? 'inbox' : 'sent') as 'inbox' | 'sent',
      subject: r.subject,
      snippet: snippetOf(r.body),
      party: party(r, company, Number(r.party_id)),
      read: received ? r.read_at !== null : true,
      attachments: Number(r.files),
    });
    return row as ListRow;
  });
}

export const inboxRows = (db: Db, m: MemberRow, q: ListQuery, f: MailFilters, limit: number) => listRows(db, m, 'inbox', q, f, limit);
export const sentRows = (db: Db, m: MemberRow, q: ListQuery, f: MailFilters, limit: number) => listRows(db, m, 'sent', q, f, limit);
export const binRows = (db: Db, m: MemberRow, q: ListQuery, f: MailFilters, limit: number) => listRows(db, m, 'bin', q, f, limit);

export async function mailCounts(db: Executor, memberId: number): Promise<MailCounts> {
  const [r] = await rowsOf<MailCounts>(
    db,
    sql`SELECT
          (SELECT count(*)::int FROM messages WHERE recipient_id = ${memberId} AND recipient_binned_at IS NULL AND read_at IS NULL) AS unread,
          (SELECT count(*)::int FROM messages WHERE recipient_id = ${memberId} AND recipient_binned_at IS NULL) AS inbox,
          (SELECT count(*)::int FROM messages WHERE sender_id = ${memberId} AND sender_binned_at IS NULL) AS sent,
          (SELECT count(*)::int FROM messages WHERE (recipient_id = ${memberId} AND recipient_binned_at IS NOT NULL)
                                                 OR (sender_id = ${memberId} AND sender_binned_at IS NOT NULL)) AS bin`,
  );
  return { unread: Number(r.unread), inbox: Number(r.inbox), sent: Number(r.sent), bin: Number(r.bin) };
}

// --- Reading ----------------------------------------------------------------------------------------

const attachmentUrl = (id: number) => `/api/mail/attachments/${id}`;

async function attachmentsOf(db: Executor, messageIds: number[]): Promise<Map<number, MailAttachment[]>> {
  const out = new Map<number, MailAttachment[]>();
  if (!messageIds.length) return out;
  const rows = await rowsOf<{ message_id: number; id: number; original_name: string; content_type: string; size_bytes: number }>(
    db,
    sql`SELECT a.message_id::int AS message_id, u.id::int AS id, u.original_name, u.content_type, u.size_bytes
        FROM message_attachments a JOIN uploads u ON u.id = a.upload_id
        WHERE a.message_id IN (${sql.join(messageIds.map((i) => sql`${i}`), sql`, `)})
        ORDER BY a.message_id, a.position, u.id`,
  );
  for (const r of rows) {
    const list = out.get(Number(r.message_id)) ?? [];
    list.push({ id: Number(r.id), name: r.original_name, content_type: r.content_type, size: Number(r.size_bytes), url: attachmentUrl(Number(r.id)) });
    out.set(Number(r.message_id), list);
  }
  return out;
}

interface MessageRow extends MessageColumns {
  recipient_id: number;
  sender_binned_at: string | Date | null;
  recipient_binned_at: string | Date | null;
  s_username: string;
  s_first_name: string;
  s_last_name: string | null;
  s_avatar: string | null;
  r_username: string;
  r_first_name: string;
  r_last_name: string | null;
  r_avatar: string | null;
}

const iso = isoTime;

async function messagesWhere(db: Executor, memberId: number, where: SQL): Promise<MailMessage[]> {
  const company = await companyId(db);
  const rows = await rowsOf<MessageRow>(
    db,
    sql`SELECT msg.id::int AS id, msg.thread_id::int AS thread_id, t.subject, msg.body, msg.created_at, msg.read_at, msg.sender_id, msg.recipient_id,
               msg.sender_binned_at, msg.recipient_binned_at,
               s.username AS s_username, s.first_name AS s_first_name, s.last_name AS s_last_name, s.avatar AS s_avatar,
               r.username AS r_username, r.first_name AS r_first_name, r.last_name AS r_last_name, r.avatar AS r_avatar
        FROM messages msg
        JOIN message_threads t ON t.id = msg.thread_id
        JOIN members s ON s.id = msg.sender_id
        JOIN members r ON r.id = msg.recipient_id
        WHERE (msg.sender_id = ${memberId} OR msg.recipient_id = ${memberId}) AND ${where}
        ORDER BY msg.created_at, msg.id`,
  );
  const files = await attachmentsOf(
    db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r): MailMessage => {
    const mine = Number(r.sender_id) === memberId;
    return {
      id: Number(r.id),
      thread_id: Number(r.thread_id),
      subject: r.subject,
      from: party({ username: r.s_username, first_name: r.s_first_name, last_name: r.s_last_name, avatar: r.s_avatar }, company, Number(r.sender_id)),
      to: party({ username: r.r_username, first_name: r.r_first_name, last_name: r.r_last_name, avatar: r.r_avatar }, company, Number(r.recipient_id)),
      // Stored clean; cleaned again on the way out, so rows written before the sanitiser never come back raw.
      body: sanitizeHtml(r.body),
      mine,
      read_at: r.read_at ? iso(r.read_at) : null,
      binned: mine ? r.sender_binned_at !== null : r.recipient_binned_at !== null,
      attachments: files.get(Number(r.id)) ?? [],
      created_at: iso(r.created_at),
    };
  });
}

async function isParticipant(db: Executor, threadId: number, memberId: number): Promise<boolean> {
  const [r] = await rowsOf(db, sql`SELECT 1 FROM message_participants WHERE thread_id = ${threadId} AND member_id = ${memberId}`);
  return !!r;
}

/** The other side of a thread for `memberId`. */
async function counterpart(db: Executor, threadId: number, memberId: number): Promise<PartyRow> {
  const [r] = await rowsOf<PartyRow>(
    db,
    sql`SELECT m.id, m.username, m.first_name, m.last_name, m.avatar FROM message_participants p JOIN members m ON m.id = p.member_id
        WHERE p.thread_id = ${threadId} AND p.member_id <> ${memberId} ORDER BY p.member_id LIMIT 1`,
  );
  if (!r) throw notFound();
  return r;
}

/** A thread the member takes part in, messages oldest first (any other thread → 404). */
export async function conversation(db: Executor, memberId: number, threadId: number): Promise<MailConversation> {
  if (!(await isParticipant(db, threadId, memberId))) throw notFound();
  const [t] = await rowsOf<{ subject: string }>(db, sql`SELECT subject FROM message_threads WHERE id = ${threadId}`);
  const other = await counterpart(db, threadId, memberId);
  const company = await companyId(db);
  return { id: threadId, subject: t.subject, reply_to: party(other, company, Number(other.id)), messages: await messagesWhere(db, memberId, sql`msg.thread_id = ${threadId}`) };
}

/** A message the member sent (any other id → 404). */
export async function sentItem(db: Executor, memberId: number, messageId: number): Promise<MailMessage> {
  const [m] = await messagesWhere(db, memberId, sql`msg.id = ${messageId} AND msg.sender_id = ${memberId}`);
  if (!m) throw notFound();
  return m;
}

/** Mark what the member received in a thread read (and the notices that point at it), or its latest message unread. */
export async function markThread(db: Executor, memberId: number, threadId: number, read: boolean, now = new Date()): Promise<MailCounts> {
  if (!(await isParticipant(db, threadId, memberId))) throw notFound();
  if (read) {
    await db.execute(sql`UPDATE messages SET read_at = ${now.toISOString()}::timestamptz WHERE thread_id = ${threadId} AND recipient_id = ${memberId} AND read_at IS NULL`);
    await db.execute(
      sql`UPDATE member_notices SET read_at = ${now.toISOString()}::timestamptz WHERE member_id = ${memberId} AND read_at IS NULL AND link = ${conversationLink(threadId)}`,
    );
  } else {
    await db.execute(sql`
      UPDATE messages SET read_at = NULL WHERE id = (
        SELECT id FROM messages WHERE thread_id = ${threadId} AND recipient_id = ${memberId} ORDER BY created_at DESC, id DESC LIMIT 1)`);
  }
  return mailCounts(db, memberId);
}

/** Move a message of the member's to their bin (or back); what one side does, the other does not see. */
export async function binMessage(db: Executor, memberId: number, messageId: number, binned: boolean, now = new Date()): Promise<void> {
  const at = binned ? sql`${now.toISOString()}::timestamptz` : sql`NULL`;
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`UPDATE messages SET
          sender_binned_at = CASE WHEN sender_id = ${memberId} THEN ${at} ELSE sender_binned_at END,
          recipient_binned_at = CASE WHEN recipient_id = ${memberId} THEN ${at} ELSE recipient_binned_at END,
          read_at = CASE WHEN recipient_id = ${memberId} AND ${binned} THEN coalesce(read_at, ${now.toISOString()}::timestamptz) ELSE read_at END
        WHERE id = ${messageId} AND (sender_id = ${memberId} OR recipient_id = ${memberId})
        RETURNING id`,
  );
  if (!rows.length) throw notFound();
}

/** An attachment of a message the member sent or received, as a download (anyone else → 404). */
export async function sendMailAttachment(reply: FastifyReply, db: Executor, config: Config, memberId: number, uploadId: number) {
  const [row] = await rowsOf<UploadRow>(
    db,
    sql`SELECT u.id::int AS id, u.member_id, u.kind, u.stored_name, u.original_name, u.content_type, u.size_bytes, u.created_at
        FROM uploads u JOIN message_attachments a ON a.upload_id = u.id JOIN messages msg ON msg.id = a.message_id
        WHERE u.id = ${uploadId} AND u.kind = 'mail' AND (msg.sender_id = ${memberId} OR msg.recipient_id = ${memberId})
        LIMIT 1`,
  );
  if (!row) throw notFound();
  return sendFile(reply, row, await readUploadBytes(config, row));
}

// --- Writing ----------------------------------------------------------------------------------------

export interface IncomingMail {
  fields: Record<string, string>;
  files: Array<{ filename: string; bytes: Buffer }>;
}

function fieldsOf<S extends z.ZodMiniType>(schema: S, allowed: string[], upload: IncomingMail): { data: z.output<S> | null; errors: FieldMap } {
  const errors: FieldMap = {};
  for (const k of Object.keys(upload.fields)) if (!allowed.includes(k)) errors[k] = ['validation:unknownField'];
  const parsed = z.safeParse(schema, Object.fromEntries(allowed.map((k) => [k, upload.fields[k] ?? ''])));
  if (!parsed.success) Object.assign(errors, issuesToFieldMap(parsed.error.issues));
  return { data: parsed.success ? parsed.data : null, errors };
}

/** The body as stored: sanitised HTML with some text (or an attachment) left. */
function cleanBody(html: string, errors: FieldMap, hasFiles: boolean): string {
  const clean = sanitizeHtml(html);
  if (!htmlToText(clean) && !hasFiles && !errors.body) errors.body = ['validation:required'];
  return clean;
}

async function resolveRecipient(db: Executor, to: string): Promise<number | null> {
  if (to === COMPANY_RECIPIENT) return companyId(db);
  const [r] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM members WHERE lower(username) = lower(${to}) LIMIT 1`);
  return r ? Number(r.id) : null;
}

interface Written {
  threadId: number;
  messageId: number;
}

async function write(
  ctx: Pick<AppContext, 'database' | 'config' | 'outbox'>,
  sender: MemberRow,
  recipientId: number,
  thread: { id: number } | { subject: string },
  body: string,
  checked: CheckedFile[],
  _ip: string | null,
): Promise<Written> {
  void _ip;
  const db = ctx.database.db;
  const stored: string[] = [];
  let written: Written;
  try {
    written = await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      let threadId: number;
      if ('id' in thread) threadId = thread.id;
      else {
        const [t] = await rowsOf<{ id: number }>(tx, sql`INSERT INTO message_threads (subject) VALUES (${thread.subject}) RETURNING id::int AS id`);
        threadId = Number(t.id);
        await tx.execute(sql`INSERT INTO message_participants (thread_id, member_id) VALUES (${threadId}, ${sender.id}), (${threadId}, ${recipientId}) ON CONFLICT DO NOTHING`);
      }
      const [m] = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO messages (thread_id, sender_id, recipient_id, body) VALUES (${threadId}, ${sender.id}, ${recipientId}, ${body}) RETURNING id::int AS id`,
      );
      if (checked.length) {
        const uploads = await storeUploads(tx, ctx.config, sender.id, MAIL_UPLOAD_POLICY, checked);
        stored.push(...uploads.map((u) => u.stored_name));
        for (const [i, u] of uploads.entries()) await tx.execute(sql`INSERT INTO message_attachments (message_id, upload_id, position) VALUES (${m.id}, ${u.id}, ${i})`);
      }
      return { threadId, messageId: Number(m.id) };
    });
  } catch (e) {
    await discardFiles(ctx.config, stored);
    throw e;
  }
  const [t] = await rowsOf<{ subject: string }>(db, sql`SELECT subject FROM message_threads WHERE id = ${written.threadId}`);
  const name = [sender.firstName, sender.lastName?.trim()].filter(Boolean).join(' ') || sender.username;
  await announce(ctx, recipientId, 'new_message', {
    key: 'new_message',
    values: { subject: t.subject, name, snippet: htmlToText(body).slice(0, SNIPPET) },
    link: conversationLink(written.threadId),
  });
  return written;
}

async function checkFiles(files: IncomingMail['files']): Promise<CheckedFile[]> {
  const out: CheckedFile[] = [];
  for (const f of files) out.push(await inspectFile(f, MAIL_UPLOAD_POLICY));
  return out;
}

/** A new thread from `sender` to a recipient they may write to (anyone else → 422 on `to`). */
export async function sendMail(ctx: Pick<AppContext, 'database' | 'config' | 'outbox'>, sender: MemberRow, upload: IncomingMail, ip: string | null): Promise<Written> {
  const db = ctx.database.db;
  const { data, errors } = fieldsOf(mailComposeSchema, ['to', 'subject', 'body'], upload);
  const body = cleanBody(upload.fields.body ?? '', errors, upload.files.length > 0);
  let recipientId: number | null = null;
  if (data && !errors.to) {
    recipientId = await resolveRecipient(db, data.to);
    if (recipientId === null || !(await relationTo(db, sender, recipientId))) errors.to = ['mail:errors.recipientNotAllowed'];
  }
  if (Object.keys(errors).length || !data || recipientId === null) throw validationError(errors);
  return write(ctx, sender, recipientId, { subject: data.subject }, body, await checkFiles(upload.files), ip);
}

/** A reply in a thread the member takes part in (any other thread → 404), to its other side. */
export async function replyMail(
  ctx: Pick<AppContext, 'database' | 'config' | 'outbox'>,
  sender: MemberRow,
  threadId: number,
  upload: IncomingMail,
  ip: string | null,
): Promise<Written> {
  const db = ctx.database.db;
  if (!(await isParticipant(db, threadId, sender.id))) throw notFound();
  const { errors } = fieldsOf(mailReplySchema, ['body'], upload);
  const body = cleanBody(upload.fields.body ?? '', errors, upload.files.length > 0);
  if (Object.keys(errors).length) throw validationError(errors);
  const other = await counterpart(db, threadId, sender.id);
  return write(ctx, sender, Number(other.id), { id: threadId }, body, await checkFiles(upload.files), ip);
}

/** The company's mailbox member (for the operator commands). */
export async function companyMember(db: Executor): Promise<MemberRow> {
  const admin = await companyAdmin(db as Db);
  if (!admin) throw notFound('No company mailbox');
  return admin;
}

/** Messages waiting in the company's mailbox, newest first (for staff). */
export async function companyInbox(db: Executor, limit: number, unreadOnly: boolean) {
  const company = await companyId(db);
  return rowsOf<{ thread_id: number; message_id: number; username: string; subject: string; body: string; created_at: string | Date; read_at: string | Date | null }>(
    db,
    sql`SELECT msg.thread_id::int AS thread_id, msg.id::int AS message_id, s.username, t.subject, msg.body, msg.created_at, msg.read_at
        FROM messages msg JOIN message_threads t ON t.id = msg.thread_id JOIN members s ON s.id = msg.sender_id
        WHERE msg.recipient_id = ${company} ${unreadOnly ? sql`AND msg.read_at IS NULL` : sql``}
        ORDER BY msg.created_at DESC, msg.id DESC LIMIT ${limit}`,
  );
}


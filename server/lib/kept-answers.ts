/**
 * Answers of a member's dashboards kept as last computed until something they show changes (migration 0047):
 * reading a kept answer is one row instead of the reads that compute it.
 *
 * The statement computing an answer also selects `keptSeenColumns` (the answer's version and the epoch, in the
 * same snapshot as what it reads); `keepAnswer` then keeps the answer marked with them. A change committed after
 * that snapshot has raised the version (or the epoch), so what is kept does not count; a row a change still holds
 * is skipped instead of waited for.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';
import { fixedRead, fixedRows, type Db } from '../db/client';

/** What is kept: the home dashboard's member-specific parts, the CRM dashboard's answer. */
export type KeptKind = 'home' | 'crm_dashboard';

/** The version and epoch an answer was computed at, as the statement computing it read them (null: no row yet). */
export interface KeptSeen {
  version: string | null;
  epoch: string;
}

const member = sql.placeholder('member');
const kind = sql.placeholder('kind');
const keptFor = sql.placeholder('keptFor');
const version = sql.placeholder('version');
const epoch = sql.placeholder('epoch');
const answer = sql.placeholder('answer');

const KEPT = fixedRead(sql`SELECT a.answer FROM member_kept_answers a JOIN member_kept_epoch e ON e.epoch = a.kept_epoch
  WHERE a.member_id = ${member} AND a.kind = ${kind} AND a.kept_version = a.version AND a.kept_for = ${keptFor}`);

const KEEP = fixedRead(sql`WITH free AS (
    SELECT member_id FROM member_kept_answers WHERE member_id = ${member} AND kind = ${kind} FOR UPDATE SKIP LOCKED
  ), updated AS (
    UPDATE member_kept_answers a SET kept_version = ${version}::bigint, kept_epoch = ${epoch}::bigint, kept_for = ${keptFor}, answer = ${answer}
    FROM free WHERE a.member_id = free.member_id AND a.kind = ${kind} AND ${version}::bigint IS NOT NULL
  )
  INSERT INTO member_kept_answers (member_id, kind, version, kept_version, kept_epoch, kept_for, answer)
  SELECT ${member}, ${kind}, 0, 0, ${epoch}::bigint, ${keptFor}, ${answer} WHERE ${version}::bigint IS NULL
  ON CONFLICT (member_id, kind) DO NOTHING`);

/** The member's kept answer of a kind computed for `forWhat` (month, time zone and day…), while it still counts; else null. */
export async function keptAnswer(db: Db, memberId: number, what: KeptKind, forWhat: string): Promise<string | null> {
  const [row] = await fixedRows(db, KEPT, { member: memberId, kind: what, keptFor: forWhat });
  return row ? (row[0] as string) : null;
}

/** Two columns for the statement computing an answer: the answer's version and the epoch it reads (KeptSeen, as text). */
export const keptSeenColumns = (memberId: SQLWrapper | number, what: KeptKind) =>
  sql`(SELECT version::text FROM member_kept_answers WHERE member_id = ${memberId} AND kind = ${sql.raw(`'${what}'`)}) AS kept_version,
      (SELECT epoch::text FROM member_kept_epoch) AS kept_epoch`;

/** Keep an answer computed at `seen` for `forWhat` (nothing is kept where a change holds the row or came meanwhile). */
export async function keepAnswer(db: Db, memberId: number, what: KeptKind, seen: KeptSeen, forWhat: string, text: string): Promise<void> {
  await fixedRows(db, KEEP, { member: memberId, kind: what, keptFor: forWhat, version: seen.version, epoch: seen.epoch, answer: text });
}

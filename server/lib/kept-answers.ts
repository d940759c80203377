/**
 * Answers of a member's dashboards and network pages kept as last computed until something they show changes
 * (migrations 0047, 0048): reading a kept answer is one row instead of the reads that compute it. A change raises
 * the answers it touches as its transaction commits (0048).
 *
 * `keptOr` reads the kept answer; when it does not count, the same read gives the answer's version and the epoch,
 * and the answer computed after it is kept marked with them. Every read computing the answer starts after that
 * one, so it sees every change the marks include; a change committed later has raised the version (or the epoch),
 * so what is kept does not count. A row a change still holds is skipped, not waited for; an answer computed under
 * an epoch that has ended is not stored (a new epoch drops what answers hold, an erased member's name say).
 */
import { sql } from 'drizzle-orm';
import { fixedRead, fixedRows, type Db } from '../db/client';

/**
 * What is kept: the home dashboard's member-specific parts, the CRM dashboard's answer, the member's own genealogy and
 * the downline report's first page (0048).
 */
export type KeptKind = 'home' | 'crm_dashboard' | 'genealogy' | 'downline_report';

const member = sql.placeholder('member');
const kind = sql.placeholder('kind');
const keptFor = sql.placeholder('keptFor');
const version = sql.placeholder('version');
const epoch = sql.placeholder('epoch');
const answer = sql.placeholder('answer');

/** The kept answer while it counts (else null), the answer's version (null: no row yet) and the epoch. */
const KEPT = fixedRead(sql`SELECT CASE WHEN a.kept_version = a.version AND a.kept_epoch = e.epoch AND a.kept_for = ${keptFor} THEN a.answer END,
    a.version::text, e.epoch::text
  FROM member_kept_epoch e LEFT JOIN member_kept_answers a ON a.member_id = ${member} AND a.kind = ${kind}`);

const KEEP = fixedRead(sql`WITH free AS (
    SELECT member_id FROM member_kept_answers WHERE member_id = ${member} AND kind = ${kind} FOR UPDATE SKIP LOCKED
  ), updated AS (
    UPDATE member_kept_answers a SET kept_version = ${version}::bigint, kept_epoch = ${epoch}::bigint, kept_for = ${keptFor}, answer = ${answer}
    FROM free, member_kept_epoch e WHERE a.member_id = free.member_id AND a.kind = ${kind} AND ${version}::bigint IS NOT NULL AND e.epoch = ${epoch}::bigint
  )
  INSERT INTO member_kept_answers (member_id, kind, version, kept_version, kept_epoch, kept_for, answer)
  SELECT ${member}, ${kind}, 0, 0, ${epoch}::bigint, ${keptFor}, ${answer} FROM member_kept_epoch e WHERE ${version}::bigint IS NULL AND e.epoch = ${epoch}::bigint
  ON CONFLICT (member_id, kind) DO NOTHING`);

/**
 * The member's answer of a kind for `forWhat` (what it depends on besides the member's rows: the month, the time
 * zone and day…): the kept one while it counts (`kept`), else `compute`d — reading only after this call's read of
 * the marks — and kept.
 */
export async function keptOr(db: Db, memberId: number, what: KeptKind, forWhat: string, compute: () => Promise<string>): Promise<{ answer: string; kept: boolean }> {
  const [[kept, seenVersion, seenEpoch]] = (await fixedRows(db, KEPT, { member: memberId, kind: what, keptFor: forWhat })) as Array<[string | null, string | null, string]>;
  if (kept !== null) return { answer: kept, kept: true };
  const computed = await compute();
  await fixedRows(db, KEEP, { member: memberId, kind: what, keptFor: forWhat, version: seenVersion, epoch: seenEpoch, answer: computed });
  return { answer: computed, kept: false };
}

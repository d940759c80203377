/**
 * Member searches in the caller's downline (spec §7 users/members, placement_downlines, sponsor_downlines):
 * verified members whose username, name or e-mail contains the keyword, nearest levels first.
 */
import { sql } from 'drizzle-orm';
import { pathStartsWith } from './genealogy';
import type { Db } from '../db/client';
import { members, type MemberRow } from '../db/schema';
import type { SmallUser } from '../../src/schemas/auth.schema';
import { validationError } from './errors';

const SEARCH_LIMIT = 20;
export const MAX_SEARCH_LEVELS = 99;

export const toSmallUser = (m: Pick<MemberRow, 'firstName' | 'lastName' | 'username' | 'email' | 'avatar'>): SmallUser => ({
  first_name: m.firstName,
  last_name: m.lastName,
  username: m.username,
  email: m.email,
  avatar: m.avatar,
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function keywordFilter(keyword: string | undefined) {
  const k = keyword?.trim();
  if (!k) return sql`TRUE`;
  const like = `%${escapeLike(k)}%`;
  return sql`(${members.username} ILIKE ${like} OR ${members.firstName} ILIKE ${like} OR ${members.lastName} ILIKE ${like}
    OR (${members.firstName} || ' ' || coalesce(${members.lastName}, '')) ILIKE ${like} OR ${members.email} ILIKE ${like})`;
}

/** The `levels` parameter: 1 or more (capped at MAX_SEARCH_LEVELS); all levels when absent. */
export function parseLevels(levels: string | undefined): number {
  if (levels === undefined || levels === '') return MAX_SEARCH_LEVELS;
  if (!/^\d{1,3}$/.test(levels) || Number(levels) < 1) throw validationError({ levels: ['validation:invalidFormat'] });
  return Math.min(Number(levels), MAX_SEARCH_LEVELS);
}

const smallColumns = {
  firstName: members.firstName,
  lastName: members.lastName,
  username: members.username,
  email: members.email,
  avatar: members.avatar,
};

/** Members in the caller's placement downline matching the keyword (nearest levels first). */
export async function placementDownline(db: Db, caller: MemberRow, keyword: string | undefined, levels: number): Promise<SmallUser[]> {
  const rows = await db
    .select(smallColumns)
    .from(members)
    .where(
      sql`${pathStartsWith(sql`${members.path}`, caller.path)} AND ${members.id} <> ${caller.id} AND ${members.verified}
        AND ${members.depth} <= ${caller.depth + levels} AND ${keywordFilter(keyword)}`,
    )
    .orderBy(members.depth, members.id)
    .limit(SEARCH_LIMIT);
  return rows.map(toSmallUser);
}

/** Members in the caller's sponsor downline (down to `levels`) matching the keyword (nearest levels first). */
export async function sponsorDownline(db: Db, callerId: number, keyword: string | undefined, levels: number): Promise<SmallUser[]> {
  const rows = await db.execute(sql`
    WITH RECURSIVE d AS (
      SELECT id, 1 AS lvl FROM members WHERE sponsor_id = ${callerId}
      UNION ALL
      SELECT m.id, d.lvl + 1 FROM members m JOIN d ON m.sponsor_id = d.id WHERE d.lvl < ${levels}
    )
    SELECT members.first_name, members.last_name, members.username, members.email, members.avatar
    FROM d JOIN members ON members.id = d.id
    WHERE members.verified AND ${keywordFilter(keyword)}
    ORDER BY d.lvl, members.id
    LIMIT ${SEARCH_LIMIT}`);
  return (rows as unknown as { rows: Record<string, string | null>[] }).rows.map((r) => ({
    first_name: r.first_name ?? '',
    last_name: r.last_name,
    username: r.username ?? '',
    email: r.email,
    avatar: r.avatar,
  }));
}

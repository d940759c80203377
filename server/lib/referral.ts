/**
 * The referral programme of one member: summary (link, counts, referral earnings, latest referrals),
 * leaderboards of the member's sponsor downline (recruiters: most direct referrals; earners: highest gross
 * earnings) and the cursor-paged list of the member's direct referrals. Merchant accounts have no referral
 * programme (spec §6): `referralMember` refuses them with 403 `referral_unavailable`.
 *
 * The sponsor downline is a range of the materialised sponsor_path ('1.2.9.'), as in genealogy.ts.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { MemberRow } from '../db/schema';
import { JOININGS_PAGE_SIZE, LEADERBOARD_SIZE, type Leader } from '../../src/schemas/referral.schema';
import type { RecentJoining } from '../../src/schemas/network.schema';
import { fieldError, forbidden } from './errors';
import { pathStartsWith } from './genealogy';
import { decodeCursor, encodeCursor } from './pagination';
import { trimDecimal } from './settings';
import { jsonOf } from './figures';
import { isoUtc, isoUtcText } from './ledger';

const RECENT_JOININGS = 5;

const referralUnavailable = () => forbidden('referral_unavailable', 'The referral programme is not available for this account.');

/** A member in the referral programme, with the sponsor path their downline is a prefix of. */
export interface ReferralMember {
  id: number;
  username: string;
  sponsorPath: string;
}

interface JoiningRow {
  id: number;
  first_name: string;
  last_name: string | null;
  avatar: string | null;
  joined_date: string;
  t: string;
}

const toJoining = (r: JoiningRow): RecentJoining => ({
  id: Number(r.id),
  first_name: r.first_name,
  last_name: r.last_name,
  avatar: r.avatar,
  joined_date: r.joined_date,
});

const JOINING_COLUMNS = sql.raw(`id, first_name, last_name, avatar,
  ${isoUtcText('created_at')} AS joined_date,
  floor(extract(epoch FROM created_at) * 1000)::bigint::text AS t`);

/** The member as a referral-programme member; merchants are refused. */
export async function referralMember(db: Database, m: MemberRow): Promise<ReferralMember> {
  if (m.accountType === 'merchant') throw referralUnavailable();
  const [row] = await db.rows<{ sponsor_path: string }>(sql`SELECT sponsor_path FROM members WHERE id = ${m.id}`);
  return { id: m.id, username: m.username, sponsorPath: row?.sponsor_path ?? '' };
}

/** Members of the sponsor downline (not the member): a condition on alias `m`. */
const inDownline = (me: ReferralMember) =>
  me.sponsorPath === '' ? sql`false` : sql`${pathStartsWith(sql`m.sponsor_path`, me.sponsorPath)} AND m.id <> ${me.id}`;

interface SummaryRow {
  direct: number;
  month: number;
  team: number | null;
  earned: string | null;
  recent: RecentJoining[] | string | null;
}

/**
 * The summary in one round trip, from figures kept in step with the members table (migration 0035: direct
 * referrals per month of joining, the sponsor downline's size) and the referral bonuses' maintained total,
 * with the latest direct referrals as one JSON array. Merchants are refused.
 */
export async function referralSummary(db: Database, m: MemberRow, now = new Date()) {
  if (m.accountType === 'merchant') throw referralUnavailable();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
  const [r] = await db.rows<SummaryRow>(sql`
    SELECT c.direct, c.month,
      (SELECT team FROM member_sponsor_teams WHERE member_id = ${m.id}) AS team,
      (SELECT total::text FROM member_earning_totals WHERE member_id = ${m.id} AND bonus_type = 'referral_bonus') AS earned,
      (SELECT json_agg(json_build_object('id', j.id, 'first_name', j.first_name, 'last_name', j.last_name, 'avatar', j.avatar,
                         'joined_date', ${isoUtc(sql.raw('j.created_at'))})
                       ORDER BY j.created_at DESC, j.id DESC)::text
         FROM (SELECT id, first_name, last_name, avatar, created_at FROM members WHERE sponsor_id = ${m.id}
               ORDER BY created_at DESC, id DESC LIMIT ${RECENT_JOININGS}) j) AS recent
    FROM (SELECT coalesce(sum(referred), 0)::int AS direct, coalesce(sum(referred) FILTER (WHERE month >= ${monthStart}::date), 0)::int AS month
          FROM member_sponsor_months WHERE member_id = ${m.id}) c`);
  return {
    referral_link: `/signup?referral=${encodeURIComponent(m.username)}`,
    direct_referrals: Number(r?.direct ?? 0),
    joined_this_month: Number(r?.month ?? 0),
    team_size: Number(r?.team ?? 0),
    referral_earnings: trimDecimal(r?.earned ?? '0'),
    recent_joinings: jsonOf<RecentJoining[]>(r?.recent, []).map((j) => ({
      id: Number(j.id),
      first_name: j.first_name,
      last_name: j.last_name,
      avatar: j.avatar,
      joined_date: j.joined_date,
    })),
  };
}

interface LeaderRow {
  id: number;
  username: string;
  first_name: string;
  last_name: string | null;
  avatar: string | null;
  referrals: string;
  earnings: string | null;
}

const toLeaders = (rows: LeaderRow[]): Leader[] =>
  rows.map((r, i) => ({
    rank: i + 1,
    id: Number(r.id),
    username: r.username,
    first_name: r.first_name,
    last_name: r.last_name,
    avatar: r.avatar,
    referrals: Number(r.referrals),
    earnings: trimDecimal(r.earnings ?? '0'),
  }));

/** The downline members with the most direct referrals. */
export async function topRecruiters(db: Database, me: ReferralMember): Promise<Leader[]> {
  const rows = await db.rows<LeaderRow>(sql`
    WITH top AS (
      SELECT s.sponsor_id AS id, count(*) AS referrals FROM members s
      JOIN members m ON m.id = s.sponsor_id
      WHERE ${inDownline(me)}
      GROUP BY s.sponsor_id ORDER BY count(*) DESC, s.sponsor_id LIMIT ${LEADERBOARD_SIZE}
    )
    SELECT m.id, m.username, m.first_name, m.last_name, m.avatar, top.referrals::text AS referrals,
           (SELECT sum(amount_generated)::text FROM earnings e WHERE e.member_id = m.id) AS earnings
    FROM top JOIN members m ON m.id = top.id ORDER BY top.referrals DESC, m.id`);
  return toLeaders(rows);
}

/** The downline members with the highest gross earnings. */
export async function topEarners(db: Database, me: ReferralMember): Promise<Leader[]> {
  const rows = await db.rows<LeaderRow>(sql`
    WITH top AS (
      SELECT e.member_id AS id, sum(e.amount_generated) AS earnings FROM earnings e
      JOIN members m ON m.id = e.member_id
      WHERE ${inDownline(me)}
      GROUP BY e.member_id ORDER BY sum(e.amount_generated) DESC, e.member_id LIMIT ${LEADERBOARD_SIZE}
    )
    SELECT m.id, m.username, m.first_name, m.last_name, m.avatar, top.earnings::text AS earnings,
           (SELECT count(*) FROM members s WHERE s.sponsor_id = m.id)::text AS referrals
    FROM top JOIN members m ON m.id = top.id ORDER BY top.earnings DESC, m.id`);
  return toLeaders(rows);
}

/**
 * One page of the member's direct referrals, newest first: `per_page` of them (default JOININGS_PAGE_SIZE)
 * after `cursor`, and the next page's URL.
 */
export async function referralJoinings(db: Database, me: ReferralMember, query: { cursor?: string; per_page?: string }) {
  const text = query.cursor;
  const size = query.per_page ? Number(query.per_page) : JOININGS_PAGE_SIZE;
  const cursor = text ? decodeCursor(text) : null;
  if (text && (!cursor || cursor.sort !== 'desc')) throw fieldError('cursor', 'validation:invalidFormat');
  const after = cursor
    ? sql`AND (date_trunc('milliseconds', created_at), id) < (to_timestamp(${cursor.t}::double precision / 1000), ${cursor.id}::int)`
    : sql``;
  const rows = await db.rows<JoiningRow>(sql`
    SELECT ${JOINING_COLUMNS} FROM members
    WHERE sponsor_id = ${me.id} ${after}
    ORDER BY date_trunc('milliseconds', created_at) DESC, id DESC LIMIT ${size + 1}`);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: page.map(toJoining),
    next_page_url:
      rows.length > size && last
        ? `/api/referral/joinings?cursor=${encodeCursor({ t: Number(last.t), id: Number(last.id), sort: 'desc' })}${
            query.per_page ? `&per_page=${size}` : ''
          }`
        : null,
  };
}

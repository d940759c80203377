/**
 * Referral programme calls (not named by the spec, which only names the screens: Referral tabs summary,
 * recruiter, earner and /member/referral/joinings). Paths: /api/referral/summary, /recruiters, /earners,
 * /joinings. "Referrals" are the members a member sponsored (brought in); leaderboards rank the
 * member's sponsor downline (everyone they brought in, and everyone those brought in, …).
 */
import * as z from 'zod/mini';
import { idSchema, decimalString } from './common.schema';
import { cursorPage } from './values.schema';
import { recentJoiningSchema } from './network.schema';
import { referralJoiningsQuery, type QueryParams } from './list-query.schema';

const count = z.number().check(z.int(), z.nonnegative());

/** GET /api/referral/summary. */
export const referralSummarySchema = z.object({
  /** Path of the public signup with this member as sponsor ('/signup?referral=<username>'). */
  referral_link: z.string(),
  /** Members this member sponsored directly. */
  direct_referrals: count,
  /** Of those, the ones who joined this calendar month (UTC). */
  joined_this_month: count,
  /** The whole sponsor downline. */
  team_size: count,
  /** Referral bonuses earned (gross). */
  referral_earnings: decimalString,
  /** The latest direct referrals (at most 5). */
  recent_joinings: z.array(recentJoiningSchema),
});
export type ReferralSummary = z.infer<typeof referralSummarySchema>;

export const leaderSchema = z.object({
  /** 1-based place. */
  rank: z.number().check(z.int(), z.positive()),
  id: idSchema,
  username: z.string(),
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
  /** Direct referrals (recruiters) … */
  referrals: count,
  /** … and gross earnings (earners). */
  earnings: decimalString,
});
export type Leader = z.infer<typeof leaderSchema>;

/** GET /api/referral/recruiters and /api/referral/earners: the top 10 of the sponsor downline. */
export const leaderboardSchema = z.object({ items: z.array(leaderSchema) });
export type Leaderboard = z.infer<typeof leaderboardSchema>;

/** GET /api/referral/joinings: cursor-paged direct referrals, newest first. */
export const referralJoiningsSchema = cursorPage(recentJoiningSchema);
export type ReferralJoinings = z.infer<typeof referralJoiningsSchema>;

/** cursor, and per_page: page size 1 … 100 (default JOININGS_PAGE_SIZE), kept in next_page_url. */
export const referralJoiningsQuerySchema = referralJoiningsQuery;
export type ReferralJoiningsQuery = QueryParams<typeof referralJoiningsQuerySchema>;

export const LEADERBOARD_SIZE = 10;
export const JOININGS_PAGE_SIZE = 20;

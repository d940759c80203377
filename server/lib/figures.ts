/**
 * A member's maintained figures (migration 0022): wallet balance, payout totals, package investment, gross
 * earnings per bonus type, money in and out of the wallet per month, sponsored members per month. The
 * database keeps them in step with the ledger, payouts, orders, earnings and the tree in the same
 * transaction that changes those, so a page reads them in one round trip instead of summing history.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from './ledger';
import { rowsOf } from './ledger';
import * as money from './money';
import type { Units } from './money';

export interface MemberFigures {
  /** Wallet balance as the member sees it. */
  balance: Units;
  totalPaid: Units;
  /** Pending or approved payouts, not paid yet. */
  totalPending: Units;
  /** Joining package and upgrade orders, cancelled ones excluded. */
  totalInvestment: Units;
  /** Gross earnings per bonus type. */
  earnings: Map<string, Units>;
}

export interface FiguresRow {
  balance: string | null;
  total_paid: string | null;
  total_pending: string | null;
  total_investment: string | null;
  earnings: Array<[string, string]> | string | null;
}

const units = (v: string | null | undefined): Units => money.parse(v ?? '0');
/** A json column: parsed by node-postgres and PGlite alike, but tolerate text. */
export const jsonOf = <T>(v: T | string | null | undefined, empty: T): T => (v === null || v === undefined ? empty : typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** The columns of `figuresSql` (one row, also for a member with no figures yet). */
export const figuresColumns = (memberId: number) => sql`
  coalesce(f.balance, 0)::text AS balance, coalesce(f.total_paid, 0)::text AS total_paid,
  coalesce(f.total_pending, 0)::text AS total_pending, coalesce(f.total_investment, 0)::text AS total_investment,
  (SELECT json_agg(json_build_array(bonus_type, total::text))::text FROM member_earning_totals WHERE member_id = ${memberId}) AS earnings`;

/** FROM clause for `figuresColumns`; other member-specific scalar columns may be selected next to them. */
export const figuresFrom = (memberId: number) => sql`FROM (SELECT 1) one LEFT JOIN member_figures f ON f.member_id = ${memberId}`;

export function toFigures(r: FiguresRow | undefined): MemberFigures {
  return {
    balance: units(r?.balance),
    totalPaid: units(r?.total_paid),
    totalPending: units(r?.total_pending),
    totalInvestment: units(r?.total_investment),
    earnings: new Map(jsonOf<Array<[string, string]>>(r?.earnings, []).map(([k, v]) => [k, units(v)])),
  };
}

export async function memberFigures(ex: Executor, memberId: number): Promise<MemberFigures> {
  const [r] = await rowsOf<FiguresRow>(ex, sql`SELECT ${figuresColumns(memberId)} ${figuresFrom(memberId)}`);
  return toFigures(r);
}

/** Gross earnings of every bonus type together. */
export const totalEarnings = (f: MemberFigures): Units => money.sum([...f.earnings.values()]);
export const earningsOf = (f: MemberFigures, bonusType: string): Units => f.earnings.get(bonusType) ?? 0n;

/** Verified personally sponsored members, all months together. */
export async function sponsoredCount(ex: Executor, memberId: number): Promise<number> {
  const [r] = await rowsOf<{ n: number | string | null }>(ex, sql`SELECT sum(joined)::int AS n FROM member_sponsor_months WHERE member_id = ${memberId}`);
  return Number(r?.n ?? 0);
}

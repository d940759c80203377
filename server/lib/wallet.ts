/**
 * The member's wallet (spec §7 "Wallet and payout"): wallet lines, earnings, datewise totals, payout
 * totals and the balance — all read for one member, money as exact decimal strings.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Earning, Transaction } from '../../src/schemas/wallet.schema';
import { BONUS_LABELS, BONUS_TYPES, CASH_FLOWS, TRANSACTION_KEYS, TRANSACTION_LABELS, rowsOf, type CashFlow } from './ledger';
import { earningsOf, figuresColumns, figuresFrom, jsonOf, memberFigures, toFigures, totalEarnings, type FiguresRow, type MemberFigures } from './figures';
import { keyedRow, unkeyed, type Keyed } from './list-endpoint';
import * as money from './money';
import { ListQuery, parseYmd, ymd } from './pagination';

const DAY = 86_400_000;
/** Longest range of datewise figures, in days. */
export const MAX_DATEWISE_DAYS = 366;
/** Lines and earnings the overviews show. */
const RECENT_LINES = 10;

const dec = (v: string | null | undefined) => money.normalize(v ?? '0');

// --- Transactions ------------------------------------------------------------------------------

export interface TransactionRow {
  id: number;
  transaction_group: string;
  transaction_type: string;
  transaction_key: string;
  amount: string;
  created_at: Date | string;
  level: number | null;
  from_user: string | null;
  rank_name: string | null;
}

export interface TransactionFilters {
  keys: string[];
  cashFlow?: CashFlow;
}

/**
 * The member's wallet lines matching `q` and `filter`, in `q`'s order after its cursor, at most `limit`:
 * the page is cut first (the account's index in its order), then only its rows are joined to their
 * transactions and names, so a member with thousands of lines costs what a page costs. The other member of a
 * line (who generated a commission, or the other side of a transfer) is looked up once per line.
 */
export function transactionPageSql(memberId: number, q: ListQuery, filter: TransactionFilters, limit: number): SQL {
  const keys = filter.keys.length ? sql`t.transaction_key IN (${sql.join(filter.keys.map((k) => sql`${k}`), sql`, `)})` : sql`TRUE`;
  const flow = filter.cashFlow === 'credit' ? sql`e.amount < 0` : filter.cashFlow === 'debit' ? sql`e.amount > 0` : sql`TRUE`;
  const byKey = filter.keys.length ? sql`JOIN ledger_transactions t ON t.id = e.transaction_id` : sql``;
  return sql`SELECT t.id, t.transaction_group, t.transaction_type, t.transaction_key, e.amount::text AS amount, e.created_at, t.level,
               u.username AS from_user,
               r.name AS rank_name
        FROM (SELECT e.transaction_id, e.amount, e.created_at FROM ledger_entries e ${byKey}
              WHERE e.account_id = (SELECT id FROM ledger_accounts WHERE member_id = ${memberId})
                AND ${q.rangeSql(sql`e.created_at`)} AND ${keys} AND ${flow}
                AND ${q.afterCursorSql(sql`e.created_at`, sql`e.transaction_id`)}
              ORDER BY ${q.orderSql(sql`e.created_at`, sql`e.transaction_id`)}
              LIMIT ${limit}) e
        JOIN ledger_transactions t ON t.id = e.transaction_id
        LEFT JOIN members u ON u.id = CASE WHEN t.from_member_id = ${memberId} THEN t.member_id ELSE t.from_member_id END
        LEFT JOIN ranks r ON r.id = t.rank_id
        ORDER BY ${q.orderSql(sql`e.created_at`, sql`e.transaction_id`)}`;
}

/** A row of `transactionPageSql` (also as JSON, where numbers and times arrive as JSON values) as a wallet line. */
export function toTransaction(r: TransactionRow): Keyed<Transaction> {
  const amount = money.parse(r.amount);
  return keyedRow(r.id, r.created_at, {
    transaction_group: r.transaction_group,
    transaction_type: r.transaction_type,
    transaction_key: r.transaction_key,
    amount: money.format(money.abs(amount)),
    // Debit positive: a positive wallet line takes money out of the wallet.
    cash_flow: amount < 0n ? ('credit' as const) : ('debit' as const),
    level: r.level === null ? null : Number(r.level),
    from_user: r.from_user,
    rank_name: r.rank_name,
  });
}

export async function transactionRows(db: Db, memberId: number, q: ListQuery, filter: TransactionFilters, limit: number): Promise<Array<Keyed<Transaction>>> {
  return (await rowsOf<TransactionRow>(db, transactionPageSql(memberId, q, filter, limit))).map(toTransaction);
}

/** The wallet-line filters: transaction_key (several), cash_flow (only together with exactly one key). */
export function transactionFilters(q: ListQuery): TransactionFilters {
  const keys = q.manyOf('transaction_key', TRANSACTION_KEYS);
  let cashFlow: CashFlow | undefined;
  const raw = q.single('cash_flow');
  if (raw !== undefined && raw !== '') {
    if (keys.length !== 1) q.fail('cash_flow', 'validation:cashFlowNeedsOneType');
    else cashFlow = q.oneOf('cash_flow', CASH_FLOWS);
  }
  return { keys, cashFlow };
}

/** The wallet line's description in the CSV export. */
export const transactionLabel = (key: string) => TRANSACTION_LABELS[key as keyof typeof TRANSACTION_LABELS] ?? key;

// --- Earnings -----------------------------------------------------------------------------------

interface EarningRow {
  id: number;
  amount_generated: string;
  tax: string;
  service_charge: string;
  amount_payable: string;
  bonus_type: string;
  created_at: Date | string;
  level: number | null;
  from_user: string | null;
  rank_name: string | null;
}

export async function earningRows(db: Db, memberId: number, q: ListQuery, types: string[], limit: number): Promise<Array<Keyed<Earning>>> {
  const typeSql = types.length ? sql`e.bonus_type IN (${sql.join(types.map((k) => sql`${k}`), sql`, `)})` : sql`TRUE`;
  const rows = await rowsOf<EarningRow>(
    db,
    sql`SELECT e.id, e.amount_generated::text AS amount_generated, e.tax::text AS tax, e.service_charge::text AS service_charge,
               e.amount_payable::text AS amount_payable, e.bonus_type, e.created_at, e.level, fm.username AS from_user, r.name AS rank_name
        FROM earnings e
        LEFT JOIN members fm ON fm.id = e.from_member_id
        LEFT JOIN ranks r ON r.id = e.rank_id
        WHERE e.member_id = ${memberId} AND ${q.rangeSql(sql`e.created_at`)} AND ${typeSql}
          AND ${q.afterCursorSql(sql`e.created_at`, sql`e.id`)}
        ORDER BY ${q.orderSql(sql`e.created_at`, sql`e.id`)}
        LIMIT ${limit}`,
  );
  return rows.map((r) =>
    keyedRow(r.id, r.created_at, {
      amount_generated: dec(r.amount_generated),
      tax: dec(r.tax),
      service_charge: dec(r.service_charge),
      amount_payable: dec(r.amount_payable),
      bonus_type: r.bonus_type,
      level: r.level === null ? null : Number(r.level),
      from_user: r.from_user,
      rank_name: r.rank_name,
    }),
  );
}

/** The earning's description in the CSV export. */
export const bonusLabel = (type: string) => BONUS_LABELS[type as keyof typeof BONUS_LABELS] ?? type;

/** The earnings filter: bonus_type (several). */
export const earningFilters = (q: ListQuery) => q.manyOf('bonus_type', BONUS_TYPES);

/** Gross earnings per day (dense) and per bonus type over [from, to). */
export async function earningsDatewise(db: Db, memberId: number, from: Date, to: Date) {
  const fromIso = from.toISOString();
  const toIso = to.toISOString();
  const [byDay, byType] = await Promise.all([
    rowsOf<{ d: string; total: string }>(
    db,
    sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d, sum(amount_generated)::text AS total
        FROM earnings WHERE member_id = ${memberId} AND created_at >= ${fromIso}::timestamptz AND created_at < ${toIso}::timestamptz
        GROUP BY 1`,
    ),
    rowsOf<{ bonus_type: string; total: string }>(
      db,
      sql`SELECT bonus_type, sum(amount_generated)::text AS total
          FROM earnings WHERE member_id = ${memberId} AND created_at >= ${fromIso}::timestamptz AND created_at < ${toIso}::timestamptz
          GROUP BY bonus_type`,
    ),
  ]);
  const dayMap = new Map(byDay.map((r) => [r.d, dec(r.total)]));
  const days: Array<{ date: string; total: string }> = [];
  for (let t = from.getTime(); t < to.getTime(); t += DAY) {
    const d = ymd(new Date(t));
    days.push({ date: d, total: dayMap.get(d) ?? money.format(0n) });
  }
  const typeMap = new Map(byType.map((r) => [r.bonus_type, dec(r.total)]));
  const grouped = BONUS_TYPES.map((b) => ({ bonus_type: b, total: typeMap.get(b) ?? money.format(0n) }));
  for (const [b, total] of typeMap) if (!(BONUS_TYPES as readonly string[]).includes(b)) grouped.push({ bonus_type: b as never, total });
  return { earnings_datewise: days, earnings_datewise_grouped: grouped };
}

/** The last 30 days up to today (UTC), half-open: the datewise figures' default range. */
export function lastThirtyDays(now = new Date()): { from: Date; to: Date } {
  const to = new Date(parseYmd(ymd(now))!.getTime() + DAY);
  return { from: new Date(to.getTime() - 30 * DAY), to };
}

/** Datewise figures over [from, to) with the range's first and last day. */
export async function earningsTotalDatewise(db: Db, memberId: number, from: Date, to: Date) {
  return { start_date: ymd(from), end_date: ymd(new Date(to.getTime() - DAY)), ...(await earningsDatewise(db, memberId, from, to)) };
}

/** Is [from, to) longer than MAX_DATEWISE_DAYS? */
export const rangeTooLong = (from: Date, to: Date) => (to.getTime() - from.getTime()) / DAY > MAX_DATEWISE_DAYS;

const figure = (u: money.Units) => money.format(u);

/** Gross earnings of every bonus type (maintained, ./figures). */
export const totalEarningsOf = async (db: Db, memberId: number) => figure(totalEarnings(await memberFigures(db, memberId)));

export const earningsOfType = async (db: Db, memberId: number, bonusType: string) => figure(earningsOf(await memberFigures(db, memberId), bonusType));

/** Package orders (joining package and upgrades), cancelled ones excluded. */
export const totalInvestmentOf = async (db: Db, memberId: number) => figure((await memberFigures(db, memberId)).totalInvestment);

// --- Balance and payouts ------------------------------------------------------------------------

/** Sums of paid and of not-yet-paid (pending, approved) payouts. */
export const payoutTotalsOf = (f: MemberFigures) => ({ total_paid: figure(f.totalPaid), total_pending: figure(f.totalPending) });

export async function payoutTotals(db: Db, memberId: number) {
  return payoutTotalsOf(await memberFigures(db, memberId));
}

export async function memberBalance(db: Db, memberId: number): Promise<money.Units> {
  return (await memberFigures(db, memberId)).balance;
}

// --- Overviews ----------------------------------------------------------------------------------

/** The wallet statement: balance, payout totals and the latest lines. */
export async function walletStatement(db: Db, memberId: number) {
  // Figures and the latest lines in one round trip, the lines as one JSON array.
  const order = new ListQuery({});
  const [r] = await rowsOf<FiguresRow & { recent: TransactionRow[] | string | null }>(
    db,
    sql`SELECT ${figuresColumns(memberId)},
          (SELECT json_agg(x ORDER BY ${order.orderSql(sql`x.created_at`, sql`x.id`)})::text
             FROM (${transactionPageSql(memberId, order, { keys: [] }, RECENT_LINES)}) x) AS recent
        ${figuresFrom(memberId)}`,
  );
  const figures = toFigures(r);
  return {
    wallet_balance: money.format(figures.balance),
    ...payoutTotalsOf(figures),
    recent_transactions: jsonOf<TransactionRow[]>(r?.recent, []).map((t) => unkeyed(toTransaction(t))),
    transaction_labels: TRANSACTION_LABELS,
    transaction_keys: [...TRANSACTION_KEYS],
  };
}

/** The earnings overview: total, latest earnings and the last 30 days' figures. */
export async function earningsOverview(db: Db, memberId: number) {
  const { from, to } = lastThirtyDays();
  const [figures, recent, datewise] = await Promise.all([
    memberFigures(db, memberId),
    earningRows(db, memberId, new ListQuery({}), [], RECENT_LINES),
    earningsTotalDatewise(db, memberId, from, to),
  ]);
  return {
    total_earnings: figure(totalEarnings(figures)),
    recent_earnings: recent.map(unkeyed),
    ...datewise,
    bonus_labels: BONUS_LABELS,
    bonus_types: [...BONUS_TYPES],
  };
}

/**
 * Wallet calls (spec §7 "Wallet and payout"): statement, earnings overview, datewise totals, the
 * transactions and recent-earnings lists (cursor-paged, with CSV exports). A member only ever
 * reads their own wallet.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app';
import type { Db } from '../db/client';
import { envelope } from '../../src/schemas/common.schema';
import {
  earningsOverviewSchema,
  earningsPageSchema,
  earningsTotalDatewiseQuerySchema,
  earningsTotalDatewiseSchema,
  transactionsPageSchema,
  walletSummarySchema,
  type Earning,
  type Transaction,
} from '../../src/schemas/wallet.schema';
import { recentEarningsQuery, transactionsQuery } from '../../src/schemas/list-query.schema';
import { requireAuth } from '../lib/auth';
import {
  BONUS_LABELS,
  BONUS_TYPES,
  CASH_FLOWS,
  TRANSACTION_KEYS,
  TRANSACTION_LABELS,
  accountBalance,
  findWallet,
  rowsOf,
  type CashFlow,
} from '../lib/ledger';
import * as money from '../lib/money';
import { EXPORT_LIMIT, ListQuery, parseYmd, sendCsv, ymd } from '../lib/pagination';

const DAY = 86_400_000;
/** Longest range of datewise figures, in days. */
export const MAX_DATEWISE_DAYS = 366;

type Keyed<T> = T & { _at: Date; _id: number };

const dec = (v: string | null | undefined) => money.format(money.parse(v ?? '0'));

// --- Transactions ------------------------------------------------------------------------------

interface TransactionRow {
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

export async function transactionRows(
  db: Db,
  memberId: number,
  q: ListQuery,
  filter: { keys: string[]; cashFlow?: CashFlow },
  limit: number,
): Promise<Array<Keyed<Transaction>>> {
  const wallet = await findWallet(db, memberId);
  if (wallet === null) return [];
  const keys = filter.keys.length ? sql`t.transaction_key IN (${sql.join(filter.keys.map((k) => sql`${k}`), sql`, `)})` : sql`TRUE`;
  const flow = filter.cashFlow === 'credit' ? sql`e.amount < 0` : filter.cashFlow === 'debit' ? sql`e.amount > 0` : sql`TRUE`;
  const rows = await rowsOf<TransactionRow>(
    db,
    sql`SELECT t.id, t.transaction_group, t.transaction_type, t.transaction_key, e.amount::text AS amount, e.created_at, t.level,
               CASE WHEN t.from_member_id = ${memberId} THEN rm.username ELSE fm.username END AS from_user,
               r.name AS rank_name
        FROM ledger_entries e
        JOIN ledger_transactions t ON t.id = e.transaction_id
        LEFT JOIN members fm ON fm.id = t.from_member_id
        LEFT JOIN members rm ON rm.id = t.member_id
        LEFT JOIN ranks r ON r.id = t.rank_id
        WHERE e.account_id = ${wallet}
          AND ${q.rangeSql(sql`e.created_at`)} AND ${keys} AND ${flow}
          AND ${q.afterCursorSql(sql`e.created_at`, sql`e.transaction_id`)}
        ORDER BY ${q.orderSql(sql`e.created_at`, sql`e.transaction_id`)}
        LIMIT ${limit}`,
  );
  return rows.map((r) => {
    const amount = money.parse(r.amount);
    const at = new Date(r.created_at);
    return {
      id: Number(r.id),
      transaction_group: r.transaction_group,
      transaction_type: r.transaction_type,
      transaction_key: r.transaction_key,
      amount: money.format(money.abs(amount)),
      // Debit positive: a positive wallet line takes money out of the wallet.
      cash_flow: amount < 0n ? 'credit' : 'debit',
      created_at: at.toISOString(),
      level: r.level === null ? null : Number(r.level),
      from_user: r.from_user,
      rank_name: r.rank_name,
      _at: at,
      _id: Number(r.id),
    };
  });
}

const strip = <T extends object>(r: Keyed<T>): T => {
  const { _at, _id, ...rest } = r;
  void _at;
  void _id;
  return rest as unknown as T;
};

function readTransactionFilters(q: ListQuery) {
  const keys = q.manyOf('transaction_key', TRANSACTION_KEYS);
  let cashFlow: CashFlow | undefined;
  const raw = q.single('cash_flow');
  if (raw !== undefined && raw !== '') {
    if (keys.length !== 1) q.fail('cash_flow', 'validation:cashFlowNeedsOneType');
    else cashFlow = q.oneOf('cash_flow', CASH_FLOWS);
  }
  q.check();
  return { keys, cashFlow };
}

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
  return rows.map((r) => {
    const at = new Date(r.created_at);
    return {
      id: Number(r.id),
      amount_generated: dec(r.amount_generated),
      tax: dec(r.tax),
      service_charge: dec(r.service_charge),
      amount_payable: dec(r.amount_payable),
      bonus_type: r.bonus_type,
      created_at: at.toISOString(),
      level: r.level === null ? null : Number(r.level),
      from_user: r.from_user,
      rank_name: r.rank_name,
      _at: at,
      _id: Number(r.id),
    };
  });
}

/** Gross earnings per day (dense) and per bonus type over [from, to). */
export async function earningsDatewise(db: Db, memberId: number, from: Date, to: Date) {
  const fromIso = from.toISOString();
  const toIso = to.toISOString();
  const byDay = await rowsOf<{ d: string; total: string }>(
    db,
    sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d, sum(amount_generated)::text AS total
        FROM earnings WHERE member_id = ${memberId} AND created_at >= ${fromIso}::timestamptz AND created_at < ${toIso}::timestamptz
        GROUP BY 1`,
  );
  const byType = await rowsOf<{ bonus_type: string; total: string }>(
    db,
    sql`SELECT bonus_type, sum(amount_generated)::text AS total
        FROM earnings WHERE member_id = ${memberId} AND created_at >= ${fromIso}::timestamptz AND created_at < ${toIso}::timestamptz
        GROUP BY bonus_type`,
  );
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

/** Sums of paid and of not-yet-paid (pending, approved) payouts. */
export async function payoutTotals(db: Db, memberId: number) {
  const [r] = await rowsOf<{ paid: string | null; pending: string | null }>(
    db,
    sql`SELECT sum(amount) FILTER (WHERE status = 3)::text AS paid, sum(amount) FILTER (WHERE status IN (1, 2))::text AS pending
        FROM payout_requests WHERE member_id = ${memberId}`,
  );
  return { total_paid: dec(r?.paid), total_pending: dec(r?.pending) };
}

export async function memberBalance(db: Db, memberId: number): Promise<money.Units> {
  const wallet = await findWallet(db, memberId);
  return wallet === null ? 0n : accountBalance(db, wallet);
}

// --- Routes -------------------------------------------------------------------------------------

export async function walletRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['wallet'];

  app.get(
    '/api/wallet/statement',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(walletSummarySchema) } } },
    async (req) => {
      const id = req.member!.id;
      const balance = await memberBalance(db, id);
      const totals = await payoutTotals(db, id);
      const recent = await transactionRows(db, id, new ListQuery({}), { keys: [] }, 10);
      return ctx.envelope(req, {
        wallet_balance: money.format(balance),
        ...totals,
        recent_transactions: recent.map(strip),
        transaction_labels: TRANSACTION_LABELS,
        transaction_keys: [...TRANSACTION_KEYS],
      });
    },
  );

  app.get(
    '/api/wallet/transactions',
    { preHandler: requireAuth, schema: { tags, querystring: transactionsQuery(TRANSACTION_KEYS), response: { 200: envelope(transactionsPageSchema) } } },
    async (req) => {
      const q = new ListQuery(req.query as Record<string, unknown>);
      const f = readTransactionFilters(q);
      const rows = await transactionRows(db, req.member!.id, q, f, q.limit + 1);
      const page = q.page('/api/wallet/transactions', rows, (r) => ({ createdAt: r._at, id: r._id }));
      return ctx.envelope(req, {
        items: page.items.map(strip),
        next_page_url: page.next_page_url,
        transaction_labels: TRANSACTION_LABELS,
        transaction_keys: [...TRANSACTION_KEYS],
      });
    },
  );

  app.get(
    '/api/wallet/transactions/export',
    { preHandler: requireAuth, schema: { tags, querystring: transactionsQuery(TRANSACTION_KEYS), produces: ['text/csv'] } },
    async (req, reply) => {
      const q = new ListQuery(req.query as Record<string, unknown>, { paged: false });
      const f = readTransactionFilters(q);
      const rows = await transactionRows(db, req.member!.id, q, f, EXPORT_LIMIT);
      return sendCsv(
        reply,
        'transactions',
        ['id', 'date', 'type', 'description', 'cash_flow', 'amount', 'from_user', 'level', 'rank'],
        rows.map((r) => [
          r.id,
          r.created_at,
          r.transaction_key,
          TRANSACTION_LABELS[r.transaction_key as keyof typeof TRANSACTION_LABELS] ?? r.transaction_key,
          r.cash_flow,
          r.amount,
          r.from_user,
          r.level,
          r.rank_name,
        ]),
      );
    },
  );

  app.get(
    '/api/wallet/recent_earnings',
    { preHandler: requireAuth, schema: { tags, querystring: recentEarningsQuery(BONUS_TYPES), response: { 200: envelope(earningsPageSchema) } } },
    async (req) => {
      const q = new ListQuery(req.query as Record<string, unknown>);
      const types = q.manyOf('bonus_type', BONUS_TYPES);
      q.check();
      const rows = await earningRows(db, req.member!.id, q, types, q.limit + 1);
      const page = q.page('/api/wallet/recent_earnings', rows, (r) => ({ createdAt: r._at, id: r._id }));
      return ctx.envelope(req, { items: page.items.map(strip), next_page_url: page.next_page_url, bonus_labels: BONUS_LABELS, bonus_types: [...BONUS_TYPES] });
    },
  );

  app.get(
    '/api/wallet/recent_earnings/export',
    { preHandler: requireAuth, schema: { tags, querystring: recentEarningsQuery(BONUS_TYPES), produces: ['text/csv'] } },
    async (req, reply) => {
      const q = new ListQuery(req.query as Record<string, unknown>, { paged: false });
      const types = q.manyOf('bonus_type', BONUS_TYPES);
      q.check();
      const rows = await earningRows(db, req.member!.id, q, types, EXPORT_LIMIT);
      return sendCsv(
        reply,
        'earnings',
        ['id', 'date', 'bonus_type', 'description', 'amount_generated', 'tax', 'service_charge', 'amount_payable', 'from_user', 'level', 'rank'],
        rows.map((r) => [
          r.id,
          r.created_at,
          r.bonus_type,
          BONUS_LABELS[r.bonus_type as keyof typeof BONUS_LABELS] ?? r.bonus_type,
          r.amount_generated,
          r.tax,
          r.service_charge,
          r.amount_payable,
          r.from_user,
          r.level,
          r.rank_name,
        ]),
      );
    },
  );

  app.get(
    '/api/wallet/earnings',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(earningsOverviewSchema) } } },
    async (req) => {
      const id = req.member!.id;
      const [total] = await rowsOf<{ total: string | null }>(db, sql`SELECT sum(amount_generated)::text AS total FROM earnings WHERE member_id = ${id}`);
      const recent = await earningRows(db, id, new ListQuery({}), [], 10);
      const to = new Date(parseYmd(ymd(new Date()))!.getTime() + DAY);
      const from = new Date(to.getTime() - 30 * DAY);
      const datewise = await earningsDatewise(db, id, from, to);
      return ctx.envelope(req, {
        total_earnings: dec(total?.total),
        recent_earnings: recent.map(strip),
        start_date: ymd(from),
        end_date: ymd(new Date(to.getTime() - DAY)),
        ...datewise,
        bonus_labels: BONUS_LABELS,
        bonus_types: [...BONUS_TYPES],
      });
    },
  );

  app.get(
    '/api/wallet/earnings_total_datewise',
    {
      preHandler: requireAuth,
      schema: { tags, querystring: earningsTotalDatewiseQuerySchema, response: { 200: envelope(earningsTotalDatewiseSchema) } },
    },
    async (req) => {
      const raw = req.query as Record<string, unknown>;
      const q = new ListQuery({ start_date: raw.start_date, end_date: raw.end_date }, { paged: false });
      const hasStart = typeof raw.start_date === 'string' && raw.start_date !== '';
      const hasEnd = typeof raw.end_date === 'string' && raw.end_date !== '';
      if (hasStart !== hasEnd) q.fail(hasStart ? 'end_date' : 'start_date', 'validation:required');
      q.check();
      let from = q.from;
      let to = q.to;
      if (!from || !to) {
        to = new Date(parseYmd(ymd(new Date()))!.getTime() + DAY);
        from = new Date(to.getTime() - 30 * DAY);
      }
      if ((to.getTime() - from.getTime()) / DAY > MAX_DATEWISE_DAYS) {
        q.fail('end_date', 'validation:rangeTooLong');
        q.check();
      }
      const datewise = await earningsDatewise(db, req.member!.id, from, to);
      return ctx.envelope(req, { start_date: ymd(from), end_date: ymd(new Date(to.getTime() - DAY)), ...datewise });
    },
  );
}

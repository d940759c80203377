/**
 * Wallet calls (spec §7 "Wallet and payout"): statement, earnings overview, datewise totals, the
 * transactions and recent-earnings lists (cursor-paged, with CSV exports). A member only ever
 * reads their own wallet.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import {
  earningsOverviewSchema,
  earningsPageSchema,
  earningsTotalDatewiseQuerySchema,
  earningsTotalDatewiseSchema,
  transactionsPageSchema,
  walletSummarySchema,
} from '../../src/schemas/wallet.schema';
import { recentEarningsQuery, transactionsQuery } from '../../src/schemas/list-query.schema';
import { requireAuth } from '../lib/auth';
import { BONUS_LABELS, BONUS_TYPES, TRANSACTION_KEYS, TRANSACTION_LABELS } from '../lib/ledger';
import { listEndpoint } from '../lib/list-endpoint';
import { ListQuery } from '../lib/pagination';
import {
  bonusLabel,
  earningFilters,
  earningRows,
  earningsOverview,
  earningsTotalDatewise,
  lastThirtyDays,
  rangeTooLong,
  transactionFilters,
  transactionLabel,
  transactionRows,
  walletStatement,
} from '../lib/wallet';

export async function walletRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['wallet'];

  app.get(
    '/api/wallet/statement',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(walletSummarySchema) } } },
    async (req) => ctx.envelope(req, await walletStatement(db, req.member!.id)),
  );

  listEndpoint(app, ctx, {
    path: '/api/wallet/transactions',
    tags,
    querystring: transactionsQuery(TRANSACTION_KEYS),
    response: transactionsPageSchema,
    filters: transactionFilters,
    rows: (db, member, q, filters, limit) => transactionRows(db, member.id, q, filters, limit),
    extra: { transaction_labels: TRANSACTION_LABELS, transaction_keys: [...TRANSACTION_KEYS] },
    csv: {
      name: 'transactions',
      columns: ['id', 'date', 'type', 'description', 'cash_flow', 'amount', 'from_user', 'level', 'rank'],
      line: (r) => [r.id, r.created_at, r.transaction_key, transactionLabel(r.transaction_key), r.cash_flow, r.amount, r.from_user, r.level, r.rank_name],
    },
  });

  listEndpoint(app, ctx, {
    path: '/api/wallet/recent_earnings',
    tags,
    querystring: recentEarningsQuery(BONUS_TYPES),
    response: earningsPageSchema,
    filters: earningFilters,
    rows: (db, member, q, types, limit) => earningRows(db, member.id, q, types, limit),
    extra: { bonus_labels: BONUS_LABELS, bonus_types: [...BONUS_TYPES] },
    csv: {
      name: 'earnings',
      columns: ['id', 'date', 'bonus_type', 'description', 'amount_generated', 'tax', 'service_charge', 'amount_payable', 'from_user', 'level', 'rank'],
      line: (r) => [r.id, r.created_at, r.bonus_type, bonusLabel(r.bonus_type), r.amount_generated, r.tax, r.service_charge, r.amount_payable, r.from_user, r.level, r.rank_name],
    },
  });

  app.get(
    '/api/wallet/earnings',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(earningsOverviewSchema) } } },
    async (req) => ctx.envelope(req, await earningsOverview(db, req.member!.id)),
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
      const { from, to } = q.from && q.to ? { from: q.from, to: q.to } : lastThirtyDays();
      if (rangeTooLong(from, to)) {
        q.fail('end_date', 'validation:rangeTooLong');
        q.check();
      }
      return ctx.envelope(req, await earningsTotalDatewise(db, req.member!.id, from, to));
    },
  );
}

/**
 * Payout calls (spec §7 "Wallet and payout"): criteria, the request (password re-entered,
 * idempotent by the Idempotency-Key header, never overdrawing), the statement and the paged list.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app';
import type { Db } from '../db/client';
import type { PayoutRow } from '../db/schema-wallet';
import { envelope } from '../../src/schemas/common.schema';
import {
  PAYOUT_INTERVALS,
  payoutRequestBodySchema,
  payoutRequestResultSchema,
  payoutSettingsSchema,
  payoutStatementQuerySchema,
  payoutStatementSchema,
  payoutTransactionsPageSchema,
  payoutTransactionsQuerySchema,
  type PayoutTransaction,
} from '../../src/schemas/wallet.schema';
import { requireAuth } from '../lib/auth';
import { verifyPassword } from '../lib/crypto';
import { demoBlocked, forbidden, validationError, type FieldMap } from '../lib/errors';
import {
  PAYOUT_STATUS_KEYS,
  kycStatus,
  maxRequestable,
  payoutAmountErrors,
  payoutSettings,
  requestPayout,
  rowsOf,
  type PayoutStatusId,
} from '../lib/ledger';
import * as money from '../lib/money';
import { EXPORT_LIMIT, ListQuery, sendCsv, ymd } from '../lib/pagination';
import { memberBalance, payoutTotals } from './wallet.routes';

type Keyed<T> = T & { _at: Date; _id: number };

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

interface PayoutDbRow {
  id: number;
  status: number;
  amount: string;
  fee: string;
  created_at: Date | string;
}

function toPayout(r: PayoutDbRow | PayoutRow): Keyed<PayoutTransaction> {
  const at = new Date('created_at' in r ? r.created_at : r.createdAt);
  const status = Number(r.status) as PayoutStatusId;
  return {
    id: Number(r.id),
    status_id: status,
    status: PAYOUT_STATUS_KEYS[status] as PayoutTransaction['status'],
    total: money.normalize(String(r.amount)),
    fee: money.normalize(String(r.fee)),
    created_at: at.toISOString(),
    _at: at,
    _id: Number(r.id),
  };
}

const strip = (r: Keyed<PayoutTransaction>): PayoutTransaction => {
  const { _at, _id, ...rest } = r;
  void _at;
  void _id;
  return rest;
};

export async function payoutRows(db: Db, memberId: number, q: ListQuery, statuses: number[], limit: number) {
  const st = statuses.length ? sql`status IN (${sql.join(statuses.map((s) => sql`${s}`), sql`, `)})` : sql`TRUE`;
  const rows = await rowsOf<PayoutDbRow>(
    db,
    sql`SELECT id, status, amount::text AS amount, fee::text AS fee, created_at FROM payout_requests
        WHERE member_id = ${memberId} AND ${q.rangeSql(sql`created_at`)} AND ${st} AND ${q.afterCursorSql(sql`created_at`, sql`id`)}
        ORDER BY ${q.orderSql(sql`created_at`, sql`id`)} LIMIT ${limit}`,
  );
  return rows.map(toPayout);
}

function readStatuses(q: ListQuery): number[] {
  const s = q.manyOf('payout_status', ['1', '2', '3', '4'] as const).map(Number);
  q.check();
  return s;
}

const DAY = 86_400_000;

/** Start of the bucket `d` falls in (UTC; weeks start on Monday). */
function bucketStart(d: Date, interval: (typeof PAYOUT_INTERVALS)[number]): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  switch (interval) {
    case 'day':
      return day;
    case 'week':
      return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
    case 'month':
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
    case 'year':
      return new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  }
}

function previousBucket(start: Date, interval: (typeof PAYOUT_INTERVALS)[number]): Date {
  switch (interval) {
    case 'day':
      return new Date(start.getTime() - DAY);
    case 'week':
      return new Date(start.getTime() - 7 * DAY);
    case 'month':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1));
    case 'year':
      return new Date(Date.UTC(start.getUTCFullYear() - 1, 0, 1));
  }
}

export async function payoutRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['payout'];

  app.get(
    '/api/payout/settings',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(payoutSettingsSchema) } } },
    async (req) => {
      const id = req.member!.id;
      const s = await payoutSettings(ctx.settings);
      const balance = await memberBalance(db, id);
      const [pending] = await rowsOf<PayoutDbRow>(
        db,
        sql`SELECT id, status, amount::text AS amount, fee::text AS fee, created_at FROM payout_requests
            WHERE member_id = ${id} AND status = 1 ORDER BY created_at DESC, id DESC LIMIT 1`,
      );
      return ctx.envelope(req, {
        enabled: s.enabled,
        minimum_amount: money.normalize(s.minimum),
        maximum_amount: money.normalize(s.maximum),
        fee_fixed: money.normalize(s.fee_fixed),
        fee_percent: money.normalize(s.fee_percent),
        amount_decimals: 2,
        available_balance: money.format(balance),
        max_requestable: money.format(s.single_pending && pending ? 0n : maxRequestable(balance, s)),
        kyc_required: s.kyc_required,
        kyc_status: await kycStatus(db, id),
        single_pending: s.single_pending,
        pending_request: pending ? strip(toPayout(pending)) : null,
        password_required: true,
      });
    },
  );

  const payoutLimit = Math.max(1, Math.round(20 * ctx.config.rateLimitScale));
  app.post(
    '/api/payout/request_payout',
    {
      // Signed in and not in demo mode, before the body is even read (spec §6).
      preValidation: [
        requireAuth,
        async () => {
          if (ctx.isDemo()) throw demoBlocked();
        },
      ],
      config: {
        rateLimit: { max: payoutLimit, timeWindow: '1 minute', keyGenerator: (req: FastifyRequest) => `payout:${req.member?.id ?? req.ip}` },
      },
      schema: {
        tags,
        description:
          'Request a payout of `amount` (plus the fee) from the wallet. Send an `Idempotency-Key` header (UUID per submission; ' +
          'retries reuse it): a key already used answers the first result again (header Idempotent-Replayed: true).',
        body: payoutRequestBodySchema,
        response: { 201: envelope(payoutRequestResultSchema) },
      },
    },
    async (req, reply) => {
      const member = req.member!;
      const s = await payoutSettings(ctx.settings);
      if (!s.enabled) throw forbidden('payout_disabled', 'Payout requests are switched off.');

      const errors: FieldMap = {};
      const keyHeader = req.headers['idempotency-key'];
      const idempotencyKey = typeof keyHeader === 'string' ? keyHeader.trim() : '';
      if (!idempotencyKey) errors.idempotency_key = ['validation:required'];
      else if (!IDEMPOTENCY_KEY.test(idempotencyKey)) errors.idempotency_key = ['validation:invalidFormat'];

      const { amount, errors: amountErrors } = payoutAmountErrors(req.body.amount, s);
      Object.assign(errors, amountErrors);
      if (!(await verifyPassword(req.body.password, member.passwordHash))) errors.password = ['validation:invalidPassword'];
      if (Object.keys(errors).length || amount === null) throw validationError(errors);

      const fingerprint = createHash('sha256').update(`payout|${money.format(amount)}`).digest('hex');
      const { payout, replayed } = await requestPayout(db, { memberId: member.id, amount, idempotencyKey, fingerprint, settings: s });
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(201);
      return ctx.envelope(req, { payout: strip(toPayout(payout)), wallet_balance: money.normalize(payout.balanceAfter ?? '0') });
    },
  );

  app.get(
    '/api/payout/statement',
    { preHandler: requireAuth, schema: { tags, querystring: payoutStatementQuerySchema, response: { 200: envelope(payoutStatementSchema) } } },
    async (req) => {
      const id = req.member!.id;
      const iq = new ListQuery({ interval: (req.query as Record<string, unknown>).interval }, { paged: false });
      const chosen = iq.oneOf('interval', PAYOUT_INTERVALS) ?? 'month';
      iq.check();

      const buckets: Date[] = [bucketStart(new Date(), chosen)];
      while (buckets.length < 12) buckets.unshift(previousBucket(buckets[0], chosen));
      const from = buckets[0];
      const sums = await rowsOf<{ d: string; total: string }>(
        db,
        sql`SELECT to_char(date_trunc(${chosen}, paid_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS d, sum(amount)::text AS total
            FROM payout_requests WHERE member_id = ${id} AND status = 3 AND paid_at >= ${from.toISOString()}::timestamptz
            GROUP BY 1`,
      );
      const byBucket = new Map(sums.map((r) => [r.d, money.normalize(r.total)]));
      const recent = await payoutRows(db, id, new ListQuery({}), [], 5);
      return ctx.envelope(req, {
        interval: chosen,
        ...(await payoutTotals(db, id)),
        total_balance: money.format(await memberBalance(db, id)),
        payout_datewise: buckets.map((b) => ({ date: ymd(b), total: byBucket.get(ymd(b)) ?? money.format(0n) })),
        recent_transactions: recent.map(strip),
      });
    },
  );

  app.get(
    '/api/payout/transactions',
    { preHandler: requireAuth, schema: { tags, querystring: payoutTransactionsQuerySchema, response: { 200: envelope(payoutTransactionsPageSchema) } } },
    async (req) => {
      const q = new ListQuery(req.query as Record<string, unknown>);
      const statuses = readStatuses(q);
      const rows = await payoutRows(db, req.member!.id, q, statuses, q.limit + 1);
      const page = q.page('/api/payout/transactions', rows, (r) => ({ createdAt: r._at, id: r._id }));
      return ctx.envelope(req, { items: page.items.map(strip), next_page_url: page.next_page_url });
    },
  );

  app.get(
    '/api/payout/transactions/export',
    { preHandler: requireAuth, schema: { tags, querystring: payoutTransactionsQuerySchema, produces: ['text/csv'] } },
    async (req, reply) => {
      const q = new ListQuery(req.query as Record<string, unknown>, { paged: false });
      const statuses = readStatuses(q);
      const rows = await payoutRows(db, req.member!.id, q, statuses, EXPORT_LIMIT);
      return sendCsv(
        reply,
        'payouts',
        ['id', 'date', 'status', 'amount', 'fee', 'total_debited'],
        rows.map((r) => [r.id, r.created_at, r.status, r.total, r.fee, money.format(money.parse(r.total) + money.parse(r.fee))]),
      );
    },
  );
}

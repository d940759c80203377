/**
 * Payout calls (spec §7 "Wallet and payout"): criteria, the request (password re-entered,
 * idempotent by the Idempotency-Key header, never overdrawing), the statement and the paged list.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import * as z from 'zod/mini';
import { envelope } from '../../src/schemas/common.schema';
import { idText } from '../../src/schemas/values.schema';
import {
  PAYOUT_INTERVALS,
  payoutCancelResultSchema,
  payoutRequestBodySchema,
  payoutRequestResultSchema,
  payoutSettingsSchema,
  payoutStatementQuerySchema,
  payoutStatementSchema,
  payoutTransactionsPageSchema,
  payoutTransactionsQuerySchema,
} from '../../src/schemas/wallet.schema';
import { requireAuth } from '../lib/auth';
import { LIMITS, perMember, throttle } from '../lib/rate-limit';
import { demoBlocked } from '../lib/errors';
import { listEndpoint } from '../lib/list-endpoint';
import { ListQuery } from '../lib/pagination';
import { cancelPayout, payoutCriteria, payoutRows, payoutStatement, payoutStatusFilter, submitPayout, totalDebited } from '../lib/payout';

export async function payoutRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['payout'];
  /** A call that moves a member's money: signed in and not in demo mode before the body is read (spec §6), throttled per member. */
  const moneyWrite = {
    preValidation: [
      requireAuth,
      async () => {
        if (ctx.isDemo()) throw demoBlocked();
      },
    ],
    config: throttle([LIMITS.payoutsPerMember, perMember]),
  };

  app.get(
    '/api/payout/settings',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(payoutSettingsSchema) } } },
    async (req) => ctx.envelope(req, await payoutCriteria(db, ctx.settings, req.member!.id)),
  );

  app.post(
    '/api/payout/request_payout',
    {
      ...moneyWrite,
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
      const keyHeader = req.headers['idempotency-key'];
      const idempotencyKey = typeof keyHeader === 'string' ? keyHeader.trim() : '';
      const { answer, replayed } = await submitPayout(db, ctx.settings, req.member!, { ...req.body, idempotencyKey });
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(201);
      return ctx.envelope(req, answer);
    },
  );

  app.post(
    '/api/payout/requests/:id/cancel',
    {
      ...moneyWrite,
      schema: {
        tags,
        description:
          'Cancel one of your own pending payout requests: the amount and the fee go back to the wallet. ' +
          "Another member's request → 404; one no longer pending → 409 payout_not_pending.",
        params: z.object({ id: idText() }),
        response: { 200: envelope(payoutCancelResultSchema) },
      },
    },
    async (req) => ctx.envelope(req, await cancelPayout(ctx, req.member!.id, req.params.id, req.ip)),
  );

  app.get(
    '/api/payout/statement',
    { preHandler: requireAuth, schema: { tags, querystring: payoutStatementQuerySchema, response: { 200: envelope(payoutStatementSchema) } } },
    async (req) => {
      const iq = new ListQuery({ interval: (req.query as Record<string, unknown>).interval }, { paged: false });
      const chosen = iq.oneOf('interval', PAYOUT_INTERVALS) ?? 'month';
      iq.check();
      return ctx.envelope(req, await payoutStatement(db, req.member!.id, chosen));
    },
  );

  listEndpoint(app, ctx, {
    path: '/api/payout/transactions',
    tags,
    querystring: payoutTransactionsQuerySchema,
    response: payoutTransactionsPageSchema,
    filters: payoutStatusFilter,
    rows: (db, member, q, statuses, limit) => payoutRows(db, member.id, q, statuses, limit),
    csv: {
      name: 'payouts',
      columns: ['id', 'date', 'status', 'amount', 'fee', 'total_debited'],
      line: (r) => [r.id, r.created_at, r.status, r.total, r.fee, totalDebited(r)],
    },
  });
}

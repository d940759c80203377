/**
 * Package payment (spec §2 /member/packages/payment): GET /api/packages (Package data, the wallet balance,
 * the password that pays by wallet, return schedules with roi on), POST /api/packages/purchases (a pending
 * purchase: first package, upgrade or renewal), GET /api/packages/purchases/{id} and
 * POST /api/packages/purchases/{id}/wallet (pay it from the e-wallet). Another member's purchase → 404.
 * Card payments go through POST /api/payments/card with purpose `package`; counter payments through /api/otc.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import {
  packagePaymentOptionsSchema,
  purchaseRequestSchema,
  purchaseSchema,
  walletPaymentRequestSchema,
  walletPaymentResultSchema,
} from '../../src/schemas/packages.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { createPurchase, packagePaymentOptions, payPurchaseByWallet, purchaseOfMember } from '../lib/packages';
import { MINUTE, routeLimits } from '../lib/rate-limit';

const tags = ['packages'];
const perMember = (req: FastifyRequest) => `packages|${req.member?.id ?? req.ip}`;
/** A record id from the path: anything that is not one reads as a record that does not exist. */
export const recordId = (text: string) => {
  if (!/^\d{1,15}$/.test(text)) throw notFound();
  return Number(text);
};
export const idParams = z.object({ id: z.string() });

export async function packagesRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);

  app.get(
    '/api/packages',
    { preHandler: requireAuth, schema: { tags, description: 'What the package payment page offers the signed-in member.', response: { 200: envelope(packagePaymentOptionsSchema) } } },
    async (req) => ctx.envelope(req, await packagePaymentOptions(db, ctx.settings, req.member!)),
  );

  app.post(
    '/api/packages/purchases',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(30, 10 * MINUTE, perMember),
      schema: {
        tags,
        description:
          'Start buying `package_id`: the first package (its price), an upgrade to a higher one (price and PV difference) or the renewal of the ' +
          "member's expired package. Answers the pending purchase; a pending purchase not yet paid is replaced.",
        body: purchaseRequestSchema,
        response: { 201: envelope(purchaseSchema) },
      },
    },
    async (req, reply) => reply.status(201).send(await ctx.envelope(req, await createPurchase(db, ctx.settings, req.member!, req.body.package_id))),
  );

  app.get(
    '/api/packages/purchases/:id',
    { preHandler: requireAuth, schema: { tags, description: "One of the member's purchases (anyone else's → 404).", params: idParams, response: { 200: envelope(purchaseSchema) } } },
    async (req) => ctx.envelope(req, await purchaseOfMember(db, req.member!.id, recordId(req.params.id))),
  );

  app.post(
    '/api/packages/purchases/:id/wallet',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(60, MINUTE, perMember),
      schema: {
        tags,
        description:
          'Pay a pending purchase from the e-wallet with `password` (the wallet password once set, else the account password). ' +
          'Never overdraws; paying a purchase already paid by wallet answers it again (header Idempotent-Replayed: true).',
        params: idParams,
        body: walletPaymentRequestSchema,
        response: { 200: envelope(walletPaymentResultSchema) },
      },
    },
    async (req, reply) => {
      const { replayed, ...answer } = await payPurchaseByWallet(db, ctx, req.member!, recordId(req.params.id), req.body.password);
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return ctx.envelope(req, answer);
    },
  );
}

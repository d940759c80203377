/**
 * Card payments for every purpose: POST /api/payments/card {purpose, ref_id} → the provider's page,
 * GET /api/payments/card/{session_id} (the success page's check, read back from the provider), and the
 * provider's webhook at POST /payments/stripe/webhook (no application key: the Stripe-Signature is its proof;
 * the raw body is kept for the signature check).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { cardPaymentRequestSchema, cardPaymentStatusSchema, cardSessionSchema, walletPaymentRequestSchema, walletPaymentResultSchema } from '../../src/schemas/shop.schema';
import { payFromWallet } from '../lib/checkout';
import { payableOf, settledServices } from '../lib/fulfilment';
import { checkPayoutPassword } from '../lib/wallet-password';
import * as money from '../lib/money';
import { requireAuth } from '../lib/auth';
import { demoBlocked, validationError } from '../lib/errors';
import { confirmCardPayment, handleWebhook, startCardPayment, type CardPaymentDeps } from '../lib/payments/card-payments';
import { cardProviderOf, closeCardProvider } from '../lib/payments/provider-choice';

export const WEBHOOK_PATH = '/payments/stripe/webhook';

/** The site the member came from (the provider sends them back there). */
export function originOf(req: FastifyRequest): string {
  if (process.env.PUBLIC_URL) return process.env.PUBLIC_URL.replace(/\/$/, '');
  const host = typeof req.headers.host === 'string' && /^[A-Za-z0-9.[\]:-]{1,255}$/.test(req.headers.host) ? req.headers.host : 'localhost';
  return `${req.protocol}://${host}`;
}

/** The card payment services of one server (the local provider delivers its events in-process). */
export function cardPaymentDeps(app: FastifyInstance, ctx: AppContext): CardPaymentDeps {
  const deliver = async (body: string, signature: string) => {
    const res = await app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload: body });
    if (res.statusCode >= 300) throw new Error(`webhook answered ${res.statusCode}`);
  };
  return { db: ctx.database.db, services: ctx, provider: cardProviderOf(ctx, deliver) };
}

export async function paymentsRoutes(base: FastifyInstance, ctx: AppContext, deps: CardPaymentDeps) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];
  base.addHook('onClose', async () => closeCardProvider(ctx));
  const noDemo = async () => {
    if (ctx.isDemo()) throw demoBlocked();
  };

  app.post(
    '/api/payments/card',
    {
      preValidation: [requireAuth, noDemo],
      schema: {
        tags,
        description: 'A card payment for a purpose (order, package, top-up) of the member: answers the provider\'s checkout page to send them to.',
        body: cardPaymentRequestSchema,
        response: { 201: envelope(cardSessionSchema) },
      },
    },
    async (req, reply) => {
      reply.status(201);
      return ctx.envelope(req, await startCardPayment(deps, req.member!.id, req.body.purpose, req.body.ref_id, originOf(req)));
    },
  );

  app.post(
    '/api/payments/wallet',
    {
      preValidation: [requireAuth, noDemo],
      schema: {
        tags,
        description:
          'Pay a purpose (order, package, top-up) of the member from the e-wallet, with the wallet password (else the account password). ' +
          'The balance is checked with the wallet locked and the posting is made with the fulfilment: never overdrawn, never paid twice (409).',
        body: walletPaymentRequestSchema,
        response: { 201: envelope(walletPaymentResultSchema) },
      },
    },
    async (req, reply) => {
      const member = req.member!;
      const { purpose, ref_id } = req.body;
      const due = await payableOf(ctx.database.db, purpose, member.id, ref_id);
      if (!(await checkPayoutPassword(ctx.database.db, member, req.body.password))) throw validationError({ password: ['validation:invalidPassword'] });
      // Settings read before the transaction (the embedded database would wait on a read outside it).
      const services = await settledServices(ctx);
      const transactionId = await ctx.database.db.transaction((tx) => payFromWallet(tx, services, purpose, member.id, ref_id, new Date()));
      reply.status(201);
      return ctx.envelope(req, { purpose, ref_id, amount: money.format(due.amount), transaction_id: transactionId });
    },
  );

  app.get(
    '/api/payments/card/:session_id',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        description: 'The member\'s card payment as the provider reports it (settled here when paid), with the order it paid.',
        params: z.object({ session_id: z.string().check(z.regex(/^[A-Za-z0-9_]{1,255}$/, { error: 'validation:invalidFormat' })) }),
        response: { 200: envelope(cardPaymentStatusSchema) },
      },
    },
    async (req) => ctx.envelope(req, await confirmCardPayment(deps, req.member!.id, req.params.session_id)),
  );

  await base.register(async (hook) => {
    hook.removeContentTypeParser('application/json');
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    hook.post(
      WEBHOOK_PATH,
      { schema: { tags, description: 'Events of the card provider, signed (Stripe-Signature).', hide: true } },
      async (req) => {
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.from(typeof req.body === 'string' ? req.body : '');
        const sig = req.headers['stripe-signature'];
        return { received: true, outcome: await handleWebhook(deps, raw, typeof sig === 'string' ? sig : undefined) };
      },
    );
  });
}

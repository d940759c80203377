/**
 * Where the caller's payouts go (spec §2 Account settings: bank, payout): GET/PUT /api/user/bank_details
 * (answers the number masked to its last four characters) and GET/PUT /api/payout/payout_method (the
 * methods the company offers and the caller's choice). Changes need the account password re-entered,
 * are throttled per member, refused in demo mode, and leave an audit row.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { bankDetailsAnswerSchema, bankDetailsRequestSchema } from '../../src/schemas/bank-details.schema';
import { payoutMethodAnswerSchema, payoutMethodRequestSchema } from '../../src/schemas/payout-method.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { bankDetailsOf, payoutMethodOf, saveBankDetails, savePayoutMethod } from '../lib/payout-destination';
import { MINUTE, routeLimits } from '../lib/rate-limit';

/** Password checks are counted per member: guessing the password from many addresses gains nothing. */
const perMember = (req: FastifyRequest) => `payout-destination|${req.member?.id ?? req.ip}`;

export async function payoutDestinationRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const limit = routeLimits(ctx.config);

  app.get(
    '/api/user/bank_details',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['users'],
        description: "The caller's bank details (the IBAN or account number masked to its last four characters), or null, and the countries an account can be in.",
        response: { 200: envelope(bankDetailsAnswerSchema) },
      },
    },
    async (req) => ctx.envelope(req, await bankDetailsOf(ctx, req.member!.id)),
  );

  app.put(
    '/api/user/bank_details',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(20, 10 * MINUTE, perMember),
      schema: {
        tags: ['users'],
        description:
          "Save the caller's bank details: `account_holder`, `country` (ISO 3166 alpha-2), `iban` where the country uses IBANs, else " +
          '`account_number` and `routing_code`; `bic` and `bank_name`; `password` (the account password). IBAN (checksum) and BIC are checked.',
        body: bankDetailsRequestSchema,
        response: { 200: envelope(bankDetailsAnswerSchema) },
      },
    },
    async (req) => ctx.envelope(req, await saveBankDetails(ctx, req.member!, req.body, req.ip)),
  );

  app.get(
    '/api/payout/payout_method',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['payout'],
        description: "The payout methods the company offers and the caller's choice with its masked destination.",
        response: { 200: envelope(payoutMethodAnswerSchema) },
      },
    },
    async (req) => ctx.envelope(req, await payoutMethodOf(ctx, req.member!.id)),
  );

  app.put(
    '/api/payout/payout_method',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(20, 10 * MINUTE, perMember),
      schema: {
        tags: ['payout'],
        description:
          "Choose the caller's payout method: `method` (one the company offers), `email` for an e-wallet, `address` for USDT (TRC-20), " +
          'and `password` (the account password). A bank transfer needs saved bank details.',
        body: payoutMethodRequestSchema,
        response: { 200: envelope(payoutMethodAnswerSchema) },
      },
    },
    async (req) => ctx.envelope(req, await savePayoutMethod(ctx, req.member!, req.body, req.ip)),
  );
}

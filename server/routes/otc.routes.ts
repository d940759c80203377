/**
 * Over-the-counter payment (spec §2): POST /api/otc/requests (a request for a package purchase, an order or
 * a wallet top-up, answered with the company's bank details and a reference), GET /api/otc/requests (the
 * payment history, cursor-paged, CSV export), GET /api/otc/requests/{id}, and
 * POST /api/otc/requests/{id}/payment (multipart: the receipt under `receipt`, `transaction_ref`).
 * Another member's request → 404; the receipt is read back through GET /api/uploads/{id} (owner only).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { otcHistoryPageSchema, otcHistoryQuerySchema, otcRequestAnswerSchema, otcRequestBodySchema, otcRequestSchema } from '../../src/schemas/otc.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { listEndpoint } from '../lib/list-endpoint';
import { createOtcRequest, otcRequestOf, otcRows, submitOtcPayment } from '../lib/otc';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { UPLOAD_POLICIES, readUploadRequest, uploadRoute } from '../lib/uploads';
import '../lib/packages';
import { idParams, recordId } from './packages.routes';

const tags = ['otc'];
const perMember = (req: FastifyRequest) => `otc|${req.member?.id ?? req.ip}`;

export async function otcRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);

  app.post(
    '/api/otc/requests',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(30, 10 * MINUTE, perMember),
      schema: {
        tags,
        description:
          'Ask to pay over the counter: `purpose` package (a pending purchase id as `ref_id`), order (an unpaid order id) or topup (`amount`), ' +
          'by `method` bank_deposit or cash. Answers the request with its reference and where to pay.',
        body: otcRequestBodySchema,
        response: { 201: envelope(otcRequestAnswerSchema) },
      },
    },
    async (req, reply) => reply.status(201).send(await ctx.envelope(req, await createOtcRequest(db, ctx.settings, req.member!.id, req.body))),
  );

  listEndpoint(app, ctx, {
    path: '/api/otc/requests',
    tags,
    querystring: otcHistoryQuerySchema,
    response: otcHistoryPageSchema,
    rows: (db, member, q, _filters, n) => otcRows(db, member.id, q, n),
    csv: {
      name: 'otc-payments',
      columns: ['id', 'reference', 'date', 'purpose', 'description', 'method', 'amount', 'status', 'transaction_ref', 'reason'],
      line: (r) => [r.id, r.reference, r.created_at, r.purpose, r.description, r.method, r.amount, r.status, r.transaction_ref, r.reason],
    },
  });

  app.get(
    '/api/otc/requests/:id',
    { preHandler: requireAuth, schema: { tags, description: "One of the member's payment requests with where to pay (anyone else's → 404).", params: idParams, response: { 200: envelope(otcRequestAnswerSchema) } } },
    async (req) => ctx.envelope(req, await otcRequestOf(db, ctx.settings, req.member!.id, recordId(req.params.id))),
  );

  await uploadRoute(
    app,
    ctx.isDemo,
    {
      path: '/api/otc/requests/:id/payment',
      tags,
      description:
        'Record the payment of a request awaiting it (multipart/form-data): the receipt under `receipt` (JPG, PNG or PDF by its content, 5 MB) ' +
        'and `transaction_ref`. Too large → 413, a wrong type → 422, a request not awaiting payment → 422 with the reason.',
      response: { 200: envelope(otcRequestSchema) },
      config: limit(20, 10 * MINUTE, perMember),
    },
    async (req, reply) => {
      const id = recordId((req.params as { id: string }).id);
      const upload = await readUploadRequest(req, UPLOAD_POLICIES.receipt, 2);
      if (upload.files.length > 1) return reply.status(413).send({ error_code: 'validation_error', message: 'One receipt only.', errors: { receipt: ['account:upload.tooManyFiles'] } });
      return ctx.envelope(req, await submitOtcPayment(ctx, req.member!.id, id, upload));
    },
  );
}

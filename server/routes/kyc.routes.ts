/**
 * Identity verification (spec §7 "Orders and KYC"): GET /api/kyc (KYC details), GET /api/kyc/kyc_details
 * (the caller's documents), GET /api/kyc/kyc_category (categories), POST /api/kyc (multipart: files under
 * documents[], category, optional id_number), DELETE /referrals/delete_kyc/{id} (a pending document of the
 * caller). And GET /api/uploads/{id}: a file the caller uploaded, to its owner only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { messageSchema } from '../../src/schemas/auth.schema';
import { kycCategoryListSchema, kycDetailsSchema, kycDocumentListSchema, kycDocumentSchema } from '../../src/schemas/kyc.schema';
import { deleteKyc, kycCategories, kycDetails, kycHistory, kycSettings, submitKyc } from '../lib/kyc';
import { protectedAction, requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { UPLOAD_POLICIES, readUploadRequest, sendOwnUpload, uploadRoute } from '../lib/uploads';

const tags = ['kyc'];
const perMember = (req: FastifyRequest) => `kyc|${req.member?.id ?? req.ip}`;
/** A record id from the path: anything that is not one reads as a record that does not exist. */
const recordId = (text: string) => {
  if (!/^\d{1,15}$/.test(text)) throw notFound();
  return Number(text);
};
const idParams = z.object({ id: z.string() });

export async function kycRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);

  app.get(
    '/api/kyc',
    { preHandler: requireAuth, schema: { tags, description: 'KYC details of the signed-in member: status, history, categories and the form settings.', response: { 200: envelope(kycDetailsSchema) } } },
    async (req) => ctx.envelope(req, await kycDetails(db, req.member!.id)),
  );
  app.get(
    '/api/kyc/kyc_details',
    { preHandler: requireAuth, schema: { tags, description: "The signed-in member's KYC documents, newest first.", response: { 200: envelope(kycDocumentListSchema) } } },
    async (req) => ctx.envelope(req, await kycHistory(db, req.member!.id)),
  );
  app.get(
    '/api/kyc/kyc_category',
    { preHandler: requireAuth, schema: { tags, description: 'The document categories a member may submit.', response: { 200: envelope(kycCategoryListSchema) } } },
    async (req) => ctx.envelope(req, await kycCategories(db)),
  );

  await uploadRoute(
    app,
    ctx.isDemo,
    {
      path: '/api/kyc',
      tags,
      description:
        'Submit identity documents (multipart/form-data): files under `documents[]` (JPG, PNG or PDF by their content, 10 MB each, ' +
        'at most `attachments_limit`), `category` (a category id) and `id_number` (required when `id_number_required`). ' +
        'Too large, too many files or over the quota → 413 with a field map; a wrong type → 422.',
      response: { 201: envelope(kycDocumentSchema) },
      config: limit(20, 10 * MINUTE, perMember),
    },
    async (req, reply) => {
      const settings = await kycSettings(db);
      // One more file than allowed is read, so that "too many" is told apart from a file that is too large.
      const upload = await readUploadRequest(req, UPLOAD_POLICIES.kyc, Math.min(settings.attachments_limit + 1, UPLOAD_POLICIES.kyc.maxFiles));
      const doc = await submitKyc(ctx, req.member!.id, upload, req.ip);
      return reply.status(201).send(await ctx.envelope(req, doc));
    },
  );

  app.delete(
    '/referrals/delete_kyc/:id',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(30, 10 * MINUTE, perMember),
      schema: { tags, description: 'Delete a pending KYC document of the signed-in member (any other id → 404).', params: idParams, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      await deleteKyc(ctx, req.member!.id, recordId(req.params.id), req.ip);
      return ctx.envelope(req, { message: 'The document was deleted.' });
    },
  );

  app.get(
    '/api/uploads/:id',
    {
      preHandler: requireAuth,
      schema: { tags: ['uploads'], description: 'A file the signed-in member uploaded, as an attachment (anyone else → 404).', params: idParams },
    },
    async (req, reply) => sendOwnUpload(reply, db, ctx.config, req.member!.id, recordId(req.params.id)),
  );
}

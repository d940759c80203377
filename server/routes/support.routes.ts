/**
 * Support tickets (spec §2 /member/support), while the company's ticketing_system switch is on (off: every
 * call answers 404): GET /api/support/tickets (the caller's tickets, ?status=, cursor-paged), POST
 * /api/support/tickets (multipart: category, priority, subject, description, attachments[]), GET
 * /api/support/tickets/{id} (the ticket, its conversation and its status trail), POST …/{id}/replies
 * (multipart: body, attachments[]), POST …/{id}/reopen and …/{id}/close. Another member's ticket → 404.
 * The files are downloaded by their owner at GET /api/uploads/{id}.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { ticketPageSchema, ticketSchema, ticketsQuerySchema, TICKET_STATUSES } from '../../src/schemas/support.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { listEndpoint } from '../lib/list-endpoint';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { memberTransition, openTicket, ownTicket, replyAsMember, SUPPORT_UPLOAD_POLICY, ticketingOn, ticketRows } from '../lib/support';
import { readUploadRequest, uploadRoute } from '../lib/uploads';

const tags = ['support'];
const perMember = (req: FastifyRequest) => `support|${req.member?.id ?? req.ip}`;
const recordId = (text: string) => {
  if (!/^\d{1,9}$/.test(text)) throw notFound();
  return Number(text);
};
const idParams = z.object({ id: z.string() });

export async function supportRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);
  /** With ticketing off, the ticket calls do not exist. */
  const ticketing = async () => {
    if (!(await ticketingOn(ctx))) throw notFound('Ticketing is not available.');
  };

  listEndpoint(app, ctx, {
    path: '/api/support/tickets',
    tags,
    querystring: ticketsQuerySchema,
    response: ticketPageSchema,
    filters: (q) => ({ status: q.oneOf('status', TICKET_STATUSES) }),
    rows: async (...args) => {
      await ticketing();
      return ticketRows(...args);
    },
  });

  app.get(
    '/api/support/tickets/:id',
    { preHandler: requireAuth, schema: { tags, description: "One of the caller's tickets: conversation and status trail (anyone else's → 404).", params: idParams, response: { 200: envelope(ticketSchema) } } },
    async (req) => {
      await ticketing();
      return ctx.envelope(req, await ownTicket(db, req.member!.id, recordId(req.params.id)));
    },
  );

  await uploadRoute(
    app,
    ctx.isDemo,
    {
      path: '/api/support/tickets',
      tags,
      description:
        'Open a ticket (multipart/form-data): category, priority, subject, description, and up to 5 files under `attachments[]` ' +
        '(JPG, PNG, WebP or PDF by their content, 10 MB each). Too large or too many → 413 with a field map.',
      response: { 201: envelope(ticketSchema) },
      config: limit(20, 10 * MINUTE, perMember),
    },
    async (req, reply) => {
      await ticketing();
      const upload = await readUploadRequest(req, SUPPORT_UPLOAD_POLICY, SUPPORT_UPLOAD_POLICY.maxFiles + 1);
      return reply.status(201).send(await ctx.envelope(req, await openTicket(ctx, req.member!.id, upload)));
    },
  );

  await uploadRoute(
    app,
    ctx.isDemo,
    {
      path: '/api/support/tickets/:id/replies',
      tags,
      description: 'Write to support on one of your tickets (multipart: body, attachments[]); the ticket is open again. A resolved ticket is reopened first; a closed one takes no replies.',
      response: { 201: envelope(ticketSchema) },
      config: limit(60, 10 * MINUTE, perMember),
    },
    async (req, reply) => {
      await ticketing();
      const id = recordId((req.params as { id: string }).id);
      const upload = await readUploadRequest(req, SUPPORT_UPLOAD_POLICY, SUPPORT_UPLOAD_POLICY.maxFiles + 1);
      return reply.status(201).send(await ctx.envelope(req, await replyAsMember(ctx, req.member!.id, id, upload)));
    },
  );

  for (const action of ['reopen', 'close'] as const) {
    app.post(
      `/api/support/tickets/:id/${action}`,
      {
        preValidation: [requireAuth, protectedAction(ctx.isDemo)],
        config: limit(60, 10 * MINUTE, perMember),
        schema: {
          tags,
          description: action === 'reopen' ? 'Reopen one of your resolved tickets.' : 'Close one of your tickets (not one already closed).',
          params: idParams,
          response: { 200: envelope(ticketSchema) },
        },
      },
      async (req) => {
        await ticketing();
        return ctx.envelope(req, await memberTransition(ctx, req.member!.id, recordId(req.params.id), action));
      },
    );
  }
}

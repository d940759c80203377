/**
 * The member's CRM (spec §2 CRM routes), private to the member:
 *
 *   /api/crm/leads                 list (search, status, source, dates, sort; cursor-paged), export, CRUD, restore
 *   GET   /api/crm/leads/board      the leads by status (the board)
 *   PUT   /api/crm/leads/{id}/status a move on the board
 *   GET   /api/crm/leads/{id}/timeline, POST /api/crm/leads/{id}/notes
 *
 * Another member's lead answers 404, like one that does not exist.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { envelope, isIdText } from '../../src/schemas/common.schema';
import {
  boardSchema,
  leadListQuerySchema,
  leadMoveSchema,
  leadRequestSchema,
  leadSchema,
  noteRequestSchema,
  timelineEntrySchema,
  timelineSchema,
  type Lead,
} from '../../src/schemas/crm.schema';
import type { AppContext } from '../lib/app-context';
import { requireAuth } from '../lib/auth';
import { addLeadNote, leadBoard, leadFilters, leadTimeline, leadValues, leadWhere, moveLead, ownLead, toLead } from '../lib/crm-leads';
import { notFound } from '../lib/errors';
import { resourceEndpoints } from '../lib/resource-endpoint';
import { crmLeads } from '../db/schema-crm';

const tags = ['crm'];
const idParams = z.object({ id: z.string() });
/** The record id of the path; text that cannot be one names nothing (404). */
export function pathId(req: FastifyRequest): number {
  const raw = (req.params as { id: string }).id;
  if (!isIdText(raw)) throw notFound();
  return Number(raw);
}

export async function crmRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  // Static paths first: /board is not a lead id.
  app.get('/api/crm/leads/board', { preHandler: requireAuth, schema: { tags, response: { 200: envelope(boardSchema) } } }, async (req) =>
    ctx.envelope(req, await leadBoard(db, req.member!)),
  );

  resourceEndpoints(app, ctx, {
    path: '/api/crm/leads',
    tags,
    table: crmLeads,
    body: leadRequestSchema,
    item: leadSchema,
    values: leadValues,
    toItem: toLead,
    list: {
      querystring: leadListQuerySchema,
      filters: leadFilters,
      where: leadWhere,
      csv: {
        name: 'leads',
        columns: ['id', 'name', 'company', 'email', 'phone', 'source', 'status', 'estimated_value', 'next_follow_up', 'lost_reason', 'created_at'],
        line: (l: Lead) => [l.id, l.name, l.company, l.email, l.phone, l.source, l.status, l.estimated_value, l.next_follow_up, l.lost_reason, l.created_at],
      },
    },
  });

  /** Before the body is read: another member's lead (or none) answers 404 whatever the body. */
  const leadExists = async (req: FastifyRequest) => {
    await ownLead(db, req.member!, pathId(req));
  };
  const onLead = [requireAuth, leadExists];

  app.put(
    '/api/crm/leads/:id/status',
    { preValidation: onLead, schema: { tags, params: idParams, body: leadMoveSchema, response: { 200: envelope(leadSchema) } } },
    async (req) => ctx.envelope(req, await moveLead(db, req.member!, pathId(req), req.body)),
  );
  app.get('/api/crm/leads/:id/timeline', { preHandler: requireAuth, schema: { tags, params: idParams, response: { 200: envelope(timelineSchema) } } }, async (req) =>
    ctx.envelope(req, await leadTimeline(db, req.member!, pathId(req))),
  );
  app.post(
    '/api/crm/leads/:id/notes',
    { preValidation: onLead, schema: { tags, params: idParams, body: noteRequestSchema, response: { 201: envelope(timelineEntrySchema) } } },
    async (req, reply) => {
      const entry = await addLeadNote(db, req.member!, pathId(req), req.body.body);
      reply.status(201);
      return ctx.envelope(req, entry);
    },
  );
}

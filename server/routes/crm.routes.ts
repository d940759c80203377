/**
 * The member's CRM (spec §2 CRM routes), private to the member:
 *
 *   /api/crm/leads                 list (search, status, source, dates, sort; cursor-paged), export, CRUD, restore
 *   GET   /api/crm/leads/board      the leads by status (the board)
 *   PUT   /api/crm/leads/{id}/status a move on the board
 *   GET   /api/crm/leads/{id}/timeline, POST /api/crm/leads/{id}/notes
 *   /api/crm/contacts, /api/crm/calls, /api/crm/meetings (a meeting invites any number of contacts and leads), /api/crm/agenda
 *
 * Another member's lead answers 404, like one that does not exist.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { envelope } from '../../src/schemas/common.schema';
import { isIdText } from '../../src/schemas/values.schema';
import {
  boardSchema,
  leadListQuerySchema,
  leadMoveSchema,
  leadRequestSchema,
  leadSchema,
  noteRequestSchema,
  timelineEntrySchema,
  timelineSchema,
  callRequestSchema,
  callSchema,
  contactImportResultSchema,
  contactImportSchema,
  contactListQuerySchema,
  contactRequestSchema,
  contactSchema,
  crmChoicesSchema,
  meetingListQuerySchema,
  meetingRequestSchema,
  meetingSchema,
  MEETING_WHEN,
  simpleListQuerySchema,
  type CallRequest,
  type Contact,
  type Lead,
  type MeetingRequest,
} from '../../src/schemas/crm.schema';
import type { AppContext } from '../lib/app-context';
import { requireAuth } from '../lib/auth';
import { addLeadNote, leadBoard, leadFilters, leadPage, leadValues, leadWhere, moveLead, ownLead, toLead } from '../lib/crm-leads';
import {
  addContactNote,
  agendaRows,
  callValues,
  contactFilters,
  contactValues,
  contactWhere,
  convertLead,
  crmChoices,
  importContacts,
  inviteesOf,
  isTimeZone,
  meetingValues,
  ownContact,
  remindMeetings,
  saveInvitees,
  timelineOf,
  toCall,
  toContact,
  toMeeting,
  whoOf,
  withInvitees,
} from '../lib/crm-people';
import { listEndpoint } from '../lib/list-endpoint';
import { validationError } from '../lib/errors';
import { notFound } from '../lib/errors';
import { resourceEndpoints } from '../lib/resource-endpoint';
import { crmCalls, crmContacts, crmLeads, crmMeetings } from '../db/schema-crm';

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
      read: leadPage,
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
  app.get('/api/crm/leads/:id/timeline', { preHandler: requireAuth, schema: { tags, params: idParams, response: { 200: envelope(timelineSchema) } } }, async (req) => {
    const id = pathId(req);
    await ownLead(db, req.member!, id);
    return ctx.envelope(req, { items: await timelineOf(db, req.member!, { leadId: id }) });
  });
  app.post(
    '/api/crm/leads/:id/convert',
    { preValidation: onLead, schema: { tags, params: idParams, response: { 200: envelope(contactSchema), 201: envelope(contactSchema) } } },
    async (req, reply) => {
      const { contact, created } = await convertLead(db, req.member!, pathId(req));
      reply.status(created ? 201 : 200);
      return ctx.envelope(req, contact);
    },
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

  // ── Contacts ──
  app.get('/api/crm/choices', { preHandler: requireAuth, schema: { tags, response: { 200: envelope(crmChoicesSchema) } } }, async (req) =>
    ctx.envelope(req, await crmChoices(db, req.member!)),
  );
  app.post(
    '/api/crm/contacts/import',
    { preValidation: requireAuth, bodyLimit: 2 * 1024 * 1024, schema: { tags, body: contactImportSchema, response: { 200: envelope(contactImportResultSchema), 201: envelope(contactImportResultSchema) } } },
    async (req, reply) => {
      const result = await importContacts(db, req.member!, req.body);
      if (!req.body.dry_run && result.failed.length) {
        const errors: Record<string, string[]> = {};
        for (const f of result.failed) for (const [field, keys] of Object.entries(f.errors)) errors[`rows.${f.row}.${field}`] = keys;
        throw validationError(errors);
      }
      reply.status(req.body.dry_run ? 200 : 201);
      return ctx.envelope(req, result);
    },
  );
  resourceEndpoints(app, ctx, {
    path: '/api/crm/contacts',
    tags,
    table: crmContacts,
    body: contactRequestSchema,
    item: contactSchema,
    values: contactValues,
    toItem: toContact,
    list: {
      querystring: contactListQuerySchema,
      filters: contactFilters,
      where: contactWhere,
      csv: { name: 'contacts', columns: ['name', 'company', 'email', 'phone', 'city'], line: (c: Contact) => [c.name, c.company, c.email, c.phone, c.city] },
    },
  });
  const contactExists = async (req: FastifyRequest) => {
    await ownContact(db, req.member!, pathId(req));
  };
  app.get('/api/crm/contacts/:id/timeline', { preHandler: [requireAuth, contactExists], schema: { tags, params: idParams, response: { 200: envelope(timelineSchema) } } }, async (req) =>
    ctx.envelope(req, { items: await timelineOf(db, req.member!, { contactId: pathId(req) }) }),
  );
  app.post(
    '/api/crm/contacts/:id/notes',
    { preValidation: [requireAuth, contactExists], schema: { tags, params: idParams, body: noteRequestSchema, response: { 201: envelope(timelineEntrySchema) } } },
    async (req, reply) => {
      const entry = await addContactNote(db, req.member!, pathId(req), req.body.body);
      reply.status(201);
      return ctx.envelope(req, entry);
    },
  );

  // ── Calls and meetings: about one of the member's contacts or leads ──
  /** The names of who a call or meeting is about; someone not the member's is a field error. */
  const who = async (member: Parameters<typeof whoOf>[1], body: { contact_id?: string; lead_id?: string }) => (await whoOf(db, member, body));
  const whoNames = new WeakMap<object, string>();
  resourceEndpoints(app, ctx, {
    path: '/api/crm/calls',
    tags,
    table: crmCalls,
    body: callRequestSchema,
    item: callSchema,
    check: async (_db, member, body: CallRequest) => {
      const w = await who(member, body);
      whoNames.set(body, w.who);
      const errors = { ...w.errors };
      if (body.time_zone && !isTimeZone(body.time_zone)) errors.time_zone = ['validation:invalidChoice'];
      return errors;
    },
    values: (body: CallRequest) => callValues(body, whoNames.get(body) ?? ''),
    toItem: toCall,
    list: { querystring: simpleListQuerySchema },
  });
  resourceEndpoints(app, ctx, {
    path: '/api/crm/meetings',
    tags,
    table: crmMeetings,
    body: meetingRequestSchema,
    item: meetingSchema,
    // Invitees: any number of the member's contacts and leads; someone else's is a field error, never stored.
    check: async (_db, member, body: MeetingRequest) => {
      const w = await inviteesOf(db, member, body.invitees);
      whoNames.set(body, w.who);
      const errors = { ...w.errors };
      if (!isTimeZone(body.time_zone)) errors.time_zone = ['validation:invalidChoice'];
      return errors;
    },
    values: (body: MeetingRequest) => meetingValues(body, whoNames.get(body) ?? ''),
    toItem: toMeeting,
    related: { save: (tx, member, id, body) => saveInvitees(tx, member, id, body.invitees), load: withInvitees },
    list: { querystring: simpleListQuerySchema },
  });
  // The agenda: upcoming meetings soonest first (sort=asc), or past ones (when=past) latest first.
  listEndpoint(app, ctx, {
    path: '/api/crm/agenda',
    tags,
    querystring: meetingListQuerySchema,
    response: z.object({ items: z.array(meetingSchema), next_page_url: z.nullable(z.string()) }),
    filters: (q) => ({ when: q.oneOf('when', MEETING_WHEN) ?? 'upcoming' }),
    rows: (db, member, q, f, limit) => agendaRows(db, member, q, f.when, limit),
  });

  // Reminders of meetings about to start, every minute (a claimed row is reminded once, whichever server claims it).
  const timer = setInterval(() => {
    remindMeetings(ctx).catch((e: unknown) => base.log.error({ err: e }, 'meeting reminders failed'));
  }, 60_000);
  timer.unref?.();
  base.addHook('onClose', async () => clearInterval(timer));
}

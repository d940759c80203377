/**
 * Stories and events (spec §2 /member/story, /member/events, /member/event/{id}): GET /api/stories/articles
 * and /videos (cursor-paged, newest first), GET /api/stories/articles/{id} (the content sanitised),
 * /videos/{id}, GET /api/events (?when=upcoming|past, ?tag=; the tags for the filter with every page),
 * GET /api/events/{id} and GET /api/events/{id}/calendar (an .ics file, RFC 5545).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { articleSchema, eventSchema, storyItemSchema } from '../../src/schemas/home.schema';
import { EVENT_WHEN, eventPageSchema, eventTagsSchema, eventsQuerySchema, storiesQuerySchema, storyPageSchema } from '../../src/schemas/stories.schema';
import { requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { listEndpoint } from '../lib/list-endpoint';
import { articleById, eventById, eventCalendar, eventRows, eventTags, storyRows, videoById } from '../lib/stories';
import { sanitiseFileName } from '../lib/uploads';

const recordId = (text: string) => {
  if (!/^\d{1,9}$/.test(text)) throw notFound();
  return Number(text);
};
const idParams = z.object({ id: z.string() });

export async function storiesRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  for (const kind of ['article', 'video'] as const) {
    listEndpoint(app, ctx, { path: `/api/stories/${kind}s`, tags: ['stories'], querystring: storiesQuerySchema, response: storyPageSchema, rows: storyRows(kind) });
  }
  app.get(
    '/api/stories/articles/:id',
    { preHandler: requireAuth, schema: { tags: ['stories'], description: 'One article; its HTML content passed through the allow-list sanitiser.', params: idParams, response: { 200: envelope(articleSchema) } } },
    async (req) => ctx.envelope(req, await articleById(db, recordId(req.params.id))),
  );
  app.get(
    '/api/stories/videos/:id',
    { preHandler: requireAuth, schema: { tags: ['stories'], description: 'One video: where it plays (url) and its thumbnail.', params: idParams, response: { 200: envelope(storyItemSchema) } } },
    async (req) => ctx.envelope(req, await videoById(db, recordId(req.params.id))),
  );

  listEndpoint(app, ctx, {
    path: '/api/events',
    tags: ['events'],
    querystring: eventsQuerySchema,
    response: eventPageSchema,
    filters: (q) => ({ when: q.oneOf('when', EVENT_WHEN) ?? 'upcoming', tag: q.text('tag') }),
    rows: eventRows(),
  });
  app.get(
    '/api/events/tags',
    { preHandler: requireAuth, schema: { tags: ['events'], description: 'The tags of the published events (the filter of the events page).', response: { 200: envelope(eventTagsSchema) } } },
    async (req) => ctx.envelope(req, await eventTags(db)),
  );

  app.get(
    '/api/events/:id',
    { preHandler: requireAuth, schema: { tags: ['events'], description: 'One event: venue, dates, image and description.', params: idParams, response: { 200: envelope(eventSchema) } } },
    async (req) => ctx.envelope(req, await eventById(db, recordId(req.params.id))),
  );
  app.get(
    '/api/events/:id/calendar',
    { preHandler: requireAuth, schema: { tags: ['events'], description: 'The event as an iCalendar file (RFC 5545): UTC times, escaped text.', params: idParams, produces: ['text/calendar'] } },
    async (req, reply) => {
      const e = await eventById(db, recordId(req.params.id));
      const host = (req.headers.host ?? 'upline.local').replace(/[^A-Za-z0-9.-]/g, '') || 'upline.local';
      const body = eventCalendar(e, { host, url: `${req.protocol}://${host}/member/event/${e.id}` });
      const name = `${sanitiseFileName(e.title, 'event').replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'event'}.ics`;
      return reply
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'private, no-store')
        .type('text/calendar; charset=utf-8')
        .send(body);
    },
  );
}

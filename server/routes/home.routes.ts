/**
 * Home calls (spec §7 "Home"): dashboard summary and extra, ranks, packages, promotions, binary
 * summary, notifications and their counts, the dummy call — all GET, signed in, about the caller
 * only. Plus GET /api/home/notifications/history/{orders|payouts|messages|notices} (every item of a kind,
 * cursor-paged) and PUT /api/home/notifications/read (not named by the spec) to mark notifications read.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import {
  binarySummarySchema,
  dashboardExtraSchema,
  dashboardSummarySchema,
  homeDummySchema,
  markNotificationsReadSchema,
  NOTIFICATION_HISTORY,
  notificationHistoryQuerySchema,
  notificationCountsSchema,
  notificationsListQuerySchema,
  notificationsSchema,
  packageDataSchema,
  promotionsSchema,
  ranksSchema,
  type DashboardSummary,
} from '../../src/schemas/home.schema';
import { requireAuth } from '../lib/auth';
import { sendJsonText } from '../lib/response-serializer';
import { listEndpoint, type Keyed, type ListDefinition } from '../lib/list-endpoint';
import {
  binarySummary,
  dashboardExtra,
  dashboardSummaryJson,
  markNotificationsRead,
  notificationCounts,
  notificationHistoryRows,
  notifications,
  packageData,
  promotions,
  ranksOf,
} from '../lib/home';

export async function homeRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['home'];
  const signedIn = { preHandler: requireAuth };

  // The answer's JSON text is written by dashboardSummaryJson (checked against the schema outside production).
  const dashboardAnswer = envelope(dashboardSummarySchema);
  app.get('/api/home/dashboard', { ...signedIn, schema: { tags, response: { 200: dashboardAnswer } } }, async (req, reply) => {
    const data = await dashboardSummaryJson(db, ctx.settings, req.member!);
    const answer = await ctx.envelope(req, null);
    if (answer.loaded_modules) return { ...answer, data: JSON.parse(data) as DashboardSummary };
    return sendJsonText(reply, dashboardAnswer, `{"data":${data}}`) as never;
  });

  app.get('/api/home/dashboard/extra', { ...signedIn, schema: { tags, response: { 200: envelope(dashboardExtraSchema) } } }, async (req) =>
    ctx.envelope(req, await dashboardExtra(db, ctx.settings, req.member!)),
  );

  app.get('/api/home/ranks', { ...signedIn, schema: { tags, response: { 200: envelope(ranksSchema) } } }, async (req) =>
    ctx.envelope(req, await ranksOf(db, ctx.settings, req.member!)),
  );

  app.get('/api/home/packages', { ...signedIn, schema: { tags, response: { 200: envelope(packageDataSchema) } } }, async (req) =>
    ctx.envelope(req, await packageData(db, ctx.settings, req.member!)),
  );

  app.get('/api/home/promotions', { ...signedIn, schema: { tags, response: { 200: envelope(promotionsSchema) } } }, async (req) =>
    ctx.envelope(req, await promotions(db, ctx.settings)),
  );

  app.get('/api/home/binary', { ...signedIn, schema: { tags, response: { 200: envelope(binarySummarySchema) } } }, async (req) =>
    ctx.envelope(req, await binarySummary(db, req.member!)),
  );

  app.get(
    '/api/home/notifications',
    { ...signedIn, schema: { tags, querystring: notificationsListQuerySchema, response: { 200: envelope(notificationsSchema) } } },
    async (req) => ctx.envelope(req, await notifications(db, req.member!.id, req.query.show)),
  );

  // The whole history of one kind (the "All" lists), cursor-paged: the list above carries at most 50.
  const history = <R extends Keyed<object>>(tab: keyof typeof NOTIFICATION_HISTORY, rows: ListDefinition<R, unknown, unknown, object>['rows']) =>
    listEndpoint(app, ctx, { path: `/api/home/notifications/history/${tab}`, tags, querystring: notificationHistoryQuerySchema, response: NOTIFICATION_HISTORY[tab], rows });
  history('orders', notificationHistoryRows.orders);
  history('payouts', notificationHistoryRows.payouts);
  history('messages', notificationHistoryRows.messages);
  history('notices', notificationHistoryRows.notices);

  app.get(
    '/api/home/notifications_count',
    { ...signedIn, schema: { tags, response: { 200: envelope(notificationCountsSchema) } } },
    async (req) => ctx.envelope(req, await notificationCounts(db, req.member!.id)),
  );

  app.put(
    '/api/home/notifications/read',
    {
      ...signedIn,
      schema: {
        tags,
        description: 'Mark notifications read: the given ids of one kind, or (without ids) every item of the kind, or of all kinds. Answers the new counts.',
        body: markNotificationsReadSchema,
        response: { 200: envelope(notificationCountsSchema) },
      },
    },
    async (req) => {
      const { kind, ids } = req.body;
      await markNotificationsRead(db, req.member!.id, kind, ids ? [...new Set(ids)] : undefined);
      return ctx.envelope(req, await notificationCounts(db, req.member!.id));
    },
  );

  // Purpose not given by the spec: a cheap signed-in call (used to fetch loaded_modules on its own).
  app.get('/api/home/dummy', { ...signedIn, schema: { tags, response: { 200: envelope(homeDummySchema) } } }, async (req) =>
    ctx.envelope(req, { ok: true }),
  );
}

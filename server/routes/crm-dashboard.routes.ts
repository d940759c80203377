/**
 * The CRM's dashboard, analytics and the phone hub's counts (spec §2 CRM routes), about the signed-in
 * member's own records only:
 *
 *   GET /api/crm/dashboard?tz=         follow-ups due, today's and the next meetings, leads by status, pipeline, wins this month
 *   GET /api/crm/analytics?period=&tz= leads per month by source and by status, win and lead → contact rates
 *   GET /api/crm/counts                leads, open leads, contacts, upcoming meetings, calls
 *
 * A time zone that names none, or a period not offered, is a 422 field map.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../src/schemas/common.schema';
import {
  crmAnalyticsQuerySchema,
  crmAnalyticsSchema,
  crmCountsSchema,
  crmDashboardQuerySchema,
  crmDashboardSchema,
  DEFAULT_ANALYTICS_PERIOD,
  type CrmDashboard,
} from '../../src/schemas/crm-dashboard.schema';
import type { AppContext } from '../lib/app-context';
import { requireAuth } from '../lib/auth';
import { crmAnalytics, crmCounts, crmDashboardJson, crmDashboardQuery } from '../lib/crm-dashboard';
import { isTimeZone } from '../lib/crm-people';
import { validationError } from '../lib/errors';
import { sendJsonText } from '../lib/response-serializer';

const tags = ['crm'];

/** The member's time zone of the query (UTC when not given); one that names no zone is a field error. */
function zoneOf(tz: string | undefined): string {
  if (tz === undefined) return 'UTC';
  if (!isTimeZone(tz)) throw validationError({ tz: ['validation:invalidChoice'] });
  return tz;
}

export async function crmDashboardRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  // The answer's JSON text is written by crmDashboardJson (checked against the schema outside production).
  const dashboardAnswer = envelope(crmDashboardSchema);
  const dashboardQuery = crmDashboardQuery(db);
  app.get(
    '/api/crm/dashboard',
    { preHandler: requireAuth, schema: { tags, querystring: crmDashboardQuerySchema, response: { 200: dashboardAnswer } } },
    async (req, reply) => {
      const { answer: data } = await crmDashboardJson(dashboardQuery, req.member!, zoneOf(req.query.tz));
      const answer = await ctx.envelope(req, null);
      if (answer.loaded_modules) return { ...answer, data: JSON.parse(data) as CrmDashboard };
      return sendJsonText(reply, dashboardAnswer, `{"data":${data}}`) as never;
    },
  );
  app.get(
    '/api/crm/analytics',
    { preHandler: requireAuth, schema: { tags, querystring: crmAnalyticsQuerySchema, response: { 200: envelope(crmAnalyticsSchema) } } },
    async (req) => ctx.envelope(req, await crmAnalytics(db, req.member!, req.query.period ?? DEFAULT_ANALYTICS_PERIOD, zoneOf(req.query.tz))),
  );
  app.get('/api/crm/counts', { preHandler: requireAuth, schema: { tags, response: { 200: envelope(crmCountsSchema) } } }, async (req) =>
    ctx.envelope(req, await crmCounts(db, req.member!)),
  );
}

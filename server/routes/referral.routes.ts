/**
 * Referral programme calls: summary, the recruiters and earners leaderboards of the member's sponsor
 * downline and the cursor-paged list of direct referrals. Merchant accounts get 403 `referral_unavailable`.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { leaderboardSchema, referralJoiningsQuerySchema, referralJoiningsSchema, referralSummarySchema } from '../../src/schemas/referral.schema';
import { requireAuth } from '../lib/auth';
import { referralJoinings, referralMember, referralSummary, topEarners, topRecruiters } from '../lib/referral';

export async function referralRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['referral'];
  const db = ctx.database;

  app.get(
    '/api/referral/summary',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(referralSummarySchema) } } },
    async (req) => ctx.envelope(req, await referralSummary(db, req.member!)),
  );

  app.get(
    '/api/referral/recruiters',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(leaderboardSchema) } } },
    async (req) => ctx.envelope(req, { items: await topRecruiters(db, await referralMember(db, req.member!)) }),
  );

  app.get(
    '/api/referral/earners',
    { preHandler: requireAuth, schema: { tags, response: { 200: envelope(leaderboardSchema) } } },
    async (req) => ctx.envelope(req, { items: await topEarners(db, await referralMember(db, req.member!)) }),
  );

  app.get(
    '/api/referral/joinings',
    {
      preHandler: requireAuth,
      schema: { tags, querystring: referralJoiningsQuerySchema, response: { 200: envelope(referralJoiningsSchema) } },
    },
    async (req) => ctx.envelope(req, await referralJoinings(db, await referralMember(db, req.member!), req.query as { cursor?: string; per_page?: string })),
  );
}

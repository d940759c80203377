/**
 * The account hub and its help pages (spec §2 "Account", §6 FAQs):
 * - GET /api/user/account: who the signed-in member is (name, username, avatar, member since, KYC status);
 * - GET /api/faqs: the company's questions and answers in the member's language, searchable, cursor-paged;
 * - GET /api/user/data_export: everything the server holds about the caller as a JSON file, throttled
 *   and written to the audit trail. There is no id to pass: a member can only ever export themselves.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { accountSummarySchema, faqPageSchema, faqsQuerySchema } from '../../src/schemas/account-hub.schema';
import { recordAudit } from '../lib/audit';
import { requireAuth } from '../lib/auth';
import { faqRows } from '../lib/faqs';
import { kycStatus } from '../lib/ledger';
import { listEndpoint } from '../lib/list-endpoint';
import { ymd } from '../lib/pagination';
import { readPersonalData } from '../lib/personal-data';
import { MINUTE, routeLimits } from '../lib/rate-limit';

const perMember = (req: FastifyRequest) => `data_export|${req.member?.id ?? req.ip}`;

export async function accountHubRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);

  app.get(
    '/api/user/account',
    {
      preHandler: requireAuth,
      schema: { tags: ['users'], description: 'The signed-in member as the account hub shows them.', response: { 200: envelope(accountSummarySchema) } },
    },
    async (req) => {
      const m = req.member!;
      return ctx.envelope(req, {
        id: m.id,
        username: m.username,
        first_name: m.firstName,
        last_name: m.lastName,
        avatar: m.avatar,
        email: m.email,
        member_since: m.createdAt.toISOString(),
        kyc_status: await kycStatus(db, m.id),
      });
    },
  );

  listEndpoint(app, ctx, {
    path: '/api/faqs',
    tags: ['help'],
    querystring: faqsQuerySchema,
    response: faqPageSchema,
    filters: (q) => ({ keyword: q.text('keyword') }),
    rows: faqRows,
  });

  app.get(
    '/api/user/data_export',
    {
      preHandler: requireAuth,
      // An export reads every table about the member: a few an hour is plenty.
      config: limit(5, 60 * MINUTE, perMember),
      schema: {
        tags: ['users'],
        description:
          'Everything the server holds about the signed-in member (profile, addresses, KYC, orders, payouts, ledger ' +
          'transactions, earnings, messages, sessions, audit trail) as a JSON file. Never a password hash, token or code.',
        produces: ['application/json'],
      },
    },
    async (req, reply) => {
      const m = req.member!;
      const data = await db.transaction(async (tx) => {
        await recordAudit(tx, m.id, 'data.exported', {}, req.ip);
        return readPersonalData(tx, m.id);
      });
      const name = `upline-personal-data-${m.username.replace(/[^A-Za-z0-9._-]/g, '_')}-${ymd(new Date())}.json`;
      reply.header('Content-Disposition', `attachment; filename="${name}"`);
      reply.header('Cache-Control', 'no-store');
      reply.type('application/json; charset=utf-8');
      return reply.send(JSON.stringify(data, null, 2));
    },
  );
}

/** Auth and user calls (spec §7). */
import * as z from 'zod/mini';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app';
import { envelope, userSchema } from '../../src/schemas/common.schema';
import { requireAuth } from '../lib/auth';
import { toUser } from '../lib/settings';

export async function authRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get('/api/auth/dummy', { schema: { tags: ['auth'], response: { 200: envelope(z.object({ ok: z.boolean() })) } } }, async (req) =>
    ctx.envelope(req, { ok: true }),
  );

  app.get(
    '/api/auth_check',
    { preHandler: requireAuth, schema: { tags: ['auth'], response: { 200: envelope(userSchema) } } },
    async (req) => ctx.envelope(req, toUser(req.member!)),
  );
}

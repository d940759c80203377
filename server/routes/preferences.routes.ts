/**
 * PUT /api/user/preferences (not named by the spec): the member's language, currency and date format.
 * Codes must be ones the company offers, the date format one of DATE_FORMATS; the answer is the
 * updated User, and loaded_modules (default_language, default_currency, date_format) follow it.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope, userSchema } from '../../src/schemas/common.schema';
import { preferencesRequestSchema } from '../../src/schemas/preferences.schema';
import { requireAuth } from '../lib/auth';
import { updatePreferences } from '../lib/preferences';
import { toUser } from '../lib/settings';

export async function preferencesRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  app.put(
    '/api/user/preferences',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['users'],
        description: 'Change the language, currency and/or date format of the signed-in member; answers the updated user.',
        body: preferencesRequestSchema,
        response: { 200: envelope(userSchema) },
      },
    },
    async (req) => ctx.envelope(req, toUser(await updatePreferences(db, ctx.settings, req.member!.id, req.body, req.ip))),
  );
}

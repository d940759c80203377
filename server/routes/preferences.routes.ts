/**
 * PUT /api/user/preferences (not named by the spec): the member's language, currency and date format.
 * Codes must be ones the company offers, the date format one of DATE_FORMATS; the answer is the
 * updated User, and loaded_modules (default_language, default_currency, date_format) follow it.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { members } from '../db/schema';
import { envelope, userSchema } from '../../src/schemas/common.schema';
import { isAllowedDateFormat, preferencesRequestSchema } from '../../src/schemas/preferences.schema';
import { requireAuth } from '../lib/auth';
import { validationError, type FieldMap } from '../lib/errors';
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
    async (req) => {
      const { language, currency, date_format: dateFormat } = req.body;
      const errors: FieldMap = {};
      if (language === undefined && currency === undefined && dateFormat === undefined) {
        throw validationError({ _body: ['validation:required'] });
      }
      const refs = await ctx.settings.reference();
      const lang = language === undefined ? undefined : refs.languages.find((l) => l.code.toLowerCase() === language.toLowerCase());
      const cur = currency === undefined ? undefined : refs.currencies.find((c) => c.code.toUpperCase() === currency.toUpperCase());
      if (language !== undefined && !lang) errors.language = ['validation:invalidChoice'];
      if (currency !== undefined && !cur) errors.currency = ['validation:invalidChoice'];
      if (dateFormat !== undefined && !isAllowedDateFormat(dateFormat)) errors.date_format = ['validation:invalidChoice'];
      if (Object.keys(errors).length) throw validationError(errors);

      const [updated] = await db
        .update(members)
        .set({
          ...(lang ? { languageCode: lang.code } : {}),
          ...(cur ? { currencyCode: cur.code } : {}),
          ...(dateFormat !== undefined ? { dateFormat } : {}),
        })
        .where(eq(members.id, req.member!.id))
        .returning();
      return ctx.envelope(req, toUser(updated));
    },
  );
}

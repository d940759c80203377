/**
 * The caller's notification settings (/member/account/notification): GET/PUT
 * /api/user/notification_settings — per event, the e-mail and push (in-app notice) switches that
 * decide what announce() sends.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { notificationSettingsRequestSchema, notificationSettingsSchema } from '../../src/schemas/notification-settings.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { notificationSettingsOf, saveNotificationSettings } from '../lib/member-notices';
import { MINUTE, routeLimits } from '../lib/rate-limit';

export async function notificationSettingsRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const limit = routeLimits(ctx.config);

  app.get(
    '/api/user/notification_settings',
    {
      preHandler: requireAuth,
      schema: {
        tags: ['users'],
        description: 'Per event, whether the caller is told by e-mail and by a notice in the notifications (push). Everything is on by default.',
        response: { 200: envelope(notificationSettingsSchema) },
      },
    },
    async (req) => ctx.envelope(req, await notificationSettingsOf(ctx.database.db, req.member!.id)),
  );

  app.put(
    '/api/user/notification_settings',
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(120, 10 * MINUTE, (req) => `notification-settings|${req.member?.id ?? req.ip}`),
      schema: {
        tags: ['users'],
        description: 'Change some switches: `events` of `{ event, email?, push? }`; the others stay as they are.',
        body: notificationSettingsRequestSchema,
        response: { 200: envelope(notificationSettingsSchema) },
      },
    },
    async (req) => ctx.envelope(req, await saveNotificationSettings(ctx, req.member!.id, req.body, req.ip)),
  );
}

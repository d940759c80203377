/**
 * The caller's notification settings (/member/account/notification): GET/PUT
 * /api/user/notification_settings — per event, the e-mail and push (in-app notice) switches that
 * decide what announce() sends.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../lib/app-context';
import { notificationSettingsRequestSchema, notificationSettingsSchema } from '../../src/schemas/notification-settings.schema';
import { notificationSettingsOf, saveNotificationSettings } from '../lib/member-notices';
import { memberSettingEndpoints } from '../lib/member-setting-endpoint';

export async function notificationSettingsRoutes(app: FastifyInstance, ctx: AppContext) {
  memberSettingEndpoints(app, ctx, {
    path: '/api/user/notification_settings',
    tags: ['users'],
    describe: {
      get: 'Per event, whether the caller is told by e-mail and by a notice in the notifications (push). Everything is on by default.',
      put: 'Change some switches: `events` of `{ event, email?, push? }`; the others stay as they are.',
    },
    answer: notificationSettingsSchema,
    body: notificationSettingsRequestSchema,
    changesPer10Minutes: 120,
    read: (member) => notificationSettingsOf(ctx.database.db, member.id),
    save: (member, body, ip) => saveNotificationSettings(ctx, member.id, body, ip),
  });
}

/**
 * Account settings of the signed-in member (spec §2): the password change of /member/account/password.
 * GET /api/user/password answers the password policy; PUT /api/user/password changes the password
 * (current one re-entered, policy, confirmation), throttled per member, refused in demo mode, and ends
 * every other session of the member.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { messageSchema } from '../../src/schemas/auth.schema';
import { passwordChangeRequestSchema, passwordChangeSettingsSchema } from '../../src/schemas/account.schema';
import { changePassword, passwordChangeSettings } from '../lib/account';
import { protectedAction, requireAuth } from '../lib/auth';
import { LIMITS, perMember, throttle } from '../lib/rate-limit';


export async function accountRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/user/password',
    {
      preHandler: requireAuth,
      schema: { tags: ['users'], description: 'The password policy a new password must meet.', response: { 200: envelope(passwordChangeSettingsSchema) } },
    },
    async (req) => ctx.envelope(req, await passwordChangeSettings(ctx)),
  );

  app.put(
    '/api/user/password',
    {
      // Signed in and not in demo mode, before the body is even read (spec §6).
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      // Password checks are counted per member: guessing the current password from many addresses gains nothing.
      config: throttle([LIMITS.passwordChecksPerMember, perMember]),
      schema: {
        tags: ['users'],
        description:
          'Change the password of the signed-in member: `current_password`, and `password` (the company policy) typed twice. ' +
          'Every other session of the member ends; this one stays signed in.',
        body: passwordChangeRequestSchema,
        response: { 200: envelope(messageSchema) },
      },
    },
    async (req) => {
      await changePassword(ctx, req.member!, req.sessionId!, req.body, req.ip);
      return ctx.envelope(req, { message: 'Your password was changed.' });
    },
  );
}

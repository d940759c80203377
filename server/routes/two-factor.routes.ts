/**
 * Two-factor sign-in settings of the signed-in member (/member/account/two-factor): status, enrolment
 * (setup with the password, confirm with the first code), turning it off, new recovery codes. Only ever
 * about the caller; refused in demo mode; password and code checks throttled per member.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { messageSchema } from '../../src/schemas/auth.schema';
import {
  recoveryCodesSchema,
  twoFactorConfirmRequestSchema,
  twoFactorDisableRequestSchema,
  twoFactorPasswordRequestSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../src/schemas/two-factor.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { confirmSetup, disableTwoFactor, regenerateRecoveryCodes, startSetup, twoFactorStatus } from '../lib/two-factor';

const perMember = (req: FastifyRequest) => `two_factor|${req.member?.id ?? req.ip}`;
const PATH = '/api/user/two_factor';

export async function twoFactorRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const limit = routeLimits(ctx.config);
  const guarded = { preValidation: [requireAuth, protectedAction(ctx.isDemo)], config: limit(10, 10 * MINUTE, perMember) };

  app.get(
    PATH,
    {
      preHandler: requireAuth,
      schema: { tags: ['users'], description: 'Whether two-factor sign-in is on, since when, and how many recovery codes are left.', response: { 200: envelope(twoFactorStatusSchema) } },
    },
    async (req) => ctx.envelope(req, await twoFactorStatus(ctx.database.db, req.member!.id)),
  );

  app.post(
    `${PATH}/setup`,
    {
      ...guarded,
      schema: {
        tags: ['users'],
        description:
          'Start turning two-factor sign-in on (the account `password` re-entered): a fresh secret for the authenticator app, as a key to ' +
          'type, an otpauth URI and its QR code. It is on only after /confirm; the secret is never answered again.',
        body: twoFactorPasswordRequestSchema,
        response: { 200: envelope(twoFactorSetupSchema) },
      },
    },
    async (req) => ctx.envelope(req, await startSetup(ctx, req.member!, req.body.password)),
  );

  app.post(
    `${PATH}/confirm`,
    {
      ...guarded,
      schema: {
        tags: ['users'],
        description: 'The first `code` from the app turns two-factor sign-in on. Answers ten single-use recovery codes, shown this once.',
        body: twoFactorConfirmRequestSchema,
        response: { 200: envelope(recoveryCodesSchema) },
      },
    },
    async (req) => ctx.envelope(req, await confirmSetup(ctx, req.member!, req.body.code, req.ip)),
  );

  app.delete(
    PATH,
    {
      ...guarded,
      schema: {
        tags: ['users'],
        description: 'Turn two-factor sign-in off: the account `password` and a current `code` or an unused `recovery_code`.',
        body: twoFactorDisableRequestSchema,
        response: { 200: envelope(messageSchema) },
      },
    },
    async (req) => {
      await disableTwoFactor(ctx, req.member!, req.body, req.ip);
      return ctx.envelope(req, { message: 'Two-factor sign-in is off.' });
    },
  );

  app.post(
    `${PATH}/recovery_codes`,
    {
      ...guarded,
      schema: {
        tags: ['users'],
        description: 'Ten new recovery codes (the account `password` re-entered); the earlier ones stop working. Shown this once.',
        body: twoFactorPasswordRequestSchema,
        response: { 200: envelope(recoveryCodesSchema) },
      },
    },
    async (req) => ctx.envelope(req, await regenerateRecoveryCodes(ctx, req.member!, req.body.password, req.ip)),
  );
}

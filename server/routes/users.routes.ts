/**
 * User calls (spec §7): signup (public or by a signed-in member) with placement and OTP verification,
 * referral checks, member searches in the caller's downline, admin info and account deletion.
 */
import * as z from 'zod/mini';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { text } from '../../src/schemas/values.schema';
import {
  adminInfoSchema,
  deleteAccountRequestSchema,
  memberListSchema,
  membersQuerySchema,
  messageSchema,
  otpSentSchema,
  referralValidationSchema,
  resendSignupRequestSchema,
  signupDataSchema,
  signupRequestSchema,
  signupResponseSchema,
  verifySignupRequestSchema,
} from '../../src/schemas/auth.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { MAX_SEARCH_LEVELS, parseLevels, placementDownline, sponsorDownline, toSmallUser } from '../lib/member-search';
import { deleteAccount } from '../lib/account-deletion';
import { companyAdmin } from '../lib/members';
import { LIMITS, MINUTE, perIp, perMember, routeLimits, throttle } from '../lib/rate-limit';
import { confirmSignup, resendSignupCode, signUp, signupData, validateReferral } from '../lib/signup';

const referralQuerySchema = z.object({ referral: z.optional(text({ max: 64 })) });

export async function usersRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  /** A pending signup's key: its code goes to one destination. */
  const perKey = (req: FastifyRequest) => `key|${String((req.body as { key?: unknown } | undefined)?.key ?? '')}`;

  app.get(
    '/api/users/signup_data',
    { schema: { tags: ['users'], querystring: referralQuerySchema, response: { 200: envelope(signupDataSchema) } } },
    async (req) => ctx.envelope(req, await signupData(ctx, req.member, req.query.referral || undefined)),
  );

  app.get(
    '/api/users/signup_validate_referral',
    {
      // It tells a member's username from anything else: not to be asked in bulk.
      config: throttle([LIMITS.referralChecksPerIp, perIp]),
      schema: { tags: ['users'], querystring: referralQuerySchema, response: { 200: envelope(referralValidationSchema) } },
    },
    async (req) => ctx.envelope(req, await validateReferral(ctx, req.query.referral)),
  );

  app.post(
    '/api/users/signup',
    {
      // A signup sends a code: it counts against the IP's code sends too.
      config: throttle([LIMITS.signupsPerIp, perIp], [LIMITS.codeSendsPerIp, perIp]),
      schema: { tags: ['users'], body: signupRequestSchema, response: { 200: envelope(signupResponseSchema) } },
    },
    async (req) => ctx.envelope(req, await signUp(ctx, req.member, req.body)),
  );

  app.post(
    '/api/users/resend_signup_verification',
    {
      config: throttle([LIMITS.codeSendsPerIp, perIp], [LIMITS.codeSendsPerDestination, perKey]),
      schema: { tags: ['users'], body: resendSignupRequestSchema, response: { 200: envelope(otpSentSchema) } },
    },
    async (req) => ctx.envelope(req, await resendSignupCode(ctx, req.body.key)),
  );

  app.post(
    '/api/users/verify_signup',
    {
      config: throttle([LIMITS.codeChecksPerIp, perIp]),
      schema: { tags: ['users'], body: verifySignupRequestSchema, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      await confirmSignup(db, req.body.key, req.body.otp);
      return ctx.envelope(req, { message: 'Your account is confirmed.' });
    },
  );

  app.get('/api/users/admin_info', { preHandler: requireAuth, schema: { tags: ['users'], response: { 200: envelope(adminInfoSchema) } } }, async (req) => {
    const admin = await companyAdmin(db);
    if (!admin) throw notFound('No administrator');
    return ctx.envelope(req, { admin: toSmallUser(admin) });
  });

  app.get(
    '/api/users/members',
    { preHandler: requireAuth, schema: { tags: ['users'], querystring: membersQuerySchema, response: { 200: envelope(memberListSchema) } } },
    async (req) => ctx.envelope(req, await placementDownline(db, req.member!, req.query.keyword, MAX_SEARCH_LEVELS)),
  );

  app.get(
    '/api/users/placement_downlines',
    { preHandler: requireAuth, schema: { tags: ['users'], querystring: membersQuerySchema, response: { 200: envelope(memberListSchema) } } },
    async (req) => ctx.envelope(req, await placementDownline(db, req.member!, req.query.keyword, parseLevels(req.query.levels))),
  );

  app.get(
    '/api/users/sponsor_downlines',
    { preHandler: requireAuth, schema: { tags: ['users'], querystring: membersQuerySchema, response: { 200: envelope(memberListSchema) } } },
    async (req) => ctx.envelope(req, await sponsorDownline(db, req.member!.id, req.query.keyword, parseLevels(req.query.levels))),
  );

  app.delete(
    '/api/users',
    {
      preHandler: [requireAuth, protectedAction(ctx.isDemo)],
      config: throttle([LIMITS.passwordChecksPerMember, perMember]),
      schema: {
        tags: ['users'],
        description:
          'Delete the account of the signed-in member: the account `password` re-entered, plus the storefront token ' +
          '(X-Store-Token header) when the store module is on. The member is anonymised (the tree and the ledger keep ' +
          'their history under a placeholder username) and signed out everywhere.',
        body: deleteAccountRequestSchema,
        response: { 200: envelope(messageSchema) },
      },
    },
    async (req) => {
      const storeToken = req.headers['x-store-token'];
      await deleteAccount(ctx, req.member!, { password: req.body.password, storeToken: typeof storeToken === 'string' ? storeToken : null, ip: req.ip });
      return ctx.envelope(req, { message: 'Your account was removed.' });
    },
  );
}

/**
 * Auth calls (spec §7): login by password, one-time code or SSO token, logout, password reset,
 * demo requests, the caller's user record and role.
 *
 * Sign-in never tells who exists: a wrong password and an unknown member get the same answer, and
 * one-time codes for unknown destinations are "sent" (stored, never delivered) like any other.
 */
import * as z from 'zod/mini';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope, userSchema } from '../../src/schemas/common.schema';
import {
  checkResetOtpRequestSchema,
  loginBodySchema,
  loginFieldsSchema,
  loginResponseSchema,
  loginWithOtpRequestSchema,
  logoutResponseSchema,
  messageSchema,
  otpSentSchema,
  otpValiditySchema,
  requestDemoOptionsSchema,
  requestDemoRequestSchema,
  resetFieldsSchema,
  resetPasswordRequestSchema,
  roleSchema,
  sendOtpRequestSchema,
  sendResetOtpRequestSchema,
  ssoLogoutResponseSchema,
  ssoTokenRequestSchema,
  type AutoLoginRequest,
  type LoginRequest,
} from '../../src/schemas/auth.schema';
import { twoFactorChallengeSchema, twoFactorLoginRequestSchema } from '../../src/schemas/two-factor.schema';
import { requireAuth } from '../lib/auth';
import { completeTwoFactorLogin } from '../lib/two-factor';
import { demoOptions, requestDemo } from '../lib/demo-request';
import { unauthorized } from '../lib/errors';
import {
  autoLogin,
  identifierKey,
  loginAnswer,
  logout,
  otpDestination,
  otpLogin,
  passwordLogin,
  requireOtpLogin,
  resetDestination,
  resetPassword,
  sendCode,
  ssoLogin,
  ssoLogout,
  storeLogout,
} from '../lib/login';
import { verifyOtp } from '../lib/otp';
import { LIMITS, perIp, throttle, type KeyOf } from '../lib/rate-limit';
import { toUser } from '../lib/settings';

export async function authRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  /** The e-mail address or phone a body names (whatever the purpose of the code sent to it). */
  const perDestination: KeyOf = (req: FastifyRequest) => identifierKey(req.body);
  const codeSends = throttle([LIMITS.codeSendsPerIp, perIp], [LIMITS.codeSendsPerDestination, perDestination]);
  const codeChecks = throttle([LIMITS.codeChecksPerIp, perIp]);

  app.get('/api/auth/dummy', { schema: { tags: ['auth'], response: { 200: envelope(z.object({ ok: z.boolean() })) } } }, async (req) =>
    ctx.envelope(req, { ok: true }),
  );

  app.get(
    '/api/auth_check',
    { preHandler: requireAuth, schema: { tags: ['auth'], response: { 200: envelope(userSchema) } } },
    async (req) => ctx.envelope(req, toUser(req.member!)),
  );

  app.get('/api/auth/login_fields', { schema: { tags: ['auth'], response: { 200: envelope(loginFieldsSchema) } } }, async (req) => {
    const auth = await ctx.settings.get('auth');
    return ctx.envelope(req, {
      phone_unique: auth.phone_unique,
      email_unique: auth.email_unique,
      login_with_otp: auth.login_with_otp,
      countries: await ctx.settings.countries(),
      signup_location: auth.signup_location,
    });
  });

  app.get('/api/auth/reset_password_field', { schema: { tags: ['auth'], response: { 200: envelope(resetFieldsSchema) } } }, async (req) => {
    const auth = await ctx.settings.get('auth');
    return ctx.envelope(req, {
      password_policy: auth.password_policy,
      reset_password_based_on: auth.reset_password_based_on,
      countries: await ctx.settings.countries(),
    });
  });

  app.post(
    '/api/auth/login',
    {
      // Password sign-ins are throttled per account and per IP inside passwordLogin (server/lib/sign-in-throttle.ts).
      schema: {
        tags: ['auth'],
        description:
          'Sign in with a password (or a verified signup key). When the member has two-factor sign-in on, a right password answers ' +
          '`{ two_factor_required: true, challenge, expires_in }` instead of a session: send the challenge with a code to /api/auth/login/two_factor.',
        body: loginBodySchema,
        response: { 200: envelope(z.union([loginResponseSchema, twoFactorChallengeSchema])) },
      },
    },
    async (req) => {
      const body = req.body;
      if (body.login_with_otp !== undefined) {
        await ctx.throttle.take(LIMITS.codeChecksPerIp, req.ip);
        return ctx.envelope(req, await autoLogin(ctx, body as AutoLoginRequest));
      }
      return ctx.envelope(req, await passwordLogin(ctx, body as LoginRequest, req.ip));
    },
  );

  app.post(
    '/api/auth/login/two_factor',
    {
      config: codeChecks,
      schema: {
        tags: ['auth'],
        description:
          'The second step of a sign-in with two-factor sign-in on: the challenge the password answered (single use, five minutes) and ' +
          'the authenticator code (`code`) or an unused recovery code (`recovery_code`). Five wrong codes end the challenge; ten wrong ' +
          'codes in fifteen minutes for an account answer 429.',
        body: twoFactorLoginRequestSchema,
        response: { 200: envelope(loginResponseSchema) },
      },
    },
    async (req) => ctx.envelope(req, await completeTwoFactorLogin(ctx, req.body, req.ip, (member) => loginAnswer(ctx, member))),
  );

  app.post(
    '/api/auth/send_otp',
    {
      config: codeSends,
      schema: { tags: ['auth'], body: sendOtpRequestSchema, response: { 200: envelope(otpSentSchema) } },
    },
    async (req) => {
      await requireOtpLogin(ctx);
      return ctx.envelope(req, await sendCode(ctx, 'login', otpDestination(req.body.login_using, req.body)));
    },
  );

  app.post(
    '/api/auth/login_with_otp',
    {
      config: codeChecks,
      schema: { tags: ['auth'], body: loginWithOtpRequestSchema, response: { 200: envelope(loginResponseSchema) } },
    },
    async (req) => ctx.envelope(req, await otpLogin(ctx, req.body)),
  );

  app.post(
    '/api/auth/send_reset_otp',
    {
      config: codeSends,
      schema: { tags: ['auth'], body: sendResetOtpRequestSchema, response: { 200: envelope(otpSentSchema) } },
    },
    async (req) => {
      return ctx.envelope(req, await sendCode(ctx, 'reset', await resetDestination(ctx, req.body)));
    },
  );

  app.post(
    '/api/auth/check_reset_otp',
    {
      config: codeChecks,
      schema: { tags: ['auth'], body: checkResetOtpRequestSchema, response: { 200: envelope(otpValiditySchema) } },
    },
    async (req) => {
      const { destination } = await resetDestination(ctx, req.body);
      await verifyOtp(db, { purpose: 'reset', destination, code: req.body.otp, consume: false });
      return ctx.envelope(req, { valid: true });
    },
  );

  app.post(
    '/api/auth/reset_password',
    {
      config: codeChecks,
      schema: { tags: ['auth'], body: resetPasswordRequestSchema, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      await resetPassword(ctx, req.body, req.ip);
      return ctx.envelope(req, { message: 'Your password was changed.' });
    },
  );

  /**
   * Logout (spec §7, at both of its paths). When a storefront session was opened with this one, the
   * answer carries a single-use token for the storefront's own single sign-on logout, which the app
   * opens in a new tab; otherwise sso_logout_token is null.
   */
  for (const url of ['/api/auth/logout', '/auth/logout']) {
    app.post(url, { schema: { tags: ['auth'], response: { 200: envelope(logoutResponseSchema) } } }, async (req) => {
      if (!req.member || !req.sessionId) throw unauthorized();
      return ctx.envelope(req, { sso_logout_token: await logout(db, req.member.id, req.sessionId) });
    });
  }

  app.post(
    '/api/auth/sso_login',
    {
      config: codeChecks,
      schema: { tags: ['auth'], body: ssoTokenRequestSchema, response: { 200: envelope(loginResponseSchema) } },
    },
    async (req) => ctx.envelope(req, await ssoLogin(ctx, req.body.sso_token)),
  );

  app.post(
    '/api/auth/sso_logout',
    {
      config: codeChecks,
      schema: { tags: ['auth'], body: ssoTokenRequestSchema, response: { 200: envelope(ssoLogoutResponseSchema) } },
    },
    async (req) => {
      // Works with a used or expired SSO token too: signing out must stay possible after the exchange.
      await ssoLogout(db, req.body.sso_token);
      return ctx.envelope(req, { message: 'You are signed out.' });
    },
  );

  app.post('/api/store/logout', { schema: { tags: ['auth'], response: { 200: envelope(messageSchema) } } }, async (req) => {
    const header = req.headers['x-store-token'];
    await storeLogout(db, typeof header === 'string' ? header.trim() : '');
    // Signing out is idempotent: an unknown or missing store token leaves nothing to revoke.
    return ctx.envelope(req, { message: 'You are signed out of the store.' });
  });

  app.get('/api/request_demo', { schema: { tags: ['auth'], response: { 200: envelope(requestDemoOptionsSchema) } } }, async (req) =>
    ctx.envelope(req, await demoOptions(ctx)),
  );

  app.post(
    '/api/request_demo',
    {
      config: throttle([LIMITS.demoRequestsPerIp, perIp]),
      schema: { tags: ['auth'], body: requestDemoRequestSchema, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      await requestDemo(ctx, req.body);
      return ctx.envelope(req, { message: 'Thank you. We will contact you shortly.' });
    },
  );

  app.get('/api/user_data', { preHandler: requireAuth, schema: { tags: ['auth'], response: { 200: envelope(userSchema) } } }, async (req) =>
    ctx.envelope(req, toUser(req.member!)),
  );

  app.get('/api/user_role', { preHandler: requireAuth, schema: { tags: ['auth'], response: { 200: envelope(roleSchema) } } }, async (req) =>
    ctx.envelope(req, { role_id: toUser(req.member!).role_id }),
  );
}

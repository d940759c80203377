/**
 * Auth calls (spec §7): login by password, one-time code or SSO token, logout, password reset,
 * demo requests, the caller's user record and role.
 *
 * Sign-in never tells who exists: a wrong password and an unknown member get the same answer, and
 * one-time codes for unknown destinations are "sent" (stored, never delivered) like any other.
 */
import * as z from 'zod/mini';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
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
  passwordPolicyErrors,
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
  type LoginResponse,
} from '../../src/schemas/auth.schema';
import { createSession, requireAuth, SESSION_TTL_MS } from '../lib/auth';
import { hashPassword, tokenHash, verifyPassword } from '../lib/crypto';
import { unauthorized, validationError, type FieldMap } from '../lib/errors';
import { toUser } from '../lib/settings';
import { demoRequests, members, sessions, signupVerifications, type MemberRow } from '../db/schema';
import type { Db } from '../db/client';
import {
  destinationOf,
  findByIdentifier,
  findById,
  findOneByIdentifier,
  maskIdentifier,
  normalizeEmail,
  type Identifier,
} from '../lib/members';
import { issueOtp, verifyOtp } from '../lib/otp';

/** An SSO token opens the storefront once, within five minutes. */
export const SSO_TTL_MS = 5 * 60 * 1000;
/** A verified signup key signs the new member in once, within ten minutes of the verification. */
export const AUTO_LOGIN_WINDOW_MS = 10 * 60 * 1000;

export const DEMO_COMPENSATION_PLANS = [
  { id: 1, name: 'Binary' },
  { id: 2, name: 'Matrix' },
  { id: 3, name: 'Unilevel' },
];
export const DEMO_INDUSTRIES = [
  { id: 1, name: 'Health and wellness' },
  { id: 2, name: 'Beauty and personal care' },
  { id: 3, name: 'Nutrition and supplements' },
  { id: 4, name: 'Home and household' },
  { id: 5, name: 'Fashion and accessories' },
  { id: 6, name: 'Financial services' },
  { id: 7, name: 'Travel' },
  { id: 8, name: 'Education and training' },
];

const MINUTE = 60_000;

type IdentifierBody = { username?: string; email?: string; mobile?: string; mobile_code?: string };

/** The identifier a body names for `using`, or the field errors of what is missing. */
export function identifierFrom(using: 'username' | 'email' | 'mobile_code', body: IdentifierBody): Identifier | FieldMap {
  if (using === 'username') return body.username ? { kind: 'username', username: body.username } : { username: ['validation:required'] };
  if (using === 'email') return body.email ? { kind: 'email', email: body.email } : { email: ['validation:required'] };
  const errors: FieldMap = {};
  if (!body.mobile_code) errors.mobile_code = ['validation:required'];
  if (!body.mobile) errors.mobile = ['validation:required'];
  if (Object.keys(errors).length) return errors;
  return { kind: 'mobile', mobileCode: body.mobile_code!, mobile: body.mobile! };
}

const isIdentifier = (v: Identifier | FieldMap): v is Identifier => typeof (v as Identifier).kind === 'string';
const identifierField = (id: Identifier) => (id.kind === 'mobile' ? 'mobile' : id.kind);

/** Rate-limit key part naming the identifier a body uses (lower-cased), for per-identifier limits. */
function identifierKey(body: unknown): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
  const using = str(b.login_using) || str(b.reset_using);
  if (using === 'mobile_code') return `m:${str(b.mobile_code).replace(/\D/g, '')}:${str(b.mobile)}`;
  if (using === 'email') return `e:${str(b.email)}`;
  if (using === 'username') return `u:${str(b.username)}`;
  return `k:${str(b.key)}:${str(b.email) || str(b.username)}`;
}

let dummyHash: Promise<string> | null = null;
/** Verifying against a throw-away hash keeps an unknown member as slow as a wrong password. */
const burnPasswordCheck = async (password: string) => {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummyHash);
};

/** Revoke a session and the SSO/store sessions opened with it. */
export async function revokeSessionTree(db: Db, sessionId: number) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(or(eq(sessions.id, sessionId), eq(sessions.parentSessionId, sessionId)), isNull(sessions.revokedAt)));
}

export async function authRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const scaled = (n: number) => Math.max(1, Math.round(n * ctx.config.rateLimitScale));
  /** Route rate limit checked after validation, so the key can use the parsed body. */
  const limit = (max: number, timeWindow: number, key: (req: FastifyRequest) => string) => ({
    rateLimit: { max: scaled(max), timeWindow, hook: 'preHandler' as const, keyGenerator: key },
  });
  const perIpAndIdentifier = (req: FastifyRequest) => `${req.ip}|${identifierKey(req.body)}`;
  const perDestination = (req: FastifyRequest) => `dest|${identifierKey(req.body)}`;
  const perIp = (req: FastifyRequest) => req.ip;

  const companyName = async () => (await ctx.settings.get('company'))?.name ?? 'Upline';

  /** The login answer of spec §7. Sessions are opened only for an active member allowed in (demo flag). */
  async function loginAnswer(member: MemberRow): Promise<LoginResponse> {
    const s = await ctx.settings.all();
    const active = member.status === 1;
    const allowed = member.demoAllowed;
    let token = '';
    let ssoToken: string | null = null;
    let storeToken: string | null = null;
    if (active && allowed) {
      const access = await createSession(db, member.id);
      token = access.token;
      ssoToken = (await createSession(db, member.id, 'sso', SSO_TTL_MS, access.id)).token;
      if (s.modules.store) storeToken = (await createSession(db, member.id, 'store', SESSION_TTL_MS, access.id)).token;
    }
    return {
      token,
      user: toUser(member),
      user_status: active ? 1 : 0,
      user_allowed: allowed,
      is_master_demo: false,
      compensation_plan: s.modules.compensation_plan,
      default_store_id: s.store_settings?.default_store ?? null,
      store_token: storeToken,
      sso_token: ssoToken,
      default_currency: await ctx.settings.currencyByCode(member.currencyCode),
      default_language: await ctx.settings.languageByCode(member.languageCode),
      cart: [],
    };
  }

  async function passwordLogin(body: LoginRequest): Promise<LoginResponse> {
    const id = identifierFrom(body.login_using, body);
    if (!isIdentifier(id)) throw validationError(id);
    const candidates = await findByIdentifier(db, id);
    let member: MemberRow | null = null;
    for (const c of candidates) {
      if (await verifyPassword(body.password, c.passwordHash)) {
        member = c;
        break;
      }
    }
    if (!candidates.length) await burnPasswordCheck(body.password);
    if (!member) throw validationError({ password: ['validation:invalidCredentials'] });
    if (!member.verified) throw validationError({ [identifierField(id)]: ['validation:accountNotVerified'] });
    return loginAnswer(member);
  }

  async function autoLogin(body: AutoLoginRequest): Promise<LoginResponse> {
    if (!body.email && !body.username) throw validationError({ email: ['validation:required'] });
    const invalid = () => validationError({ key: ['validation:invalidToken'] });
    const [row] = await db
      .select({ memberId: signupVerifications.memberId })
      .from(signupVerifications)
      .where(
        and(
          eq(signupVerifications.keyHash, tokenHash(body.key)),
          isNull(signupVerifications.loginUsedAt),
          gt(signupVerifications.verifiedAt, new Date(Date.now() - AUTO_LOGIN_WINDOW_MS)),
        ),
      )
      .limit(1);
    if (!row) throw invalid();
    const member = await findById(db, row.memberId);
    if (!member || !member.verified) throw invalid();
    const matches = body.email
      ? !!member.email && normalizeEmail(member.email) === normalizeEmail(body.email)
      : member.username.toLowerCase() === body.username!.toLowerCase();
    if (!matches) throw invalid();
    // Single use: only the request that flips login_used_at gets the session.
    const used = await db
      .update(signupVerifications)
      .set({ loginUsedAt: new Date() })
      .where(and(eq(signupVerifications.keyHash, tokenHash(body.key)), isNull(signupVerifications.loginUsedAt)))
      .returning({ id: signupVerifications.id });
    if (!used.length) throw invalid();
    return loginAnswer(member);
  }

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
      config: limit(10, MINUTE, perIpAndIdentifier),
      schema: { tags: ['auth'], body: loginBodySchema, response: { 200: envelope(loginResponseSchema) } },
    },
    async (req) => {
      const body = req.body;
      const answer = body.login_with_otp !== undefined ? await autoLogin(body as AutoLoginRequest) : await passwordLogin(body as LoginRequest);
      return ctx.envelope(req, answer);
    },
  );

  /** The e-mail or mobile an OTP body names, with its field errors when incomplete. */
  function otpDestination(using: 'email' | 'mobile_code', body: IdentifierBody) {
    const id = identifierFrom(using, body);
    if (!isIdentifier(id)) throw validationError(id);
    return { id, ...destinationOf(id) };
  }

  async function requireOtpLogin() {
    const auth = await ctx.settings.get('auth');
    if (!auth.login_with_otp) throw validationError({ login_using: ['validation:otpLoginDisabled'] });
  }

  app.post(
    '/api/auth/send_otp',
    {
      config: limit(5, 10 * MINUTE, perDestination),
      schema: { tags: ['auth'], body: sendOtpRequestSchema, response: { 200: envelope(otpSentSchema) } },
    },
    async (req) => {
      await requireOtpLogin();
      return ctx.envelope(req, await sendCode('login', otpDestination(req.body.login_using, req.body)));
    },
  );

  app.post(
    '/api/auth/login_with_otp',
    {
      config: limit(20, 10 * MINUTE, perIp),
      schema: { tags: ['auth'], body: loginWithOtpRequestSchema, response: { 200: envelope(loginResponseSchema) } },
    },
    async (req) => {
      await requireOtpLogin();
      const { id, destination } = otpDestination(req.body.login_using, req.body);
      const code = await verifyOtp(db, { purpose: 'login', destination, code: req.body.otp, consume: true });
      const member = code.memberId ? await findById(db, code.memberId) : null;
      if (!member) throw validationError({ otp: ['validation:otpInvalid'] });
      if (!member.verified) throw validationError({ [identifierField(id)]: ['validation:accountNotVerified'] });
      return ctx.envelope(req, await loginAnswer(member));
    },
  );

  /**
   * Issues a one-time code for whoever the identifier names. An unknown identifier is answered exactly like a known
   * one (the code is stored but not delivered), so the answer reveals nothing about who is a member.
   */
  async function sendCode(purpose: 'login' | 'reset', to: ReturnType<typeof otpDestination>) {
    const member = await findOneByIdentifier(db, to.id);
    return issueOtp(db, ctx.outbox, {
      purpose,
      channel: to.channel,
      destination: to.destination,
      memberId: member?.id ?? null,
      deliver: !!member,
      companyName: await companyName(),
      display: maskIdentifier(to.id),
    });
  }

  async function resetDestination(body: { reset_using: 'email' | 'mobile_code' } & IdentifierBody) {
    const auth = await ctx.settings.get('auth');
    const allowed = auth.reset_password_based_on;
    if (allowed !== 'both' && (allowed === 'email') !== (body.reset_using === 'email')) {
      throw validationError({ reset_using: ['validation:invalidChoice'] });
    }
    return otpDestination(body.reset_using, body);
  }

  app.post(
    '/api/auth/send_reset_otp',
    {
      config: limit(5, 10 * MINUTE, perDestination),
      schema: { tags: ['auth'], body: sendResetOtpRequestSchema, response: { 200: envelope(otpSentSchema) } },
    },
    async (req) => {
      return ctx.envelope(req, await sendCode('reset', await resetDestination(req.body)));
    },
  );

  app.post(
    '/api/auth/check_reset_otp',
    {
      config: limit(20, 10 * MINUTE, perIp),
      schema: { tags: ['auth'], body: checkResetOtpRequestSchema, response: { 200: envelope(otpValiditySchema) } },
    },
    async (req) => {
      const { destination } = await resetDestination(req.body);
      await verifyOtp(db, { purpose: 'reset', destination, code: req.body.otp, consume: false });
      return ctx.envelope(req, { valid: true });
    },
  );

  app.post(
    '/api/auth/reset_password',
    {
      config: limit(20, 10 * MINUTE, perIp),
      schema: { tags: ['auth'], body: resetPasswordRequestSchema, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      const { destination } = await resetDestination(req.body);
      const auth = await ctx.settings.get('auth');
      const errors: FieldMap = {};
      const policy = passwordPolicyErrors(auth.password_policy, req.body.password);
      if (policy.length) errors.password = policy;
      if (req.body.password !== req.body.password_confirmation) errors.password_confirmation = ['validation:passwordMismatch'];
      if (Object.keys(errors).length) throw validationError(errors);
      const code = await verifyOtp(db, { purpose: 'reset', destination, code: req.body.otp, consume: true });
      const member = code.memberId ? await findById(db, code.memberId) : null;
      if (!member) throw validationError({ otp: ['validation:otpInvalid'] });
      const passwordHash = await hashPassword(req.body.password);
      await db.transaction(async (tx) => {
        await tx.update(members).set({ passwordHash }).where(eq(members.id, member.id));
        await tx.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.memberId, member.id), isNull(sessions.revokedAt)));
      });
      return ctx.envelope(req, { message: 'Your password was changed.' });
    },
  );

  /**
   * Logout (spec §7, at both of its paths). When a storefront session was opened with this one, the
   * answer carries a single-use token (random, stored hashed, five minutes) for the storefront's own
   * single sign-on logout, which the app opens in a new tab; otherwise sso_logout_token is null.
   */
  for (const url of ['/api/auth/logout', '/auth/logout']) {
    app.post(url, { schema: { tags: ['auth'], response: { 200: envelope(logoutResponseSchema) } } }, async (req) => {
      if (!req.member || !req.sessionId) throw unauthorized();
      const [store] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.parentSessionId, req.sessionId), eq(sessions.kind, 'store'), isNull(sessions.revokedAt)))
        .limit(1);
      await revokeSessionTree(db, req.sessionId);
      const ssoLogoutToken = store ? (await createSession(db, req.member.id, 'sso_logout', SSO_TTL_MS)).token : null;
      return ctx.envelope(req, { sso_logout_token: ssoLogoutToken });
    });
  }

  app.post(
    '/api/auth/sso_login',
    {
      config: limit(20, 10 * MINUTE, perIp),
      schema: { tags: ['auth'], body: ssoTokenRequestSchema, response: { 200: envelope(loginResponseSchema) } },
    },
    async (req) => {
      // Consuming is one conditional update, so a token can be exchanged only once even under races.
      const [used] = await db
        .update(sessions)
        .set({ consumedAt: new Date() })
        .where(
          and(
            eq(sessions.tokenHash, tokenHash(req.body.sso_token)),
            eq(sessions.kind, 'sso'),
            isNull(sessions.consumedAt),
            isNull(sessions.revokedAt),
            gt(sessions.expiresAt, new Date()),
          ),
        )
        .returning({ memberId: sessions.memberId });
      const member = used ? await findById(db, used.memberId) : null;
      if (!member || !member.verified) throw validationError({ sso_token: ['validation:invalidToken'] });
      return ctx.envelope(req, await loginAnswer(member));
    },
  );

  app.post(
    '/api/auth/sso_logout',
    {
      config: limit(20, 10 * MINUTE, perIp),
      schema: { tags: ['auth'], body: ssoTokenRequestSchema, response: { 200: envelope(ssoLogoutResponseSchema) } },
    },
    async (req) => {
      // Works with a used or expired SSO token too: signing out must stay possible after the exchange.
      const [sso] = await db
        .select({ parent: sessions.parentSessionId })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, tokenHash(req.body.sso_token)), eq(sessions.kind, 'sso')))
        .limit(1);
      if (!sso) throw validationError({ sso_token: ['validation:invalidToken'] });
      if (sso.parent) await revokeSessionTree(db, sso.parent);
      return ctx.envelope(req, { message: 'You are signed out.' });
    },
  );

  app.post('/api/store/logout', { schema: { tags: ['auth'], response: { 200: envelope(messageSchema) } } }, async (req) => {
    const header = req.headers['x-store-token'];
    const token = typeof header === 'string' ? header.trim() : '';
    if (token && token.length <= 256) {
      await db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.tokenHash, tokenHash(token)), eq(sessions.kind, 'store'), isNull(sessions.revokedAt)));
    }
    // Signing out is idempotent: an unknown or missing store token leaves nothing to revoke.
    return ctx.envelope(req, { message: 'You are signed out of the store.' });
  });

  app.get('/api/request_demo', { schema: { tags: ['auth'], response: { 200: envelope(requestDemoOptionsSchema) } } }, async (req) =>
    ctx.envelope(req, {
      countries: await ctx.settings.countries(),
      compensation_plans: DEMO_COMPENSATION_PLANS,
      industries: DEMO_INDUSTRIES,
    }),
  );

  app.post(
    '/api/request_demo',
    {
      config: limit(10, 10 * MINUTE, perIp),
      schema: { tags: ['auth'], body: requestDemoRequestSchema, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      const b = req.body;
      const errors: FieldMap = {};
      const countries = await ctx.settings.countries();
      const country = b.country_id === undefined ? null : countries.find((c) => c.id === b.country_id);
      if (b.country_id !== undefined && !country) errors.country_id = ['validation:invalidChoice'];
      const industry = b.industry === undefined ? null : DEMO_INDUSTRIES.find((i) => i.id === b.industry);
      if (b.industry !== undefined && !industry) errors.industry = ['validation:invalidChoice'];
      const plan = b.compensation_plan === undefined ? null : DEMO_COMPENSATION_PLANS.find((p) => p.id === b.compensation_plan);
      if (b.compensation_plan !== undefined && !plan) errors.compensation_plan = ['validation:invalidChoice'];
      if (Object.keys(errors).length) throw validationError(errors);
      await db.insert(demoRequests).values({
        name: b.name,
        email: b.email,
        mobile: b.mobile,
        platform: b.platform,
        countryId: country?.id ?? null,
        industryId: industry?.id ?? null,
        compensationPlanId: plan?.id ?? null,
      });
      const company = await ctx.settings.get('company');
      await ctx.outbox.send(
        'email',
        company.email,
        `Demo request from ${b.name}`,
        [
          `Name: ${b.name}`,
          `E-mail: ${b.email}`,
          `Mobile: ${b.mobile}`,
          `Country: ${country?.name ?? '-'}`,
          `Industry: ${industry?.name ?? '-'}`,
          `Compensation plan: ${plan?.name ?? '-'}`,
          `Platform: ${b.platform}`,
        ].join('\n'),
      );
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

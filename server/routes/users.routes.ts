/**
 * User calls (spec §7): signup (public or by a signed-in member) with placement and OTP verification,
 * referral checks, member searches in the caller's downline, admin info and account deletion.
 */
import * as z from 'zod/mini';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope, type Plan } from '../../src/schemas/common.schema';
import {
  adminInfoSchema,
  deleteAccountRequestSchema,
  memberListSchema,
  membersQuerySchema,
  messageSchema,
  otpSentSchema,
  passwordPolicyErrors,
  referralValidationSchema,
  resendSignupRequestSchema,
  signupDataSchema,
  signupRequestSchema,
  signupResponseSchema,
  verifySignupRequestSchema,
  type SignupRequest,
  type SmallUser,
} from '../../src/schemas/auth.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { hashPassword, newToken, tokenHash, verifyPassword } from '../lib/crypto';
import { forbidden, HttpError, validationError, type FieldMap } from '../lib/errors';
import { members, sessions, signupVerifications, type MemberRow } from '../db/schema';
import type { Db } from '../db/client';
import {
  canSponsor,
  destinationOf,
  findById,
  findByUsername,
  maskDestination,
  maskMobile,
  normalizeEmail,
  normalizePhoneCode,
} from '../lib/members';
import { issueOtp, verifyOtp } from '../lib/otp';
import {
  autoSlot,
  binarySlotFree,
  DEFAULT_MATRIX_WIDTH,
  freeSlotUnder,
  isInSubtree,
  legSlot,
  placeMember,
  withTreeLock,
  type Leg,
  type Slot,
} from '../lib/tree';

const MINUTE = 60_000;
const SEARCH_LIMIT = 20;
const MAX_LEVELS = 99;

const referralQuerySchema = z.object({ referral: z.optional(z.string().check(z.trim(), z.maxLength(64))) });

const toSmallUser = (m: Pick<MemberRow, 'firstName' | 'lastName' | 'username' | 'email' | 'avatar'>): SmallUser => ({
  first_name: m.firstName,
  last_name: m.lastName,
  username: m.username,
  email: m.email,
  avatar: m.avatar,
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function keywordFilter(keyword: string | undefined) {
  const k = keyword?.trim();
  if (!k) return sql`TRUE`;
  const like = `%${escapeLike(k)}%`;
  return sql`(${members.username} ILIKE ${like} OR ${members.firstName} ILIKE ${like} OR ${members.lastName} ILIKE ${like}
    OR (${members.firstName} || ' ' || coalesce(${members.lastName}, '')) ILIKE ${like} OR ${members.email} ILIKE ${like})`;
}

function parseLevels(levels: string | undefined): number {
  if (levels === undefined || levels === '') return MAX_LEVELS;
  if (!/^\d{1,3}$/.test(levels) || Number(levels) < 1) throw validationError({ levels: ['validation:invalidFormat'] });
  return Math.min(Number(levels), MAX_LEVELS);
}

/** A readable, unused username from the first name: 'olivia4821'. */
async function generateUsername(db: Db, firstName: string): Promise<string> {
  let stem = firstName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase()
    .slice(0, 16);
  if (stem.length < 3) stem = 'member';
  for (let digits = 4; ; digits++) {
    for (let i = 0; i < 5; i++) {
      const candidate = `${stem}${String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0')}`;
      if (!(await findByUsername(db, candidate))) return candidate;
    }
  }
}

export async function usersRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const scaled = (n: number) => Math.max(1, Math.round(n * ctx.config.rateLimitScale));
  const limit = (max: number, timeWindow: number, key: (req: FastifyRequest) => string) => ({
    rateLimit: { max: scaled(max), timeWindow, hook: 'preHandler' as const, keyGenerator: key },
  });
  const perIp = (req: FastifyRequest) => req.ip;
  const perKey = (req: FastifyRequest) => `key|${String((req.body as { key?: unknown } | undefined)?.key ?? '')}`;

  const plan = async (): Promise<Plan> => (await ctx.settings.get('modules')).compensation_plan;
  const matrixWidth = async () => {
    const w = Number((await ctx.settings.all() as unknown as Record<string, unknown>).matrix_width);
    return Number.isInteger(w) && w >= 2 && w <= 20 ? w : DEFAULT_MATRIX_WIDTH;
  };
  const companyName = async () => (await ctx.settings.get('company'))?.name ?? 'Upline';

  /** Is this referral acceptable as a sponsor under the company's signup rules? */
  async function sponsorFor(referral: string | undefined): Promise<MemberRow | null> {
    if (!referral) return null;
    const signup = await ctx.settings.get('signup');
    if (signup.enforce_default_sponsor && referral.toLowerCase() !== signup.default_sponsor.toLowerCase()) return null;
    const m = await findByUsername(db, referral);
    return canSponsor(m) ? m : null;
  }

  const defaultLeg = (p: Plan, m: MemberRow | null): Leg | null => (p === 'binary' && m ? ((m.defaultLeg as Leg | null) ?? 'L') : null);

  app.get(
    '/api/users/signup_data',
    { schema: { tags: ['users'], querystring: referralQuerySchema, response: { 200: envelope(signupDataSchema) } } },
    async (req) => {
      const [signup, auth, p] = [await ctx.settings.get('signup'), await ctx.settings.get('auth'), await plan()];
      const referral = req.query.referral || undefined;
      // A member signing someone up sponsors them by default; a visitor gets the company's default sponsor.
      const sponsor = referral
        ? await sponsorFor(referral)
        : req.member && canSponsor(req.member)
          ? req.member
          : await sponsorFor(signup.default_sponsor);
      return ctx.envelope(req, {
        default_sponsor: !referral && req.member ? req.member.username : signup.default_sponsor,
        password_policy: auth.password_policy,
        otp_verification: signup.otp_verification,
        otp_based_on: signup.otp_based_on,
        default_leg: defaultLeg(p, sponsor),
        referral_id: sponsor?.id ?? null,
        phone_unique: auth.phone_unique,
        email_unique: auth.email_unique,
        company_privacy_url: signup.company_privacy_url,
        company_terms_url: signup.company_terms_url,
        countries: await ctx.settings.countries(),
        show_signup_page: signup.show_signup_page,
        enforce_default_sponsor: signup.enforce_default_sponsor,
        enforce_link_sponsor: signup.enforce_link_sponsor,
        signup_location: auth.signup_location,
        compensation_plan: p,
      });
    },
  );

  app.get(
    '/api/users/signup_validate_referral',
    { schema: { tags: ['users'], querystring: referralQuerySchema, response: { 200: envelope(referralValidationSchema) } } },
    async (req) => {
      const referral = req.query.referral;
      if (!referral) throw validationError({ referral: ['validation:required'] });
      const sponsor = await sponsorFor(referral);
      if (!sponsor) throw validationError({ referral: ['validation:invalidReferral'] });
      return ctx.envelope(req, { default_leg: defaultLeg(await plan(), sponsor), referral_id: sponsor.id });
    },
  );

  /** Where the new member goes: the requested placement when it is allowed and free, else automatic. */
  async function chooseSlot(tx: Db, p: Plan, sponsor: MemberRow, b: SignupRequest): Promise<Slot> {
    const unavailable = () => validationError({ placement: ['validation:placementUnavailable'] });
    if (p === 'unilevel') return autoSlot(tx, p, sponsor.id);
    if (!b.placement) {
      return autoSlot(tx, p, sponsor.id, { leg: b.position ?? defaultLeg(p, sponsor), width: await matrixWidth() });
    }
    const placement = await findByUsername(tx, b.placement);
    if (!placement || !placement.verified || !placement.path || !isInSubtree(placement.path, sponsor.path)) throw unavailable();
    if (p === 'binary') {
      const legs: Leg[] = b.position ? [b.position] : ['L', 'R'];
      for (const leg of legs) {
        if (await binarySlotFree(tx, placement.id, leg)) return { parentId: placement.id, position: leg, slot: legSlot(leg) };
      }
      throw unavailable();
    }
    const slot = await freeSlotUnder(tx, placement.id, await matrixWidth());
    if (slot === null) throw unavailable();
    return { parentId: placement.id, position: null, slot };
  }

  app.post(
    '/api/users/signup',
    {
      config: limit(20, 10 * MINUTE, perIp),
      schema: { tags: ['users'], body: signupRequestSchema, response: { 200: envelope(signupResponseSchema) } },
    },
    async (req) => {
      const b = req.body;
      const [signup, auth, p] = [await ctx.settings.get('signup'), await ctx.settings.get('auth'), await plan()];
      if (!req.member && !signup.show_signup_page) throw forbidden('signup_disabled', 'Signup is not open.');

      const errors: FieldMap = {};
      const add = (field: string, key: string) => {
        const list = (errors[field] ??= []);
        if (!list.includes(key)) list.push(key);
      };
      if (signup.enforce_link_sponsor && (!b.referral_key || b.referral_key.toLowerCase() !== b.referral.toLowerCase())) {
        add('referral', 'validation:invalidReferral');
      }
      const sponsor = await sponsorFor(b.referral);
      if (!sponsor) add('referral', 'validation:invalidReferral');
      if (p === 'unilevel' && b.placement) add('placement', 'validation:notAllowed');
      if (p !== 'binary' && b.position) add('position', 'validation:notAllowed');
      if (signup.otp_verification && signup.otp_based_on === 'email' && !b.email) add('email', 'validation:required');
      if (signup.otp_verification && signup.otp_based_on === 'mobile' && !b.mobile) add('mobile', 'validation:required');
      if (b.mobile && !b.mobile_code) add('mobile_code', 'validation:required');
      for (const k of passwordPolicyErrors(auth.password_policy, b.password)) add('password', k);
      if (Object.keys(errors).length || !sponsor) throw validationError(errors);

      const email = b.email ? normalizeEmail(b.email) : null;
      const mobileCode = b.mobile ? normalizePhoneCode(b.mobile_code!) : null;
      const mobile = b.mobile ?? null;
      const passwordHash = await hashPassword(b.password);
      const key = newToken();
      const otp = signup.otp_verification;
      const via = signup.otp_based_on === 'email' ? destinationOf({ kind: 'email', email: email ?? '' }) : destinationOf({ kind: 'mobile', mobileCode: mobileCode ?? '', mobile: mobile ?? '' });

      // Uniqueness, placement and insert under the tree lock: two signups cannot take the same name or slot.
      const created = await withTreeLock(db, async (tx) => {
        const taken: FieldMap = {};
        if (b.username && (await findByUsername(tx, b.username))) taken.username = ['validation:usernameTaken'];
        if (email && auth.email_unique) {
          const [hit] = await tx.select({ id: members.id }).from(members).where(sql`lower(${members.email}) = ${email}`).limit(1);
          if (hit) taken.email = ['validation:emailTaken'];
        }
        if (mobile && auth.phone_unique) {
          const [hit] = await tx
            .select({ id: members.id })
            .from(members)
            .where(and(eq(members.mobileCode, mobileCode!), eq(members.mobile, mobile)))
            .limit(1);
          if (hit) taken.mobile = ['validation:phoneTaken'];
        }
        if (Object.keys(taken).length) throw validationError(taken);
        const slot = await chooseSlot(tx, p, sponsor, b);
        const username = b.username ?? (await generateUsername(tx, b.first_name));
        const [row] = await tx
          .insert(members)
          .values({
            username,
            email,
            mobileCode,
            mobile,
            passwordHash,
            firstName: b.first_name,
            lastName: b.last_name || null,
            sponsorId: sponsor.id,
            roleId: 3,
            verified: !otp,
            defaultLeg: p === 'binary' ? 'L' : null,
          })
          .returning();
        await placeMember(tx, row.id, slot);
        await tx.insert(signupVerifications).values({
          keyHash: tokenHash(key),
          memberId: row.id,
          destination: via.destination,
          verifiedAt: otp ? null : new Date(),
        });
        return row;
      });

      let destination: string | null = null;
      if (otp) {
        destination = via.channel === 'sms' ? maskMobile(mobileCode!, mobile!) : maskDestination(via.channel, via.destination);
        try {
          await issueOtp(db, ctx.outbox, {
            purpose: 'signup',
            channel: via.channel,
            destination: via.destination,
            memberId: created.id,
            deliver: true,
            companyName: await companyName(),
            display: destination,
          });
        } catch (e) {
          // A code went to this address seconds ago (another signup): the member can ask for a new one.
          if (!(e instanceof HttpError && e.statusCode === 429)) throw e;
        }
      }
      return ctx.envelope(req, { username: created.username, key, otp_required: otp, destination });
    },
  );

  async function pendingVerification(key: string) {
    const [row] = await db
      .select()
      .from(signupVerifications)
      .where(and(eq(signupVerifications.keyHash, tokenHash(key)), isNull(signupVerifications.verifiedAt)))
      .limit(1);
    if (!row) throw validationError({ key: ['validation:invalidToken'] });
    return row;
  }

  app.post(
    '/api/users/resend_signup_verification',
    {
      config: limit(5, 10 * MINUTE, perKey),
      schema: { tags: ['users'], body: resendSignupRequestSchema, response: { 200: envelope(otpSentSchema) } },
    },
    async (req) => {
      const v = await pendingVerification(req.body.key);
      const channel = v.destination.includes('@') ? 'email' : 'sms';
      const m = await findById(db, v.memberId);
      const sent = await issueOtp(db, ctx.outbox, {
        purpose: 'signup',
        channel,
        destination: v.destination,
        memberId: v.memberId,
        deliver: true,
        companyName: await companyName(),
        display: channel === 'sms' && m?.mobileCode && m.mobile ? maskMobile(m.mobileCode, m.mobile) : undefined,
      });
      return ctx.envelope(req, sent);
    },
  );

  app.post(
    '/api/users/verify_signup',
    {
      config: limit(20, 10 * MINUTE, perIp),
      schema: { tags: ['users'], body: verifySignupRequestSchema, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      const v = await pendingVerification(req.body.key);
      const code = await verifyOtp(db, { purpose: 'signup', destination: v.destination, code: req.body.otp, consume: true });
      if (code.memberId !== v.memberId) throw validationError({ otp: ['validation:otpInvalid'] });
      await db.transaction(async (tx) => {
        await tx.update(members).set({ verified: true }).where(eq(members.id, v.memberId));
        await tx.update(signupVerifications).set({ verifiedAt: new Date() }).where(eq(signupVerifications.id, v.id));
      });
      return ctx.envelope(req, { message: 'Your account is confirmed.' });
    },
  );

  app.get('/api/users/admin_info', { preHandler: requireAuth, schema: { tags: ['users'], response: { 200: envelope(adminInfoSchema) } } }, async (req) => {
    const [admin] = await db.select().from(members).where(eq(members.roleId, 1)).orderBy(members.id).limit(1);
    if (!admin) throw new HttpError(404, 'not_found', 'No administrator');
    return ctx.envelope(req, { admin: toSmallUser(admin) });
  });

  const smallColumns = {
    firstName: members.firstName,
    lastName: members.lastName,
    username: members.username,
    email: members.email,
    avatar: members.avatar,
  };

  /** Members in the caller's placement downline matching the keyword (nearest levels first). */
  async function placementDownline(caller: MemberRow, keyword: string | undefined, levels: number) {
    const rows = await db
      .select(smallColumns)
      .from(members)
      .where(
        sql`${members.path} LIKE ${caller.path + '%'} AND ${members.id} <> ${caller.id} AND ${members.verified}
          AND ${members.depth} <= ${caller.depth + levels} AND ${keywordFilter(keyword)}`,
      )
      .orderBy(members.depth, members.id)
      .limit(SEARCH_LIMIT);
    return rows.map(toSmallUser);
  }

  app.get(
    '/api/users/members',
    { preHandler: requireAuth, schema: { tags: ['users'], querystring: membersQuerySchema, response: { 200: envelope(memberListSchema) } } },
    async (req) => ctx.envelope(req, await placementDownline(req.member!, req.query.keyword, MAX_LEVELS)),
  );

  app.get(
    '/api/users/placement_downlines',
    { preHandler: requireAuth, schema: { tags: ['users'], querystring: membersQuerySchema, response: { 200: envelope(memberListSchema) } } },
    async (req) => ctx.envelope(req, await placementDownline(req.member!, req.query.keyword, parseLevels(req.query.levels))),
  );

  app.get(
    '/api/users/sponsor_downlines',
    { preHandler: requireAuth, schema: { tags: ['users'], querystring: membersQuerySchema, response: { 200: envelope(memberListSchema) } } },
    async (req) => {
      const levels = parseLevels(req.query.levels);
      const rows = await db.execute(sql`
        WITH RECURSIVE d AS (
          SELECT id, 1 AS lvl FROM members WHERE sponsor_id = ${req.member!.id}
          UNION ALL
          SELECT m.id, d.lvl + 1 FROM members m JOIN d ON m.sponsor_id = d.id WHERE d.lvl < ${levels}
        )
        SELECT members.first_name, members.last_name, members.username, members.email, members.avatar
        FROM d JOIN members ON members.id = d.id
        WHERE members.verified AND ${keywordFilter(req.query.keyword)}
        ORDER BY d.lvl, members.id
        LIMIT ${SEARCH_LIMIT}`);
      const list = (rows as unknown as { rows: Record<string, string | null>[] }).rows.map((r) => ({
        first_name: r.first_name ?? '',
        last_name: r.last_name,
        username: r.username ?? '',
        email: r.email,
        avatar: r.avatar,
      }));
      return ctx.envelope(req, list);
    },
  );

  app.delete(
    '/api/users',
    {
      preHandler: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(10, 10 * MINUTE, perIp),
      schema: { tags: ['users'], body: deleteAccountRequestSchema, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      const me = req.member!;
      if (!(await verifyPassword(req.body.password, me.passwordHash))) throw validationError({ password: ['validation:invalidPassword'] });
      if (me.roleId === 1) throw forbidden('forbidden', 'The company account cannot be deleted.');
      // The row stays (the genealogy and the ledger refer to it); everything personal goes.
      await db.transaction(async (tx) => {
        await tx
          .update(members)
          .set({
            username: `deleted-${me.id}`,
            email: null,
            mobileCode: null,
            mobile: null,
            firstName: 'Deleted',
            lastName: 'member',
            avatar: null,
            status: 0,
            passwordHash: 'disabled',
          })
          .where(eq(members.id, me.id));
        await tx.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.memberId, me.id), isNull(sessions.revokedAt)));
      });
      return ctx.envelope(req, { message: 'Your account was removed.' });
    },
  );
}

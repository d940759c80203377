/**
 * Signup (spec §7 users/signup…): by a visitor or a signed-in member, with a sponsor the company's rules
 * accept, a placement in the tree (requested or automatic) and, when the company asks for it, a one-time
 * code to confirm the e-mail or mobile. Uniqueness, placement and insert happen under the tree lock, so two
 * signups cannot take the same name or slot.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { members, signupVerifications, type MemberRow } from '../db/schema';
import type { Plan } from '../../src/schemas/common.schema';
import { passwordPolicyErrors, type SignupRequest } from '../../src/schemas/auth.schema';
import type { AppContext } from './app-context';
import { hashPassword, newToken, tokenHash } from './crypto';
import { forbidden, HttpError, validationError, type FieldMap } from './errors';
import { companyName } from './login';
import { canSponsor, destinationOf, findById, findByUsername, maskDestination, maskMobile, normalizeEmail, normalizePhoneCode } from './members';
import { issueOtp, verifyOtp } from './otp';
import { announce } from './member-notices';
import { compensationSettings } from './compensation';
import { autoSlot, binarySlotFree, freeSlotUnder, matrixSlotFree, isInSubtree, legSlot, matrixWidth, placeMember, withTreeLock, type Leg, type Slot } from './tree';

type Services = Pick<AppContext, 'database' | 'settings' | 'outbox'>;

const plan = async (ctx: Pick<AppContext, 'settings'>): Promise<Plan> => (await ctx.settings.get('modules')).compensation_plan;

/** Is this referral acceptable as a sponsor under the company's signup rules? */
async function sponsorFor(ctx: Services, referral: string | undefined): Promise<MemberRow | null> {
  if (!referral) return null;
  const signup = await ctx.settings.get('signup');
  if (signup.enforce_default_sponsor && referral.toLowerCase() !== signup.default_sponsor.toLowerCase()) return null;
  const m = await findByUsername(ctx.database.db, referral);
  return canSponsor(m) ? m : null;
}

const defaultLeg = (p: Plan, m: MemberRow | null): Leg | null => (p === 'binary' && m ? ((m.defaultLeg as Leg | null) ?? 'L') : null);

/** What the signup form needs: the sponsor (referral, the signed-in member or the company's default) and the rules. */
export async function signupData(ctx: Services, caller: MemberRow | null, referral: string | undefined) {
  const [signup, auth, p] = [await ctx.settings.get('signup'), await ctx.settings.get('auth'), await plan(ctx)];
  // A member signing someone up sponsors them by default; a visitor gets the company's default sponsor.
  const sponsor = referral ? await sponsorFor(ctx, referral) : caller && canSponsor(caller) ? caller : await sponsorFor(ctx, signup.default_sponsor);
  return {
    default_sponsor: !referral && caller ? caller.username : signup.default_sponsor,
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
  };
}

/** A referral the company accepts as sponsor: its id and the leg new members take under it. */
export async function validateReferral(ctx: Services, referral: string | undefined) {
  if (!referral) throw validationError({ referral: ['validation:required'] });
  const sponsor = await sponsorFor(ctx, referral);
  if (!sponsor) throw validationError({ referral: ['validation:invalidReferral'] });
  return { default_leg: defaultLeg(await plan(ctx), sponsor), referral_id: sponsor.id };
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

/** A matrix's width and depth, read before the tree lock's transaction (a settings read inside it could wait for it). */
interface MatrixShape {
  width: number;
  depth: number;
}

/** Where the new member goes: the requested placement when it is allowed and free, else automatic. */
async function chooseSlot(tx: Db, p: Plan, matrix: MatrixShape, sponsor: MemberRow, b: SignupRequest): Promise<Slot> {
  const unavailable = () => validationError({ placement: ['validation:placementUnavailable'] });
  if (p === 'unilevel') return autoSlot(tx, p, sponsor.id);
  if (!b.placement) {
    return autoSlot(tx, p, sponsor.id, { leg: b.position ?? defaultLeg(p, sponsor), width: matrix.width });
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
  // Matrix: a place of the sponsor's matrix (the recruit's level at most its depth), the one picked when named.
  if (placement.depth + 1 - sponsor.depth > matrix.depth) throw unavailable();
  const width = matrix.width;
  if (b.slot !== undefined) {
    if (b.slot > width || !(await matrixSlotFree(tx, placement.id, b.slot - 1))) throw unavailable();
    return { parentId: placement.id, position: null, slot: b.slot - 1 };
  }
  const slot = await freeSlotUnder(tx, placement.id, width);
  if (slot === null) throw unavailable();
  return { parentId: placement.id, position: null, slot };
}

/** Sign a member up (by `caller`, or a visitor when null): the new username, its key and whether a code must confirm it. */
export async function signUp(ctx: Services, caller: MemberRow | null, b: SignupRequest) {
  const db = ctx.database.db;
  const [signup, auth, p] = [await ctx.settings.get('signup'), await ctx.settings.get('auth'), await plan(ctx)];
  if (!caller && !signup.show_signup_page) throw forbidden('signup_disabled', 'Signup is not open.');

  const errors: FieldMap = {};
  const add = (field: string, key: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(key)) list.push(key);
  };
  if (signup.enforce_link_sponsor && (!b.referral_key || b.referral_key.toLowerCase() !== b.referral.toLowerCase())) {
    add('referral', 'validation:invalidReferral');
  }
  const sponsor = await sponsorFor(ctx, b.referral);
  if (!sponsor) add('referral', 'validation:invalidReferral');
  if (p === 'unilevel' && b.placement) add('placement', 'validation:notAllowed');
  if (p !== 'binary' && b.position) add('position', 'validation:notAllowed');
  if ((p !== 'matrix' || !b.placement) && b.slot !== undefined) add('slot', 'validation:notAllowed');
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
  const via =
    signup.otp_based_on === 'email'
      ? destinationOf({ kind: 'email', email: email ?? '' })
      : destinationOf({ kind: 'mobile', mobileCode: mobileCode ?? '', mobile: mobile ?? '' });

  // Uniqueness, placement and insert under the tree lock: two signups cannot take the same name or slot.
  let placedUnder: number | null = null;
  const matrix: MatrixShape = { width: await matrixWidth(ctx.settings), depth: (await compensationSettings(ctx.settings)).matrix_depth };
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
    const slot = await chooseSlot(tx, p, matrix, sponsor, b);
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
    placedUnder = slot.parentId;
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
        companyName: await companyName(ctx),
        display: destination,
      });
    } catch (e) {
      // A code went to this address seconds ago (another signup): the member can ask for a new one.
      if (!(e instanceof HttpError && e.statusCode === 429)) throw e;
    }
  }
  await tellTeam(ctx, created, sponsor.id, placedUnder);
  return { username: created.username, key, otp_required: otp, destination };
}

/** The sponsor, and the member the recruit was placed under when that is someone else, are told of the new member. */
async function tellTeam(ctx: Services, recruit: MemberRow, sponsorId: number, parentId: number | null) {
  const name = [recruit.firstName, recruit.lastName].filter(Boolean).join(' ');
  for (const id of new Set([sponsorId, ...(parentId ? [parentId] : [])])) {
    await announce(ctx, id, 'team_member_joined', {
      key: id === sponsorId ? 'team_member_joined_direct' : 'team_member_joined',
      values: { name, username: recruit.username },
      link: '/member/referral/joinings',
    });
  }
}

/** The signup a key names that still waits for its code. */
async function pendingVerification(db: Db, key: string) {
  const [row] = await db
    .select()
    .from(signupVerifications)
    .where(and(eq(signupVerifications.keyHash, tokenHash(key)), isNull(signupVerifications.verifiedAt)))
    .limit(1);
  if (!row) throw validationError({ key: ['validation:invalidToken'] });
  return row;
}

/** A new confirmation code for a pending signup. */
export async function resendSignupCode(ctx: Services, key: string) {
  const db = ctx.database.db;
  const v = await pendingVerification(db, key);
  const channel = v.destination.includes('@') ? 'email' : 'sms';
  const m = await findById(db, v.memberId);
  return issueOtp(db, ctx.outbox, {
    purpose: 'signup',
    channel,
    destination: v.destination,
    memberId: v.memberId,
    deliver: true,
    companyName: await companyName(ctx),
    display: channel === 'sms' && m?.mobileCode && m.mobile ? maskMobile(m.mobileCode, m.mobile) : undefined,
  });
}

/** Confirm a pending signup with its code: the member becomes verified. */
export async function confirmSignup(db: Db, key: string, otp: string) {
  const v = await pendingVerification(db, key);
  const code = await verifyOtp(db, { purpose: 'signup', destination: v.destination, code: otp, consume: true });
  if (code.memberId !== v.memberId) throw validationError({ otp: ['validation:otpInvalid'] });
  await db.transaction(async (tx) => {
    await tx.update(members).set({ verified: true }).where(eq(members.id, v.memberId));
    await tx.update(signupVerifications).set({ verifiedAt: new Date() }).where(eq(signupVerifications.id, v.id));
  });
}

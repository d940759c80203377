/**
 * Signing in and out (spec §7): by password, by one-time code, by a verified signup key or an SSO token;
 * password reset by code; logout of a session with the storefront and SSO sessions opened with it.
 *
 * Sign-in never tells who exists: a wrong password and an unknown member get the same answer, and
 * one-time codes for unknown destinations are "sent" (stored, never delivered) like any other.
 *
 * Two-factor sign-in (server/lib/two-factor.ts): a right password of a member who has it on answers a
 * challenge, not a session; POST /api/auth/login/two_factor completes it. The other ways in:
 * - a one-time code by e-mail or SMS is refused for such a member (it proves the mailbox or phone, the
 *   same thing a password reset proves, so it may not stand in for the authenticator): they sign in
 *   with the password and the app's code;
 * - a verified signup key can never belong to such a member (it is issued before the member could turn
 *   it on, and is single use); it is refused all the same;
 * - an SSO token is issued only to a session that is already signed in (after its second factor), so
 *   exchanging it asks for nothing more.
 */
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { members, sessions, signupVerifications, type MemberRow } from '../db/schema';
import {
  passwordPolicyErrors,
  type AutoLoginRequest,
  type LoginRequest,
  type LoginResponse,
  type LoginWithOtpRequest,
  type ResetPasswordRequest,
} from '../../src/schemas/auth.schema';
import type { AppContext } from './app-context';
import { createSession, createSessionTree, SESSION_TTL_MS } from './auth';
import { recordAudit } from './audit';
import { hashPassword, tokenHash, verifyPassword } from './crypto';
import { validationError, type FieldMap } from './errors';
import { destinationOf, findByIdentifier, findById, findOneByIdentifier, maskIdentifier, normalizeEmail, type Identifier } from './members';
import { issueOtp, verifyOtp, type OtpPurpose } from './otp';
import { toUser } from './settings';
import { issueChallenge, twoFactorEnabled } from './two-factor';
import type { TwoFactorChallenge } from '../../src/schemas/two-factor.schema';
import { beginSignIn, clearSignInFailures, memberAccount } from './sign-in-throttle';

/** An SSO token opens the storefront once, within five minutes. */
export const SSO_TTL_MS = 5 * 60 * 1000;
/** A verified signup key signs the new member in once, within ten minutes of the verification. */
export const AUTO_LOGIN_WINDOW_MS = 10 * 60 * 1000;

type Services = Pick<AppContext, 'database' | 'settings' | 'outbox'>;

export type IdentifierBody = { username?: string; email?: string; mobile?: string; mobile_code?: string };

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

/** The identifier a body uses (lower-cased, a phone as its digits), for per-identifier and per-destination limits. */
export function identifierKey(body: unknown): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
  const using = str(b.login_using) || str(b.reset_using);
  if (using === 'mobile_code') return `m:${str(b.mobile_code).replace(/\D/g, '')}:${str(b.mobile).replace(/\D/g, '')}`;
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

export const companyName = async (ctx: Pick<AppContext, 'settings'>) => (await ctx.settings.get('company'))?.name ?? 'Upline';

/** The login answer of spec §7. Sessions are opened only for an active member allowed in (demo flag). */
export async function loginAnswer(ctx: Services, member: MemberRow): Promise<LoginResponse> {
  const db = ctx.database.db;
  const active = member.status === 1;
  const allowed = member.demoAllowed;
  const s = await ctx.settings.all();
  // The access session and those opened with it (SSO, and the storefront's when the store is on) in one statement.
  const [currency, language, access] = await Promise.all([
    ctx.settings.currencyByCode(member.currencyCode),
    ctx.settings.languageByCode(member.languageCode),
    active && allowed
      ? createSessionTree(db, member.id, { kind: 'access', ttlMs: SESSION_TTL_MS }, [
          { kind: 'sso', ttlMs: SSO_TTL_MS },
          ...(s.modules.store ? [{ kind: 'store', ttlMs: SESSION_TTL_MS }] : []),
        ])
      : null,
  ]);
  const ssoToken = access?.children[0] ?? null;
  const storeToken = access?.children[1] ?? null;
  return {
    token: access?.token ?? '',
    user: toUser(member),
    user_status: active ? 1 : 0,
    user_allowed: allowed,
    is_master_demo: false,
    compensation_plan: s.modules.compensation_plan,
    default_store_id: s.store_settings?.default_store ?? null,
    store_token: storeToken,
    sso_token: ssoToken,
    default_currency: currency,
    default_language: language,
    cart: [],
  };
}

/**
 * Sign-in by password from `ip`, throttled per account (whatever identifier names it) and per IP: see
 * server/lib/sign-in-throttle.ts. An identifier that names nobody is counted like an account of its own.
 */
export async function passwordLogin(ctx: Services & Pick<AppContext, 'throttle'>, body: LoginRequest, ip: string): Promise<LoginResponse | TwoFactorChallenge> {
  const id = identifierFrom(body.login_using, body);
  if (!isIdentifier(id)) throw validationError(id);
  const db = ctx.database.db;
  // The members are looked up while the IP's attempt is counted; the password is hashed while the accounts'
  // attempt is counted, and whether the members sign in with a second factor is read meanwhile (all of it is
  // used only once the count lets the attempt in).
  const attempt = await beginSignIn(
    ctx,
    ip,
    async () => {
      const candidates = await findByIdentifier(db, id);
      return { candidates, accounts: candidates.length ? candidates.map((c) => memberAccount(c.id)) : [`i:${tokenHash(identifierKey(body))}`] };
    },
    async ({ candidates }) => {
      const secondFactor = Promise.all(candidates.map((c) => twoFactorEnabled(db, c.id)));
      secondFactor.catch(() => undefined);
      for (const [i, c] of candidates.entries()) {
        if (await verifyPassword(body.password, c.passwordHash)) return { member: c, twoFactor: (await secondFactor)[i] };
      }
      if (!candidates.length) await burnPasswordCheck(body.password);
      return null;
    },
  );
  const member: MemberRow | null = attempt.checked?.member ?? null;
  if (!member) {
    await attempt.failed();
    throw validationError({ password: ['validation:invalidCredentials'] });
  }
  // The count is cleared while the answer is made; both are done before anything is answered, so the next
  // attempt is judged on the cleared count.
  const [cleared, answer] = await Promise.allSettled([
    attempt.succeeded(member.id),
    (async () => {
      if (!member.verified) throw validationError({ [identifierField(id)]: ['validation:accountNotVerified'] });
      if (attempt.checked!.twoFactor) return issueChallenge(db, member.id);
      return loginAnswer(ctx, member);
    })(),
  ]);
  if (cleared.status === 'rejected') throw cleared.reason;
  if (answer.status === 'rejected') throw answer.reason;
  return answer.value;
}

/** Sign-in with the key of a signup verified within AUTO_LOGIN_WINDOW_MS; single use. */
export async function autoLogin(ctx: Services, body: AutoLoginRequest): Promise<LoginResponse> {
  const db = ctx.database.db;
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
  if (!matches || (await twoFactorEnabled(db, member.id))) throw invalid();
  // Single use: only the request that flips login_used_at gets the session.
  const used = await db
    .update(signupVerifications)
    .set({ loginUsedAt: new Date() })
    .where(and(eq(signupVerifications.keyHash, tokenHash(body.key)), isNull(signupVerifications.loginUsedAt)))
    .returning({ id: signupVerifications.id });
  if (!used.length) throw invalid();
  return loginAnswer(ctx, member);
}

/** The e-mail or mobile an OTP body names, with its field errors when incomplete. */
export function otpDestination(using: 'email' | 'mobile_code', body: IdentifierBody) {
  const id = identifierFrom(using, body);
  if (!isIdentifier(id)) throw validationError(id);
  return { id, ...destinationOf(id) };
}

export type OtpDestination = ReturnType<typeof otpDestination>;

/** Sign-in by one-time code is a company switch. */
export async function requireOtpLogin(ctx: Pick<AppContext, 'settings'>) {
  const auth = await ctx.settings.get('auth');
  if (!auth.login_with_otp) throw validationError({ login_using: ['validation:otpLoginDisabled'] });
}

/**
 * Issues a one-time code for whoever the identifier names. An unknown identifier is answered exactly like a known
 * one (the code is stored but not delivered), so the answer reveals nothing about who is a member.
 */
export async function sendCode(ctx: Services, purpose: Extract<OtpPurpose, 'login' | 'reset'>, to: OtpDestination) {
  const db = ctx.database.db;
  const member = await findOneByIdentifier(db, to.id);
  return issueOtp(db, ctx.outbox, {
    purpose,
    channel: to.channel,
    destination: to.destination,
    memberId: member?.id ?? null,
    deliver: !!member,
    companyName: await companyName(ctx),
    display: maskIdentifier(to.id),
  });
}

/** Sign-in with a login code sent to the e-mail or mobile the body names. */
export async function otpLogin(ctx: Services, body: LoginWithOtpRequest): Promise<LoginResponse> {
  const db = ctx.database.db;
  await requireOtpLogin(ctx);
  const { id, destination } = otpDestination(body.login_using, body);
  const code = await verifyOtp(db, { purpose: 'login', destination, code: body.otp, consume: true });
  const member = code.memberId ? await findById(db, code.memberId) : null;
  if (!member) throw validationError({ otp: ['validation:otpInvalid'] });
  if (!member.verified) throw validationError({ [identifierField(id)]: ['validation:accountNotVerified'] });
  if (await twoFactorEnabled(db, member.id)) throw validationError({ otp: ['validation:twoFactorUsePassword'] });
  // A code sent to the member's own address proves as much as the password: failed password sign-ins start again.
  await clearSignInFailures(ctx, member.id);
  return loginAnswer(ctx, member);
}

/** Where a reset code goes: the channel must be one the company resets passwords by. */
export async function resetDestination(ctx: Pick<AppContext, 'settings'>, body: { reset_using: 'email' | 'mobile_code' } & IdentifierBody) {
  const auth = await ctx.settings.get('auth');
  const allowed = auth.reset_password_based_on;
  if (allowed !== 'both' && (allowed === 'email') !== (body.reset_using === 'email')) {
    throw validationError({ reset_using: ['validation:invalidChoice'] });
  }
  return otpDestination(body.reset_using, body);
}

/** A new password (policy, confirmation) with a reset code; every session of the member ends. */
export async function resetPassword(ctx: Services, body: ResetPasswordRequest, ip: string | null = null) {
  const db = ctx.database.db;
  const { destination } = await resetDestination(ctx, body);
  const auth = await ctx.settings.get('auth');
  const errors: FieldMap = {};
  const policy = passwordPolicyErrors(auth.password_policy, body.password);
  if (policy.length) errors.password = policy;
  if (body.password !== body.password_confirmation) errors.password_confirmation = ['validation:passwordMismatch'];
  if (Object.keys(errors).length) throw validationError(errors);
  const code = await verifyOtp(db, { purpose: 'reset', destination, code: body.otp, consume: true });
  const member = code.memberId ? await findById(db, code.memberId) : null;
  if (!member) throw validationError({ otp: ['validation:otpInvalid'] });
  const passwordHash = await hashPassword(body.password);
  await db.transaction(async (tx) => {
    await tx.update(members).set({ passwordHash }).where(eq(members.id, member.id));
    await tx.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.memberId, member.id), isNull(sessions.revokedAt)));
    await recordAudit(tx, member.id, 'password.reset', {}, ip);
  });
  // A new password unlocks password sign-in (also after a lock for good).
  await clearSignInFailures(ctx, member.id);
}

/**
 * Logout: the session and those opened with it end. When a storefront session was opened with it, the
 * answer is a single-use token (random, stored hashed, five minutes) for the storefront's own single
 * sign-on logout; otherwise null.
 */
export async function logout(db: Db, memberId: number, sessionId: number): Promise<string | null> {
  const [store] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.parentSessionId, sessionId), eq(sessions.kind, 'store'), isNull(sessions.revokedAt)))
    .limit(1);
  await revokeSessionTree(db, sessionId);
  return store ? (await createSession(db, memberId, 'sso_logout', SSO_TTL_MS)).token : null;
}

/** Exchange an SSO token (once, before it expires) for a login answer. */
export async function ssoLogin(ctx: Services, ssoToken: string): Promise<LoginResponse> {
  const db = ctx.database.db;
  // Consuming is one conditional update, so a token can be exchanged only once even under races.
  const [used] = await db
    .update(sessions)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(sessions.tokenHash, tokenHash(ssoToken)),
        eq(sessions.kind, 'sso'),
        isNull(sessions.consumedAt),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date()),
      ),
    )
    .returning({ memberId: sessions.memberId });
  const member = used ? await findById(db, used.memberId) : null;
  if (!member || !member.verified) throw validationError({ sso_token: ['validation:invalidToken'] });
  return loginAnswer(ctx, member);
}

/** Sign out with an SSO token: the session it was opened with ends (also after the token was used or expired). */
export async function ssoLogout(db: Db, ssoToken: string) {
  const [sso] = await db
    .select({ parent: sessions.parentSessionId })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash(ssoToken)), eq(sessions.kind, 'sso')))
    .limit(1);
  if (!sso) throw validationError({ sso_token: ['validation:invalidToken'] });
  if (sso.parent) await revokeSessionTree(db, sso.parent);
}

/** End a storefront session; an unknown or missing token leaves nothing to revoke (idempotent). */
export async function storeLogout(db: Db, token: string) {
  if (!token || token.length > 256) return;
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tokenHash, tokenHash(token)), eq(sessions.kind, 'store'), isNull(sessions.revokedAt)));
}

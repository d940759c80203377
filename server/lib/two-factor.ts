/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238, 30-second steps, six digits; otplib) and
 * ten single-use recovery codes.
 *
 * Enrolment: the account password re-entered → a fresh random secret (stored encrypted, answered this once
 * with its otpauth URI and QR code) → the first right code turns it on and answers the recovery codes
 * (stored as hashes, shown once). Turning it off takes the password and a current code or a recovery code.
 *
 * Sign-in: a right password of a member with two-factor sign-in on opens a challenge (random, stored
 * hashed, single use, five minutes) instead of a session; a right code with it completes the sign-in.
 * Codes are checked within ±1 step; a code's step is remembered, so no code is accepted twice. Wrong codes
 * are counted per challenge (five kill it) and per account (ten in fifteen minutes → 429 until the window
 * ends), so guessing gains nothing from new challenges. The secret and codes are never logged.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, or, lt, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { memberTwoFactor, twoFactorChallenges, twoFactorRecoveryCodes, type MemberTwoFactorRow } from '../db/schema-two-factor';
import type { LoginResponse } from '../../src/schemas/auth.schema';
import type {
  RecoveryCodes,
  TwoFactorChallenge,
  TwoFactorDisableRequest,
  TwoFactorLoginRequest,
  TwoFactorSetup,
  TwoFactorStatus,
} from '../../src/schemas/two-factor.schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { newToken, tokenHash, verifyPassword } from './crypto';
import { rateLimited, validationError, type FieldMap } from './errors';
import { findById } from './members';

type Services = Pick<AppContext, 'database' | 'settings' | 'outbox' | 'config'>;

/** A challenge is good for five minutes. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes one challenge takes before it is dead. */
export const CHALLENGE_MAX_ATTEMPTS = 5;
/** Wrong codes an account takes within ACCOUNT_WINDOW_MS before codes are refused (429). */
export const ACCOUNT_MAX_FAILURES = 10;
export const ACCOUNT_WINDOW_MS = 15 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;
/** TOTP step in seconds; a code is accepted one step either side (clock drift). */
const PERIOD = 30;

// ---------------------------------------------------------------------------------------------
// Secrets at rest

const secretKey = (appKey: string) => createHash('sha256').update(`upline two-factor secret|${appKey}`).digest();

/** AES-256-GCM under a key derived from APP_KEY: `v1.iv.tag.ciphertext` (base64url). */
export function sealSecret(appKey: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(appKey), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function openSecret(appKey: string, sealed: string): string {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1') throw new Error('Unknown two-factor secret format');
  const decipher = createDecipheriv('aes-256-gcm', secretKey(appKey), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

/** No 0/O, 1/I: letters and digits a person copies without mistakes (32 symbols, 50 bits a code). */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += RECOVERY_ALPHABET[randomInt(0, RECOVERY_ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** The hash of a recovery code as typed: dashes, spaces and case do not matter. */
const recoveryHash = (code: string) => tokenHash(`recovery|${code.replace(/[\s-]+/g, '').toUpperCase()}`);

async function replaceRecoveryCodes(db: Db, memberId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.memberId, memberId));
  await db.insert(twoFactorRecoveryCodes).values(codes.map((c) => ({ memberId, codeHash: recoveryHash(c) })));
  return codes;
}

// ---------------------------------------------------------------------------------------------
// State

async function rowOf(db: Db, memberId: number): Promise<MemberTwoFactorRow | null> {
  const [row] = await db.select().from(memberTwoFactor).where(eq(memberTwoFactor.memberId, memberId)).limit(1);
  return row ?? null;
}

/** Whether the member signs in with a second factor. */
export async function twoFactorEnabled(db: Db, memberId: number): Promise<boolean> {
  const row = await rowOf(db, memberId);
  return !!row?.enabledAt;
}

export async function twoFactorStatus(db: Db, memberId: number): Promise<TwoFactorStatus> {
  const row = await rowOf(db, memberId);
  const enabled = !!row?.enabledAt;
  const [left] = enabled
    ? await db
        .select({ n: sql<number>`count(*)::int` })
        .from(twoFactorRecoveryCodes)
        .where(and(eq(twoFactorRecoveryCodes.memberId, memberId), isNull(twoFactorRecoveryCodes.usedAt)))
    : [{ n: 0 }];
  return { enabled, enabled_at: row?.enabledAt ? row.enabledAt.toISOString() : null, recovery_codes_left: Number(left.n) };
}

async function requirePassword(member: MemberRow, password: string) {
  if (!(await verifyPassword(password, member.passwordHash))) throw validationError({ password: ['validation:invalidPassword'] });
}

// ---------------------------------------------------------------------------------------------
// Checking a code

/** Refuses codes while the account has had too many wrong ones in the window. */
function requireNotThrottled(row: MemberTwoFactorRow) {
  if (!row.failedSince || row.failedCount < ACCOUNT_MAX_FAILURES) return;
  const left = row.failedSince.getTime() + ACCOUNT_WINDOW_MS - Date.now();
  if (left > 0) throw rateLimited(Math.ceil(left / 1000));
}

/** One more wrong code for the account (a new window when the last one is over). */
async function countFailure(db: Db, memberId: number) {
  const windowStart = new Date(Date.now() - ACCOUNT_WINDOW_MS);
  await db
    .update(memberTwoFactor)
    .set({
      failedCount: sql`CASE WHEN ${memberTwoFactor.failedSince} IS NULL OR ${memberTwoFactor.failedSince} < ${windowStart} THEN 1 ELSE ${memberTwoFactor.failedCount} + 1 END`,
      failedSince: sql`CASE WHEN ${memberTwoFactor.failedSince} IS NULL OR ${memberTwoFactor.failedSince} < ${windowStart} THEN now() ELSE ${memberTwoFactor.failedSince} END`,
    })
    .where(eq(memberTwoFactor.memberId, memberId));
}

/**
 * Accepts a TOTP code once: the matched step must be later than the last accepted one, and taking it is
 * one conditional update, so two requests with the same code cannot both pass.
 */
async function acceptTotp(ctx: Services, row: MemberTwoFactorRow, code: string): Promise<boolean> {
  const db = ctx.database.db;
  const secret = openSecret(ctx.config.appKey, row.secretEnc);
  const result = await verify({ secret, token: code, epochTolerance: PERIOD });
  if (!result.valid || !('timeStep' in result)) return false;
  const step = result.timeStep;
  const taken = await db
    .update(memberTwoFactor)
    .set({ lastStep: step, failedCount: 0, failedSince: null })
    .where(and(eq(memberTwoFactor.memberId, row.memberId), or(isNull(memberTwoFactor.lastStep), lt(memberTwoFactor.lastStep, step))))
    .returning({ memberId: memberTwoFactor.memberId });
  return taken.length > 0;
}

/** Uses a recovery code once (one conditional update). */
async function useRecoveryCode(db: Db, memberId: number, code: string): Promise<boolean> {
  const used = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(twoFactorRecoveryCodes.memberId, memberId), eq(twoFactorRecoveryCodes.codeHash, recoveryHash(code)), isNull(twoFactorRecoveryCodes.usedAt)))
    .returning({ id: twoFactorRecoveryCodes.id });
  if (used.length) await db.update(memberTwoFactor).set({ failedCount: 0, failedSince: null }).where(eq(memberTwoFactor.memberId, memberId));
  return used.length > 0;
}

type SecondFactor = { code?: string; recovery_code?: string };

/**
 * Checks a code or a recovery code of a member with two-factor sign-in on. A wrong one is counted
 * (`onWrong` may count it elsewhere too) and refused as a field error of the field it came in.
 */
async function checkSecondFactor(ctx: Services, row: MemberTwoFactorRow, given: SecondFactor, ip: string | null, onWrong?: () => Promise<FieldMap | void>) {
  const db = ctx.database.db;
  if (!given.code && !given.recovery_code) throw validationError({ code: ['validation:required'] });
  requireNotThrottled(row);
  const byRecovery = !given.code;
  const ok = byRecovery ? await useRecoveryCode(db, row.memberId, given.recovery_code!) : await acceptTotp(ctx, row, given.code!);
  if (!ok) {
    await countFailure(db, row.memberId);
    const instead = await onWrong?.();
    throw validationError(instead || (byRecovery ? { recovery_code: ['validation:recoveryCodeInvalid'] } : { code: ['validation:twoFactorCodeInvalid'] }));
  }
  if (byRecovery) await recordAudit(db, row.memberId, 'two_factor.recovery_used', {}, ip);
}

// ---------------------------------------------------------------------------------------------
// Enrolment

const groupsOfFour = (s: string) => s.replace(/(.{4})(?=.)/g, '$1 ');

/** A fresh secret for the app (any earlier unconfirmed one is replaced). Refused while it is on. */
export async function startSetup(ctx: Services, member: MemberRow, password: string): Promise<TwoFactorSetup> {
  const db = ctx.database.db;
  await requirePassword(member, password);
  const row = await rowOf(db, member.id);
  if (row?.enabledAt) throw validationError({ password: ['validation:twoFactorAlreadyOn'] });
  const secret = generateSecret();
  const sealed = sealSecret(ctx.config.appKey, secret);
  await db
    .insert(memberTwoFactor)
    .values({ memberId: member.id, secretEnc: sealed })
    .onConflictDoUpdate({ target: memberTwoFactor.memberId, set: { secretEnc: sealed, lastStep: null, failedCount: 0, failedSince: null, enabledAt: null } });
  const issuer = (await ctx.settings.get('company'))?.name ?? 'Upline';
  const otpauthUri = generateURI({ issuer, label: member.username, secret });
  const qr = await QRCode.toDataURL(otpauthUri, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret: groupsOfFour(secret), otpauth_uri: otpauthUri, qr_code: qr };
}

/** The first right code from the app turns it on; the answer is the recovery codes, shown this once. */
export async function confirmSetup(ctx: Services, member: MemberRow, code: string, ip: string | null): Promise<RecoveryCodes> {
  const db = ctx.database.db;
  const row = await rowOf(db, member.id);
  if (!row || row.enabledAt) throw validationError({ code: [row ? 'validation:twoFactorAlreadyOn' : 'validation:twoFactorSetupMissing'] });
  requireNotThrottled(row);
  if (!(await acceptTotp(ctx, row, code))) {
    await countFailure(db, member.id);
    throw validationError({ code: ['validation:twoFactorCodeInvalid'] });
  }
  return db.transaction(async (tx) => {
    const on = await tx
      .update(memberTwoFactor)
      .set({ enabledAt: new Date() })
      .where(and(eq(memberTwoFactor.memberId, member.id), isNull(memberTwoFactor.enabledAt)))
      .returning({ memberId: memberTwoFactor.memberId });
    if (!on.length) throw validationError({ code: ['validation:twoFactorAlreadyOn'] });
    const codes = await replaceRecoveryCodes(tx as unknown as Db, member.id);
    await recordAudit(tx, member.id, 'two_factor.enabled', {}, ip);
    return { recovery_codes: codes };
  });
}

async function requireEnabled(db: Db, memberId: number, field = 'password'): Promise<MemberTwoFactorRow> {
  const row = await rowOf(db, memberId);
  if (!row?.enabledAt) throw validationError({ [field]: ['validation:twoFactorNotOn'] });
  return row;
}

/** Off again: the password and a current code or an unused recovery code. */
export async function disableTwoFactor(ctx: Services, member: MemberRow, body: TwoFactorDisableRequest, ip: string | null): Promise<void> {
  const db = ctx.database.db;
  await requirePassword(member, body.password);
  const row = await requireEnabled(db, member.id);
  await checkSecondFactor(ctx, row, body, ip);
  await db.transaction(async (tx) => {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.memberId, member.id));
    await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.memberId, member.id));
    await tx.delete(memberTwoFactor).where(eq(memberTwoFactor.memberId, member.id));
    await recordAudit(tx, member.id, 'two_factor.disabled', {}, ip);
  });
}

/** Ten new recovery codes (the old ones stop working), with the password re-entered. */
export async function regenerateRecoveryCodes(ctx: Services, member: MemberRow, password: string, ip: string | null): Promise<RecoveryCodes> {
  const db = ctx.database.db;
  await requirePassword(member, password);
  await requireEnabled(db, member.id);
  return db.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx as unknown as Db, member.id);
    await recordAudit(tx, member.id, 'two_factor.recovery_codes_renewed', {}, ip);
    return { recovery_codes: codes };
  });
}

// ---------------------------------------------------------------------------------------------
// Sign-in

/** What a right password answers for a member with two-factor sign-in on. */
export async function issueChallenge(db: Db, memberId: number): Promise<TwoFactorChallenge> {
  const challenge = newToken();
  await db.insert(twoFactorChallenges).values({ memberId, tokenHash: tokenHash(challenge), expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS) });
  return { two_factor_required: true, challenge, expires_in: CHALLENGE_TTL_MS / 1000 };
}

/**
 * Completes a sign-in opened by a challenge: the challenge must be live (unused, unexpired, fewer than
 * CHALLENGE_MAX_ATTEMPTS wrong codes) and the code right. `answer` makes the normal login answer.
 */
export async function completeTwoFactorLogin(
  ctx: Services,
  body: TwoFactorLoginRequest,
  ip: string | null,
  answer: (member: MemberRow) => Promise<LoginResponse>,
): Promise<LoginResponse> {
  const db = ctx.database.db;
  const expired = () => validationError({ challenge: ['validation:twoFactorChallengeExpired'] });
  const hash = tokenHash(body.challenge);
  const [challenge] = await db
    .select()
    .from(twoFactorChallenges)
    .where(and(eq(twoFactorChallenges.tokenHash, hash), isNull(twoFactorChallenges.usedAt), gt(twoFactorChallenges.expiresAt, new Date())))
    .limit(1);
  if (!challenge) throw expired();
  if (challenge.attempts >= CHALLENGE_MAX_ATTEMPTS) throw validationError({ challenge: ['validation:twoFactorTooManyAttempts'] });
  const row = await rowOf(db, challenge.memberId);
  const member = await findById(db, challenge.memberId);
  if (!row?.enabledAt || !member) throw expired();
  await checkSecondFactor(ctx, row, body, ip, async () => {
    const [after] = await db
      .update(twoFactorChallenges)
      .set({ attempts: sql`${twoFactorChallenges.attempts} + 1` })
      .where(eq(twoFactorChallenges.id, challenge.id))
      .returning({ attempts: twoFactorChallenges.attempts });
    if (after && after.attempts >= CHALLENGE_MAX_ATTEMPTS) return { challenge: ['validation:twoFactorTooManyAttempts'] };
  });
  // Single use: only the request that marks the challenge used signs in.
  const used = await db
    .update(twoFactorChallenges)
    .set({ usedAt: new Date() })
    .where(and(eq(twoFactorChallenges.id, challenge.id), isNull(twoFactorChallenges.usedAt), gt(twoFactorChallenges.expiresAt, new Date())))
    .returning({ id: twoFactorChallenges.id });
  if (!used.length) throw expired();
  return answer(member);
}

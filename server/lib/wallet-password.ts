/**
 * The wallet (transaction) password of a member (spec §2 Account settings: wallet-password): set once
 * with the account password, changed with the current wallet password, or reset with a one-time code
 * sent to the member's e-mail. Stored hashed. Once set, payouts ask for it instead of the account
 * password (`checkPayoutPassword`). Wrong wallet passwords are counted: after five in a row it is locked
 * for a quarter of an hour (429), whichever form they came from. Every set, change and reset is audited
 * and the member is told by e-mail.
 */
import { eq, sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { walletPasswords } from '../db/schema-contact';
import {
  walletPasswordSchema,
  type WalletPasswordChangeRequest,
  type WalletPasswordResetRequest,
  type WalletPasswordSetRequest,
  type WalletPasswordStatus,
} from '../../src/schemas/contact.schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { hashPassword, verifyPassword } from './crypto';
import { issuesToFieldMap, rateLimited, validationError, type FieldMap } from './errors';
import { companyName } from './login';
import { maskDestination } from './members';
import { issueOtp, verifyOtp, type OtpSentAnswer } from './otp';

type Services = Pick<AppContext, 'database' | 'settings' | 'outbox'>;

export const WALLET_PASSWORD_MAX_FAILURES = 5;
export const WALLET_PASSWORD_LOCK_SECONDS = 15 * 60;

const NOT_SET = 'account:walletPassword.errors.notSet';
/** Reset codes are kept per member (the e-mail is where they go, not what they are for). */
const resetKey = (memberId: number) => `member:${memberId}:wallet`;

type WalletRow = typeof walletPasswords.$inferSelect;

async function walletRow(db: Db, memberId: number): Promise<WalletRow | null> {
  const [row] = await db.select().from(walletPasswords).where(eq(walletPasswords.memberId, memberId)).limit(1);
  return row ?? null;
}

/** Whether the member has a wallet password: payouts then ask for it ('wallet') instead of the account password. */
export async function payoutPasswordKind(db: Db, memberId: number): Promise<'account' | 'wallet'> {
  return (await walletRow(db, memberId)) ? 'wallet' : 'account';
}

export async function walletPasswordStatus(ctx: Pick<AppContext, 'database' | 'settings'>, member: MemberRow): Promise<WalletPasswordStatus> {
  return {
    is_set: !!(await walletRow(ctx.database.db, member.id)),
    password_policy: (await ctx.settings.get('auth')).password_policy,
    reset_destination: member.email ? maskDestination('email', member.email) : null,
  };
}

/**
 * Check a wallet password against the member's, counting wrong ones: a locked one answers 429 before
 * any check; the fifth wrong one in a row locks it. Right resets the count.
 */
async function checkWalletPassword(db: Db, row: WalletRow, password: string): Promise<boolean> {
  const now = Date.now();
  if (row.lockedUntil && row.lockedUntil.getTime() > now) throw rateLimited(Math.ceil((row.lockedUntil.getTime() - now) / 1000));
  if (await verifyPassword(password, row.passwordHash)) {
    if (row.failedAttempts) await db.update(walletPasswords).set({ failedAttempts: 0, lockedUntil: null }).where(eq(walletPasswords.memberId, row.memberId));
    return true;
  }
  // Counted in the database (two wrong tries at once are two), locked at the limit.
  await db
    .update(walletPasswords)
    .set({
      failedAttempts: sql`${walletPasswords.failedAttempts} + 1`,
      lockedUntil: sql`CASE WHEN ${walletPasswords.failedAttempts} + 1 >= ${WALLET_PASSWORD_MAX_FAILURES}
        THEN now() + make_interval(secs => ${WALLET_PASSWORD_LOCK_SECONDS}) ELSE NULL END`,
    })
    .where(eq(walletPasswords.memberId, row.memberId));
  return false;
}

/** The new wallet password's field errors: the policy, the confirmation, and not the account password. */
async function newPasswordErrors(ctx: Pick<AppContext, 'settings'>, member: MemberRow, body: { wallet_password: string; wallet_password_confirmation: string }): Promise<FieldMap> {
  const policy = (await ctx.settings.get('auth')).password_policy;
  const checked = z.safeParse(walletPasswordSchema(policy, false), { wallet_password: body.wallet_password, wallet_password_confirmation: body.wallet_password_confirmation });
  const errors = checked.success ? {} : { ...issuesToFieldMap(checked.error.issues) };
  if (!errors.wallet_password && (await verifyPassword(body.wallet_password, member.passwordHash))) {
    errors.wallet_password = ['account:walletPassword.errors.sameAsAccount'];
  }
  return errors;
}

/** Tell the member (by e-mail) that the wallet password was set, changed or reset. */
async function tellMember(ctx: Services, member: MemberRow, what: 'set' | 'changed' | 'reset') {
  if (!member.email) return;
  const company = await companyName(ctx);
  await ctx.outbox.send(
    'email',
    member.email,
    `${company}: your wallet password was ${what}`,
    `The wallet password of your ${company} account was ${what}. If you did not do this, reset your password and contact support at once.`,
  );
}

/** Set the first wallet password, with the account password. */
export async function setWalletPassword(ctx: Services, member: MemberRow, body: WalletPasswordSetRequest, ip: string | null): Promise<WalletPasswordStatus> {
  const db = ctx.database.db;
  const errors = await newPasswordErrors(ctx, member, body);
  if (await walletRow(db, member.id)) errors.wallet_password = ['account:walletPassword.errors.alreadySet'];
  if (!(await verifyPassword(body.password, member.passwordHash))) errors.password = ['validation:invalidPassword'];
  if (Object.keys(errors).length) throw validationError(errors);
  const passwordHash = await hashPassword(body.wallet_password);
  await db.transaction(async (tx) => {
    // Two first sets at once: the second finds the row and changes nothing.
    const inserted = await tx.insert(walletPasswords).values({ memberId: member.id, passwordHash }).onConflictDoNothing().returning();
    if (!inserted.length) throw validationError({ wallet_password: ['account:walletPassword.errors.alreadySet'] });
    await recordAudit(tx, member.id, 'wallet_password.set', {}, ip);
  });
  await tellMember(ctx, member, 'set');
  return walletPasswordStatus(ctx, member);
}

/** Change it with the current wallet password (wrong ones count towards the lock). */
export async function changeWalletPassword(ctx: Services, member: MemberRow, body: WalletPasswordChangeRequest, ip: string | null): Promise<WalletPasswordStatus> {
  const db = ctx.database.db;
  const row = await walletRow(db, member.id);
  if (!row) throw validationError({ current_wallet_password: [NOT_SET] });
  const errors = await newPasswordErrors(ctx, member, body);
  if (!(await checkWalletPassword(db, row, body.current_wallet_password))) errors.current_wallet_password = ['validation:invalidPassword'];
  else if (body.wallet_password === body.current_wallet_password && !errors.wallet_password) errors.wallet_password = ['account:walletPassword.errors.sameAsCurrent'];
  if (Object.keys(errors).length) throw validationError(errors);
  await saveNew(db, member, body.wallet_password, 'wallet_password.changed', ip);
  await tellMember(ctx, member, 'changed');
  return walletPasswordStatus(ctx, member);
}

async function saveNew(db: Db, member: MemberRow, password: string, action: 'wallet_password.changed' | 'wallet_password.reset', ip: string | null) {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.update(walletPasswords).set({ passwordHash, failedAttempts: 0, lockedUntil: null, updatedAt: new Date() }).where(eq(walletPasswords.memberId, member.id));
    await recordAudit(tx, member.id, action, {}, ip);
  });
}

/** Send a reset code to the member's e-mail (a member without a wallet password or an e-mail has nothing to reset this way). */
export async function sendWalletResetCode(ctx: Services, member: MemberRow): Promise<OtpSentAnswer> {
  const db = ctx.database.db;
  if (!(await walletRow(db, member.id))) throw validationError({ otp: [NOT_SET] });
  if (!member.email) throw validationError({ otp: ['account:walletPassword.errors.noEmail'] });
  return issueOtp(db, ctx.outbox, {
    purpose: 'wallet_reset',
    channel: 'email',
    destination: resetKey(member.id),
    sendTo: member.email,
    memberId: member.id,
    deliver: true,
    companyName: await companyName(ctx),
  });
}

/** Reset it with the code: the new password is checked first, so a refused one does not use the code up. */
export async function resetWalletPassword(ctx: Services, member: MemberRow, body: WalletPasswordResetRequest, ip: string | null): Promise<WalletPasswordStatus> {
  const db = ctx.database.db;
  if (!(await walletRow(db, member.id))) throw validationError({ otp: [NOT_SET] });
  const errors = await newPasswordErrors(ctx, member, body);
  if (Object.keys(errors).length) throw validationError(errors);
  await verifyOtp(db, { purpose: 'wallet_reset', destination: resetKey(member.id), code: body.otp, consume: true });
  await saveNew(db, member, body.wallet_password, 'wallet_password.reset', ip);
  await tellMember(ctx, member, 'reset');
  return walletPasswordStatus(ctx, member);
}

/**
 * The password a payout asks for: the wallet password when the member has set one (counted, locked
 * after five wrong ones), else the account password. True when right.
 */
export async function checkPayoutPassword(db: Db, member: MemberRow, password: string): Promise<boolean> {
  const row = await walletRow(db, member.id);
  if (!row) return verifyPassword(password, member.passwordHash);
  return checkWalletPassword(db, row, password);
}

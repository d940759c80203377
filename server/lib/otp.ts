/**
 * One-time codes: six random digits, stored hashed, valid 10 minutes, single use, at most five tries,
 * a resend supersedes the previous code and may not come sooner than 30 seconds after it.
 *
 * A code is keyed by (purpose, destination). Codes for destinations that belong to nobody are stored too
 * (and never sent), so an unknown address answers, times and rate-limits exactly like a known one.
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { otpCodes } from '../db/schema';
import { newOtp, tokenHash } from './crypto';
import { rateLimited, validationError } from './errors';
import type { Outbox } from './outbox';
import { maskDestination } from './members';

export const OTP_TTL_SECONDS = 600;
export const OTP_RESEND_SECONDS = 30;
export const OTP_MAX_ATTEMPTS = 5;

export type OtpPurpose = 'login' | 'reset' | 'signup' | 'email_change' | 'phone_change' | 'wallet_reset';

const codeHash = (purpose: OtpPurpose, destination: string, code: string) => tokenHash(`${purpose}:${destination}:${code}`);

const SUBJECTS: Record<OtpPurpose, string> = {
  login: 'Your sign-in code',
  reset: 'Your password reset code',
  signup: 'Confirm your account',
  email_change: 'Confirm your new e-mail address',
  phone_change: 'Confirm your new mobile number',
  wallet_reset: 'Your wallet password reset code',
};

export interface IssueOtpOptions {
  purpose: OtpPurpose;
  channel: 'email' | 'sms';
  destination: string;
  /** Where the message goes when `destination` is a key rather than an address (codes kept per member). */
  sendTo?: string;
  memberId: number | null;
  /** False for destinations nobody owns: the code is stored but not sent. */
  deliver: boolean;
  companyName?: string;
  /** How the destination is shown back (masked); derived from the destination when absent. */
  display?: string;
}

export interface OtpSentAnswer {
  message: string;
  destination: string;
  expires_in: number;
  resend_in: number;
}

/** Issue a fresh code (superseding any live one) and put it in the outbox. Throws 429 within the resend delay. */
export async function issueOtp(db: Db, outbox: Outbox, opts: IssueOtpOptions): Promise<OtpSentAnswer> {
  const code = newOtp();
  await db.transaction(async (tx) => {
    const [last] = await tx
      .select({ createdAt: otpCodes.createdAt })
      .from(otpCodes)
      .where(and(eq(otpCodes.purpose, opts.purpose), eq(otpCodes.destination, opts.destination)))
      .orderBy(desc(otpCodes.createdAt))
      .limit(1)
      .for('update');
    if (last) {
      const waited = (Date.now() - last.createdAt.getTime()) / 1000;
      if (waited < OTP_RESEND_SECONDS) throw rateLimited(Math.ceil(OTP_RESEND_SECONDS - waited));
    }
    await tx
      .update(otpCodes)
      .set({ supersededAt: new Date() })
      .where(
        and(
          eq(otpCodes.purpose, opts.purpose),
          eq(otpCodes.destination, opts.destination),
          isNull(otpCodes.supersededAt),
          isNull(otpCodes.consumedAt),
        ),
      );
    await tx.insert(otpCodes).values({
      purpose: opts.purpose,
      destination: opts.destination,
      memberId: opts.memberId,
      codeHash: codeHash(opts.purpose, opts.destination, code),
      expiresAt: new Date(Date.now() + OTP_TTL_SECONDS * 1000),
    });
  });
  if (opts.deliver) {
    const company = opts.companyName ?? 'Upline';
    await outbox.send(
      opts.channel,
      opts.sendTo ?? opts.destination,
      `${company}: ${SUBJECTS[opts.purpose]}`,
      `Your ${company} code is ${code}. It expires in ${OTP_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this message.`,
    );
  }
  return {
    message: 'A verification code was sent.',
    destination: opts.display ?? maskDestination(opts.channel, opts.sendTo ?? opts.destination),
    expires_in: OTP_TTL_SECONDS,
    resend_in: OTP_RESEND_SECONDS,
  };
}

export interface VerifyOtpOptions {
  purpose: OtpPurpose;
  destination: string;
  code: string;
  /** Use the code up (login, reset, signup). A check leaves it usable but counts the try. */
  consume: boolean;
  /** Field the errors are reported on. */
  field?: string;
}

/**
 * Check a code against the live code of (purpose, destination). Every wrong try counts; the fifth wrong
 * try kills the code. A check that does not consume counts as a try even when right.
 * Returns the member the code was issued for (null for codes nobody owns).
 */
export async function verifyOtp(db: Db, opts: VerifyOtpOptions): Promise<{ id: number; memberId: number | null }> {
  const field = opts.field ?? 'otp';
  const fail = (key: string) => validationError({ [field]: [key] });
  // The outcome is decided inside the transaction, but a wrong try must still be counted: the
  // transaction returns the verdict instead of throwing (a throw would roll the count back).
  type Verdict = { ok: { id: number; memberId: number | null }; error?: undefined } | { ok?: undefined; error: string };
  const verdict = await db.transaction(async (tx): Promise<Verdict> => {
    const [row] = await tx
      .select()
      .from(otpCodes)
      .where(and(eq(otpCodes.purpose, opts.purpose), eq(otpCodes.destination, opts.destination), isNull(otpCodes.supersededAt)))
      .orderBy(desc(otpCodes.createdAt))
      .limit(1)
      .for('update');
    if (!row || row.consumedAt) return { error: 'validation:otpInvalid' };
    if (row.attempts >= OTP_MAX_ATTEMPTS) return { error: 'validation:otpTooManyAttempts' };
    if (row.expiresAt.getTime() <= Date.now()) return { error: 'validation:otpExpired' };
    const right = row.codeHash === codeHash(opts.purpose, opts.destination, opts.code);
    if (!right) {
      const attempts = row.attempts + 1;
      await tx.update(otpCodes).set({ attempts }).where(eq(otpCodes.id, row.id));
      return { error: attempts >= OTP_MAX_ATTEMPTS ? 'validation:otpTooManyAttempts' : 'validation:otpInvalid' };
    }
    if (opts.consume) {
      await tx.update(otpCodes).set({ consumedAt: new Date() }).where(eq(otpCodes.id, row.id));
    } else {
      await tx
        .update(otpCodes)
        .set({ attempts: sql`${otpCodes.attempts} + 1` })
        .where(eq(otpCodes.id, row.id));
    }
    return { ok: { id: row.id, memberId: row.memberId } };
  });
  if (!verdict.ok) throw fail(verdict.error ?? 'validation:otpInvalid');
  return verdict.ok;
}

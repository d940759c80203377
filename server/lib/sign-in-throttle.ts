/**
 * Password sign-in throttling that cannot be stepped around (NIST SP 800-63B §5.2.2):
 *
 * - per account: failures are counted per member whatever identifier named it (username, e-mail, phone)
 *   and whatever address they came from. After the 5th consecutive failure each next attempt waits a
 *   growing delay (2, 4, 8, 16, 32 s); every 10th failure locks the account for 15 minutes and the member
 *   is told by e-mail; the 100th locks it until the password is reset (or the member signs in by a code).
 *   A sign-in or a password reset clears the count. An identifier that names nobody is counted and
 *   refused exactly the same way, so the delays tell nothing about who is a member.
 * - per IP: failed sign-ins from one address, whatever accounts they name (LIMITS.signInFailuresPerIp).
 *
 * Each attempt is counted as a failure before the password's check is believed (one short transaction holding
 * the account's row), and given back when it succeeds: parallel attempts cannot slip past a limit. The check
 * itself (the slow hash) runs while the count is taken, once the IP's count has let the attempt in: the IP's
 * limit bounds the hashing an address can ask for, and an attempt the count refuses never learns the result.
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { RateLimitedError } from './errors';
import { LIMITS } from './rate-limit';

/** Failures without any wait. */
export const FREE_FAILURES = 4;
/** Every this many consecutive failures the account locks for LOCK_SECONDS. */
export const LOCK_EVERY = 10;
export const LOCK_SECONDS = 15 * 60;
/** At this many consecutive failures the account stays locked until its password is reset. */
export const MAX_FAILURES = 100;
/** What a refusal of a lock for good answers as Retry-After (the member must reset the password). */
const LOCKED_RETRY_SECONDS = 24 * 60 * 60;

/** The wait after `failures` consecutive failures: seconds, 'lock' (told by e-mail) or 'locked' (for good). */
export function waitAfter(failures: number): { seconds: number | null; lock: boolean } {
  if (failures >= MAX_FAILURES) return { seconds: null, lock: true };
  const sinceLock = failures % LOCK_EVERY;
  if (sinceLock === 0) return { seconds: LOCK_SECONDS, lock: true };
  if (sinceLock <= FREE_FAILURES) return { seconds: 0, lock: false };
  return { seconds: 2 ** (sinceLock - FREE_FAILURES), lock: false };
}

type Ctx = Pick<AppContext, 'database' | 'throttle' | 'outbox' | 'settings'>;

export const memberAccount = (memberId: number) => `m:${memberId}`;

export interface SignInAttempt {
  /** The password was right for `memberId`: its count is cleared, the IP's hit given back. */
  succeeded(memberId: number): Promise<void>;
  /** The password was wrong: members whose account locked with this failure are told. */
  failed(): Promise<void>;
}

/**
 * Count a password sign-in attempt from `ip` for the accounts `find` names (the members the identifier names,
 * or the identifier itself when it names nobody); throws 429 with the wait when the IP or an account must wait.
 * `find` runs while the IP is counted; `check` (the password's check) starts once the IP may try and runs while
 * the accounts are counted; its answer is `checked`, given only when no account must wait.
 */
export async function beginSignIn<F extends { accounts: string[] }, T>(
  ctx: Ctx,
  ip: string,
  find: () => Promise<F>,
  check: (found: F) => Promise<T>,
): Promise<SignInAttempt & { checked: T }> {
  const [found] = await Promise.all([find(), ctx.throttle.take(LIMITS.signInFailuresPerIp, ip)]);
  const { accounts } = found;
  const checking = check(found);
  // A refused attempt does not wait for the check, nor hears of it.
  checking.catch(() => undefined);
  const counted = await countFailure(ctx, accounts);
  if (counted.wait !== 0) {
    throw new RateLimitedError(
      counted.wait ?? LOCKED_RETRY_SECONDS,
      counted.wait === null
        ? 'Too many failed sign-ins: this account is locked until its password is reset.'
        : `Too many attempts. Try again in ${counted.wait} s.`,
    );
  }
  const checked = await checking;
  return {
    checked,
    async succeeded(memberId) {
      await Promise.all([clearSignInFailures(ctx, memberId), ctx.throttle.giveBack(LIMITS.signInFailuresPerIp, ip)]);
    },
    async failed() {
      for (const { account, failures } of counted.failures) {
        const wait = waitAfter(failures);
        if (!wait.lock || !account.startsWith('m:')) continue;
        await tellLocked(ctx, Number(account.slice(2)), failures, wait.seconds, ip);
      }
    },
  };
}

/** The count of a member starts again (a sign-in by code, a password reset). */
export async function clearSignInFailures(ctx: Pick<AppContext, 'database'>, memberId: number) {
  await ctx.database.rows(sql`DELETE FROM sign_in_failures WHERE account = ${memberAccount(memberId)}`);
}

/** waitAfter(n) for n = 1 … MAX_FAILURES, as the database's sign_in_count reads it (NULL: locked for good). */
const WAITS = `{${Array.from({ length: MAX_FAILURES }, (_, i) => waitAfter(i + 1).seconds ?? 'NULL').join(',')}}`;

/**
 * One statement (sign_in_count, migration 0041): when no account must wait, every account's count goes up by
 * one and its next wait is set; otherwise nothing changes and the longest wait is answered (null: locked for good).
 */
async function countFailure(ctx: Ctx, accounts: string[]): Promise<{ wait: number | null; failures: Array<{ account: string; failures: number }> }> {
  const list = `{${accounts.map((a) => `"${a.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  const rows = await ctx.database.rows<{ counted_account: string | null; counted_failures: number | null; wait: number }>(
    sql`SELECT counted_account, counted_failures, wait FROM sign_in_count(${list}::text[], ${WAITS}::int[])`,
  );
  const refused = rows.find((r) => r.counted_account === null);
  if (refused) return { wait: Number(refused.wait) === -1 ? null : Number(refused.wait), failures: [] };
  return { wait: 0, failures: rows.map((r) => ({ account: r.counted_account!, failures: Number(r.counted_failures) })) };
}

/** The lock notice: always by e-mail (a security matter, whatever the member's notification settings). */
async function tellLocked(ctx: Ctx, memberId: number, failures: number, seconds: number | null, ip: string) {
  const [m] = await ctx.database.rows<{ email: string | null }>(sql`SELECT email FROM members WHERE id = ${memberId}`);
  const company = (await ctx.settings.get('company'))?.name ?? 'Upline';
  await recordAudit(ctx.database.db, memberId, 'sign_in.locked', { failures, minutes: seconds === null ? null : seconds / 60 }, ip);
  if (!m?.email) return;
  const body =
    seconds === null
      ? `There were ${failures} failed attempts to sign in to your ${company} account in a row, so password sign-in is locked until the password is reset. ` +
        'Choose "Forgot password" on the sign-in page to set a new one. If these attempts were not yours, someone may know your username or e-mail address.'
      : `There were ${failures} failed attempts to sign in to your ${company} account in a row, so password sign-in is locked for ${seconds / 60} minutes. ` +
        'If these attempts were not yours, nothing is needed: your password was not accepted. To sign in now, use "Forgot password" to set a new one.';
  await ctx.outbox.send('email', m.email, `${company}: sign-in locked after failed attempts`, body);
}

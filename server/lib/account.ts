/**
 * Account settings of the signed-in member (spec §2): the password change. Only ever about the caller:
 * the member and session come from the bearer token, never from the body.
 */
import { and, eq, isNull, ne, or } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Db } from '../db/client';
import { members, sessions, type MemberRow } from '../db/schema';
import { passwordChangeSchema, type PasswordChangeRequest, type PasswordChangeSettings } from '../../src/schemas/account.schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { hashPassword, verifyPassword } from './crypto';
import { issuesToFieldMap, validationError } from './errors';

type Services = Pick<AppContext, 'database' | 'settings'>;

/** What the password form needs: the company's password policy (the one of signup and password reset). */
export async function passwordChangeSettings(ctx: Pick<AppContext, 'settings'>): Promise<PasswordChangeSettings> {
  return { password_policy: (await ctx.settings.get('auth')).password_policy };
}

/**
 * Change the caller's password: the current one must be right, the new one meet the policy and match its
 * confirmation (one field map for all of it). Every other session of the member ends — with the
 * storefront and SSO sessions opened with them — while the session making the change (and those opened
 * with it) stays signed in.
 */
export async function changePassword(ctx: Services, member: MemberRow, sessionId: number, body: PasswordChangeRequest, ip: string | null = null): Promise<void> {
  const db = ctx.database.db;
  const { password_policy } = await passwordChangeSettings(ctx);
  const checked = z.safeParse(passwordChangeSchema(password_policy), body);
  const errors = checked.success ? {} : issuesToFieldMap(checked.error.issues);
  if (!(await verifyPassword(body.current_password, member.passwordHash))) errors.current_password = ['validation:invalidPassword'];
  if (Object.keys(errors).length) throw validationError(errors);
  const passwordHash = await hashPassword(body.password);
  await db.transaction(async (tx) => {
    await tx.update(members).set({ passwordHash }).where(eq(members.id, member.id));
    await revokeOtherSessions(tx as unknown as Db, member.id, sessionId);
    await recordAudit(tx, member.id, 'password.changed', {}, ip);
  });
}

/** End every live session of a member except `keep` and the sessions opened with it. */
async function revokeOtherSessions(db: Db, memberId: number, keep: number) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.memberId, memberId),
        isNull(sessions.revokedAt),
        ne(sessions.id, keep),
        or(isNull(sessions.parentSessionId), ne(sessions.parentSessionId, keep)),
      ),
    );
}

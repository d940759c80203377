/**
 * The account audit trail: one row per change of a member's security or payout details. Call it in the
 * same transaction as the change, so a change is never left without its row (nor a row without its
 * change). `detail` is for what a reviewer needs to read (old and new e-mail, the last four digits of an
 * account) — never a password, code, token or hash.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from './ledger';

export type AuditAction =
  | 'password.changed'
  | 'password.reset'
  | 'preferences.changed'
  | 'email.change_requested'
  | 'email.changed'
  | 'phone.change_requested'
  | 'phone.changed'
  | 'wallet_password.set'
  | 'wallet_password.changed'
  | 'wallet_password.reset'
  | 'bank.changed'
  | 'payout_method.changed'
  | 'payout.cancelled'
  | 'profile.changed'
  | 'avatar.changed'
  | 'two_factor.enabled'
  | 'two_factor.disabled'
  | 'two_factor.recovery_used'
  | 'two_factor.recovery_codes_renewed'
  | 'kyc.submitted'
  | 'kyc.deleted'
  | 'kyc.approved'
  | 'kyc.rejected'
  | 'notification_settings.changed'
  | 'data.exported'
  | 'account.deleted'
  | 'sign_in.locked'
  | 'address.added'
  | 'address.changed'
  | 'address.deleted'
  | 'address.restored';

export async function recordAudit(
  db: Executor,
  memberId: number,
  action: AuditAction,
  detail: Record<string, unknown> = {},
  ip: string | null = null,
): Promise<void> {
  await db.execute(
    sql`INSERT INTO account_audit (member_id, action, detail, ip) VALUES (${memberId}, ${action}, ${JSON.stringify(detail)}::jsonb, ${ip})`,
  );
}

export interface AuditEntry {
  action: AuditAction;
  detail: Record<string, unknown>;
  created_at: string;
}

/** A member's own audit rows, newest first (for the personal data export and the operator). */
export async function auditOf(db: Executor, memberId: number, limit = 500): Promise<AuditEntry[]> {
  const rows = await rowsOf<{ action: AuditAction; detail: Record<string, unknown>; created_at: string | Date }>(
    db,
    sql`SELECT action, detail, created_at FROM account_audit WHERE member_id = ${memberId} ORDER BY created_at DESC, id DESC LIMIT ${limit}`,
  );
  return rows.map((x) => ({ action: x.action, detail: x.detail, created_at: new Date(x.created_at).toISOString() }));
}

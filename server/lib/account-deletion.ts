/**
 * A member deletes their own account (spec §5, §7 DELETE /api/users): confirmed with the account password
 * and, when the company runs a storefront, the storefront token of the session (the store customer goes
 * with the member). The member row stays — the genealogy and the ledger of others refer to it — but every
 * section of PERSONAL_DATA is erased in one transaction with its audit row: the name, e-mail, phone and
 * avatar are replaced, the addresses blanked, the username becomes `deleted-<id>`, the password opens
 * nothing and every session ends (signed out everywhere). The address the member had is told, once.
 */
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { findSession } from './auth';
import { verifyPassword } from './crypto';
import { forbidden, validationError, type FieldMap } from './errors';
import { erasePersonalData } from './personal-data';
import { discardFiles } from './uploads';

export interface AccountDeletion {
  password: string;
  /** The X-Store-Token header of the call. */
  storeToken: string | null;
  ip: string | null;
}

/** The storefront session `token` names must be one of the member's own, still live. */
async function storeTokenErrors(db: Db, memberId: number, token: string | null): Promise<string[]> {
  if (!token) return ['validation:required'];
  const found = await findSession(db, token, 'store');
  return found?.member.id === memberId ? [] : ['validation:invalid'];
}

export async function deleteAccount(ctx: Pick<AppContext, 'database' | 'settings' | 'outbox' | 'config'>, member: MemberRow, req: AccountDeletion): Promise<void> {
  const db = ctx.database.db;
  const errors: FieldMap = {};
  if (!(await verifyPassword(req.password, member.passwordHash))) errors.password = ['validation:invalidPassword'];
  if ((await ctx.settings.get('modules')).store) {
    const store = await storeTokenErrors(db, member.id, req.storeToken);
    if (store.length) errors.store_token = store;
  }
  if (Object.keys(errors).length) throw validationError(errors);
  if (member.roleId === 1) throw forbidden('forbidden', 'The company account cannot be deleted.');
  const files = await db.transaction(async (tx) => {
    // The row says what happened and when; the member it names is anonymised in the same transaction.
    await recordAudit(tx, member.id, 'account.deleted', {}, req.ip);
    return erasePersonalData(tx, member.id);
  });
  // The uploaded files go once nothing refers to them any more.
  await discardFiles(ctx.config, files);
  // The last message to the address the member had: the account is gone (and who to ask if it was not them).
  if (member.email) {
    await ctx.outbox.send(
      'email',
      member.email,
      'Your account was deleted',
      `The account ${member.username} was deleted at your request and every device was signed out. ` +
        'If you did not ask for this, contact support.',
    );
  }
}

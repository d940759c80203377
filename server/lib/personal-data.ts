/**
 * Everything the server holds about one member, written down once: the personal data export
 * (GET /api/user/data_export) reads every section of PERSONAL_DATA, and the account deletion
 * (DELETE /api/users) runs every section's `erase` in its transaction. An area that keeps personal data
 * of its own (bank details, identity documents, two-factor sign-in) adds its section here, so neither the
 * export nor the deletion can leave it out.
 *
 * A section reads only the member's own rows and never a secret: no password or wallet-password hash,
 * no token or token hash, no one-time code, no idempotency key.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditOf } from './audit';
import { revokeAllSessions } from './auth';
import { rowsOf, type Executor } from './ledger';

export interface PersonalDataSection {
  /** The section's key in the export file. */
  key: string;
  /** The member's data of this section, as exported. */
  read(ex: Executor, memberId: number): Promise<unknown>;
  /**
   * Clears or replaces what identifies the member when the account is deleted (history others rely on,
   * the ledger and the tree, stays). Absent: the section holds nothing to clear.
   */
  erase?(ex: Executor, memberId: number): Promise<void>;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

/** The rows of `query`, each with its `dates` (default created_at) as ISO text. */
async function rowsWithDates(ex: Executor, query: SQL, dates: string[] = ['created_at']) {
  const rows = await rowsOf<Record<string, unknown>>(ex, query);
  return rows.map((r) => ({ ...r, ...Object.fromEntries(dates.map((d) => [d, iso(r[d])])) }));
}

/** The username that replaces a deleted member's own: others' records stay readable, nothing identifies them. */
export const deletedUsername = (memberId: number) => `deleted-${memberId}`;

const profile: PersonalDataSection = {
  key: 'profile',
  async read(ex, id) {
    const [m] = await rowsOf<Record<string, unknown>>(
      ex,
      sql`SELECT m.id, m.username, m.first_name, m.last_name, m.email, m.mobile_code, m.mobile, m.avatar, m.account_type,
                 m.role_id, m.status, m.language_code, m.currency_code, m.date_format, m.created_at, m.position,
                 s.username AS sponsor_username, p.username AS placement_username, pk.name AS package_name, r.name AS rank_name
          FROM members m
          LEFT JOIN members s ON s.id = m.sponsor_id
          LEFT JOIN members p ON p.id = m.parent_id
          LEFT JOIN packages pk ON pk.id = m.package_id
          LEFT JOIN ranks r ON r.id = m.rank_id
          WHERE m.id = ${id}`,
    );
    return m ? { ...m, created_at: iso(m.created_at) } : null;
  },
  async erase(ex, id) {
    await ex.execute(sql`
      UPDATE members SET username = ${deletedUsername(id)}, email = NULL, mobile_code = NULL, mobile = NULL,
        first_name = 'Deleted', last_name = 'member', avatar = NULL, status = 0, password_hash = 'disabled',
        deleted_at = now()
      WHERE id = ${id}`);
  },
};

const addresses: PersonalDataSection = {
  key: 'addresses',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT id, first_name, last_name, company, address_1, address_2, city, postcode, email, phone, country_name, zone_name, created_at
          FROM addresses WHERE member_id = ${id} AND deleted_at IS NULL ORDER BY created_at, id`,
    );
  },
  async erase(ex, id) {
    // Every address, deleted ones included, is blanked: nothing of it can be restored.
    await ex.execute(sql`
      UPDATE addresses SET first_name = '', last_name = '', company = '', address_1 = '', address_2 = '', city = '',
        postcode = '', email = '', phone = '', zone_name = '', deleted_at = coalesce(deleted_at, now())
      WHERE member_id = ${id}`);
  },
};

const kyc: PersonalDataSection = {
  key: 'kyc',
  async read(ex, id) {
    const [r] = await rowsOf<{ status: string; updated_at: string }>(ex, sql`SELECT status, updated_at FROM member_kyc WHERE member_id = ${id}`);
    return { status: r?.status ?? 'not_submitted', updated_at: iso(r?.updated_at) };
  },
};

const orders: PersonalDataSection = {
  key: 'orders',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT o.id, o.invoice_no, o.order_type, o.status, o.package_name, o.total::text AS total, o.total_bv::text AS total_bv,
                 o.payment_method, o.billing, o.shipping, o.created_at,
                 coalesce((SELECT json_agg(json_build_object('sku', i.sku, 'name', i.name, 'price', i.price::text, 'bv', i.bv::text,
                   'quantity', i.quantity, 'expiry', i.expiry) ORDER BY i.id) FROM order_items i WHERE i.order_id = o.id), '[]'::json) AS products
          FROM orders o WHERE o.member_id = ${id} ORDER BY o.created_at, o.id`,
    );
  },
};

const payouts: PersonalDataSection = {
  key: 'payouts',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT id, amount::text AS amount, fee::text AS fee, status, note, created_at, updated_at, paid_at
          FROM payout_requests WHERE member_id = ${id} ORDER BY created_at, id`,
      ['created_at', 'updated_at', 'paid_at'],
    );
  },
};

const transactions: PersonalDataSection = {
  key: 'transactions',
  async read(ex, id) {
    // The amount is what the transaction did to the member's own accounts.
    return rowsWithDates(
      ex,
      sql`SELECT t.id, t.transaction_group, t.transaction_type, t.transaction_key, t.level, t.memo, t.created_at,
                 f.username AS from_user,
                 (SELECT coalesce(sum(e.amount), 0)::text FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
                   WHERE e.transaction_id = t.id AND a.member_id = ${id}) AS amount
          FROM ledger_transactions t LEFT JOIN members f ON f.id = t.from_member_id
          WHERE t.member_id = ${id} ORDER BY t.created_at, t.id`,
    );
  },
};

const earnings: PersonalDataSection = {
  key: 'earnings',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT e.id, e.bonus_type, e.amount_generated::text AS amount_generated, e.tax::text AS tax,
                 e.service_charge::text AS service_charge, e.amount_payable::text AS amount_payable, e.level, e.created_at,
                 f.username AS from_user
          FROM earnings e LEFT JOIN members f ON f.id = e.from_member_id
          WHERE e.member_id = ${id} ORDER BY e.created_at, e.id`,
    );
  },
};

const messages: PersonalDataSection = {
  key: 'messages',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT msg.id, msg.thread_id, t.subject, msg.body, msg.created_at, msg.read_at,
                 CASE WHEN msg.sender_id = ${id} THEN 'sent' ELSE 'received' END AS direction,
                 CASE WHEN msg.sender_id = ${id} THEN r.username ELSE s.username END AS other_party
          FROM messages msg
          JOIN message_threads t ON t.id = msg.thread_id
          LEFT JOIN members s ON s.id = msg.sender_id
          LEFT JOIN members r ON r.id = msg.recipient_id
          WHERE msg.sender_id = ${id} OR msg.recipient_id = ${id}
          ORDER BY msg.created_at, msg.id`,
      ['created_at', 'read_at'],
    );
  },
};

const sessions: PersonalDataSection = {
  key: 'sessions',
  async read(ex, id) {
    // Which devices were signed in and when — never the token nor its hash.
    return rowsWithDates(
      ex,
      sql`SELECT id, kind, created_at, last_used_at, expires_at, revoked_at FROM sessions WHERE member_id = ${id} ORDER BY created_at, id`,
      ['created_at', 'last_used_at', 'expires_at', 'revoked_at'],
    );
  },
  // Signed out everywhere: access, storefront and SSO sessions alike.
  erase: (ex, id) => revokeAllSessions(ex as Db, id),
};

const audit: PersonalDataSection = {
  key: 'audit',
  read: (ex, id) => auditOf(ex, id),
};

/** Every section, in the order of the export file. */
export const PERSONAL_DATA: readonly PersonalDataSection[] = [profile, addresses, kyc, orders, payouts, transactions, earnings, messages, sessions, audit];

export interface PersonalDataExport {
  format: 'upline.personal-data.v1';
  exported_at: string;
  [section: string]: unknown;
}

/** The export file's content: every section of the member, read in one snapshot of the database. */
export async function readPersonalData(ex: Executor, memberId: number, now = new Date()): Promise<PersonalDataExport> {
  const out: PersonalDataExport = { format: 'upline.personal-data.v1', exported_at: now.toISOString() };
  for (const s of PERSONAL_DATA) out[s.key] = await s.read(ex, memberId);
  return out;
}

/** Runs every section's erase for the member (inside the deletion's transaction). */
export async function erasePersonalData(ex: Executor, memberId: number): Promise<void> {
  for (const s of PERSONAL_DATA) if (s.erase) await s.erase(ex, memberId);
}

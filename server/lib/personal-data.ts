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
import { supportPersonalData } from './support';

export interface PersonalDataSection {
  /** The section's key in the export file. */
  key: string;
  /** The member's data of this section, as exported. */
  read(ex: Executor, memberId: number): Promise<unknown>;
  /**
   * Clears or replaces what identifies the member when the account is deleted (history others rely on,
   * the ledger and the tree, stays). Absent: the section holds nothing to clear. May answer the stored
   * names of uploaded files whose rows it removed: they are deleted from disk once the transaction commits.
   */
  erase?(ex: Executor, memberId: number): Promise<void | string[]>;
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
    const documents = await rowsWithDates(
      ex,
      sql`SELECT d.id, c.name AS category, d.id_number, d.status, d.reason, d.created_at, d.decided_at,
                 coalesce((SELECT json_agg(json_build_object('name', u.original_name, 'type', u.content_type, 'size', u.size_bytes) ORDER BY f.position)
                   FROM kyc_document_files f JOIN uploads u ON u.id = f.upload_id WHERE f.document_id = d.id), '[]'::json) AS files
          FROM kyc_documents d JOIN kyc_categories c ON c.id = d.category_id
          WHERE d.member_id = ${id} ORDER BY d.created_at, d.id`,
      ['created_at', 'decided_at'],
    );
    return { status: r?.status ?? 'not_submitted', updated_at: iso(r?.updated_at), documents };
  },
  async erase(ex, id) {
    // The verification stays on record (category, status, dates); the number and the files go.
    await ex.execute(sql`UPDATE kyc_documents SET id_number = NULL WHERE member_id = ${id}`);
    await ex.execute(sql`DELETE FROM kyc_document_files f USING kyc_documents d WHERE f.document_id = d.id AND d.member_id = ${id}`);
  },
};

/** Every file the member uploaded (identity documents, avatar): rows removed, files deleted after commit. */
const uploads: PersonalDataSection = {
  key: 'uploads',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT id, kind, original_name, content_type, size_bytes, created_at FROM uploads WHERE member_id = ${id} ORDER BY created_at, id`,
    );
  },
  async erase(ex, id) {
    const rows = await rowsOf<{ stored_name: string }>(ex, sql`DELETE FROM uploads WHERE member_id = ${id} RETURNING stored_name`);
    return rows.map((r) => r.stored_name);
  },
};

/** Where payouts go: the bank account and the chosen method (the member's own data, exported as kept). */
const payoutDetails: PersonalDataSection = {
  key: 'payout_details',
  async read(ex, id) {
    const [bank] = await rowsWithDates(
      ex,
      sql`SELECT account_holder, country, iban, account_number, routing_code, bic, bank_name, updated_at FROM bank_details WHERE member_id = ${id}`,
      ['updated_at'],
    );
    const [method] = await rowsWithDates(ex, sql`SELECT method, destination, updated_at FROM payout_methods WHERE member_id = ${id}`, ['updated_at']);
    return { bank_details: bank ?? null, payout_method: method ?? null };
  },
  async erase(ex, id) {
    await ex.execute(sql`DELETE FROM bank_details WHERE member_id = ${id}`);
    await ex.execute(sql`DELETE FROM payout_methods WHERE member_id = ${id}`);
  },
};

/** Settings and security of the account: notification switches, pending contact changes, wallet password and two-factor (whether set, never the secret). */
const accountSettings: PersonalDataSection = {
  key: 'account_settings',
  async read(ex, id) {
    const notifications = await rowsWithDates(ex, sql`SELECT event, email, push, updated_at FROM notification_settings WHERE member_id = ${id} ORDER BY event`, [
      'updated_at',
    ]);
    const notices = await rowsWithDates(ex, sql`SELECT event, subject, body, link, created_at, read_at FROM member_notices WHERE member_id = ${id} ORDER BY created_at, id`, [
      'created_at',
      'read_at',
    ]);
    const contactChanges = await rowsWithDates(
      ex,
      sql`SELECT kind, email, mobile_code, mobile, created_at, applied_at FROM contact_changes WHERE member_id = ${id} ORDER BY created_at, id`,
      ['created_at', 'applied_at'],
    );
    const [wallet] = await rowsWithDates(ex, sql`SELECT created_at, updated_at FROM wallet_passwords WHERE member_id = ${id}`, ['created_at', 'updated_at']);
    const [twoFactor] = await rowsWithDates(
      ex,
      sql`SELECT enabled_at, created_at,
                 (SELECT count(*)::int FROM two_factor_recovery_codes r WHERE r.member_id = ${id} AND r.used_at IS NULL) AS recovery_codes_left,
                 (SELECT count(*)::int FROM two_factor_recovery_codes r WHERE r.member_id = ${id} AND r.used_at IS NOT NULL) AS recovery_codes_used
          FROM member_two_factor WHERE member_id = ${id}`,
      ['enabled_at', 'created_at'],
    );
    return {
      notification_settings: notifications,
      notices,
      contact_changes: contactChanges,
      wallet_password: wallet ? { set: true, ...wallet } : { set: false },
      // Whether it is on and how many recovery codes are left: never the key nor a code.
      two_factor: twoFactor?.enabled_at
        ? { enabled: true, enabled_at: twoFactor.enabled_at, recovery_codes_left: twoFactor.recovery_codes_left, recovery_codes_used: twoFactor.recovery_codes_used }
        : { enabled: false },
    };
  },
  async erase(ex, id) {
    for (const table of ['notification_settings', 'member_notices', 'contact_changes', 'wallet_passwords', 'two_factor_recovery_codes', 'two_factor_challenges', 'member_two_factor']) {
      await ex.execute(sql`DELETE FROM ${sql.raw(table)} WHERE member_id = ${id}`);
    }
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
      sql`SELECT msg.id::int AS id, msg.thread_id::int AS thread_id, t.subject, msg.body, msg.created_at, msg.read_at,
                 CASE WHEN msg.sender_id = ${id} THEN 'sent' ELSE 'received' END AS direction,
                 CASE WHEN msg.sender_id = ${id} THEN r.username ELSE s.username END AS other_party,
                 CASE WHEN msg.sender_id = ${id} THEN msg.sender_binned_at ELSE msg.recipient_binned_at END AS binned_at,
                 coalesce((SELECT json_agg(json_build_object('name', u.original_name, 'type', u.content_type, 'size', u.size_bytes) ORDER BY a.position)
                   FROM message_attachments a JOIN uploads u ON u.id = a.upload_id WHERE a.message_id = msg.id), '[]'::json) AS attachments
          FROM messages msg
          JOIN message_threads t ON t.id = msg.thread_id
          LEFT JOIN members s ON s.id = msg.sender_id
          LEFT JOIN members r ON r.id = msg.recipient_id
          WHERE msg.sender_id = ${id} OR msg.recipient_id = ${id}
          ORDER BY msg.created_at, msg.id`,
      ['created_at', 'read_at', 'binned_at'],
    );
  },
  async erase(ex, id) {
    // The messages stay (they are the other party's too); the files the member attached go with their uploads.
    await ex.execute(sql`DELETE FROM message_attachments a USING messages msg WHERE a.message_id = msg.id AND msg.sender_id = ${id}`);
    await ex.execute(sql`DELETE FROM message_attachments a USING uploads u WHERE a.upload_id = u.id AND u.member_id = ${id}`);
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

/** Package purchases, wallet top-ups, card payments and over-the-counter payment requests (the receipt itself is in `uploads`, cleared after this). */
const payments: PersonalDataSection = {
  key: 'payments',
  async read(ex, id) {
    return {
      package_purchases: await rowsWithDates(
        ex,
        sql`SELECT pp.id, p.name AS package_name, pp.kind, pp.amount::text AS amount, pp.pv::text AS pv, pp.status, pp.payment_method, pp.created_at, pp.paid_at
            FROM package_purchases pp JOIN packages p ON p.id = pp.package_id WHERE pp.member_id = ${id} ORDER BY pp.id`,
        ['created_at', 'paid_at'],
      ),
      wallet_topups: await rowsWithDates(
        ex,
        sql`SELECT id, amount::text AS amount, status, payment_ref, created_at, paid_at FROM wallet_topups WHERE member_id = ${id} ORDER BY id`,
        ['created_at', 'paid_at'],
      ),
      // Checkout sessions at the card provider (what was paid, its state); never the provider's page address.
      card_payments: await rowsWithDates(
        ex,
        sql`SELECT session_id, purpose, ref_id::int AS ref_id, amount::text AS amount, currency, status, failure, created_at, paid_at
            FROM card_payments WHERE member_id = ${id} ORDER BY created_at, session_id`,
        ['created_at', 'paid_at'],
      ),
      payment_requests: await rowsWithDates(
        ex,
        sql`SELECT id, purpose, amount::text AS amount, method, reference, description, status, transaction_ref, receipt_upload_id, reason, created_at, submitted_at, decided_at
            FROM otc_requests WHERE member_id = ${id} ORDER BY id`,
        ['created_at', 'submitted_at', 'decided_at'],
      ),
    };
  },
  async erase(ex, id) {
    // The receipt files go with the member's uploads; the requests stay (they paid for orders), without the bank's reference.
    await ex.execute(sql`UPDATE otc_requests SET receipt_upload_id = NULL, transaction_ref = NULL WHERE member_id = ${id}`);
  },
};

/** The shop cart: what is in it, and lines removed (kept for undo). */
const cart: PersonalDataSection = {
  key: 'cart',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT p.sku, p.name, c.quantity, c.removed_at, c.updated_at FROM cart_items c JOIN products p ON p.id = c.product_id
          WHERE c.member_id = ${id} ORDER BY c.updated_at, p.sku`,
      ['removed_at', 'updated_at'],
    );
  },
  async erase(ex, id) {
    await ex.execute(sql`DELETE FROM cart_items WHERE member_id = ${id}`);
  },
};

/**
 * The member's CRM: leads, contacts, their timeline (notes, calls, meetings), sales with their lines and
 * invoices, deleted ones included
 * (with when). Data about other people that the member keeps: erased with the account.
 */
const crm: PersonalDataSection = {
  key: 'crm',
  async read(ex, id) {
    const dates = ['created_at', 'updated_at', 'deleted_at'];
    return {
      leads: await rowsWithDates(
        ex,
        sql`SELECT id, name, company, email, phone, source, status, estimated_value::text AS estimated_value, next_follow_up::text AS next_follow_up,
                   lost_reason, contact_id, created_at, updated_at, deleted_at
            FROM crm_leads WHERE member_id = ${id} ORDER BY id`,
        dates,
      ),
      contacts: await rowsWithDates(
        ex,
        sql`SELECT id, name, company, email, phone, city, lead_id, created_at, updated_at, deleted_at FROM crm_contacts WHERE member_id = ${id} ORDER BY id`,
        dates,
      ),
      notes: await rowsWithDates(ex, sql`SELECT id, lead_id, contact_id, body, created_at FROM crm_notes WHERE member_id = ${id} ORDER BY id`),
      calls: await rowsWithDates(
        ex,
        sql`SELECT id, lead_id, contact_id, who, direction, outcome, duration_seconds, notes, called_at, created_at, updated_at, deleted_at
            FROM crm_calls WHERE member_id = ${id} ORDER BY id`,
        ['called_at', ...dates],
      ),
      meetings: await rowsWithDates(
        ex,
        sql`SELECT m.id, m.title, m.starts_at, m.time_zone, m.duration_minutes, m.place, m.link, m.who, m.notes, m.reminded_at, m.created_at, m.updated_at, m.deleted_at,
                   COALESCE((SELECT json_agg(json_build_object('lead_id', i.lead_id, 'contact_id', i.contact_id) ORDER BY i.id)
                             FROM crm_meeting_invitees i WHERE i.meeting_id = m.id), '[]'::json) AS invitees
            FROM crm_meetings m WHERE m.member_id = ${id} ORDER BY m.id`,
        ['starts_at', 'reminded_at', ...dates],
      ),
      sales: await rowsWithDates(
        ex,
        sql`SELECT s.id, s.contact_id, s.contact_name, s.total::text AS total, s.notes, s.created_at, s.updated_at, s.deleted_at,
                   COALESCE((SELECT json_agg(json_build_object('kind', l.kind, 'sku', l.sku, 'name', l.name, 'quantity', l.quantity,
                                                               'unit_price', l.unit_price::text, 'amount', l.amount::text) ORDER BY l.position)
                             FROM crm_sale_lines l WHERE l.sale_id = s.id), '[]'::json) AS lines
            FROM crm_sales s WHERE s.member_id = ${id} ORDER BY s.id`,
        dates,
      ),
      invoices: await rowsWithDates(
        ex,
        sql`SELECT id, sale_id, number, status, issued_on::text AS issued_on, due_on::text AS due_on, total::text AS total,
                   sent_at, paid_at, created_at, updated_at, deleted_at
            FROM crm_invoices WHERE member_id = ${id} ORDER BY id`,
        ['sent_at', 'paid_at', ...dates],
      ),
    };
  },
  async erase(ex, id) {
    await ex.execute(sql`DELETE FROM crm_invoices WHERE member_id = ${id}`);
    await ex.execute(sql`DELETE FROM crm_sale_lines WHERE sale_id IN (SELECT id FROM crm_sales WHERE member_id = ${id})`);
    await ex.execute(sql`DELETE FROM crm_sales WHERE member_id = ${id}`);
    await ex.execute(sql`DELETE FROM crm_invoice_counters WHERE member_id = ${id}`);
    for (const table of ['crm_notes', 'crm_calls', 'crm_meeting_invitees', 'crm_meetings']) await ex.execute(sql`DELETE FROM ${sql.raw(table)} WHERE member_id = ${id}`);
    await ex.execute(sql`UPDATE crm_contacts SET lead_id = NULL WHERE member_id = ${id}`);
    await ex.execute(sql`DELETE FROM crm_leads WHERE member_id = ${id}`);
    await ex.execute(sql`DELETE FROM crm_contacts WHERE member_id = ${id}`);
  },
};

/** Snapshots of the app the member sent to support (already redacted when sent), with their content. */
const supportSnapshots: PersonalDataSection = {
  key: 'support_snapshots',
  async read(ex, id) {
    return rowsWithDates(
      ex,
      sql`SELECT public_id, reason, route, size_bytes, body, created_at FROM support_snapshots WHERE member_id = ${id} ORDER BY created_at, id`,
    );
  },
  async erase(ex, id) {
    await ex.execute(sql`DELETE FROM support_snapshots WHERE member_id = ${id}`);
  },
};

/** Ranks reached (when) and the member's own recruitment targets. */
const achievements: PersonalDataSection = {
  key: 'achievements',
  async read(ex, id) {
    return {
      ranks: await rowsWithDates(
        ex,
        sql`SELECT r.name AS rank, a.achieved_at FROM rank_achievements a JOIN ranks r ON r.id = a.rank_id WHERE a.member_id = ${id} ORDER BY a.achieved_at, r.sort_order`,
        ['achieved_at'],
      ),
      recruitment_targets: await rowsOf(
        ex,
        sql`SELECT month::text AS month, required_count FROM recruitment_targets WHERE member_id = ${id} ORDER BY month`,
      ),
    };
  },
};

export const PERSONAL_DATA: readonly PersonalDataSection[] = [
  profile,
  addresses,
  kyc,
  payments,
  cart,
  crm,
  supportSnapshots,
  uploads,
  payoutDetails,
  accountSettings,
  orders,
  payouts,
  transactions,
  earnings,
  achievements,
  messages,
  supportPersonalData,
  sessions,
  audit,
];
// (Every section, in the order of the export file.)

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

/** Runs every section's erase (inside the deletion's transaction); answers the stored names of the files to delete from disk after the commit. */
export async function erasePersonalData(ex: Executor, memberId: number): Promise<string[]> {
  const files: string[] = [];
  // The uploads go last: the other sections first drop what refers to them (documents, attachments, receipts).
  for (const s of [...PERSONAL_DATA.filter((x) => x !== uploads), uploads]) {
    const removed = s.erase ? await s.erase(ex, memberId) : undefined;
    if (removed) files.push(...removed);
  }
  return files;
}

// @vitest-environment node
/**
 * GET /api/user/data_export: everything the server holds about the caller as a JSON attachment — and never
 * a secret, never another member's data. Each export leaves an audit row; exports are throttled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, get, login, rows, TEST_PASSWORD } from './helpers';

let s: TestServer;
const exportOf = (token?: string) => get(s.app, '/api/user/data_export', { token });

beforeAll(async () => {
  s = await startTestServer({ logLevel: process.env.EXPORT_LOG ?? 'silent' });
}, 120_000);
afterAll(() => s?.close());

/** A member with payouts, earnings and transactions, signed in. */
async function richMember(offset = 0) {
  const [m] = await rows<{ id: number; username: string }>(
    s.database,
    sql`SELECT m.id, m.username FROM members m WHERE m.id > 4 AND m.status = 1
          AND EXISTS (SELECT 1 FROM earnings e WHERE e.member_id = m.id)
          AND EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.member_id = m.id)
        ORDER BY m.id LIMIT 1 OFFSET ${offset}`,
  );
  return { ...m, session: await login(s.app, m.username) };
}

describe('GET /api/user/data_export', () => {
  it('downloads the member\'s own data as a JSON file, and records it', async () => {
    const me = await login(s.app, 'demo');
    const res = await exportOf(me.token);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="upline-personal-data-demo-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.body;
    expect(data.format).toBe('upline.personal-data.v1');
    expect(data.profile).toMatchObject({ username: 'demo', email: 'demo@upline.example', first_name: 'Dana', mobile: '5550100' });
    expect(data.addresses.map((a: { city: string }) => a.city)).toEqual(['Chicago', 'Chicago']);
    expect(data.kyc.status).toEqual(expect.any(String));
    for (const key of ['orders', 'payouts', 'transactions', 'earnings', 'messages', 'sessions', 'audit']) expect(Array.isArray(data[key]), key).toBe(true);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.sessions[0]).toEqual({
      id: expect.any(Number),
      kind: expect.any(String),
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      expires_at: expect.any(String),
      revoked_at: null,
    });
    const [audit] = await rows(s.database, sql`SELECT action FROM account_audit WHERE member_id = (SELECT id FROM members WHERE username = 'demo') ORDER BY id DESC LIMIT 1`);
    expect(audit.action).toBe('data.exported');
    // The next export carries the earlier export's audit row.
    const again = await exportOf(me.token);
    expect(again.body.audit.map((a: { action: string }) => a.action)).toContain('data.exported');
  });

  it('holds the ledger, earnings and payouts of the member, with decimal strings', async () => {
    const m = await richMember();
    const data = (await exportOf(m.session.token)).body;
    expect(data.profile.username).toBe(m.username);
    const [counts] = await rows(
      s.database,
      sql`SELECT (SELECT count(*)::int FROM earnings WHERE member_id = ${m.id}) AS earnings,
                 (SELECT count(*)::int FROM ledger_transactions WHERE member_id = ${m.id}) AS transactions,
                 (SELECT count(*)::int FROM payout_requests WHERE member_id = ${m.id}) AS payouts,
                 (SELECT count(*)::int FROM orders WHERE member_id = ${m.id}) AS orders`,
    );
    expect(data.earnings).toHaveLength(counts.earnings);
    expect(data.transactions).toHaveLength(counts.transactions);
    expect(data.payouts).toHaveLength(counts.payouts);
    expect(data.orders).toHaveLength(counts.orders);
    expect(data.earnings[0].amount_payable).toMatch(/^-?\d+(\.\d+)?$/);
    expect(data.transactions[0].amount).toMatch(/^-?\d+(\.\d+)?$/);
  });

  it('never holds a password hash, token or code', async () => {
    const me = await login(s.app, 'demo');
    const text = JSON.stringify((await exportOf(me.token)).body);
    const [secrets] = await rows<{ hash: string }>(s.database, sql`SELECT password_hash AS hash FROM members WHERE username = 'demo'`);
    expect(text).not.toContain(secrets.hash);
    expect(text).not.toContain(me.token);
    if (me.sso_token) expect(text).not.toContain(me.sso_token);
    const hashes = await rows<{ token_hash: string }>(s.database, sql`SELECT token_hash FROM sessions WHERE member_id = (SELECT id FROM members WHERE username = 'demo')`);
    for (const h of hashes) expect(text).not.toContain(h.token_hash);
    expect(text).not.toMatch(/password_hash|token_hash|code_hash|idempotency_key|"token"/);
  });

  it('only ever exports the caller: another member\'s token gets their own data, no session gets 401', async () => {
    const a = await richMember(1);
    const b = await richMember(2);
    const theirs = (await exportOf(b.session.token)).body;
    expect(theirs.profile.username).toBe(b.username);
    expect(theirs.profile.id).toBe(b.id);
    const mine = (await exportOf(a.session.token)).body;
    expect(mine.profile.id).toBe(a.id);
    const theirIds = new Set(theirs.transactions.map((t: { id: number }) => t.id));
    expect(mine.transactions.some((t: { id: number }) => theirIds.has(t.id))).toBe(false);
    // An id in the query changes nothing.
    const probe = await get(s.app, '/api/user/data_export', { token: a.session.token, query: { id: String(b.id), member_id: String(b.id) } });
    expect(probe.body.profile.id).toBe(a.id);
    expect((await exportOf(undefined)).status).toBe(401);
  });

  it('is throttled per member', async () => {
    const [m] = await bulkMembers(s.database, 1, 40);
    const me = await login(s.app, m.username);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await exportOf(me.token)).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[6]).toBe(429);
    // Another member is not held back.
    const [other] = await bulkMembers(s.database, 1, 41);
    expect((await exportOf((await login(s.app, other.username)).token)).status).toBe(200);
  });
});

/**
 * Every table that holds rows about a member (a column referring to members, or a member_id) is either read by
 * a section of the export or named here with the reason it is not: so a new area cannot be left out unnoticed.
 */
const EXPORTED: Record<string, string> = {
  members: 'profile',
  addresses: 'addresses',
  member_kyc: 'kyc',
  kyc_documents: 'kyc',
  uploads: 'uploads',
  bank_details: 'payout_details',
  payout_methods: 'payout_details',
  notification_settings: 'account_settings',
  member_notices: 'account_settings',
  contact_changes: 'account_settings',
  wallet_passwords: 'account_settings (whether set)',
  member_two_factor: 'account_settings (whether on)',
  two_factor_recovery_codes: 'account_settings (how many left)',
  orders: 'orders',
  payout_requests: 'payouts',
  ledger_transactions: 'transactions',
  earnings: 'earnings',
  rank_achievements: 'achievements',
  recruitment_targets: 'achievements',
  messages: 'messages',
  message_participants: 'messages',
  support_tickets: 'support_tickets',
  support_snapshots: 'support_snapshots',
  sessions: 'sessions',
  account_audit: 'audit',
  package_purchases: 'payments',
  wallet_topups: 'payments',
  card_payments: 'payments',
  otc_requests: 'payments',
  cart_items: 'cart',
  crm_leads: 'crm',
  crm_contacts: 'crm',
  crm_notes: 'crm',
  crm_calls: 'crm',
  crm_meetings: 'crm',
  crm_meeting_invitees: 'crm',
  crm_sales: 'crm',
  crm_invoices: 'crm',
};
const NOT_EXPORTED: Record<string, string> = {
  otp_codes: 'one-time codes: secrets',
  signup_verifications: 'signup keys: secrets',
  two_factor_challenges: 'sign-in challenges: secrets, minutes long',
  ledger_accounts: 'the wallet account itself; its movements are the transactions',
  pv_history: 'volume bookkeeping of the plan; its results are the profile, earnings and ranks',
  binary_history: 'volume bookkeeping of the plan; its results are the profile, earnings and ranks',
  notification_marks: 'which notifications were seen (read markers)',
  notification_reads: 'which notifications were read (read markers)',
  special_members: 'company highlight of a member on the dashboard',
  member_figures: 'sums kept of the exported rows',
  member_wallet_months: 'sums kept of the exported rows',
  member_earning_totals: 'sums kept of the exported rows',
  member_gross_earnings: 'sums kept of the exported rows',
  member_sponsor_months: 'sums kept of the exported rows',
  member_sponsor_teams: 'sponsor downline size kept from the members table (a count of other members)',
  crm_invoice_counters: 'the last invoice number used; the invoices themselves are exported',
  crm_lead_figures: 'counts and sums kept of the exported leads',
  crm_follow_up_days: 'counts kept of the exported leads',
  crm_figures: 'counts kept of the exported contacts',
  member_kept_answers: 'dashboard and network answers kept as computed from the exported rows',
  member_kept_raised: 'which kept answers a transaction raises, emptied as it commits',
};

describe('the export covers every table about the member', () => {
  it('each table with a member column is exported or named with its reason', async () => {
    const tables = await rows<{ table_name: string }>(
      s.database,
      sql`SELECT DISTINCT c.table_name FROM information_schema.columns c
          WHERE c.table_schema = 'public' AND c.column_name IN ('member_id', 'sender_id', 'recipient_id')
          UNION
          SELECT DISTINCT tc.table_name FROM information_schema.table_constraints tc
          JOIN information_schema.constraint_column_usage u ON u.constraint_name = tc.constraint_name AND u.table_schema = tc.table_schema
          WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = 'public' AND u.table_name = 'members'`,
    );
    const unaccounted = tables.map((t) => t.table_name).filter((t) => !(t in EXPORTED) && !(t in NOT_EXPORTED));
    expect(unaccounted).toEqual([]);
    const me = await login(s.app, 'demo');
    const data = (await exportOf(me.token)).body;
    for (const [table, where] of Object.entries(EXPORTED)) expect(data[where.split(' ')[0]], `${table} → ${where}`).toBeDefined();
  });
});

describe('the newer areas in the export, and erased with the account', () => {
  /** A member with a cart, a card payment, a top-up, CRM records, a support snapshot, mail with a file and two-factor sign-in. */
  async function memberOfEveryArea(offset: number) {
    const [m, other] = await bulkMembers(s.database, 2, offset);
    const session = await login(s.app, m.username);
    const q = (query: ReturnType<typeof sql>) => rows<Record<string, number>>(s.database, query);
    const [product] = await q(sql`SELECT id FROM products ORDER BY id LIMIT 1`);
    await q(sql`INSERT INTO cart_items (member_id, product_id, quantity) VALUES (${m.id}, ${product.id}, 3)`);
    await q(sql`INSERT INTO card_payments (session_id, member_id, purpose, ref_id, amount, currency, status, url) VALUES (${`cs_test_${m.id}`}, ${m.id}, 'topup', 1, 25, 'USD', 'open', 'https://pay.example/secret-page')`);
    await q(sql`INSERT INTO wallet_topups (member_id, amount) VALUES (${m.id}, 25)`);
    const [lead] = await q(sql`INSERT INTO crm_leads (member_id, name, email, source, status) VALUES (${m.id}, 'Lena Lead', 'lena@example.org', 'referral', 'new') RETURNING id`);
    const [contact] = await q(sql`INSERT INTO crm_contacts (member_id, name, phone, lead_id) VALUES (${m.id}, 'Carl Contact', '+34 600 000 000', ${lead.id}) RETURNING id`);
    await q(sql`INSERT INTO crm_notes (member_id, lead_id, body) VALUES (${m.id}, ${lead.id}, 'Likes the starter kit')`);
    await q(sql`INSERT INTO crm_calls (member_id, contact_id, who, direction, outcome, called_at) VALUES (${m.id}, ${contact.id}, 'Carl Contact', 'outgoing', 'answered', now())`);
    const [meeting] = await q(sql`INSERT INTO crm_meetings (member_id, title, starts_at, time_zone) VALUES (${m.id}, 'Coffee with Carl', now() + interval '2 days', 'UTC') RETURNING id`);
    await q(sql`INSERT INTO crm_meeting_invitees (meeting_id, member_id, contact_id) VALUES (${meeting.id}, ${m.id}, ${contact.id})`);
    const { catalogue } = (await call<{ data: { catalogue: Array<{ item: string; kind: string }> } }>(s.app, 'GET', '/api/crm/sales/choices', undefined, { token: session.token })).body.data;
    const sold = await call(s.app, 'POST', '/api/crm/sales', { contact_id: String(contact.id), due_days: '30', notes: '', lines: [{ item: catalogue.find((c) => c.kind === 'product')!.item, quantity: '2' }] }, { token: session.token });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    await q(sql`INSERT INTO support_snapshots (public_id, member_id, reason, route, size_bytes, body) VALUES (${`snap-${m.id}`}, ${m.id}, 'It froze', '/member/wallet', 20, '{"route":"/member/wallet"}'::jsonb)`);
    await q(sql`INSERT INTO member_two_factor (member_id, secret_enc, enabled_at) VALUES (${m.id}, 'encrypted-secret-value', now())`);
    await q(sql`INSERT INTO two_factor_recovery_codes (member_id, code_hash) VALUES (${m.id}, 'recovery-hash-1'), (${m.id}, 'recovery-hash-2')`);
    await q(sql`UPDATE two_factor_recovery_codes SET used_at = now() WHERE code_hash = 'recovery-hash-2' AND member_id = ${m.id}`);
    const [thread] = await q(sql`INSERT INTO message_threads (subject) VALUES ('Plans for May') RETURNING id`);
    const [msg] = await q(sql`INSERT INTO messages (thread_id, sender_id, recipient_id, body) VALUES (${thread.id}, ${m.id}, ${other.id}, 'See the file') RETURNING id`);
    await q(sql`INSERT INTO message_participants (thread_id, member_id) VALUES (${thread.id}, ${m.id}), (${thread.id}, ${other.id})`);
    const [upload] = await q(sql`INSERT INTO uploads (member_id, kind, stored_name, original_name, content_type, size_bytes) VALUES (${m.id}, 'mail', ${`${randomBytes(16).toString('hex')}.pdf`}, 'plan.pdf', 'application/pdf', 10) RETURNING id`);
    await q(sql`INSERT INTO message_attachments (message_id, upload_id) VALUES (${msg.id}, ${upload.id})`);
    return { ...m, other, session, messageId: Number(msg.id) };
  }

  it('holds the cart, card payments and top-ups, the CRM, support snapshots, mail files and two-factor state — never a secret', async () => {
    const m = await memberOfEveryArea(60);
    const data = (await exportOf(m.session.token)).body;
    expect(data.cart).toEqual([expect.objectContaining({ quantity: 3, removed_at: null })]);
    expect(data.payments.card_payments).toEqual([expect.objectContaining({ session_id: `cs_test_${m.id}`, purpose: 'topup', status: 'open', currency: 'USD' })]);
    expect(data.payments.wallet_topups).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(data.crm.leads).toEqual([expect.objectContaining({ name: 'Lena Lead', email: 'lena@example.org', status: 'new' })]);
    expect(data.crm.contacts).toEqual([expect.objectContaining({ name: 'Carl Contact', phone: '+34 600 000 000' })]);
    expect(data.crm.notes).toEqual([expect.objectContaining({ body: 'Likes the starter kit' })]);
    expect(data.crm.calls).toEqual([expect.objectContaining({ who: 'Carl Contact', outcome: 'answered' })]);
    expect(data.crm.meetings).toEqual([expect.objectContaining({ title: 'Coffee with Carl', invitees: [{ lead_id: null, contact_id: expect.any(Number) }] })]);
    expect(data.crm.sales).toEqual([expect.objectContaining({ contact_name: 'Carl Contact', lines: [expect.objectContaining({ kind: 'product', quantity: 2 })] })]);
    expect(data.crm.invoices).toEqual([expect.objectContaining({ number: 1, status: 'draft' })]);
    expect(data.support_snapshots).toEqual([expect.objectContaining({ public_id: `snap-${m.id}`, reason: 'It froze', body: { route: '/member/wallet' } })]);
    expect(data.account_settings.two_factor).toEqual({ enabled: true, enabled_at: expect.any(String), recovery_codes_left: 1, recovery_codes_used: 1 });
    const sent = data.messages.find((x: { id: number }) => x.id === m.messageId);
    expect(sent).toMatchObject({ direction: 'sent', subject: 'Plans for May', attachments: [{ name: 'plan.pdf', type: 'application/pdf', size: 10 }] });
    const text = JSON.stringify(data);
    for (const secret of ['encrypted-secret-value', 'recovery-hash-1', 'https://pay.example/secret-page']) expect(text).not.toContain(secret);
  });

  it('a member with records in every area deletes the account: those records erased, the other party keeps the message', async () => {
    const m = await memberOfEveryArea(70);
    const res = await call(s.app, 'DELETE', '/api/users', { password: TEST_PASSWORD }, { token: m.session.token });
    expect(res.status).toBe(200);
    const [left] = await rows<Record<string, number>>(
      s.database,
      sql`SELECT (SELECT count(*)::int FROM cart_items WHERE member_id = ${m.id}) AS cart,
                 (SELECT count(*)::int FROM crm_leads WHERE member_id = ${m.id}) + (SELECT count(*)::int FROM crm_contacts WHERE member_id = ${m.id})
                 + (SELECT count(*)::int FROM crm_notes WHERE member_id = ${m.id}) + (SELECT count(*)::int FROM crm_calls WHERE member_id = ${m.id})
                 + (SELECT count(*)::int FROM crm_meetings WHERE member_id = ${m.id}) + (SELECT count(*)::int FROM crm_meeting_invitees WHERE member_id = ${m.id})
                 + (SELECT count(*)::int FROM crm_sales WHERE member_id = ${m.id})
                 + (SELECT count(*)::int FROM crm_invoices WHERE member_id = ${m.id}) AS crm,
                 (SELECT count(*)::int FROM support_snapshots WHERE member_id = ${m.id}) AS snapshots,
                 (SELECT count(*)::int FROM uploads WHERE member_id = ${m.id}) AS uploads,
                 (SELECT count(*)::int FROM two_factor_recovery_codes WHERE member_id = ${m.id}) AS recovery,
                 (SELECT count(*)::int FROM messages WHERE id = ${m.messageId}) AS message`,
    );
    expect(left).toEqual({ cart: 0, crm: 0, snapshots: 0, uploads: 0, recovery: 0, message: 1 });
  });
});

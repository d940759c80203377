// @vitest-environment node
/**
 * DELETE /api/users: the member deletes their own account with the password (plus the storefront token when
 * the store module is on). Afterwards every session has ended, signing in fails, the member is anonymised
 * and the tree and the ledger still answer for the upline under the placeholder username.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { call, freshIp, get, login, post, rows, TEST_PASSWORD, withSettings } from './helpers';

let s: TestServer;

const remove = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) => call(s.app, 'DELETE', '/api/users', body, { token, headers });
const signIn = (username: string) => post(s.app, '/api/auth/login', { login_using: 'username', username, password: TEST_PASSWORD }, { ip: freshIp() });

/** Members with a sponsor among the ordinary members who earned from them, taken one per test. */
let picked = 0;
async function memberWithUpline() {
  const found = await rows<{ id: number; username: string; email: string; upline_id: number; upline: string }>(
    s.database,
    sql`SELECT m.id, m.username, m.email, u.id AS upline_id, u.username AS upline
        FROM members m JOIN members u ON u.id = m.parent_id
        WHERE m.id > 4 AND u.id > 4 AND m.status = 1 AND u.status = 1 AND m.verified
          AND EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.from_member_id = m.id AND t.member_id = u.id)
        ORDER BY m.id LIMIT 1 OFFSET ${picked++}`,
  );
  if (!found[0]) throw new Error('no member with an upline that earned from them');
  return found[0];
}

beforeAll(async () => {
  s = await startTestServer();
}, 120_000);
afterAll(() => s?.close());

describe('DELETE /api/users', () => {
  it('refuses bad input with a field map, never a server error', async () => {
    const m = await memberWithUpline();
    const me = await login(s.app, m.username);
    for (const body of [{}, { password: '' }, { password: 42 }, { password: 'x'.repeat(5000) }, { password: TEST_PASSWORD, extra: 1 }, []]) {
      const res = await remove(me.token, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body.error_code).toBe('validation_error');
    }
    const raw = await call(s.app, 'DELETE', '/api/users', undefined, { token: me.token, raw: '{not json' });
    expect(raw.status).toBe(400);
    // Nothing happened: still signed in, same name.
    expect((await get(s.app, '/api/auth_check', { token: me.token })).status).toBe(200);
  });

  it('keeps the account when the password is wrong, and answers 401 without a session', async () => {
    const m = await memberWithUpline();
    const me = await login(s.app, m.username);
    const wrong = await remove(me.token, { password: 'Not-my-pass-1' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    expect((await remove(undefined, { password: TEST_PASSWORD })).status).toBe(401);
    expect((await signIn(m.username)).status).toBe(200);
    const [audit] = await rows(s.database, sql`SELECT count(*)::int AS n FROM account_audit WHERE member_id = ${m.id} AND action = 'account.deleted'`);
    expect(audit.n).toBe(0);
  });

  it('deletes: signed out everywhere, sign-in fails, the member anonymised with an audit row', async () => {
    const m = await memberWithUpline();
    const me = await login(s.app, m.username);
    const other = await login(s.app, m.username);
    await post(s.app, '/api/user/addresses', { first_name: 'Ana', address_1: 'Calle Sol 1', city: 'Sevilla', country_id: 1 }, { token: me.token });
    const res = await remove(me.token, { password: TEST_PASSWORD });
    expect(res.status).toBe(200);

    for (const t of [me.token, other.token]) expect((await get(s.app, '/api/auth_check', { token: t })).status).toBe(401);
    expect((await signIn(m.username)).status).toBe(422);
    expect((await signIn(`deleted-${m.id}`)).status).toBe(422);

    const [row] = await rows(s.database, sql`SELECT username, email, mobile, first_name, last_name, avatar, status, deleted_at FROM members WHERE id = ${m.id}`);
    expect(row).toMatchObject({ username: `deleted-${m.id}`, email: null, mobile: null, first_name: 'Deleted', last_name: 'member', avatar: null, status: 0 });
    expect(row.deleted_at).not.toBeNull();
    const addresses = await rows(s.database, sql`SELECT first_name, address_1, city, deleted_at FROM addresses WHERE member_id = ${m.id}`);
    for (const a of addresses) expect(a).toMatchObject({ first_name: '', address_1: '', city: '' });
    expect(addresses.every((a) => a.deleted_at !== null)).toBe(true);
    const live = await rows(s.database, sql`SELECT count(*)::int AS n FROM sessions WHERE member_id = ${m.id} AND revoked_at IS NULL`);
    expect(live[0].n).toBe(0);
    const audit = await rows(s.database, sql`SELECT action, detail FROM account_audit WHERE member_id = ${m.id} AND action = 'account.deleted'`);
    expect(audit).toEqual([{ action: 'account.deleted', detail: {} }]);
    // The address the member had is told once; nothing else about them is kept.
    const [mail] = await rows(s.database, sql`SELECT subject, body FROM outbox WHERE destination = ${m.email} ORDER BY id DESC LIMIT 1`);
    expect(mail.subject).toBe('Your account was deleted');
  });

  it('erases what the account settings kept: bank details, payout method, uploads and the identity number, wallet password, two-factor, notices', async () => {
    const m = await memberWithUpline();
    const me = await login(s.app, m.username);
    await rows(s.database, sql`INSERT INTO bank_details (member_id, account_holder, country, iban, bic, bank_name) VALUES (${m.id}, 'Ana Ruiz', 'DE', 'DE89370400440532013000', 'COBADEFFXXX', 'Commerzbank')`);
    await rows(s.database, sql`INSERT INTO payout_methods (member_id, method, destination) VALUES (${m.id}, 'bank_transfer', NULL)`);
    await rows(s.database, sql`INSERT INTO wallet_passwords (member_id, password_hash) VALUES (${m.id}, 'hash')`);
    await rows(s.database, sql`INSERT INTO member_two_factor (member_id, secret_enc, enabled_at) VALUES (${m.id}, 'enc', now())`);
    await rows(s.database, sql`INSERT INTO member_notices (member_id, event, subject, body) VALUES (${m.id}, 'kyc_decision', 'Approved', 'Your documents were approved.')`);
    const [upload] = await rows<{ id: number }>(
      s.database,
      sql`INSERT INTO uploads (member_id, kind, stored_name, original_name, content_type, size_bytes) VALUES (${m.id}, 'kyc', ${'ab'.repeat(16) + '.png'}, 'passport.png', 'image/png', 10) RETURNING id`,
    );
    const [doc] = await rows<{ id: number }>(
      s.database,
      sql`INSERT INTO kyc_documents (member_id, category_id, id_number, status) SELECT ${m.id}, id, 'X1234567', 'pending' FROM kyc_categories ORDER BY id LIMIT 1 RETURNING id`,
    );
    await rows(s.database, sql`INSERT INTO kyc_document_files (document_id, upload_id, position) VALUES (${doc.id}, ${upload.id}, 0)`);

    // Before: the export holds all of it (and no secret).
    const exported = await get(s.app, '/api/user/data_export', { token: me.token });
    expect(exported.status).toBe(200);
    const text = typeof exported.body === 'string' ? exported.body : JSON.stringify(exported.body);
    for (const shown of ['DE89370400440532013000', 'X1234567', 'passport.png', 'Your documents were approved.']) expect(text).toContain(shown);
    for (const secret of ['"enc"', '"hash"', 'secret_enc', 'password_hash']) expect(text).not.toContain(secret);

    expect((await remove(me.token, { password: TEST_PASSWORD })).status).toBe(200);
    for (const table of ['bank_details', 'payout_methods', 'wallet_passwords', 'member_two_factor', 'member_notices', 'uploads']) {
      const [left] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE member_id = ${m.id}`);
      expect(left.n, table).toBe(0);
    }
    // Every identity number the member gave is gone (the seed may have given them documents of their own too).
    const docs = await rows<{ id: number; id_number: string | null; status: string }>(s.database, sql`SELECT id, id_number, status FROM kyc_documents WHERE member_id = ${m.id}`);
    expect(docs.every((d) => d.id_number === null)).toBe(true);
    expect(docs.find((d) => d.id === doc.id)).toMatchObject({ id_number: null, status: 'pending' });
  });

  it('leaves the tree and the ledger readable for the upline, under the placeholder username', async () => {
    const m = await memberWithUpline();
    const me = await login(s.app, m.username);
    const upline = await login(s.app, m.upline);
    const before = await get(s.app, '/api/wallet/transactions', { token: upline.token, query: { limit: '100' } });
    const fromMe = (before.body.data.items as Array<{ id: number; from_user: string | null }>).filter((t) => t.from_user === m.username);
    expect(fromMe.length).toBeGreaterThan(0);
    expect((await remove(me.token, { password: TEST_PASSWORD })).status).toBe(200);

    const tree = await get(s.app, '/api/network/genealogy', { token: upline.token, query: { is_nested: '1' } });
    expect(tree.status).toBe(200);
    expect(JSON.stringify(tree.body.data)).toContain(`"deleted-${m.id}"`);
    expect(JSON.stringify(tree.body.data)).not.toContain(`"${m.username}"`);

    const after = await get(s.app, '/api/wallet/transactions', { token: upline.token, query: { limit: '100' } });
    expect(after.status).toBe(200);
    const items = after.body.data.items as Array<{ id: number; from_user: string | null; amount: string }>;
    for (const t of fromMe) expect(items.find((x) => x.id === t.id)?.from_user).toBe(`deleted-${m.id}`);
    // The ledger keeps every entry: the upline's transactions are the same ones with the same amounts.
    expect(items.map((x) => [x.id, x.amount])).toEqual((before.body.data.items as typeof items).map((x) => [x.id, x.amount]));
  });

  it('with the store module on, needs the storefront token of the member', async () => {
    await withSettings(s.app, 'modules', { store: true }, async () => {
      const m = await memberWithUpline();
      const me = await login(s.app, m.username);
      const someone = await memberWithUpline();
      const theirs = await login(s.app, someone.username);
      expect(me.store_token).toBeTruthy();

      const missing = await remove(me.token, { password: TEST_PASSWORD });
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual({ store_token: ['validation:required'] });
      const foreign = await remove(me.token, { password: TEST_PASSWORD }, { 'x-store-token': theirs.store_token! });
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors).toEqual({ store_token: ['validation:invalid'] });
      expect((await get(s.app, '/api/auth_check', { token: me.token })).status).toBe(200);

      const ok = await remove(me.token, { password: TEST_PASSWORD }, { 'x-store-token': me.store_token! });
      expect(ok.status).toBe(200);
      const [store] = await rows(s.database, sql`SELECT count(*)::int AS n FROM sessions WHERE member_id = ${m.id} AND kind = 'store' AND revoked_at IS NULL`);
      expect(store.n).toBe(0);
      // The other member is untouched.
      expect((await get(s.app, '/api/auth_check', { token: theirs.token })).status).toBe(200);
    });
  });

  it('never deletes the company account', async () => {
    const admin = await login(s.app, 'admin');
    const res = await remove(admin.token, { password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect((await get(s.app, '/api/auth_check', { token: admin.token })).status).toBe(200);
  });
});

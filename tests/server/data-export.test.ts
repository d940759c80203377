// @vitest-environment node
/**
 * GET /api/user/data_export: everything the server holds about the caller as a JSON attachment — and never
 * a secret, never another member's data. Each export leaves an audit row; exports are throttled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, get, login, rows } from './helpers';

let s: TestServer;
const exportOf = (token?: string) => get(s.app, '/api/user/data_export', { token });

beforeAll(async () => {
  s = await startTestServer();
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

// @vitest-environment node
/**
 * /api/user/wallet_password: set with the account password, change with the current wallet password,
 * reset with a code sent to the member's e-mail; hashed, audited, throttled, only ever the caller's.
 * Once set, a payout refuses the account password and takes the wallet password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { adjustWallet } from '../../server/lib/ledger';
import * as money from '../../server/lib/money';
import { setPayoutMethod } from './wallet-support';
import { ageLastCode, bulkMembers, call, get, lastCode, login, outboxCount, post, rows, TEST_PASSWORD } from './helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
}, 120_000);
afterAll(() => s?.close());

let offset = 10;
async function member() {
  const [m] = await bulkMembers(s.database, 1, offset++);
  return { ...m, session: await login(s.app, m.username) };
}
type Member = Awaited<ReturnType<typeof member>>;

const WALLET = 'Wallet-pass-2031';
const OTHER = 'Wallet-pass-2032';
const W = '/api/user/wallet_password';
const status = (m: Member) => get(s.app, W, { token: m.session.token });
const setIt = (m: Member, wallet = WALLET, password = TEST_PASSWORD, confirmation = wallet) =>
  post(s.app, W, { password, wallet_password: wallet, wallet_password_confirmation: confirmation }, { token: m.session.token });
const change = (m: Member, current: string, wallet: string, confirmation = wallet) =>
  call(s.app, 'PUT', W, { current_wallet_password: current, wallet_password: wallet, wallet_password_confirmation: confirmation }, { token: m.session.token });
const resetCode = (m: Member) => post(s.app, `${W}/reset_code`, undefined, { token: m.session.token });
const reset = (m: Member, otp: string, wallet: string, confirmation = wallet) =>
  post(s.app, `${W}/reset`, { otp, wallet_password: wallet, wallet_password_confirmation: confirmation }, { token: m.session.token });
const audit = async (id: number) => (await rows<{ action: string }>(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${id} ORDER BY id`)).map((r) => r.action);
const stored = async (id: number) => (await rows<{ h: string }>(s.database, sql`SELECT password_hash AS h FROM wallet_passwords WHERE member_id = ${id}`))[0]?.h;
const requestPayout = (m: Member, password: string, amount = '60') =>
  call(s.app, 'POST', '/api/payout/request_payout', { amount, password }, { token: m.session.token, headers: { 'idempotency-key': randomUUID() } });

async function funded() {
  const m = await member();
  await adjustWallet(s.database.db, { memberId: m.id, amount: money.parse('1000'), memo: 'test funds' });
  await s.database.db.execute(sql`INSERT INTO member_kyc (member_id, status) VALUES (${m.id}, 'approved') ON CONFLICT (member_id) DO UPDATE SET status = EXCLUDED.status`);
  await setPayoutMethod(s, m.id);
  return m;
}

describe('setting the wallet password', () => {
  it('is not set at first; set with the account password, stored hashed, audited, the member told', async () => {
    const m = await member();
    const first = await status(m);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ is_set: false, reset_destination: expect.stringMatching(/^.\*\*\*@/) });
    expect(first.body.data.password_policy).toBeDefined();
    const before = await outboxCount(s.database, m.email);

    const res = await setIt(m);
    expect(res.status).toBe(200);
    expect(res.body.data.is_set).toBe(true);
    expect((await status(m)).body.data.is_set).toBe(true);
    const hash = await stored(m.id);
    expect(hash).toBeTruthy();
    expect(hash).not.toContain(WALLET);
    expect(await audit(m.id)).toEqual(['wallet_password.set']);
    expect(await outboxCount(s.database, m.email)).toBe(before + 1);
  });

  it('refuses a wrong account password, a weak or mismatched one, the account password itself, and a second set', async () => {
    const m = await member();
    expect((await setIt(m, WALLET, 'Not-my-pass-9')).body.errors).toEqual({ password: ['validation:invalidPassword'] });
    const weak = await setIt(m, 'short');
    expect(weak.status).toBe(422);
    expect(weak.body.errors.wallet_password).toEqual(expect.arrayContaining(['validation:passwordMinLength']));
    expect((await setIt(m, WALLET, TEST_PASSWORD, OTHER)).body.errors).toEqual({ wallet_password_confirmation: ['validation:passwordMismatch'] });
    expect((await setIt(m, TEST_PASSWORD)).body.errors).toEqual({ wallet_password: ['account:walletPassword.errors.sameAsAccount'] });
    const missing = await post(s.app, W, { wallet_password: WALLET }, { token: m.session.token });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({ password: ['validation:required'], wallet_password_confirmation: ['validation:required'] });
    expect(await stored(m.id)).toBeUndefined();
    expect(await audit(m.id)).toEqual([]);

    expect((await setIt(m)).status).toBe(200);
    const again = await setIt(m, OTHER);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ wallet_password: ['account:walletPassword.errors.alreadySet'] });
  });
});

describe('changing the wallet password', () => {
  it('takes the current wallet password; a wrong one is a field error and changes nothing', async () => {
    const m = await member();
    const notSet = await change(m, WALLET, OTHER);
    expect(notSet.status).toBe(422);
    expect(notSet.body.errors).toEqual({ current_wallet_password: ['account:walletPassword.errors.notSet'] });
    await setIt(m);
    const hash = await stored(m.id);
    const wrong = await change(m, 'Wrong-pass-2030', OTHER);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ current_wallet_password: ['validation:invalidPassword'] });
    // The account password is not the wallet password.
    expect((await change(m, TEST_PASSWORD, OTHER)).status).toBe(422);
    expect(await stored(m.id)).toBe(hash);

    expect((await change(m, WALLET, WALLET)).body.errors).toEqual({ wallet_password: ['account:walletPassword.errors.sameAsCurrent'] });
    const ok = await change(m, WALLET, OTHER);
    expect(ok.status).toBe(200);
    expect(await stored(m.id)).not.toBe(hash);
    expect(await audit(m.id)).toEqual(['wallet_password.set', 'wallet_password.changed']);
  });

  it('five wrong wallet passwords in a row lock it (429), even the right one, for this member only', async () => {
    const m = await member();
    await setIt(m);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await change(m, `Wrong-pass-${i}0`, OTHER)).status);
    expect(statuses).toEqual(Array(5).fill(422));
    const locked = await change(m, WALLET, OTHER);
    expect(locked.status).toBe(429);
    expect(locked.body.error_code).toBe('rate_limited');
    // Payouts are held back by the same lock.
    expect((await requestPayout(m, WALLET)).status).toBe(429);

    const other = await member();
    await setIt(other);
    expect((await change(other, WALLET, OTHER)).status).toBe(200);

    // After the lock, the right one works and the count starts again.
    await s.database.db.execute(sql`UPDATE wallet_passwords SET locked_until = now() - interval '1 second' WHERE member_id = ${m.id}`);
    expect((await change(m, WALLET, OTHER)).status).toBe(200);
  });
});

describe('resetting a forgotten wallet password', () => {
  it("sends a code to the member's e-mail and sets a new one with it; the code is single use", async () => {
    const m = await member();
    expect((await resetCode(m)).body.errors).toEqual({ otp: ['account:walletPassword.errors.notSet'] });
    await setIt(m);
    const sent = await resetCode(m);
    expect(sent.status).toBe(200);
    expect(sent.body.data.destination).toMatch(/^.\*\*\*@/);
    const code = (await lastCode(s.database, m.email))!;
    expect(code).toMatch(/^\d{6}$/);

    // A refused new password does not use the code up.
    expect((await reset(m, code, 'weak')).status).toBe(422);
    const wrong = await reset(m, String((Number(code) + 1) % 1_000_000).padStart(6, '0'), OTHER);
    expect(wrong.body.errors).toEqual({ otp: ['validation:otpInvalid'] });

    const ok = await reset(m, code, OTHER);
    expect(ok.status).toBe(200);
    expect((await reset(m, code, 'Wallet-pass-2033')).status).toBe(422);
    expect((await change(m, OTHER, 'Wallet-pass-2034')).status).toBe(200);
    expect(await audit(m.id)).toEqual(['wallet_password.set', 'wallet_password.reset', 'wallet_password.changed']);
  });

  it('an expired code is refused; a resend waits 30 s', async () => {
    const m = await member();
    await setIt(m);
    await resetCode(m);
    expect((await resetCode(m)).status).toBe(429);
    const code = (await lastCode(s.database, m.email))!;
    await ageLastCode(s.database, 'wallet_reset', `member:${m.id}:wallet`, 601);
    expect((await reset(m, code, OTHER)).body.errors).toEqual({ otp: ['validation:otpExpired'] });
    expect((await resetCode(m)).status).toBe(200);
  });

  it("another member's code does not reset this member's wallet password", async () => {
    const me = await member();
    const them = await member();
    await setIt(me);
    await setIt(them);
    await resetCode(them);
    const theirCode = (await lastCode(s.database, them.email))!;
    expect((await reset(me, theirCode, OTHER)).status).toBe(422);
    expect((await change(me, WALLET, 'Wallet-pass-2035')).status).toBe(200);
    expect((await reset(them, theirCode, OTHER)).status).toBe(200);
  });
});

describe('payouts with a wallet password', () => {
  it('the payout settings say which password to ask for; once set, the account password is refused and the wallet password accepted', async () => {
    const m = await funded();
    const before = await get(s.app, '/api/payout/settings', { token: m.session.token });
    expect(before.body.data.password_kind).toBe('account');
    await setIt(m);
    const after = await get(s.app, '/api/payout/settings', { token: m.session.token });
    expect(after.body.data.password_kind).toBe('wallet');

    const withAccount = await requestPayout(m, TEST_PASSWORD);
    expect(withAccount.status).toBe(422);
    expect(withAccount.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    const withWallet = await requestPayout(m, WALLET);
    expect(withWallet.status).toBe(201);
  });

  it('without a wallet password the account password still works', async () => {
    const m = await funded();
    expect((await requestPayout(m, TEST_PASSWORD)).status).toBe(201);
  });
});

describe('wallet payments with a wallet password', () => {
  it('shop checkout, package payment and the wallet payment call refuse the account password and take the wallet password', async () => {
    const m = await funded();
    expect((await setIt(m)).status).toBe(200);
    const token = m.session.token;

    // Shop checkout from the wallet.
    const [product] = await rows<{ id: number }>(s.database, sql`INSERT INTO products (sku, name, price, bv, pv, stock) VALUES (${`W-${randomUUID().slice(0, 8)}`}, 'Wallet test', '10.00', '1', '1', 20) RETURNING id`);
    const [us] = await rows<{ id: number }>(s.database, sql`SELECT id FROM countries WHERE iso_code_2 = 'US'`);
    await post(s.app, '/api/shop/cart', { product_id: Number(product.id), quantity: 1 }, { token });
    const checkout = (password: string) =>
      call(
        s.app,
        'POST',
        '/api/shop/checkout',
        { address: { first_name: 'Rae', address_1: '1 Main St', city: 'Springfield', country_id: Number(us.id) }, payment_method: 'wallet', password },
        { token, headers: { 'idempotency-key': randomUUID() } },
      );
    const byAccount = await checkout(TEST_PASSWORD);
    expect(byAccount.status).toBe(422);
    expect(byAccount.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    expect((await checkout(WALLET)).status).toBe(201);

    // A package purchase paid from the wallet, then one paid through the wallet payment call.
    await s.database.db.execute(sql`UPDATE members SET package_id = NULL, package_expiry = NULL WHERE id = ${m.id}`);
    const packageId = async (name: string) => Number((await rows<{ id: number }>(s.database, sql`SELECT id FROM packages WHERE name = ${name}`))[0].id);
    const first = (await post(s.app, '/api/packages/purchases', { package_id: await packageId('Starter') }, { token })).body.data;
    const wrong = await post(s.app, `/api/packages/purchases/${first.id}/wallet`, { password: TEST_PASSWORD }, { token });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toEqual(['validation:invalidPassword']);
    expect((await post(s.app, `/api/packages/purchases/${first.id}/wallet`, { password: WALLET }, { token })).status).toBe(200);

    const upgrade = (await post(s.app, '/api/packages/purchases', { package_id: await packageId('Business') }, { token })).body.data;
    const viaCall = (password: string) => call(s.app, 'POST', '/api/payments/wallet', { purpose: 'package', ref_id: upgrade.id, password }, { token, headers: { 'idempotency-key': randomUUID() } });
    const refused = await viaCall(TEST_PASSWORD);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.password).toEqual(['validation:invalidPassword']);
    expect((await viaCall(WALLET)).status).toBeLessThan(300);
    expect((await get(s.app, `/api/packages/purchases/${upgrade.id}`, { token })).body.data.status).toBe('paid');
  });
});

describe('access', () => {
  it('answers 401 without a session and 403 in demo mode', async () => {
    expect((await get(s.app, W)).status).toBe(401);
    expect((await post(s.app, W, { password: TEST_PASSWORD, wallet_password: WALLET, wallet_password_confirmation: WALLET })).status).toBe(401);
    const m = await member();
    s.config.demoMode = true;
    try {
      expect((await setIt(m)).body.error_code).toBe('demo_blocked');
    } finally {
      s.config.demoMode = false;
    }
  });

  it("a member cannot name another member: unknown fields are refused and the other's password is untouched", async () => {
    const me = await member();
    const them = await member();
    const res = await post(s.app, W, { password: TEST_PASSWORD, wallet_password: WALLET, wallet_password_confirmation: WALLET, member_id: them.id }, { token: me.session.token });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ member_id: ['validation:unknownField'] });
    expect((await setIt(me)).status).toBe(200);
    expect((await status(them)).body.data.is_set).toBe(false);
  });
});

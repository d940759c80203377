// @vitest-environment node
/**
 * Package payment and over-the-counter payments through the real server: the offer, purchases (first,
 * upgrade, renewal) and their rules, payment by e-wallet (password, balance, never overdrawn under
 * concurrency, a second payment answers the first), the volume a paid purchase sends up the placement tree
 * (figures worked out by hand from the seeded packages), the counter desk (request, receipt, history,
 * approval that pays once, rejection with a reason, expiry), and nothing of another member's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { TEST_PASSWORD } from '../support/server';
import { call, get, login, post, rows } from './helpers';
import { file, pdf, photo, postMultipart, text } from './upload-support';
import { adjustWallet, walletBalance } from '../../server/lib/ledger';
import { decideOtc } from '../../server/lib/otc';
import * as money from '../../server/lib/money';
import { OPERATOR_AREAS } from '../../server/operator/areas';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const pkgId = async (name: string) => (await rows<{ id: number }>(s.database, sql`SELECT id FROM packages WHERE name = ${name}`))[0].id;
const memberRow = async (id: number) =>
  (
    await rows<{ package_id: number | null; package_expiry: Date | null; pv: string; tv: string; rank_id: number | null }>(
      s.database,
      sql`SELECT package_id, package_expiry, pv::text AS pv, tv::text AS tv, rank_id FROM members WHERE id = ${id}`,
    )
  )[0];
const balanceOf = async (id: number) => money.format(await walletBalance(s.database.db, id), 2);

/** Ordinary members (not the named ones) holding `pkg`, deepest first, each signed in. */
const used = new Set<number>();
async function memberWith(pkg: string | null, extra = sql``) {
  const found = await rows<{ id: number; username: string }>(
    s.database,
    sql`SELECT m.id, m.username FROM members m LEFT JOIN packages p ON p.id = m.package_id
        WHERE m.id > 4 AND m.status = 1 AND m.depth >= 3 AND m.sponsor_id IS NOT NULL AND ${pkg === null ? sql`m.package_id IS NULL` : sql`p.name = ${pkg}`} ${extra}
        ORDER BY m.depth DESC, m.id`,
  );
  const m = found.find((f) => !used.has(f.id));
  if (!m) throw new Error(`no free member with ${pkg}`);
  used.add(m.id);
  const { token } = await login(s.app, m.username);
  return { ...m, token };
}
const fund = (memberId: number, amount: string) => adjustWallet(s.database.db, { memberId, amount: money.parse(amount), memo: 'test funding' });

describe('GET /api/packages', () => {
  it('answers Package data, the wallet balance, the password kind and the methods', async () => {
    const { token } = await login(s.app, 'demo');
    const res = await get(s.app, '/api/packages', { token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.package_data.packages.map((p: { name: string }) => p.name)).toEqual(['Starter', 'Business', 'Elite']);
    expect(d.methods).toEqual(['wallet', 'card', 'otc']);
    expect(d.roi).toBe(false);
    expect(d.return_schedules).toEqual([]);
    expect(d.wallet_balance).toMatch(/^\d+\.\d{2}$/);
    expect(['account', 'wallet']).toContain(d.password_kind);
  });
  it('with roi on, shows each package with a return as an investment schedule', async () => {
    const modules = (await s.database.rows<{ value: Record<string, unknown> }>(sql`SELECT value FROM settings WHERE key = 'modules'`))[0].value;
    await s.database.db.execute(sql`UPDATE settings SET value = ${JSON.stringify({ ...modules, roi: true })}::jsonb WHERE key = 'modules'`);
    await s.database.db.execute(sql`UPDATE packages SET roi_bonus = 2 WHERE name = 'Elite'`);
    try {
      const { token } = await login(s.app, 'demo');
      await new Promise((r) => setTimeout(r, 2100)); // the settings cache re-reads its version every 2 s
      const d = (await get(s.app, '/api/packages', { token })).body.data;
      expect(d.roi).toBe(true);
      // Elite: 500 × 2 % = 10.00 a month for 365 / 30 → 12 months = 120.00.
      expect(d.return_schedules).toEqual([{ package_id: await pkgId('Elite'), rate: '2.00', monthly: '10.00', months: 12, total: '120.00' }]);
    } finally {
      await s.database.db.execute(sql`UPDATE settings SET value = ${JSON.stringify(modules)}::jsonb WHERE key = 'modules'`);
      await s.database.db.execute(sql`UPDATE packages SET roi_bonus = 0 WHERE name = 'Elite'`);
    }
  });
  it('needs a signed-in member', async () => {
    expect((await get(s.app, '/api/packages')).status).toBe(401);
    expect((await post(s.app, '/api/packages/purchases', { package_id: 1 })).status).toBe(401);
  });
});

describe('POST /api/packages/purchases', () => {
  it('an upgrade costs the price and PV difference; a lower or the same active package is refused', async () => {
    const m = await memberWith('Starter');
    const res = await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Elite') }, { token: m.token });
    expect(res.status).toBe(201);
    // Elite 500 / 400 PV − Starter 100 / 50 PV.
    expect(res.body.data).toMatchObject({ kind: 'upgrade', status: 'pending', package_name: 'Elite', from_package_name: 'Starter', amount: '400.00', pv: '350.00', payment_method: null });
    const same = await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Starter') }, { token: m.token });
    expect(same.status).toBe(422);
    expect(same.body.errors.package_id).toEqual(['store:packages.errors.stillActive']);
    const b = await memberWith('Business');
    const lower = await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Starter') }, { token: b.token });
    expect(lower.body.errors.package_id).toEqual(['store:packages.errors.lowerPackage']);
  });
  it('a member without a package buys at full price; an expired one renews', async () => {
    const m = await memberWith('Business');
    await s.database.db.execute(sql`UPDATE members SET package_expiry = now() - interval '3 days' WHERE id = ${m.id}`);
    const res = await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Business') }, { token: m.token });
    expect(res.body.data).toMatchObject({ kind: 'renewal', amount: '250.00', pv: '150.00' });
    await s.database.db.execute(sql`UPDATE members SET package_id = NULL, package_expiry = NULL WHERE id = ${m.id}`);
    const first = await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Starter') }, { token: m.token });
    expect(first.body.data).toMatchObject({ kind: 'purchase', amount: '100.00', pv: '50.00', from_package_name: null });
    // The earlier pending choice was replaced.
    expect((await get(s.app, `/api/packages/purchases/${res.body.data.id}`, { token: m.token })).body.data.status).toBe('cancelled');
  });
  it('bad input → 4xx with a field map, never 5xx', async () => {
    const { token } = await login(s.app, 'demo');
    for (const body of [{}, { package_id: 'x' }, { package_id: 1.5 }, { package_id: -1 }, { package_id: 99999 }, { package_id: 2 ** 40 }, { package_id: 1, extra: 1 }, null, []]) {
      const res = await post(s.app, '/api/packages/purchases', body, { token });
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const res = await post(s.app, '/api/packages/purchases', { package_id: 99999 }, { token });
    expect(res.body.errors.package_id).toEqual(['validation:invalidChoice']);
  });
  it("another member's purchase, or no purchase, is 404", async () => {
    const a = await memberWith('Starter');
    const b = await memberWith('Starter');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Business') }, { token: a.token })).body.data;
    expect((await get(s.app, `/api/packages/purchases/${p.id}`, { token: a.token })).status).toBe(200);
    expect((await get(s.app, `/api/packages/purchases/${p.id}`, { token: b.token })).status).toBe(404);
    expect((await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token: b.token })).status).toBe(404);
    expect((await get(s.app, '/api/packages/purchases/abc', { token: a.token })).status).toBe(404);
    expect((await get(s.app, '/api/packages/purchases/999999999999', { token: a.token })).status).toBe(404);
  });
});

describe('paying by e-wallet', () => {
  it('takes the password, refuses an empty wallet, then pays once: package, order, balance', async () => {
    const m = await memberWith('Starter');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Business') }, { token: m.token })).body.data;
    const wrong = await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: 'nope' }, { token: m.token });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toEqual(['validation:invalidPassword']);
    const balance = money.parse(await balanceOf(m.id));
    if (balance > 0n) await adjustWallet(s.database.db, { memberId: m.id, amount: -balance, memo: 'test: empty the wallet' });
    const poor = await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token });
    expect(poor.status).toBe(422);
    expect(poor.body.errors.password).toEqual(['store:packages.errors.insufficientBalance']);

    await fund(m.id, '160');
    const paid = await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token });
    expect(paid.status).toBe(200);
    // 160 − (Business 250 − Starter 100).
    expect(paid.body.data).toMatchObject({ wallet_balance: '10.00', purchase: { status: 'paid', payment_method: 'wallet' } });
    expect((await memberRow(m.id)).package_id).toBe(await pkgId('Business'));
    const order = await get(s.app, `/api/orders/${paid.body.data.purchase.order_id}`, { token: m.token });
    expect(order.body.data).toMatchObject({ order_type: 'upgrade', total: '150.0000', payment_method: 'e_wallet' });
    expect(order.body.data.products[0]).toMatchObject({ name: 'Business', quantity: 1 });

    const again = await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(m.id)).toBe('10.00');
  });

  it('20 payments at once of one purchase charge it once', async () => {
    const m = await memberWith('Starter');
    await fund(m.id, '1000');
    const before = money.parse(await balanceOf(m.id));
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Elite') }, { token: m.token })).body.data;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(money.parse(await balanceOf(m.id))).toBe(before - money.parse('400'));
    const [{ n }] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM orders WHERE member_id = ${m.id} AND package_name = 'Elite' AND order_type = 'upgrade'`);
    expect(n).toBe(1);
  });

  it('20 payments at once of different purchases never overdraw the wallet', async () => {
    const m = await memberWith(null);
    const balance = money.parse(await balanceOf(m.id));
    if (balance > 0n) await adjustWallet(s.database.db, { memberId: m.id, amount: -balance, memo: 'test: empty the wallet' });
    await fund(m.id, '350'); // three Starters (100 each), not four
    const starter = await pkgId('Starter');
    const ids = await rows<{ id: number }>(
      s.database,
      sql`INSERT INTO package_purchases (member_id, package_id, kind, amount, pv) SELECT ${m.id}, ${starter}, 'purchase', 100, 50 FROM generate_series(1, 20) RETURNING id::int AS id`,
    );
    const answers = await Promise.all(ids.map((r) => post(s.app, `/api/packages/purchases/${r.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(17);
    expect(await balanceOf(m.id)).toBe('50.00');
  });
});

describe('a paid purchase feeds the compensation plan', () => {
  it('PV to the buyer, team volume and binary-leg volume to every upline member, the direct bonus to the sponsor', async () => {
    const m = await memberWith('Starter');
    const [me] = await rows<{ path: string; sponsor_id: number }>(s.database, sql`SELECT path, sponsor_id FROM members WHERE id = ${m.id}`);
    const chain = me.path.split('.').filter(Boolean).map(Number);
    const upline = chain.slice(0, -1);
    const before = await rows<{ id: number; position: string | null; tv: string; total_left: string; total_right: string; carry_left: string; carry_right: string }>(
      s.database,
      sql`SELECT id, position, tv::text AS tv, total_left::text AS total_left, total_right::text AS total_right, carry_left::text AS carry_left, carry_right::text AS carry_right
          FROM members WHERE id IN (${sql.join(chain.map((i) => sql`${i}`), sql`, `)})`,
    );
    const byId = new Map(before.map((r) => [Number(r.id), r]));
    const sponsorEarnings = async () => (await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM earnings WHERE member_id = ${me.sponsor_id} AND bonus_type = 'referral_bonus' AND from_member_id = ${m.id}`))[0].n;
    const earnedBefore = await sponsorEarnings();
    const mine = await memberRow(m.id);

    await fund(m.id, '400');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Elite') }, { token: m.token })).body.data;
    const paid = await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token });
    expect(paid.status).toBe(200);

    // Starter → Elite: 400 PV − 50 PV = 350 PV.
    const after = await memberRow(m.id);
    expect(money.parse(after.pv) - money.parse(mine.pv)).toBe(money.parse('350'));
    expect(money.parse(after.tv) - money.parse(mine.tv)).toBe(money.parse('350'));
    expect(after.package_id).toBe(await pkgId('Elite'));
    const expiryDays = Math.round((new Date(after.package_expiry!).getTime() - Date.now()) / 86_400_000);
    expect(expiryDays).toBe(365);

    for (let i = 0; i < upline.length; i++) {
      const id = upline[i];
      const leg = byId.get(chain[i + 1])!.position as 'L' | 'R';
      const [now] = await rows<{ tv: string; total_left: string; total_right: string; carry_left: string; carry_right: string }>(
        s.database,
        sql`SELECT tv::text AS tv, total_left::text AS total_left, total_right::text AS total_right, carry_left::text AS carry_left, carry_right::text AS carry_right FROM members WHERE id = ${id}`,
      );
      const was = byId.get(id)!;
      const plus = (a: string, b: string) => money.parse(b) - money.parse(a);
      expect(plus(was.tv, now.tv)).toBe(money.parse('350'));
      expect(plus(was.total_left, now.total_left)).toBe(leg === 'L' ? money.parse('350') : 0n);
      expect(plus(was.carry_right, now.carry_right)).toBe(leg === 'R' ? money.parse('350') : 0n);
      const [h] = await rows<{ type: string; leg: string; pv_added: string; from_member_id: number; order_id: number }>(
        s.database,
        sql`SELECT type, leg, pv_added::text AS pv_added, from_member_id, order_id::int AS order_id FROM binary_history WHERE member_id = ${id} ORDER BY id DESC LIMIT 1`,
      );
      expect(h).toMatchObject({ type: leg === 'L' ? 'left_volume' : 'right_volume', leg, pv_added: '350.0000', from_member_id: m.id, order_id: paid.body.data.purchase.order_id });
    }
    // Direct bonus: Elite's rate 10 % of the 400 paid = 40.00 gross; 5 % tax 2.00, 2 % service charge 0.80 → 37.20 to the wallet.
    expect(await sponsorEarnings()).toBe(earnedBefore + 1);
    const [bonus] = await rows<{ amount_generated: string; amount_payable: string }>(
      s.database,
      sql`SELECT amount_generated::text AS amount_generated, amount_payable::text AS amount_payable FROM earnings WHERE member_id = ${me.sponsor_id} AND from_member_id = ${m.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(bonus).toEqual({ amount_generated: '40.0000', amount_payable: '37.2000' });
    const [pv] = await rows<{ pv: string; type: string }>(s.database, sql`SELECT pv::text AS pv, type FROM pv_history WHERE member_id = ${m.id} ORDER BY id DESC LIMIT 1`);
    expect(pv).toEqual({ pv: '350.0000', type: 'upgrade' });
  });
});

describe('rank progress', () => {
  it('a purchase that meets the next rank\'s criteria raises the rank and pays its bonus', async () => {
    // Bronze (binary) asks for 1 active personal recruit, PV 50 and 250 on each leg. A member with an active
    // recruit and both legs past 250, without rank, package or PV: only the PV is missing.
    const [m] = await rows<{ id: number; username: string }>(
      s.database,
      sql`SELECT m.id, m.username FROM members m WHERE m.id > 4 AND m.status = 1 AND m.sponsor_id IS NOT NULL
          AND m.total_left >= 250 AND m.total_right >= 250
          AND EXISTS (SELECT 1 FROM members r WHERE r.sponsor_id = m.id AND r.status = 1 AND r.verified) ORDER BY m.id DESC LIMIT 1`,
    );
    used.add(m.id);
    await s.database.db.execute(sql`UPDATE members SET package_id = NULL, package_expiry = NULL, rank_id = NULL, pv = 0, tv = total_left + total_right WHERE id = ${m.id}`);
    await s.database.db.execute(sql`DELETE FROM rank_achievements WHERE member_id = ${m.id}`);
    const { token } = await login(s.app, m.username);
    await fund(m.id, '100');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Starter') }, { token })).body.data;
    expect((await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token })).status).toBe(200);
    // Starter adds 50 PV: PV 50, the legs as they were → Bronze (Silver asks for PV 100); its bonus 50.00 gross → 46.50 net after 5 % tax and 2 % service charge.
    const [r] = await rows<{ name: string }>(s.database, sql`SELECT r.name FROM members m JOIN ranks r ON r.id = m.rank_id WHERE m.id = ${m.id}`);
    expect(r.name).toBe('Bronze');
    const [bonus] = await rows<{ amount_payable: string }>(s.database, sql`SELECT amount_payable::text AS amount_payable FROM earnings WHERE member_id = ${m.id} AND bonus_type = 'rank_bonus' ORDER BY id DESC LIMIT 1`);
    expect(bonus.amount_payable).toBe('46.5000');
    const dash = await get(s.app, '/api/home/dashboard', { token });
    expect(dash.body.data).toMatchObject({ rank_name: 'Bronze', package_name: 'Starter' });
  });
});

describe('over the counter', () => {
  const request = (token: string, body: unknown) => post(s.app, '/api/otc/requests', body, { token });

  it('a request answers the amount due, a reference and the bank details; one open request per purchase', async () => {
    const m = await memberWith('Starter');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Business') }, { token: m.token })).body.data;
    const res = await request(m.token, { purpose: 'package', ref_id: p.id, method: 'bank_deposit' });
    expect(res.status).toBe(201);
    expect(res.body.data.request).toMatchObject({ purpose: 'package', ref_id: p.id, amount: '150.00', status: 'awaiting_payment', description: 'Upgrade Starter → Business' });
    expect(res.body.data.request.reference).toMatch(/^OTC-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(res.body.data.bank.account_number).toBeTruthy();
    const twice = await request(m.token, { purpose: 'package', ref_id: p.id, method: 'cash' });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.ref_id).toEqual(['store:otc.errors.alreadyRequested']);
    // The wallet cannot pay a purchase the counter is paying.
    await fund(m.id, '500');
    expect((await post(s.app, `/api/packages/purchases/${p.id}/wallet`, { password: TEST_PASSWORD }, { token: m.token })).status).toBe(409);
  });

  it('bad input → 4xx with a field map; another member\'s purchase → 404', async () => {
    const m = await memberWith('Starter');
    const other = await memberWith('Starter');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Business') }, { token: other.token })).body.data;
    for (const body of [{}, { purpose: 'x', method: 'cash' }, { purpose: 'topup', method: 'cheque', amount: '10' }, { purpose: 'topup', method: 'cash', amount: '-5' }, { purpose: 'topup', method: 'cash', amount: '1e5' }, { purpose: 'package', method: 'cash' }]) {
      const res = await request(m.token, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors ?? {}).length).toBeGreaterThan(0);
    }
    expect((await request(m.token, { purpose: 'topup', method: 'cash', amount: '5' })).body.errors.amount).toEqual(['store:otc.errors.topupMinimum']);
    expect((await request(m.token, { purpose: 'package', ref_id: p.id, method: 'cash' })).status).toBe(404);
    expect((await request(m.token, { purpose: 'package', ref_id: 0, method: 'cash' })).status).toBe(404);
  });

  it('make-payment takes the receipt by its bytes and the transaction reference; history lists it; staff approve once', async () => {
    const m = await memberWith('Starter');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Elite') }, { token: m.token })).body.data;
    const r = (await request(m.token, { purpose: 'package', ref_id: p.id, method: 'bank_deposit' })).body.data.request;
    const url = `/api/otc/requests/${r.id}/payment`;

    const fake = await postMultipart(s.app, url, [text('transaction_ref', 'TX-1'), file('receipt', 'receipt.png', Buffer.from('not an image at all'))], m.token);
    expect(fake.status).toBe(422);
    const none = await postMultipart(s.app, url, [text('transaction_ref', 'TX-1')], m.token);
    expect(none.status).toBe(422);
    expect(none.body.errors.receipt).toEqual(['store:otc.errors.receiptRequired']);
    const noRef = await postMultipart(s.app, url, [file('receipt', 'r.pdf', pdf())], m.token);
    expect(noRef.status).toBe(422);
    expect(noRef.body.errors.transaction_ref).toBeTruthy();
    const other = await memberWith('Starter');
    expect((await postMultipart(s.app, url, [text('transaction_ref', 'TX-1'), file('receipt', 'r.pdf', pdf())], other.token)).status).toBe(404);
    expect((await get(s.app, `/api/otc/requests/${r.id}`, { token: other.token })).status).toBe(404);

    const sent = await postMultipart(s.app, url, [text('transaction_ref', 'FCB-778812'), file('receipt', 'deposit slip.png', await photo())], m.token);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'submitted', transaction_ref: 'FCB-778812', receipt_name: 'deposit slip.png' });
    expect((await get(s.app, `/api/uploads/${sent.body.data.receipt_id}`, { token: m.token })).status).toBe(200);
    expect((await get(s.app, `/api/uploads/${sent.body.data.receipt_id}`, { token: other.token })).status).toBe(404);
    const again = await postMultipart(s.app, url, [text('transaction_ref', 'FCB-1'), file('receipt', 'r.pdf', pdf())], m.token);
    expect(again.body.errors._body).toEqual(['store:otc.errors.not_submitted']);

    const history = await get(s.app, '/api/otc/requests', { token: m.token });
    expect(history.body.data.items[0]).toMatchObject({ id: r.id, status: 'submitted' });
    expect((await get(s.app, '/api/otc/requests', { token: other.token })).body.data.items.some((i: { id: number }) => i.id === r.id)).toBe(false);

    // Two approvals racing: one pays, the other is refused.
    const op = OPERATOR_AREAS.find((a) => a.name === 'otc')!;
    const out: string[] = [];
    const services = await operatorServices();
    const both = await Promise.allSettled([
      op.commands.approve.run(services, { positionals: [String(r.id)], values: {} }, { out: (l) => out.push(l) }),
      op.commands.approve.run(services, { positionals: [String(r.id)], values: {} }, { out: (l) => out.push(l) }),
    ]);
    expect(both.filter((b) => b.status === 'fulfilled')).toHaveLength(1);
    expect(String((both.find((b) => b.status === 'rejected') as PromiseRejectedResult).reason.message)).toMatch(/approved/);
    expect(out[0]).toMatch(/approved/);
    expect((await memberRow(m.id)).package_id).toBe(await pkgId('Elite'));
    const [{ n }] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM orders WHERE member_id = ${m.id} AND package_name = 'Elite'`);
    expect(n).toBe(1);
    expect((await get(s.app, `/api/otc/requests/${r.id}`, { token: m.token })).body.data.request.status).toBe('approved');
    expect((await get(s.app, `/api/packages/purchases/${p.id}`, { token: m.token })).body.data).toMatchObject({ status: 'paid', payment_method: 'otc' });
    const [notice] = await rows<{ subject: string }>(s.database, sql`SELECT subject FROM member_notices WHERE member_id = ${m.id} ORDER BY id DESC LIMIT 1`);
    expect(notice.subject).toMatch(/approved/);
  });

  it('a top-up approved credits the wallet once; a rejection keeps the reason; an unpaid request expires', async () => {
    const m = await memberWith('Starter');
    const services = await operatorServices();
    const before = money.parse(await balanceOf(m.id));
    const t = (await request(m.token, { purpose: 'topup', amount: '75.50', method: 'cash' })).body.data.request;
    expect(t).toMatchObject({ amount: '75.50', description: 'Wallet top-up' });
    await decideOtc(services, t.id, { approve: true });
    await expect(decideOtc(services, t.id, { approve: true })).rejects.toMatchObject({ statusCode: 409 });
    expect(money.parse(await balanceOf(m.id)) - before).toBe(money.parse('75.50'));

    const r = (await request(m.token, { purpose: 'topup', amount: '20', method: 'bank_deposit' })).body.data.request;
    const op = OPERATOR_AREAS.find((a) => a.name === 'otc')!;
    await expect(op.commands.reject.run(services, { positionals: [String(r.id)], values: {} }, { out: () => {} })).rejects.toThrow(/reason/);
    await op.commands.reject.run(services, { positionals: [String(r.id)], values: { reason: 'No deposit found' } }, { out: () => {} });
    const e = (await request(m.token, { purpose: 'topup', amount: '30', method: 'cash' })).body.data.request;
    await s.database.db.execute(sql`UPDATE otc_requests SET expires_at = now() - interval '1 minute' WHERE id = ${e.id}`);
    const items = (await get(s.app, '/api/otc/requests', { token: m.token })).body.data.items as Array<{ id: number; status: string; reason: string | null }>;
    expect(items.find((i) => i.id === r.id)).toMatchObject({ status: 'rejected', reason: 'No deposit found' });
    expect(items.find((i) => i.id === e.id)).toMatchObject({ status: 'expired' });
    expect(items.find((i) => i.id === t.id)).toMatchObject({ status: 'approved' });
    const lines: string[] = [];
    await op.commands.list.run(services, { positionals: [], values: { status: 'rejected' } }, { out: (l) => lines.push(l) });
    expect(lines.some((l) => l.startsWith(`${r.id}\t`))).toBe(true);
  });

  it('the export holds the purchases and requests; deleting the account removes the receipt and keeps the request', async () => {
    const m = await memberWith('Starter');
    const p = (await post(s.app, '/api/packages/purchases', { package_id: await pkgId('Business') }, { token: m.token })).body.data;
    const r = (await request(m.token, { purpose: 'package', ref_id: p.id, method: 'cash' })).body.data.request;
    const sent = await postMultipart(s.app, `/api/otc/requests/${r.id}/payment`, [text('transaction_ref', 'DESK-9'), file('receipt', 'r.pdf', pdf())], m.token);
    expect(sent.status).toBe(200);
    const exported = (await get(s.app, '/api/user/data_export', { token: m.token })).body;
    const data = exported.data ?? exported;
    expect(data.payments.payment_requests.map((x: { reference: string }) => x.reference)).toContain(r.reference);
    expect(data.payments.package_purchases.some((x: { id: number }) => Number(x.id) === p.id)).toBe(true);

    const gone = await call(s.app, 'DELETE', '/api/users', { password: TEST_PASSWORD }, { token: m.token });
    expect(gone.status).toBe(200);
    const [left] = await rows<{ receipt_upload_id: number | null; transaction_ref: string | null; status: string }>(
      s.database,
      sql`SELECT receipt_upload_id, transaction_ref, status FROM otc_requests WHERE id = ${r.id}`,
    );
    expect(left).toEqual({ receipt_upload_id: null, transaction_ref: null, status: 'submitted' });
    const [{ n }] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM uploads WHERE id = ${sent.body.data.receipt_id}`);
    expect(n).toBe(0);
  });

  it('demo has seeded requests in every status', async () => {
    const { token } = await login(s.app, 'demo');
    const items = (await get(s.app, '/api/otc/requests', { token })).body.data.items as Array<{ status: string }>;
    expect(new Set(items.map((i) => i.status))).toEqual(new Set(['awaiting_payment', 'submitted', 'approved', 'rejected', 'expired']));
  });
});

async function operatorServices() {
  const { Outbox } = await import('../../server/lib/outbox');
  const { SettingsService } = await import('../../server/lib/settings');
  const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => log } as never;
  return { database: s.database, config: s.config, outbox: new Outbox(s.database.db, log), settings: new SettingsService(s.database.db, () => false) };
}

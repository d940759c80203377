// @vitest-environment node
/**
 * Payouts: the criteria, every rule of a request (minimum, maximum, fee, balance including the fee,
 * KYC, one pending request, password), idempotency under 50 concurrent retries, concurrent requests
 * that must not overdraw, demo mode, the statement and the paged list with its CSV export.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { TEST_PASSWORD } from '../support/server';
import * as money from '../../server/lib/money';
import { DEFAULT_PAYOUT_SETTINGS, adjustWallet } from '../../server/lib/ledger';
import { apiGet, signedInDemo, call, ledgerBalance, memberId, parseCsv, quietMember, sessionOf, setKyc, setPayoutMethod, setSetting, walk } from './wallet-support';

// 50 simultaneous requests of one member must get past the per-member rate limit.
const ctx = signedInDemo({ rateLimitScale: 10 });
let skip = 0;

const requestPayout = (token: string | undefined, body: unknown, key: string | null = randomUUID()) =>
  call(ctx.server, 'POST', '/api/payout/request_payout', { token, body, headers: key === null ? {} : { 'idempotency-key': key } });

/** A member with exactly `balance` in the wallet, verified, and a session. */
async function funded(balance: string, kyc = 'approved') {
  const m = await quietMember(ctx.server, skip++);
  if (money.parse(balance) > 0n) await adjustWallet(ctx.server.database.db, { memberId: m.id, amount: money.parse(balance), memo: 'test funds' });
  await setKyc(ctx.server, m.id, kyc);
  await setPayoutMethod(ctx.server, m.id);
  return { ...m, token: await sessionOf(ctx.server, m.id) };
}

async function counts(member: number) {
  const [r] = await ctx.server.database.rows<{ p: number; t: number }>(
    sql`SELECT (SELECT count(*)::int FROM payout_requests WHERE member_id = ${member}) AS p,
               (SELECT count(*)::int FROM ledger_transactions) AS t`,
  );
  return { payouts: Number(r.p), transactions: Number(r.t), balance: await ledgerBalance(ctx.server, member) };
}

async function withPayoutSettings(patch: Record<string, unknown>, fn: () => Promise<void>) {
  await setSetting(ctx.server, 'payout', { ...DEFAULT_PAYOUT_SETTINGS, ...patch });
  try {
    await fn();
  } finally {
    await setSetting(ctx.server, 'payout', DEFAULT_PAYOUT_SETTINGS);
  }
}

describe('criteria', () => {
  it('tells demo its limits, fee, balance and verification', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/payout/settings');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      enabled: true,
      minimum_amount: '50.0000',
      maximum_amount: '5000.0000',
      fee_fixed: '2.0000',
      fee_percent: '1.5000',
      amount_decimals: 2,
      kyc_required: true,
      kyc_status: 'approved',
      single_pending: true,
      pending_request: null,
      password_required: true,
    });
    const balance = await ledgerBalance(ctx.server, ctx.demoId);
    expect(money.parse(d.available_balance)).toBe(balance);
    const max = money.parse(d.max_requestable);
    const fee = (a: bigint) => money.roundTo(money.parse('2') + money.percentOf(a, '1.5'), 2);
    expect(max + fee(max)).toBeLessThanOrEqual(balance);
    expect(max + money.parse('0.01') + fee(max + money.parse('0.01'))).toBeGreaterThan(balance);
  });

  it('needs a signed-in member', async () => {
    expect((await apiGet(ctx.server, undefined, '/api/payout/settings')).status).toBe(401);
    expect((await requestPayout(undefined, { amount: '60', password: TEST_PASSWORD })).status).toBe(401);
  });
});

describe('a payout request', () => {
  it('takes amount + fee from the wallet, never more than the balance', async () => {
    const m = await funded('100.00');
    const s = await apiGet(ctx.server, m.token, '/api/payout/settings');
    // 96.55 + (2 + 1.5 % of 96.55 = 3.45) = 100.00; one cent more does not fit.
    expect(s.body.data.max_requestable).toBe('96.5500');
    const over = await requestPayout(m.token, { amount: '96.56', password: TEST_PASSWORD });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual({ amount: ['validation:payoutInsufficientBalance'] });

    const ok = await requestPayout(m.token, { amount: '96.55', password: TEST_PASSWORD });
    expect(ok.status).toBe(201);
    expect(ok.body.data.payout).toMatchObject({ status_id: 1, status: 'pending', total: '96.5500', fee: '3.4500' });
    expect(ok.body.data.wallet_balance).toBe('0.0000');
    expect(await ledgerBalance(ctx.server, m.id)).toBe(0n);

    const lines = (await apiGet(ctx.server, m.token, '/api/wallet/transactions')).body.data.items;
    expect(lines.slice(0, 2).map((l: { transaction_key: string; amount: string; cash_flow: string }) => [l.transaction_key, l.amount, l.cash_flow]).sort()).toEqual([
      ['payout', '96.5500', 'debit'],
      ['payout_fee', '3.4500', 'debit'],
    ]);
    const after = (await apiGet(ctx.server, m.token, '/api/payout/settings')).body.data;
    expect(after.pending_request).toMatchObject({ id: ok.body.data.payout.id, total: '96.5500' });
    expect(after.max_requestable).toBe('0.0000');
    const list = (await apiGet(ctx.server, m.token, '/api/payout/transactions')).body.data.items;
    expect(list).toEqual([ok.body.data.payout]);
  });

  it('applies minimum, maximum, amount format, KYC and one pending request', async () => {
    const m = await funded('2000.00', 'pending');
    const cases: Array<[unknown, string, string]> = [
      ['49.99', 'amount', 'validation:payoutBelowMinimum'],
      ['5000.01', 'amount', 'validation:payoutAboveMaximum'],
      ['-60', 'amount', 'validation:invalidAmount'],
      ['0', 'amount', 'validation:invalidAmount'],
      ['sixty', 'amount', 'validation:invalidAmount'],
      ['60.123', 'amount', 'validation:invalidAmount'],
      ['6e1', 'amount', 'validation:invalidAmount'],
      ['', 'amount', 'validation:required'],
      [60, 'amount', 'validation:invalidType'],
    ];
    for (const [amount, field, key] of cases) {
      const res = await requestPayout(m.token, { amount, password: TEST_PASSWORD });
      expect(res.status, String(amount)).toBe(422);
      expect(res.body.errors[field], `${amount} → ${JSON.stringify(res.body.errors)}`).toContain(key);
    }
    const kyc = await requestPayout(m.token, { amount: '60', password: TEST_PASSWORD });
    expect(kyc.body.errors).toEqual({ amount: ['validation:payoutKycRequired'] });

    await withPayoutSettings({ maximum: '500', kyc_required: false }, async () => {
      const above = await requestPayout(m.token, { amount: '500.01', password: TEST_PASSWORD });
      expect(above.body.errors).toEqual({ amount: ['validation:payoutAboveMaximum'] });
      const first = await requestPayout(m.token, { amount: '500', password: TEST_PASSWORD });
      expect(first.status).toBe(201);
      const second = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD });
      expect(second.status).toBe(422);
      expect(second.body.errors).toEqual({ amount: ['validation:payoutPendingExists'] });
    });
    await withPayoutSettings({ kyc_required: false, single_pending: false }, async () => {
      const again = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD });
      expect(again.status).toBe(201);
    });
    expect((await counts(m.id)).payouts).toBe(2);
  });

  it('changes nothing when the password is wrong, and reports every field at once', async () => {
    const m = await funded('300.00');
    const before = await counts(m.id);
    const wrong = await requestPayout(m.token, { amount: '100', password: 'not-the-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } });
    const both = await requestPayout(m.token, { amount: '10', password: 'nope' });
    expect(both.body.errors).toEqual({ amount: ['validation:payoutBelowMinimum'], password: ['validation:invalidPassword'] });
    const missing = await requestPayout(m.token, { amount: '100' });
    expect(missing.body.errors.password).toEqual(['validation:required']);
    const extra = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD, member_id: ctx.demoId });
    expect(extra.status).toBe(422);
    expect(await counts(m.id)).toEqual(before);
  });

  it('needs an Idempotency-Key header', async () => {
    const m = await funded('300.00');
    const none = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD }, null);
    expect(none.status).toBe(422);
    expect(none.body.errors.idempotency_key).toEqual(['validation:required']);
    const bad = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD }, 'a b');
    expect(bad.body.errors.idempotency_key).toEqual(['validation:invalidFormat']);
    expect((await counts(m.id)).payouts).toBe(0);
  });

  it('is refused in demo mode and when the feature is off (403)', async () => {
    const m = await funded('300.00');
    const before = await counts(m.id);
    ctx.server.config.demoMode = true;
    try {
      const res = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD });
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('demo_blocked');
    } finally {
      ctx.server.config.demoMode = false;
    }
    const [row] = await ctx.server.database.rows<{ value: Record<string, unknown> }>(sql`SELECT value FROM settings WHERE key = 'modules'`);
    await setSetting(ctx.server, 'modules', { ...row.value, payout_request: false });
    try {
      const res = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD });
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('payout_disabled');
      expect((await apiGet(ctx.server, m.token, '/api/payout/settings')).body.data.enabled).toBe(false);
    } finally {
      await setSetting(ctx.server, 'modules', row.value);
    }
    expect(await counts(m.id)).toEqual(before);
  });
});

describe('concurrency', () => {
  it('creates one payout for 50 simultaneous retries with one Idempotency-Key', async () => {
    const m = await funded('1000.00');
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 50 }, () => requestPayout(m.token, { amount: '250.00', password: TEST_PASSWORD }, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const payoutIds = new Set(answers.map((a) => a.body.data.payout.id));
    expect(payoutIds.size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
    // Every answer is the first one: same payout, same balance after it.
    for (const a of answers) expect(a.body).toEqual(answers[0].body);
    const [rows] = await ctx.server.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM payout_requests WHERE member_id = ${m.id}`);
    expect(Number(rows.n)).toBe(1);
    // 250 + (2 + 3.75) once.
    expect(await ledgerBalance(ctx.server, m.id)).toBe(money.parse('744.25'));
    expect(answers[0].body.data.wallet_balance).toBe('744.2500');

    // The key stays bound to that request: a later retry is answered the same, another amount is refused.
    const later = await requestPayout(m.token, { amount: '250.00', password: TEST_PASSWORD }, key);
    expect(later.status).toBe(201);
    expect(later.body).toEqual(answers[0].body);
    const changed = await requestPayout(m.token, { amount: '260.00', password: TEST_PASSWORD }, key);
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toEqual({ idempotency_key: ['validation:idempotencyKeyReused'] });
    expect(await ledgerBalance(ctx.server, m.id)).toBe(money.parse('744.25'));
  });

  it('never overdraws with simultaneous different requests', async () => {
    await withPayoutSettings({ single_pending: false, minimum: '10' }, async () => {
      const m = await funded('100.00');
      const answers = await Promise.all(Array.from({ length: 10 }, () => requestPayout(m.token, { amount: '30', password: TEST_PASSWORD })));
      const ok = answers.filter((a) => a.status === 201);
      expect(answers.filter((a) => a.status !== 201 && a.status !== 422).map((a) => a.body)).toEqual([]);
      // Each takes 30 + 2.45: three fit in 100, a fourth does not.
      expect(ok).toHaveLength(3);
      for (const a of answers.filter((x) => x.status !== 201)) {
        expect(a.status).toBe(422);
        expect(a.body.errors).toEqual({ amount: ['validation:payoutInsufficientBalance'] });
      }
      expect(await ledgerBalance(ctx.server, m.id)).toBe(money.parse('2.65'));
      expect(ok.map((a) => a.body.data.wallet_balance).sort()).toEqual(['2.6500', '35.1000', '67.5500']);
    });
  });
});

describe('cancelling a pending request', () => {
  const cancel = (token: string | undefined, id: number | string) => call(ctx.server, 'POST', `/api/payout/requests/${id}/cancel`, { token, body: {} });

  it('gives the amount and the fee back, once, and frees the way for a new request', async () => {
    const m = await funded('300.00');
    const made = await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD });
    expect(made.status).toBe(201);
    const id = made.body.data.payout.id as number;
    expect(await ledgerBalance(ctx.server, m.id)).toBe(money.parse('196.50'));
    // Twenty cancels at once: one refund.
    const answers = await Promise.all(Array.from({ length: 20 }, () => cancel(m.token, id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error_code)).toEqual(Array(19).fill('payout_not_pending'));
    const ok = answers.find((a) => a.status === 200)!;
    expect(ok.body.data).toMatchObject({ payout: { id, status: 'cancelled', status_id: 5 }, wallet_balance: '300.0000' });
    expect(await ledgerBalance(ctx.server, m.id)).toBe(money.parse('300'));
    const criteria = await apiGet(ctx.server, m.token, '/api/payout/settings');
    expect(criteria.body.data.pending_request).toBeNull();
    const list = await apiGet(ctx.server, m.token, '/api/payout/transactions?payout_status[]=5');
    expect(list.body.data.items.map((p: { id: number }) => p.id)).toEqual([id]);
    // The member's notifications list the cancelled request with its status.
    const notes = await apiGet(ctx.server, m.token, '/api/home/notifications');
    expect(notes.status).toBe(200);
    expect(notes.body.data.payouts.find((p: { id: number }) => p.id === id)).toMatchObject({ status_id: 5, name: 'cancelled' });
    expect((await requestPayout(m.token, { amount: '100', password: TEST_PASSWORD })).status).toBe(201);
  });

  it("answers 404 for another member's request or an id that is no request, 401 without a session, 400 for a malformed id", async () => {
    const owner = await funded('300.00');
    const other = await funded('300.00');
    const made = await requestPayout(owner.token, { amount: '100', password: TEST_PASSWORD });
    const id = made.body.data.payout.id as number;
    expect((await cancel(other.token, id)).status).toBe(404);
    expect((await cancel(other.token, 999999999)).status).toBe(404);
    expect((await cancel(undefined, id)).status).toBe(401);
    const bad = await cancel(owner.token, 'abc');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ id: ['validation:invalidFormat'] });
    // The owner's request is untouched by all of that.
    expect(await ledgerBalance(ctx.server, owner.id)).toBe(money.parse('196.50'));
    expect((await cancel(owner.token, id)).status).toBe(200);
  });
});

describe('statement and list', () => {
  it('lists payouts page by page and filters by status', async () => {
    const db = await ctx.server.database.rows<{ id: number; status: number }>(sql`SELECT id, status FROM payout_requests WHERE member_id = ${ctx.demoId}`);
    const all = await walk(ctx.server, ctx.token, '/api/payout/transactions?limit=4');
    expect(all.items.map((i: { id: number }) => i.id).sort((a: number, b: number) => a - b)).toEqual(db.map((r) => Number(r.id)).sort((a, b) => a - b));
    expect(all.pages).toBe(Math.ceil(db.length / 4));
    const paid = await walk(ctx.server, ctx.token, '/api/payout/transactions?payout_status[]=3');
    expect(paid.items).toHaveLength(db.filter((r) => Number(r.status) === 3).length);
    expect(paid.items.every((i: { status_id: number; status: string }) => i.status_id === 3 && i.status === 'paid')).toBe(true);
    const two = await walk(ctx.server, ctx.token, '/api/payout/transactions?payout_status[]=2&payout_status[]=4&limit=2');
    expect(two.items).toHaveLength(db.filter((r) => [2, 4].includes(Number(r.status))).length);
    expect(two.urls.slice(1).every((u) => u.includes('payout_status[0]=2&payout_status[1]=4'))).toBe(true);
    const bad = await apiGet(ctx.server, ctx.token, '/api/payout/transactions?payout_status[]=9');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.payout_status).toEqual(['validation:invalidChoice']);
  });

  it('gives the statement with paid amounts per month or week', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/payout/statement');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.interval).toBe('month');
    expect(d.payout_datewise).toHaveLength(12);
    const now = new Date();
    expect(d.payout_datewise[11].date).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10));
    const [sum] = await ctx.server.database.rows<{ s: string | null }>(
      sql`SELECT sum(amount)::text AS s FROM payout_requests WHERE member_id = ${ctx.demoId} AND status = 3
          AND paid_at >= ${d.payout_datewise[0].date}::date`,
    );
    expect(money.sum(d.payout_datewise.map((x: { total: string }) => money.parse(x.total)))).toBe(money.parse(sum.s ?? '0'));
    expect(money.parse(d.total_balance)).toBe(await ledgerBalance(ctx.server, ctx.demoId));
    expect(d.recent_transactions.length).toBeLessThanOrEqual(5);
    const weekly = (await apiGet(ctx.server, ctx.token, '/api/payout/statement?interval=week')).body.data;
    expect(weekly.payout_datewise).toHaveLength(12);
    expect(weekly.payout_datewise.every((x: { date: string }) => new Date(`${x.date}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    const bad = await apiGet(ctx.server, ctx.token, '/api/payout/statement?interval=fortnight');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.interval).toEqual(['validation:invalidChoice']);
  });

  it('exports payouts as CSV', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/payout/transactions/export?payout_status[]=3&sort=asc');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="payouts-.*\.csv"$/);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual(['id', 'date', 'status', 'amount', 'fee', 'total_debited']);
    const listed = await walk(ctx.server, ctx.token, '/api/payout/transactions?payout_status[]=3&sort=asc');
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(listed.items.map((i: { id: number }) => i.id));
    for (const r of rows.slice(1)) expect(money.parse(r[5])).toBe(money.parse(r[3]) + money.parse(r[4]));
  });
});

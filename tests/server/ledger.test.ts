// @vitest-environment node
/**
 * Money arithmetic, the pairing engine, and the ledger's invariants: every transaction sums to zero
 * and a wallet balance is exactly the sum of its entries — for the seeded data and under a random
 * sequence of earnings, transfers, adjustments and payouts (through the API) with their outcomes.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { TEST_PASSWORD } from '../support/server';
import * as money from '../../server/lib/money';
import { addVolume, emptyState, matchPairs, runPairing, weekStart, type PairingConfig } from '../../server/lib/pairing';
import {
  DEFAULT_WALLET_SETTINGS,
  UnbalancedPostingError,
  adjustWallet,
  assertBalanced,
  markPayoutPaid,
  payoutFee,
  postEarning,
  rejectPayout,
  transferFunds,
  approvePayout,
} from '../../server/lib/ledger';
import { apiGet, signedInDemo, call, ledgerBalance, memberId, quietMember, sessionOf, setKyc, setPayoutMethod, setSetting, unbalancedTransactions } from './wallet-support';
import { Rng } from '../../server/seed/prng';

const P = money.parse;
const F = (u: bigint) => money.format(u);

describe('money', () => {
  it('parses and formats exactly, without floats', () => {
    expect(F(P('0.1') + P('0.2'))).toBe('0.3000');
    expect(F(P('-12.5'))).toBe('-12.5000');
    expect(F(P('123456789012345.6789'))).toBe('123456789012345.6789');
    expect(money.format(P('2.345'), 2)).toBe('2.35');
    expect(money.format(P('-2.345'), 2)).toBe('-2.35');
    expect(money.format(P('2.344'), 2)).toBe('2.34');
    expect(F(P('1.00005'))).toBe('1.0001');
    expect(() => P('1e3')).toThrow(money.MoneyFormatError);
    expect(() => P('abc')).toThrow(money.MoneyFormatError);
    expect(() => P('')).toThrow(money.MoneyFormatError);
  });

  it('computes percentages and compares', () => {
    expect(F(money.percentOf(P('250'), '8'))).toBe('20.0000');
    expect(F(money.percentOf(P('54'), '3', 2))).toBe('1.6200');
    expect(F(money.percentOf(P('1.62'), '5', 2))).toBe('0.0800');
    expect(F(money.percentOf(P('0.05'), '50', 2))).toBe('0.0300'); // 0.025 rounds half up
    expect(money.cmp(P('1.0001'), P('1'))).toBe(1);
    expect(money.cmp(P('1'), P('1.0000'))).toBe(0);
    expect(money.display(P('1234567.891'), { symbol: '$', position: 'L' })).toBe('$1,234,567.89');
    expect(money.display(P('-5'), { symbol: 'kr', position: 'R' })).toBe('-5.00 kr');
  });
});

describe('pairing', () => {
  const cfg: PairingConfig = { pairUnit: P('100'), pairBonus: P('10'), cappingLimit: P('30'), pairRatio: '1:1', firstPairRatio: '1:1' };

  it('matches 1:1 pairs, carries the rest forward and caps the bonus', () => {
    let s = addVolume(addVolume(emptyState(), 'L', P('550')), 'R', P('320'));
    const m = matchPairs(s, cfg);
    expect(m.pairs).toBe(3n);
    expect([F(m.deductedLeft), F(m.deductedRight)]).toEqual(['300.0000', '300.0000']);
    expect([F(m.state.carryLeft), F(m.state.carryRight)]).toEqual(['250.0000', '20.0000']);
    expect([F(m.bonusGenerated), F(m.bonusToPay)]).toEqual(['30.0000', '30.0000']);
    s = addVolume(m.state, 'R', P('500'));
    const m2 = matchPairs(s, cfg);
    expect(m2.pairs).toBe(2n); // left has 250 → two units
    expect([F(m2.bonusGenerated), F(m2.bonusToPay)]).toEqual(['20.0000', '20.0000']);
    const big = matchPairs(addVolume(addVolume(emptyState(), 'L', P('1000')), 'R', P('1000')), cfg);
    expect([F(big.bonusGenerated), F(big.bonusToPay)]).toEqual(['100.0000', '30.0000']); // capped, volume flushed
    expect([F(big.state.carryLeft), F(big.state.carryRight)]).toEqual(['0.0000', '0.0000']);
    expect(F(big.state.totalLeft)).toBe('1000.0000');
  });

  it('takes the first pair 2:1 (qualification) and 2:1 pairs where set', () => {
    const q = { ...cfg, cappingLimit: null, firstPairRatio: '2:1' as const };
    expect(matchPairs(addVolume(addVolume(emptyState(), 'L', P('150')), 'R', P('150')), q).pairs).toBe(0n);
    const m = matchPairs(addVolume(addVolume(emptyState(), 'L', P('250')), 'R', P('300')), q);
    // First pair: 200 from the stronger right leg, 100 from the left; then 1:1 with the rest (150 L / 100 R).
    expect(m.pairs).toBe(2n);
    expect([F(m.deductedLeft), F(m.deductedRight)]).toEqual(['200.0000', '300.0000']);
    const r = { ...cfg, cappingLimit: null, pairRatio: '2:1' as const };
    const m2 = matchPairs(addVolume(addVolume(emptyState(), 'L', P('700')), 'R', P('300')), r);
    expect(m2.pairs).toBe(3n);
    expect([F(m2.deductedLeft), F(m2.deductedRight)]).toEqual(['600.0000', '300.0000']);
  });

  it('runs weekly periods (Monday start) with a row per volume and per pairing run', () => {
    expect(weekStart(new Date('2025-03-09T23:00:00Z')).toISOString()).toBe('2025-03-03T00:00:00.000Z'); // Sunday
    expect(weekStart(new Date('2025-03-10T00:00:00Z')).toISOString()).toBe('2025-03-10T00:00:00.000Z'); // Monday
    const ev = (leg: 'L' | 'R', pv: string, at: string) => ({ leg, pv: P(pv), at: new Date(at) });
    const { rows, state } = runPairing(
      [ev('L', '100', '2025-03-04T10:00:00Z'), ev('R', '250', '2025-03-05T10:00:00Z'), ev('L', '300', '2025-03-12T10:00:00Z'), ev('R', '50', '2025-03-20T10:00:00Z')],
      cfg,
      new Date('2025-03-31T00:00:00Z'),
    );
    // Week of 3 Mar: 1 pair (100/100). Week of 10 Mar: 1 pair (right only has 150). Week of 17 Mar: 1 pair, closed by `until`.
    expect(rows.map((r) => r.type)).toEqual(['left_volume', 'right_volume', 'pairing', 'left_volume', 'pairing', 'right_volume', 'pairing']);
    const p1 = rows[2];
    expect(p1.at.toISOString()).toBe('2025-03-09T23:59:59.999Z');
    expect([F(p1.carryLeft), F(p1.carryRight)]).toEqual(['0.0000', '150.0000']);
    const p2 = rows[4];
    expect([F(p2.pvDeductedLeft), F(p2.carryLeft), F(p2.carryRight)]).toEqual(['100.0000', '200.0000', '50.0000']);
    expect(rows[6].at.toISOString()).toBe('2025-03-23T23:59:59.999Z');
    expect([F(state.carryLeft), F(state.carryRight), F(state.totalLeft), F(state.totalRight)]).toEqual(['100.0000', '0.0000', '400.0000', '300.0000']);
    // A week still running at `until` stays open: its volume is carried, not matched.
    const open = runPairing([ev('L', '100', '2025-03-04T10:00:00Z'), ev('R', '100', '2025-03-05T10:00:00Z')], cfg, new Date('2025-03-06T00:00:00Z'));
    expect(open.rows.map((r) => r.type)).toEqual(['left_volume', 'right_volume']);
    expect(F(open.state.carryLeft)).toBe('100.0000');
  });
});

describe('postings', () => {
  it('refuses unbalanced or degenerate postings', () => {
    const base = { group: 'adjustment' as const, type: 't', key: 'admin_adjustment' as const, createdAt: new Date() };
    expect(() => assertBalanced({ ...base, lines: [{ account: 1, amount: P('1') }, { account: 2, amount: P('-0.9999') }] })).toThrow(UnbalancedPostingError);
    expect(() => assertBalanced({ ...base, lines: [{ account: 1, amount: P('1') }] })).toThrow(UnbalancedPostingError);
    expect(() => assertBalanced({ ...base, lines: [{ account: 1, amount: P('1') }, { account: 1, amount: P('-1') }] })).toThrow(UnbalancedPostingError);
    expect(() => assertBalanced({ ...base, lines: [{ account: 1, amount: 0n }, { account: 2, amount: 0n }] })).toThrow(UnbalancedPostingError);
    expect(() => assertBalanced({ ...base, lines: [{ account: 1, amount: P('1') }, { account: 2, amount: P('-0.25') }, { account: 3, amount: P('-0.75') }] })).not.toThrow();
  });
});

describe('the ledger in the database', () => {
  const ctx = signedInDemo({ rateLimitScale: 50 });

  it('seeds demo a wallet with real history whose figures add up', async () => {
    const db = ctx.server.database;
    expect(await unbalancedTransactions(ctx.server)).toBe(0);
    const [total] = await db.rows<{ s: string }>(sql`SELECT coalesce(sum(amount), 0)::text AS s FROM ledger_entries`);
    expect(money.parse(total.s)).toBe(0n);
    const [lines] = await db.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.member_id = ${ctx.demoId}`,
    );
    expect(Number(lines.n)).toBeGreaterThanOrEqual(200);

    const statement = await apiGet(ctx.server, ctx.token, '/api/wallet/statement');
    expect(statement.status).toBe(200);
    expect(money.parse(statement.body.data.wallet_balance)).toBe(await ledgerBalance(ctx.server, ctx.demoId));
    // No wallet in the seed is below zero.
    const negative = await db.rows(
      sql`SELECT a.member_id FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id WHERE a.member_id IS NOT NULL GROUP BY a.member_id HAVING sum(e.amount) > 0`,
    );
    expect(negative).toEqual([]);

    // Each earning's wallet line is its payable amount; the binary bonus paid equals the pairing runs' bonus_to_pay.
    const mismatched = await db.rows(
      sql`SELECT er.id FROM earnings er JOIN ledger_entries e ON e.transaction_id = er.transaction_id
          JOIN ledger_accounts a ON a.id = e.account_id AND a.member_id = er.member_id WHERE -e.amount <> er.amount_payable`,
    );
    expect(mismatched).toEqual([]);
    const [bin] = await db.rows<{ paid: string; earned: string; n: number }>(
      sql`SELECT (SELECT sum(bonus_to_pay) FROM binary_history WHERE member_id = ${ctx.demoId})::text AS paid,
                 (SELECT sum(amount_generated) FROM earnings WHERE member_id = ${ctx.demoId} AND bonus_type = 'binary_bonus')::text AS earned,
                 (SELECT count(*)::int FROM binary_history WHERE member_id = ${ctx.demoId} AND type = 'pairing' AND bonus_to_pay > 0 AND earning_id IS NULL) AS n`,
    );
    expect(money.parse(bin.earned)).toBe(money.parse(bin.paid));
    expect(money.parse(bin.paid)).toBeGreaterThan(0n);
    expect(Number(bin.n)).toBe(0);
    // Payouts in several statuses; paid ones are cleared against the bank, rejected ones refunded in full.
    const statuses = await db.rows<{ status: number }>(sql`SELECT DISTINCT status FROM payout_requests ORDER BY status`);
    expect(statuses.map((s) => Number(s.status))).toEqual([1, 2, 3, 4]);
    const refunds = await db.rows(
      sql`SELECT p.id FROM payout_requests p WHERE p.status = 4 AND
            (SELECT count(*) FROM ledger_transactions t WHERE t.payout_id = p.id AND t.transaction_type IN ('payout_refund', 'payout_fee_refund'))
            <> (CASE WHEN p.fee > 0 THEN 2 ELSE 1 END)`,
    );
    expect(refunds).toEqual([]);
  });

  it('keeps every transaction balanced and every balance = Σ entries under random postings and payouts', async () => {
    const rng = new Rng(424242);
    const a = await quietMember(ctx.server, 0);
    const b = await quietMember(ctx.server, 1);
    const members = [a, b];
    const tokens = new Map<number, string>();
    for (const m of members) {
      tokens.set(m.id, await sessionOf(ctx.server, m.id));
      await setKyc(ctx.server, m.id, 'approved');
      await setPayoutMethod(ctx.server, m.id);
    }
    await setSetting(ctx.server, 'payout', { minimum: '10', maximum: '500', fee_fixed: '1', fee_percent: '2', kyc_required: true, single_pending: false });
    const expected = new Map<number, bigint>(members.map((m) => [m.id, 0n]));
    const pending: Array<{ id: number; member: number; amount: bigint; fee: bigint }> = [];
    const settings = { ...DEFAULT_WALLET_SETTINGS, tax_percent: '5', service_charge_percent: '2' };
    const db = ctx.server.database.db;
    const seen = { payoutOk: 0, payoutRefused: 0, transferOk: 0, transferRefused: 0, settled: 0 };

    for (let step = 0; step < 80; step++) {
      const m = rng.pick(members);
      const other = members.find((x) => x.id !== m.id)!;
      const op = rng.int(0, 5);
      const cents = BigInt(rng.int(1, 30000));
      const amount = cents * 100n; // whole cents in units
      if (op === 0) {
        const r = await postEarning(db, { memberId: m.id, bonusType: 'referral_bonus', gross: amount, createdAt: new Date(), fromMemberId: other.id, level: 1 }, settings);
        const tax = money.percentOf(amount, '5', 2);
        const sc = money.percentOf(amount, '2', 2);
        expect(r.net).toBe(amount - tax - sc);
        expected.set(m.id, expected.get(m.id)! + r.net);
      } else if (op === 1) {
        const ok = expected.get(m.id)! >= amount;
        await transferFunds(db, { fromMemberId: m.id, toMemberId: other.id, amount }).then(
          () => {
            expect(ok).toBe(true);
            seen.transferOk++;
            expected.set(m.id, expected.get(m.id)! - amount);
            expected.set(other.id, expected.get(other.id)! + amount);
          },
          (e) => {
            expect(ok).toBe(false);
            expect(e.statusCode).toBe(422);
            seen.transferRefused++;
          },
        );
      } else if (op === 2) {
        const signed = rng.chance(0.5) ? amount : -amount;
        const ok = signed > 0n || expected.get(m.id)! >= amount;
        await adjustWallet(db, { memberId: m.id, amount: signed, memo: 'test' }).then(
          () => {
            expect(ok).toBe(true);
            expected.set(m.id, expected.get(m.id)! + signed);
          },
          () => expect(ok).toBe(false),
        );
      } else if (op === 3) {
        const text = money.format(amount, 2);
        const fee = payoutFee(amount, { fee_fixed: '1', fee_percent: '2' });
        const okRules = amount >= P('10') && amount <= P('500');
        const okBalance = amount + fee <= expected.get(m.id)!;
        const res = await call(ctx.server, 'POST', '/api/payout/request_payout', {
          token: tokens.get(m.id),
          body: { amount: text, password: rng.chance(0.15) ? 'wrong-password' : TEST_PASSWORD },
          headers: { 'idempotency-key': `rand-${step}-${m.id}` },
        });
        if (res.status === 201) {
          expect(okRules && okBalance).toBe(true);
          seen.payoutOk++;
          expect(money.parse(res.body.data.payout.fee)).toBe(fee);
          expected.set(m.id, expected.get(m.id)! - amount - fee);
          expect(money.parse(res.body.data.wallet_balance)).toBe(expected.get(m.id));
          pending.push({ id: res.body.data.payout.id, member: m.id, amount, fee });
        } else {
          expect(res.status).toBe(422);
          expect(res.body.error_code).toBe('validation_error');
          seen.payoutRefused++;
          if (!res.body.errors.password) expect(okRules && okBalance).toBe(false);
        }
      } else if (op === 4 && pending.length) {
        const p = pending.splice(rng.int(0, pending.length - 1), 1)[0];
        seen.settled++;
        if (rng.chance(0.5)) {
          await rejectPayout(db, p.id);
          expected.set(p.member, expected.get(p.member)! + p.amount + p.fee);
        } else {
          if (rng.chance(0.5)) await approvePayout(db, p.id);
          await markPayoutPaid(db, p.id);
        }
      }
      for (const x of members) {
        const res = await apiGet(ctx.server, tokens.get(x.id)!, '/api/wallet/statement');
        expect(money.parse(res.body.data.wallet_balance)).toBe(expected.get(x.id));
        expect(await ledgerBalance(ctx.server, x.id)).toBe(expected.get(x.id));
        expect(expected.get(x.id)! >= 0n).toBe(true);
      }
    }
    // The sequence really exercised both outcomes of every kind of operation.
    for (const [k, v] of Object.entries(seen)) expect(v, k).toBeGreaterThan(0);
    expect(await unbalancedTransactions(ctx.server)).toBe(0);
    const [total] = await ctx.server.database.rows<{ s: string }>(sql`SELECT coalesce(sum(amount), 0)::text AS s FROM ledger_entries`);
    expect(money.parse(total.s)).toBe(0n);
    // The payouts-payable clearing account holds exactly what is requested and neither paid nor rejected.
    const [clearing] = await ctx.server.database.rows<{ s: string | null; open: string | null }>(
      sql`SELECT (SELECT -sum(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = 'payouts_payable')::text AS s,
                 (SELECT sum(amount) FROM payout_requests WHERE status IN (1, 2))::text AS open`,
    );
    expect(money.parse(clearing.s ?? '0')).toBe(money.parse(clearing.open ?? '0'));
  });
});

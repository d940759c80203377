// @vitest-environment node
/**
 * Wallet calls: statement, earnings overview and datewise totals, the transactions and
 * recent-earnings lists (keyset paging, every filter, validation), CSV exports and access control.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as money from '../../server/lib/money';
import { adjustWallet } from '../../server/lib/ledger';
import { apiGet, signedInDemo, expectedRange, ledgerBalance, memberId, parseCsv, quietMember, sessionOf, walk } from './wallet-support';

const ctx = signedInDemo();

/** demo's wallet lines straight from the database: transaction id → key, signed amount, time. */
async function walletLines(member: number, where = sql`TRUE`) {
  return ctx.server.database.rows<{ id: number; key: string; amount: string; created_at: string }>(
    sql`SELECT t.id, t.transaction_key AS key, e.amount::text AS amount,
               to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
        FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE a.member_id = ${member} AND ${where}`,
  );
}

const ids = (items: Array<{ id: number }>) => items.map((i) => Number(i.id));

describe('access', () => {
  it('needs a signed-in member', async () => {
    for (const url of [
      '/api/wallet/statement',
      '/api/wallet/earnings',
      '/api/wallet/earnings_total_datewise',
      '/api/wallet/transactions',
      '/api/wallet/transactions/export',
      '/api/wallet/recent_earnings',
      '/api/wallet/recent_earnings/export',
    ]) {
      const res = await apiGet(ctx.server, undefined, url);
      expect(res.status, url).toBe(401);
      expect(res.body.error_code).toBe('unauthenticated');
    }
  });

  it('shows a member only their own wallet', async () => {
    const other = await quietMember(ctx.server);
    await adjustWallet(ctx.server.database.db, { memberId: other.id, amount: money.parse('12.34'), memo: 'welcome credit' });
    const otherToken = await sessionOf(ctx.server, other.id);
    const mine = await walk(ctx.server, otherToken, '/api/wallet/transactions');
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({ transaction_key: 'admin_adjustment', amount: '12.3400', cash_flow: 'credit' });
    const demoIds = new Set((await walletLines(ctx.demoId)).map((l) => Number(l.id)));
    expect(demoIds.has(mine.items[0].id)).toBe(false);
    const st = await apiGet(ctx.server, otherToken, '/api/wallet/statement');
    expect(st.body.data.wallet_balance).toBe('12.3400');
    const earnings = await walk(ctx.server, otherToken, '/api/wallet/recent_earnings');
    const [own] = await ctx.server.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM earnings WHERE member_id = ${other.id}`);
    expect(earnings.items).toHaveLength(Number(own.n));
  });
});

describe('statement and earnings', () => {
  it('gives the balance from the ledger, payout totals and the newest lines', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/wallet/statement?load_modules=1');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(res.body.loaded_modules?.company?.name).toBeTruthy();
    expect(money.parse(d.wallet_balance)).toBe(await ledgerBalance(ctx.server, ctx.demoId));
    const [p] = await ctx.server.database.rows<{ paid: string; open: string }>(
      sql`SELECT coalesce(sum(amount) FILTER (WHERE status = 3), 0)::text AS paid, coalesce(sum(amount) FILTER (WHERE status IN (1, 2)), 0)::text AS open
          FROM payout_requests WHERE member_id = ${ctx.demoId}`,
    );
    expect(money.parse(d.total_paid)).toBe(money.parse(p.paid));
    expect(money.parse(d.total_pending)).toBe(money.parse(p.open));
    expect(money.parse(d.total_paid)).toBeGreaterThan(0n);
    expect(d.recent_transactions).toHaveLength(10);
    const first = await apiGet(ctx.server, ctx.token, '/api/wallet/transactions?limit=10');
    expect(d.recent_transactions).toEqual(first.body.data.items);
    expect(d.transaction_keys).toContain('payout');
    for (const k of d.transaction_keys) expect(typeof d.transaction_labels[k]).toBe('string');
  });

  it('gives the earnings overview', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/wallet/earnings');
    expect(res.status).toBe(200);
    const d = res.body.data;
    const [t] = await ctx.server.database.rows<{ s: string }>(sql`SELECT sum(amount_generated)::text AS s FROM earnings WHERE member_id = ${ctx.demoId}`);
    expect(money.parse(d.total_earnings)).toBe(money.parse(t.s));
    expect(d.earnings_datewise).toHaveLength(30);
    expect(d.earnings_datewise[29].date).toBe(new Date().toISOString().slice(0, 10));
    expect(d.start_date).toBe(d.earnings_datewise[0].date);
    expect(d.bonus_types).toEqual(['referral_bonus', 'binary_bonus', 'level_commission', 'rank_bonus']);
    expect(d.earnings_datewise_grouped.map((g: { bonus_type: string }) => g.bonus_type)).toEqual(d.bonus_types);
    expect(d.recent_earnings.length).toBeGreaterThan(0);
    for (const e of d.recent_earnings) {
      expect(money.parse(e.amount_generated) - money.parse(e.tax) - money.parse(e.service_charge)).toBe(money.parse(e.amount_payable));
    }
  });

  it('sums earnings per day and per bonus type over a chosen range', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/wallet/earnings_total_datewise?start_date=2026-01-01&end_date=2026-03-31');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.earnings_datewise).toHaveLength(31 + 28 + 31);
    expect(d.earnings_datewise[0].date).toBe('2026-01-01');
    expect(d.earnings_datewise.at(-1).date).toBe('2026-03-31');
    const rows = await ctx.server.database.rows<{ bonus_type: string; s: string }>(
      sql`SELECT bonus_type, sum(amount_generated)::text AS s FROM earnings
          WHERE member_id = ${ctx.demoId} AND created_at >= '2026-01-01T00:00:00Z' AND created_at < '2026-04-01T00:00:00Z' GROUP BY bonus_type`,
    );
    const expected = rows.reduce((s, r) => s + money.parse(r.s), 0n);
    expect(expected).toBeGreaterThan(0n);
    expect(money.sum(d.earnings_datewise.map((x: { total: string }) => money.parse(x.total)))).toBe(expected);
    for (const r of rows) {
      expect(d.earnings_datewise_grouped.find((g: { bonus_type: string }) => g.bonus_type === r.bonus_type).total).toBe(money.normalize(r.s));
    }
    const day = await ctx.server.database.rows<{ d: string; s: string }>(
      sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d, sum(amount_generated)::text AS s FROM earnings
          WHERE member_id = ${ctx.demoId} AND created_at >= '2026-01-01T00:00:00Z' AND created_at < '2026-04-01T00:00:00Z' GROUP BY 1 LIMIT 1`,
    );
    expect(d.earnings_datewise.find((x: { date: string }) => x.date === day[0].d).total).toBe(money.normalize(day[0].s));
  });

  it('validates the datewise range', async () => {
    const cases: Array<[string, string, string]> = [
      ['start_date=2026-02-30&end_date=2026-03-01', 'start_date', 'validation:invalidDate'],
      ['start_date=2026-03-01&end_date=01/04/2026', 'end_date', 'validation:invalidDate'],
      ['start_date=2026-03-10&end_date=2026-03-01', 'end_date', 'validation:endBeforeStart'],
      ['start_date=2026-03-10', 'end_date', 'validation:required'],
      ['start_date=2024-01-01&end_date=2026-01-01', 'end_date', 'validation:rangeTooLong'],
    ];
    for (const [q, field, key] of cases) {
      const res = await apiGet(ctx.server, ctx.token, `/api/wallet/earnings_total_datewise?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.errors[field], q).toContain(key);
    }
  });
});

describe('transactions list', () => {
  it('walks every line exactly once, in order, both ways', async () => {
    const all = await walletLines(ctx.demoId);
    expect(all.length).toBeGreaterThan(100);
    for (const sort of ['desc', 'asc']) {
      const { items, urls } = await walk(ctx.server, ctx.token, `/api/wallet/transactions?sort=${sort}&limit=37`);
      expect(new Set(ids(items)).size).toBe(items.length);
      expect(new Set(ids(items))).toEqual(new Set(all.map((r) => Number(r.id))));
      for (let i = 1; i < items.length; i++) {
        const a = [items[i - 1].created_at, items[i - 1].id];
        const b = [items[i].created_at, items[i].id];
        const ordered = a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
        expect(sort === 'asc' ? ordered : !ordered, `${sort} ${i}`).toBe(true);
      }
      // Pages are full except the last; the next page keeps the filters.
      expect(urls.length).toBe(Math.ceil(all.length / 37));
      for (const u of urls.slice(1)) expect(u).toMatch(new RegExp(`^/api/wallet/transactions\\?sort=${sort}&limit=37&cursor=[A-Za-z0-9_-]+$`));
    }
    const def = await apiGet(ctx.server, ctx.token, '/api/wallet/transactions');
    expect(def.body.data.items).toHaveLength(20);
  });

  it('loses and repeats nothing while lines are added between pages', async () => {
    const before = await walletLines(ctx.demoId);
    const times = before.map((r) => Date.parse(r.created_at)).sort((a, b) => a - b);
    const middle = times[Math.floor(times.length / 2)];
    for (const sort of ['desc', 'asc']) {
      const added: number[] = [];
      const { items } = await walk(ctx.server, ctx.token, `/api/wallet/transactions?sort=${sort}&limit=25`, async (page) => {
        // A new line now, and one back-dated into the middle of the list.
        added.push(await adjustWallet(ctx.server.database.db, { memberId: ctx.demoId, amount: money.parse('1.00'), memo: `during walk ${page}` }));
        added.push(
          await adjustWallet(ctx.server.database.db, { memberId: ctx.demoId, amount: money.parse('0.50'), memo: 'back-dated', createdAt: new Date(middle + page * 1000) }),
        );
      });
      const seen = ids(items);
      expect(new Set(seen).size).toBe(seen.length);
      const original = before.map((r) => Number(r.id));
      for (const id of original) expect(seen).toContain(id);
      // Anything else that showed up is one of the lines added during the walk.
      for (const id of seen) if (!original.includes(id)) expect(added).toContain(id);
      before.push(...(await walletLines(ctx.demoId, sql`t.id IN (${sql.join(added.map((a) => sql`${a}`), sql`, `)})`)));
    }
  });

  it('filters by type, cash flow and date range', async () => {
    const payouts = await walk(ctx.server, ctx.token, '/api/wallet/transactions?transaction_key[0]=payout&limit=100');
    const dbPayout = await walletLines(ctx.demoId, sql`t.transaction_key = 'payout'`);
    expect(payouts.items).toHaveLength(dbPayout.length);
    expect(payouts.items.every((i: { transaction_key: string }) => i.transaction_key === 'payout')).toBe(true);

    const refunds = await walk(ctx.server, ctx.token, '/api/wallet/transactions?transaction_key[0]=payout&cash_flow=credit');
    expect(refunds.items.length).toBeGreaterThan(0);
    expect(refunds.items.every((i: { cash_flow: string; transaction_type: string }) => i.cash_flow === 'credit' && i.transaction_type === 'payout_refund')).toBe(true);
    expect(refunds.items).toHaveLength(dbPayout.filter((r) => money.parse(r.amount) < 0n).length);
    expect(refunds.urls.every((u) => u.includes('transaction_key[0]=payout') && u.includes('cash_flow=credit'))).toBe(true);

    const two = await walk(ctx.server, ctx.token, '/api/wallet/transactions?transaction_key[]=binary_bonus&transaction_key[]=rank_bonus&limit=50');
    const dbTwo = await walletLines(ctx.demoId, sql`t.transaction_key IN ('binary_bonus', 'rank_bonus')`);
    expect(new Set(ids(two.items))).toEqual(new Set(dbTwo.map((r) => Number(r.id))));
    expect(new Set(two.items.map((i: { transaction_key: string }) => i.transaction_key))).toEqual(new Set(['binary_bonus', 'rank_bonus']));
    // Repeated keys (`a=1&a=2`) are a list too.
    const rep = await apiGet(ctx.server, ctx.token, '/api/wallet/transactions?transaction_key=binary_bonus&transaction_key=rank_bonus&limit=100');
    expect(rep.body.data.items.length).toBe(Math.min(100, dbTwo.length));

    const range = await walk(ctx.server, ctx.token, '/api/wallet/transactions?date_range=custom&start_date=2025-06-01&end_date=2025-06-30');
    const dbRange = await walletLines(ctx.demoId, sql`e.created_at >= '2025-06-01T00:00:00Z' AND e.created_at < '2025-07-01T00:00:00Z'`);
    expect(new Set(ids(range.items))).toEqual(new Set(dbRange.map((r) => Number(r.id))));
    expect(range.items.length).toBeGreaterThan(0);
    // Without date_range, either bound alone works.
    const from = await walk(ctx.server, ctx.token, '/api/wallet/transactions?start_date=2026-10-01&limit=100');
    expect(from.items).toHaveLength((await walletLines(ctx.demoId, sql`e.created_at >= '2026-10-01T00:00:00Z'`)).length);
  });

  it('applies the date presets (UTC days, weeks from Monday)', async () => {
    const m = await quietMember(ctx.server, 2);
    const t = await sessionOf(ctx.server, m.id);
    const now = new Date();
    const D = 86_400_000;
    const offsets = [0, 1, 3, 6, 8, 13, 20, 32, 45, 70, 200, 380];
    const made = new Map<number, number>();
    for (const o of offsets) {
      const at = new Date(now.getTime() - o * D - 1000);
      made.set(await adjustWallet(ctx.server.database.db, { memberId: m.id, amount: money.parse('1'), memo: `${o} days ago`, createdAt: at }), at.getTime());
    }
    for (const preset of ['today', 'yesterday', 'this_week', 'last_week', 'this_month', 'last_month', 'this_year']) {
      const [from, to] = expectedRange(preset, now);
      const expected = [...made].filter(([, at]) => at >= from && at < to).map(([id]) => id);
      const res = await walk(ctx.server, t, `/api/wallet/transactions?date_range=${preset}`);
      expect(new Set(ids(res.items)), preset).toEqual(new Set(expected));
    }
    const all = await walk(ctx.server, t, '/api/wallet/transactions');
    expect(all.items).toHaveLength(offsets.length);
  });

  it('answers bad filters with a field map, never a server error', async () => {
    const cases: Array<[string, string, string]> = [
      ['sort=up', 'sort', 'validation:invalidChoice'],
      ['cursor=not-a-cursor', 'cursor', 'validation:invalidCursor'],
      ['cursor=%25%25%25', 'cursor', 'validation:invalidCursor'],
      ['limit=0', 'limit', 'validation:invalidLimit'],
      ['limit=101', 'limit', 'validation:invalidLimit'],
      ['limit=ten', 'limit', 'validation:invalidLimit'],
      ['date_range=someday', 'date_range', 'validation:invalidChoice'],
      ['date_range=custom', 'start_date', 'validation:required'],
      ['date_range=custom&start_date=2026-01-01', 'end_date', 'validation:required'],
      ['start_date=2026-13-01', 'start_date', 'validation:invalidDate'],
      ['start_date=2026-1-1', 'start_date', 'validation:invalidDate'],
      ['end_date=2025-02-29', 'end_date', 'validation:invalidDate'],
      ['start_date=2026-02-01&end_date=2026-01-31', 'end_date', 'validation:endBeforeStart'],
      ['transaction_key[0]=lottery', 'transaction_key', 'validation:invalidChoice'],
      ['cash_flow=credit', 'cash_flow', 'validation:cashFlowNeedsOneType'],
      ['transaction_key[0]=payout&transaction_key[1]=payout_fee&cash_flow=debit', 'cash_flow', 'validation:cashFlowNeedsOneType'],
      ['transaction_key[0]=payout&cash_flow=sideways', 'cash_flow', 'validation:invalidChoice'],
      ['sort=asc&sort=desc', 'sort', 'validation:invalidType'],
    ];
    for (const [q, field, key] of cases) {
      const res = await apiGet(ctx.server, ctx.token, `/api/wallet/transactions?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.error_code, q).toBe('validation_error');
      expect(res.body.errors[field], `${q} → ${JSON.stringify(res.body.errors)}`).toContain(key);
    }
    // A cursor of a descending walk does not continue an ascending one.
    const desc = await apiGet(ctx.server, ctx.token, '/api/wallet/transactions?limit=5');
    const cursor = new URLSearchParams(desc.body.data.next_page_url.split('?')[1]).get('cursor');
    const mixed = await apiGet(ctx.server, ctx.token, `/api/wallet/transactions?sort=asc&cursor=${cursor}`);
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors.cursor).toEqual(['validation:invalidCursor']);
  });

  it('survives junk in every filter of every list (4xx, never 5xx)', async () => {
    const junk = ['', ' ', '%00', '%27%3B--', '9'.repeat(40), '-1', '1e309', '[]', '{}', '%E2%80%AE', 'null', '2026-02-31T00:00:00Z'];
    const lists: Array<[string, string[]]> = [
      ['/api/wallet/transactions', ['cursor', 'sort', 'date_range', 'start_date', 'end_date', 'limit', 'transaction_key[0]', 'cash_flow']],
      ['/api/wallet/recent_earnings', ['cursor', 'sort', 'date_range', 'start_date', 'end_date', 'limit', 'bonus_type[]']],
      ['/api/wallet/earnings_total_datewise', ['start_date', 'end_date']],
      ['/api/payout/transactions', ['cursor', 'payout_status[]', 'limit']],
      ['/api/payout/statement', ['interval']],
      ['/api/orders/recent_orders', ['cursor', 'sort', 'limit']],
      ['/api/network/pv_history', ['cursor', 'type', 'date_range']],
      ['/api/network/binary_history', ['cursor', 'type', 'start_date']],
    ];
    for (const [path, params] of lists) {
      for (const p of params) {
        for (const j of junk) {
          const res = await apiGet(ctx.server, ctx.token, `${path}?${p}=${j}`);
          expect(res.status, `${path}?${p}=${j}`).toBeLessThan(500);
          if (res.status !== 200) {
            expect(res.status).toBe(422);
            expect(Object.keys(res.body.errors).length).toBeGreaterThan(0);
          }
        }
      }
    }
  });

  it('exports the filtered list as CSV', async () => {
    const q = 'transaction_key[0]=payout_fee&date_range=custom&start_date=2025-01-01&end_date=2026-12-31&sort=asc';
    const res = await apiGet(ctx.server, ctx.token, `/api/wallet/transactions/export?${q}`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/csv/);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="transactions-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual(['id', 'date', 'type', 'description', 'cash_flow', 'amount', 'from_user', 'level', 'rank']);
    const listed = await walk(ctx.server, ctx.token, `/api/wallet/transactions?${q}`);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(ids(listed.items));
    expect(rows.slice(1).map((r) => r[5])).toEqual(listed.items.map((i: { amount: string }) => i.amount));
    expect(rows.slice(1).every((r) => r[2] === 'payout_fee' && r[3] === 'Payout fee')).toBe(true);
    const bad = await apiGet(ctx.server, ctx.token, '/api/wallet/transactions/export?transaction_key[0]=nope');
    expect(bad.status).toBe(422);
  });
});

describe('recent earnings list', () => {
  it('walks every earning once and filters by bonus type', async () => {
    const dbAll = await ctx.server.database.rows<{ id: number; bonus_type: string }>(sql`SELECT id, bonus_type FROM earnings WHERE member_id = ${ctx.demoId}`);
    const all = await walk(ctx.server, ctx.token, '/api/wallet/recent_earnings?limit=50');
    expect(new Set(ids(all.items))).toEqual(new Set(dbAll.map((r) => Number(r.id))));
    expect(all.items).toHaveLength(dbAll.length);
    const types = new Set(dbAll.map((r) => r.bonus_type));
    expect(types).toEqual(new Set(['referral_bonus', 'binary_bonus', 'level_commission', 'rank_bonus']));
    for (const t of types) {
      const one = await walk(ctx.server, ctx.token, `/api/wallet/recent_earnings?bonus_type[0]=${t}&sort=asc&limit=40`);
      expect(one.items).toHaveLength(dbAll.filter((r) => r.bonus_type === t).length);
      expect(one.items.every((i: { bonus_type: string }) => i.bonus_type === t)).toBe(true);
    }
    const rank = (await walk(ctx.server, ctx.token, '/api/wallet/recent_earnings?bonus_type[0]=rank_bonus')).items;
    expect(rank.every((r: { rank_name: string | null }) => typeof r.rank_name === 'string')).toBe(true);
    const level = (await apiGet(ctx.server, ctx.token, '/api/wallet/recent_earnings?bonus_type[0]=level_commission&limit=5')).body.data.items;
    expect(level.every((r: { level: number; from_user: string }) => r.level >= 1 && r.from_user)).toBe(true);
    const bad = await apiGet(ctx.server, ctx.token, '/api/wallet/recent_earnings?bonus_type[0]=jackpot');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.bonus_type).toEqual(['validation:invalidChoice']);
  });

  it('exports earnings as CSV', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/wallet/recent_earnings/export?bonus_type[0]=binary_bonus');
    expect(res.status).toBe(200);
    const rows = parseCsv(res.text);
    expect(rows[0].slice(0, 8)).toEqual(['id', 'date', 'bonus_type', 'description', 'amount_generated', 'tax', 'service_charge', 'amount_payable']);
    const [n] = await ctx.server.database.rows<{ n: number; s: string }>(
      sql`SELECT count(*)::int AS n, sum(amount_payable)::text AS s FROM earnings WHERE member_id = ${ctx.demoId} AND bonus_type = 'binary_bonus'`,
    );
    expect(rows.length - 1).toBe(Number(n.n));
    expect(money.sum(rows.slice(1).map((r) => money.parse(r[7])))).toBe(money.parse(n.s));
  });
});

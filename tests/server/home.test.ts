// @vitest-environment node
/**
 * Home calls: every figure equals what the database says, recounted here from the ledger, the
 * orders, earnings and payouts, and the tree (never from the same SQL the server uses).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, get, login, rows } from './helpers';
import {
  binarySummarySchema,
  dashboardExtraSchema,
  dashboardSummarySchema,
  homeDummySchema,
  notificationCountsSchema,
  notificationsSchema,
  packageDataSchema,
  promotionsSchema,
  ranksSchema,
} from '../../src/schemas/home.schema';
import { moduleDataSchema } from '../../src/schemas/common.schema';
import { sanitizeHtml } from '../../server/lib/sanitize';

let server: TestServer;
let token: string;
let demo: Member;

interface Member {
  id: number;
  username: string;
  email: string | null;
  first_name: string;
  last_name: string | null;
  sponsor_id: number | null;
  parent_id: number | null;
  position: string | null;
  path: string;
  verified: boolean;
  created_at: Date;
  package_id: number | null;
  package_expiry: Date | null;
  package_purchase_date: Date | null;
  rank_id: number | null;
  rank_achieved_at: Date | null;
  pv: string;
  tv: string;
  cv: string;
  total_left: string;
  total_right: string;
  carry_left: string;
  carry_right: string;
  left_count: number;
  right_count: number;
  default_leg: string | null;
  account_type: string;
  customer_id: number | null;
}

/** Decimal text → exact units of 10^-4. */
function units(v: string | number | null | undefined): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(v ?? '0').trim());
  if (!m) throw new Error(`not a decimal: ${v}`);
  const frac = (m[3] ?? '').padEnd(4, '0').slice(0, 4);
  const n = BigInt(m[2]) * 10000n + BigInt(frac);
  return m[1] ? -n : n;
}
const sumUnits = (list: Array<string | number | null>) => list.reduce<bigint>((s, v) => s + units(v), 0n);
const monthOf = (d: Date | string) => new Date(d).toISOString().slice(0, 7);
/** Timestamps come back from raw queries as text or Date depending on the driver. */
const isoOf = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const ms = (d: Date | string) => new Date(d).getTime();
const monthStart = (d: Date, add = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));

async function memberRow(username: string): Promise<Member> {
  const [m] = await rows<Member>(server.database, sql`SELECT * FROM members WHERE lower(username) = ${username.toLowerCase()}`);
  return m;
}

async function data<T>(schema: z.ZodMiniType<T>, path: string, as = token): Promise<T> {
  const res = await get(server.app, path, { token: as });
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
  return z.parse(schema, res.body.data);
}

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  token = (await login(server.app, 'demo')).token;
  demo = await memberRow('demo');
}, 120_000);
afterAll(() => server?.close());

const CALLS: Array<[string, z.ZodMiniType]> = [
  ['/api/home/dashboard', dashboardSummarySchema],
  ['/api/home/dashboard/extra', dashboardExtraSchema],
  ['/api/home/ranks', ranksSchema],
  ['/api/home/packages', packageDataSchema],
  ['/api/home/promotions', promotionsSchema],
  ['/api/home/binary', binarySummarySchema],
  ['/api/home/notifications', notificationsSchema],
  ['/api/home/notifications_count', notificationCountsSchema],
  ['/api/home/dummy', homeDummySchema],
];

describe('every Home call', () => {
  it.each(CALLS)('%s needs a signed-in member and answers its schema', async (path, schema) => {
    const anonymous = await get(server.app, path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error_code).toBe('unauthenticated');
    const res = await get(server.app, path, { token });
    expect(res.status).toBe(200);
    expect(z.safeParse(schema, res.body.data).success).toBe(true);
  });

  it('carries loaded_modules when asked with load_modules=1', async () => {
    const res = await get(server.app, '/api/home/dashboard?load_modules=1', { token });
    expect(res.status).toBe(200);
    const modules = z.parse(moduleDataSchema, res.body.loaded_modules);
    expect(modules.user?.username).toBe('demo');
    const plain = await get(server.app, '/api/home/dashboard', { token });
    expect(plain.body.loaded_modules).toBeUndefined();
  });
});

describe('dashboard summary', () => {
  it('wallet balance, earnings and payouts are the ledger’s figures', async () => {
    const d = await data(dashboardSummarySchema, '/api/home/dashboard');
    const entries = await rows<{ amount: string }>(
      server.database,
      sql`SELECT e.amount::text AS amount FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.member_id = ${demo.id}`,
    );
    expect(entries.length).toBeGreaterThan(10);
    // Member wallets are credit-normal: the balance is minus the sum of the entries.
    expect(units(d.wallet_balance)).toBe(-sumUnits(entries.map((e) => e.amount)));
    expect(units(d.wallet_balance)).toBeGreaterThan(0n);

    const earnings = await rows<{ amount_generated: string; bonus_type: string }>(
      server.database,
      sql`SELECT amount_generated::text AS amount_generated, bonus_type FROM earnings WHERE member_id = ${demo.id}`,
    );
    expect(units(d.total_earnings)).toBe(sumUnits(earnings.map((e) => e.amount_generated)));
    expect(units(d.total_earnings)).toBeGreaterThan(0n);
    expect(units(d.total_return)).toBe(sumUnits(earnings.filter((e) => e.bonus_type === 'roi_bonus').map((e) => e.amount_generated)));

    const payouts = await rows<{ amount: string; status: number }>(server.database, sql`SELECT amount::text AS amount, status FROM payout_requests WHERE member_id = ${demo.id}`);
    expect(units(d.total_paid)).toBe(sumUnits(payouts.filter((p) => Number(p.status) === 3).map((p) => p.amount)));
    expect(units(d.total_paid)).toBeGreaterThan(0n);

    const orders = await rows<{ total: string; order_type: string; status: string }>(
      server.database,
      sql`SELECT total::text AS total, order_type, status FROM orders WHERE member_id = ${demo.id}`,
    );
    const invested = orders.filter((o) => (o.order_type === 'registration' || o.order_type === 'upgrade') && o.status !== 'cancelled');
    expect(invested.length).toBeGreaterThan(0);
    expect(units(d.total_investment)).toBe(sumUnits(invested.map((o) => o.total)));
  });

  it('credit and debit history are the wallet’s monthly totals over the last 12 months', async () => {
    const d = await data(dashboardSummarySchema, '/api/home/dashboard');
    const now = new Date();
    const months = Array.from({ length: 12 }, (_, k) => monthOf(monthStart(now, k - 11)));
    expect(d.credit_history.map((m) => m.month)).toEqual(months);
    expect(d.debit_history.map((m) => m.month)).toEqual(months);

    const entries = await rows<{ amount: string; created_at: Date }>(
      server.database,
      sql`SELECT e.amount::text AS amount, e.created_at FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.member_id = ${demo.id}`,
    );
    const credit = new Map<string, bigint>();
    const debit = new Map<string, bigint>();
    for (const e of entries) {
      const m = monthOf(e.created_at);
      const a = units(e.amount);
      if (a < 0n) credit.set(m, (credit.get(m) ?? 0n) - a);
      else debit.set(m, (debit.get(m) ?? 0n) + a);
    }
    for (const [k, m] of months.entries()) {
      expect(units(d.credit_history[k].total), `credit ${m}`).toBe(credit.get(m) ?? 0n);
      expect(units(d.debit_history[k].total), `debit ${m}`).toBe(debit.get(m) ?? 0n);
    }
    if (entries.some((e) => months.includes(monthOf(e.created_at)))) {
      expect(d.credit_history.some((m) => units(m.total) > 0n)).toBe(true);
    }
  });

  it('recent transactions are the newest lines of the wallet', async () => {
    const d = await data(dashboardSummarySchema, '/api/home/dashboard');
    const newest = await rows<{ transaction_id: number; amount: string; transaction_key: string }>(
      server.database,
      sql`SELECT e.transaction_id, e.amount::text AS amount, t.transaction_key FROM ledger_entries e
          JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE a.member_id = ${demo.id} ORDER BY e.created_at DESC, e.transaction_id DESC LIMIT 5`,
    );
    expect(d.recent_transactions.map((t) => t.id)).toEqual(newest.map((n) => Number(n.transaction_id)));
    for (const [k, t] of d.recent_transactions.entries()) {
      const a = units(newest[k].amount);
      expect(units(t.amount)).toBe(a < 0n ? -a : a);
      expect(t.cash_flow).toBe(a < 0n ? 'credit' : 'debit');
      expect(t.transaction_key).toBe(newest[k].transaction_key);
      expect(d.transaction_labels[t.transaction_key]).toBeTruthy();
    }
  });

  it('volumes, package, rank and KYC are the member’s', async () => {
    const d = await data(dashboardSummarySchema, '/api/home/dashboard');
    expect(units(d.pv)).toBe(units(demo.pv));
    expect(units(d.tv)).toBe(units(demo.tv));
    expect(units(d.cv)).toBe(units(demo.cv));
    expect(d.user_role).toBe(3);
    expect(d.account_type).toBe('personal');
    expect(d.member_email).toBe(demo.email);
    expect(d.merchant_email).toBeNull();
    expect(d.is_linked).toBe(demo.customer_id !== null);
    const [special] = await rows(server.database, sql`SELECT 1 FROM special_members WHERE member_id = ${demo.id}`);
    expect(d.is_special_member).toBe(!!special);

    const packages = await rows<{ id: number; name: string; price: string; bv: string; sort_order: number; status: boolean }>(
      server.database,
      sql`SELECT id, name, price::text AS price, bv::text AS bv, sort_order, status FROM packages`,
    );
    const pkg = packages.find((p) => p.id === demo.package_id)!;
    expect(d.package_id).toBe(pkg.id);
    expect(d.package_name).toBe(pkg.name);
    expect(units(d.package_amount)).toBe(units(pkg.price));
    expect(units(d.package_bv)).toBe(units(pkg.bv));
    expect(d.package_expiry).toBe(isoOf(demo.package_expiry));
    expect(d.package_purchase_date).toBe(isoOf(demo.package_purchase_date));
    expect(d.is_highest_package).toBe(!packages.some((p) => p.status && p.sort_order > pkg.sort_order));

    const [rank] = await rows<{ id: number; name: string; icon: string; bonus: string }>(
      server.database,
      sql`SELECT id, name, icon, bonus::text AS bonus FROM ranks WHERE id = ${demo.rank_id}`,
    );
    expect(d.rank_id).toBe(rank.id);
    expect(d.rank_name).toBe(rank.name);
    expect(d.rank_icon).toBe(rank.icon);
    expect(units(d.rank_bonus)).toBe(units(rank.bonus));
    expect(d.rank_achieved_date).toBe(isoOf(demo.rank_achieved_at));

    const [kyc] = await rows<{ status: string }>(server.database, sql`SELECT status FROM member_kyc WHERE member_id = ${demo.id}`);
    expect(d.kyc_status).toBe(kyc?.status ?? 'not_submitted');
  });

  it('recent joinings are the newest members of the downline', async () => {
    const d = await data(dashboardSummarySchema, '/api/home/dashboard');
    const all = await rows<Member>(server.database, sql`SELECT id, path, verified, created_at, first_name, last_name FROM members`);
    const downline = all
      .filter((m) => m.path.startsWith(demo.path) && m.id !== demo.id && m.verified)
      .sort((a, b) => ms(b.created_at) - ms(a.created_at) || b.id - a.id);
    expect(downline.length).toBeGreaterThan(5);
    expect(d.recent_joinings.map((j) => j.id)).toEqual(downline.slice(0, 5).map((m) => m.id));
    for (const [k, j] of d.recent_joinings.entries()) {
      expect(j.first_name).toBe(downline[k].first_name);
      expect(j.joined_date).toBe(isoOf(downline[k].created_at));
    }
  });

  it('recent joinings of a downline whose members all joined before the newest 500 of the tree: read from the downline itself', async () => {
    const db = server.database;
    const [blocked] = await rows<{ id: number; path: string; depth: number }>(db, sql`SELECT id, path, depth FROM members WHERE username = 'blocked'`);
    expect(blocked.path.startsWith(demo.path)).toBe(false);
    // 600 verified members newer than anyone, placed below blocked (outside demo's downline).
    const added = (
      await rows<{ id: number }>(db, sql`
        INSERT INTO members (username, password_hash, first_name, sponsor_id, parent_id, path, depth, created_at, verified)
        SELECT 'newcomer' || i, 'x', 'New', ${blocked.id}, ${blocked.id}, '', ${blocked.depth + 1}, timestamptz '2031-01-01' + i * interval '1 s', TRUE
        FROM generate_series(1, 600) i RETURNING id`)
    ).map((r) => Number(r.id));
    const ids = sql.join(added.map((id) => sql`${id}`), sql`, `);
    await rows(db, sql`UPDATE members SET path = ${blocked.path} || id || '.' WHERE id IN (${ids})`);
    try {
      const d = await data(dashboardSummarySchema, '/api/home/dashboard');
      const all = await rows<Member>(db, sql`SELECT id, path, verified, created_at, first_name, last_name FROM members`);
      const downline = all
        .filter((m) => m.path.startsWith(demo.path) && m.id !== demo.id && m.verified)
        .sort((a, b) => ms(b.created_at) - ms(a.created_at) || b.id - a.id);
      expect(d.recent_joinings.map((j) => j.id)).toEqual(downline.slice(0, 5).map((m) => m.id));
      expect(d.recent_joinings.some((j) => added.includes(j.id))).toBe(false);
    } finally {
      await rows(db, sql`DELETE FROM members WHERE id IN (${ids})`);
    }
  });

  it('recruitment progress counts the personally sponsored members of each target month', async () => {
    const d = await data(dashboardSummarySchema, '/api/home/dashboard');
    const targets = await rows<{ member_id: number | null; month: string; required_count: number }>(
      server.database,
      sql`SELECT member_id, to_char(month, 'YYYY-MM') AS month, required_count FROM recruitment_targets WHERE member_id IS NULL OR member_id = ${demo.id}`,
    );
    const current = monthOf(new Date());
    const required = new Map<string, number>();
    for (const t of targets.filter((t) => t.member_id === null)) required.set(t.month, t.required_count);
    for (const t of targets.filter((t) => t.member_id !== null)) required.set(t.month, t.required_count);
    const [{ joined }] = await rows<{ joined: string }>(server.database, sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS joined FROM members WHERE id = ${demo.id}`);
    const months = [...required.keys()].filter((m) => m <= current && m >= joined).sort().slice(-6);
    expect(d.recruitment_progress.map((p) => p.month)).toEqual(months);

    const sponsored = await rows<{ created_at: Date }>(server.database, sql`SELECT created_at FROM members WHERE sponsor_id = ${demo.id} AND verified`);
    for (const p of d.recruitment_progress) {
      const got = sponsored.filter((s) => monthOf(s.created_at) === p.month).length;
      expect(p.required_count).toBe(required.get(p.month));
      expect(p.current_count).toBe(got);
      expect(p.progress).toBe(Math.min(100, Math.floor((got * 100) / p.required_count)));
      expect(p.start_date).toBe(`${p.month}-01`);
      expect(p.end_date.slice(0, 7)).toBe(p.month);
      const ended = monthStart(new Date(`${p.month}-01T00:00:00Z`), 1).getTime() <= Date.now();
      expect(p.status).toBe(got >= p.required_count ? 'achieved' : ended ? 'missed' : 'in_progress');
    }
  });

  it("a change of the company's recruitment target reaches the dashboard (the company's targets are kept between calls)", async () => {
    const before = await data(dashboardSummarySchema, '/api/home/dashboard');
    // A month shown with the company's target (the member has none of their own for it).
    const [company] = await rows<{ month: string; required_count: number }>(
      server.database,
      sql`SELECT to_char(t.month, 'YYYY-MM') AS month, t.required_count FROM recruitment_targets t
          WHERE t.member_id IS NULL AND to_char(t.month, 'YYYY-MM') IN (${sql.join(before.recruitment_progress.map((p) => sql`${p.month}`), sql`, `)})
            AND NOT EXISTS (SELECT 1 FROM recruitment_targets o WHERE o.member_id = ${demo.id} AND o.month = t.month)
          ORDER BY t.month DESC LIMIT 1`,
    );
    expect(company).toBeDefined();
    expect(before.recruitment_progress.find((p) => p.month === company.month)?.required_count).toBe(company.required_count);
    const changed = company.required_count + 11;
    await rows(server.database, sql`UPDATE recruitment_targets SET required_count = ${changed} WHERE member_id IS NULL AND to_char(month, 'YYYY-MM') = ${company.month}`);
    try {
      // Announced at once to every server process (at the latest when the cache next compares the settings version, 2 s).
      await vi.waitFor(
        async () => {
          const after = await data(dashboardSummarySchema, '/api/home/dashboard');
          expect(after.recruitment_progress.find((p) => p.month === company.month)?.required_count).toBe(changed);
        },
        { timeout: 5000, interval: 200 },
      );
    } finally {
      await rows(server.database, sql`UPDATE recruitment_targets SET required_count = ${company.required_count} WHERE member_id IS NULL AND to_char(month, 'YYYY-MM') = ${company.month}`);
    }
  });

  it('recent articles and videos are the newest published stories', async () => {
    const d = await data(dashboardSummarySchema, '/api/home/dashboard');
    for (const [kind, list] of [
      ['article', d.recent_articles],
      ['video', d.recent_videos],
    ] as const) {
      const newest = await rows<{ id: number }>(
        server.database,
        sql`SELECT id FROM stories WHERE kind = ${kind} AND published ORDER BY updated_at DESC, id DESC LIMIT 3`,
      );
      expect(newest).toHaveLength(3);
      expect(list.map((s) => s.id)).toEqual(newest.map((n) => n.id));
    }
    expect(d.recent_videos.every((v) => v.url?.startsWith('https://'))).toBe(true);
  });
});

describe('ranks', () => {
  it('the binary plan\'s ranks split at the current one; each asks for recruits, PV and both legs; criteria achieved are the member’s real figures', async () => {
    const r = await data(ranksSchema, '/api/home/ranks');
    const ranks = await rows<{ id: number; sort_order: number; criteria: Record<string, string> }>(
      server.database,
      sql`SELECT id, sort_order, criteria FROM ranks WHERE plan = 'binary' ORDER BY sort_order`,
    );
    expect(r.plan).toBe('binary');
    expect(r.criteria_keys).toEqual(['referral_count', 'pv', 'left_volume', 'right_volume']);
    expect(r.criteria).toEqual({ referral_count: true, pv: true, tv: false });
    const current = ranks.find((x) => x.id === demo.rank_id)!;
    expect(r.current_rank?.id).toBe(current.id);
    expect(r.rank_achievements.map((a) => a.id)).toEqual(ranks.filter((x) => x.sort_order <= current.sort_order).map((x) => x.id));
    expect(r.higher_ranks.map((a) => a.id)).toEqual(ranks.filter((x) => x.sort_order > current.sort_order).map((x) => x.id));
    const dates = new Map(
      (await rows<{ rank_id: number; achieved_at: Date }>(server.database, sql`SELECT rank_id, achieved_at FROM rank_achievements WHERE member_id = ${demo.id}`)).map(
        (x) => [x.rank_id, isoOf(x.achieved_at)],
      ),
    );
    for (const a of [...r.rank_achievements, ...r.higher_ranks]) {
      if ('created_at' in a) expect(a.created_at).toBe(dates.get(a.id));
      const def = ranks.find((x) => x.id === a.id)!;
      expect(a.requirements.map((q) => [q.key, units(q.value)])).toEqual(
        ['referral_count', 'pv', 'left_volume', 'right_volume'].map((k) => [k, units(def.criteria[k])]),
      );
      expect(a.referral_count).toBe(Number(def.criteria.referral_count));
    }

    // Active personal recruits: sponsored, verified and not blocked.
    const active = await rows(server.database, sql`SELECT id FROM members WHERE sponsor_id = ${demo.id} AND verified AND status = 1`);
    expect(r.criteria_achieved.referral_count).toBe(active.length);
    expect(r.criteria_achieved.referral_count).toBeGreaterThan(0);
    expect(r.criteria_achieved.figures.map((f) => [f.key, units(f.value)])).toEqual([
      ['referral_count', units(String(active.length))],
      ['pv', units(demo.pv)],
      ['left_volume', units(demo.total_left)],
      ['right_volume', units(demo.total_right)],
    ]);
    expect(units(r.criteria_achieved.pv)).toBe(units(demo.pv));
    expect(units(r.criteria_achieved.tv)).toBe(units(demo.tv));
  });
});

describe('packages', () => {
  it('lists the active packages with exact differences to the current one', async () => {
    const p = await data(packageDataSchema, '/api/home/packages');
    const packages = await rows<{ id: number; price: string; bv: string; sort_order: number; status: boolean }>(
      server.database,
      sql`SELECT id, price::text AS price, bv::text AS bv, sort_order, status FROM packages ORDER BY sort_order`,
    );
    const current = packages.find((x) => x.id === demo.package_id)!;
    expect(p.current_package_id).toBe(current.id);
    expect(p.current_package_expiry).toBe(isoOf(demo.package_expiry));
    expect(p.package_status).toBe(ms(demo.package_expiry!) < Date.now() ? 'expired' : 'active');
    expect(p.packages.map((o) => o.id)).toEqual(packages.filter((x) => x.status || x.id === current.id).map((x) => x.id));
    for (const o of p.packages) {
      const def = packages.find((x) => x.id === o.id)!;
      expect(units(o.price_difference)).toBe(units(def.price) - units(current.price));
      expect(units(o.pv_difference)).toBe(units(def.bv) - units(current.bv));
      expect(o.is_current).toBe(o.id === current.id);
    }
    const next = packages.find((x) => x.status && x.sort_order > current.sort_order);
    expect(p.price_difference === null ? null : units(p.price_difference)).toBe(next ? units(next.price) - units(current.price) : null);
    expect(p.upgrade_status).toBe(!!next);
    // A binary company: its plan, no matrix, no level commissions.
    expect(p.plan).toEqual({ compensation_plan: 'binary', matrix_width: null, matrix_depth: null, level_percents: [] });
  });

  it('a member on the lowest package may upgrade to every higher one', async () => {
    const [low] = await rows<{ username: string; package_id: number }>(
      server.database,
      sql`SELECT m.username, m.package_id FROM members m JOIN packages p ON p.id = m.package_id
          WHERE m.status = 1 AND m.verified AND m.id > 4 AND p.sort_order = (SELECT min(sort_order) FROM packages) ORDER BY m.id LIMIT 1`,
    );
    const other = (await login(server.app, low.username)).token;
    const p = await data(packageDataSchema, '/api/home/packages', other);
    expect(p.upgrade_status).toBe(true);
    expect(p.packages.filter((o) => o.can_upgrade).map((o) => o.id)).toEqual(p.packages.filter((o) => o.id !== low.package_id).map((o) => o.id));
    expect(p.packages.filter((o) => o.id !== low.package_id).every((o) => units(o.price_difference) > 0n)).toBe(true);
  });
});

describe('binary summary', () => {
  it('is the maintained tree columns, the upline names and the binary bonuses', async () => {
    const b = await data(binarySummarySchema, '/api/home/binary');
    expect(b.position).toBe(demo.position);
    expect(units(b.total_left)).toBe(units(demo.total_left));
    expect(units(b.total_right)).toBe(units(demo.total_right));
    expect(units(b.carry_left)).toBe(units(demo.carry_left));
    expect(units(b.carry_right)).toBe(units(demo.carry_right));
    expect(b.default_leg).toBe(demo.default_leg);

    // Leg counts recounted from the paths.
    const all = await rows<{ id: number; parent_id: number | null; position: string | null; path: string }>(server.database, sql`SELECT id, parent_id, position, path FROM members`);
    const legCount = (leg: string) => {
      const top = all.find((m) => m.parent_id === demo.id && m.position === leg);
      return top ? all.filter((m) => m.path.startsWith(top.path)).length : 0;
    };
    expect(b.left_downline_count).toBe(legCount('L'));
    expect(b.right_downline_count).toBe(legCount('R'));
    expect(b.left_downline_count + b.right_downline_count).toBeGreaterThan(0);

    const parent = await memberRow((await rows<{ username: string }>(server.database, sql`SELECT username FROM members WHERE id = ${demo.parent_id}`))[0].username);
    const sponsor = await memberRow((await rows<{ username: string }>(server.database, sql`SELECT username FROM members WHERE id = ${demo.sponsor_id}`))[0].username);
    expect([b.placement_first_name, b.placement_last_name]).toEqual([parent.first_name, parent.last_name]);
    expect([b.sponsor_first_name, b.sponsor_last_name]).toEqual([sponsor.first_name, sponsor.last_name]);

    const bonuses = await rows<{ amount_generated: string }>(
      server.database,
      sql`SELECT amount_generated::text AS amount_generated FROM earnings WHERE member_id = ${demo.id} AND bonus_type = 'binary_bonus'`,
    );
    expect(units(b.total_bonus)).toBe(sumUnits(bonuses.map((x) => x.amount_generated)));
    const pairing = await rows<{ bonus_to_pay: string }>(server.database, sql`SELECT bonus_to_pay::text AS bonus_to_pay FROM binary_history WHERE member_id = ${demo.id}`);
    expect(units(b.total_bonus)).toBe(sumUnits(pairing.map((x) => x.bonus_to_pay)));
  });
});

describe('dashboard extra and promotions', () => {
  it('upcoming events, the newest articles, volumes and the referral rule', async () => {
    const x = await data(dashboardExtraSchema, '/api/home/dashboard/extra');
    const now = new Date().toISOString();
    const upcoming = await rows<{ id: number }>(
      server.database,
      sql`SELECT id FROM events WHERE published AND end_date >= ${now}::timestamptz ORDER BY start_date, id LIMIT 3`,
    );
    expect(x.events.map((e) => e.id)).toEqual(upcoming.map((e) => e.id));
    expect(x.events.every((e) => e.end_date >= now)).toBe(true);
    const articles = await rows<{ id: number; content: string }>(
      server.database,
      sql`SELECT id, content FROM stories WHERE kind = 'article' AND published ORDER BY updated_at DESC, id DESC LIMIT 3`,
    );
    expect(x.articles.map((a) => a.id)).toEqual(articles.map((a) => a.id));
    expect(x.articles.map((a) => a.content)).toEqual(articles.map((a) => sanitizeHtml(a.content)));
    expect(units(x.pv)).toBe(units(demo.pv));
    expect(units(x.tv)).toBe(units(demo.tv));
    expect(x.kyc_status).toBe('approved');
    expect(x.referral_criteria_enabled).toBe(true);
    expect(x.referral_allowed).toBe(true);

    // Without an approved KYC the referral features are closed.
    await server.database.rows(sql`UPDATE member_kyc SET status = 'pending' WHERE member_id = ${demo.id}`);
    try {
      const pending = await data(dashboardExtraSchema, '/api/home/dashboard/extra');
      expect(pending.kyc_status).toBe('pending');
      expect(pending.referral_allowed).toBe(false);
    } finally {
      await server.database.rows(sql`UPDATE member_kyc SET status = 'approved' WHERE member_id = ${demo.id}`);
    }
  });

  it('promotions: upcoming events soonest first, then past ones; newest articles', async () => {
    const p = await data(promotionsSchema, '/api/home/promotions');
    const events = await rows<{ id: number; start_date: Date; end_date: Date }>(server.database, sql`SELECT id, start_date, end_date FROM events WHERE published`);
    const now = Date.now();
    const upcoming = events.filter((e) => ms(e.end_date) >= now).sort((a, b) => ms(a.start_date) - ms(b.start_date) || a.id - b.id);
    const past = events.filter((e) => ms(e.end_date) < now).sort((a, b) => ms(b.end_date) - ms(a.end_date) || b.id - a.id);
    expect(p.events.map((e) => e.id)).toEqual([...upcoming, ...past].slice(0, 10).map((e) => e.id));
    const articles = await rows<{ id: number }>(server.database, sql`SELECT id FROM stories WHERE kind = 'article' AND published ORDER BY updated_at DESC, id DESC LIMIT 10`);
    expect(p.articles.map((a) => a.id)).toEqual(articles.map((a) => a.id));
  });

  it('serves article HTML sanitised, whatever is stored', async () => {
    const hostile =
      '<p onclick="steal()">Read <a href="javascript:alert(1)">this</a></p><script>alert(document.cookie)</script>' +
      '<img src=x onerror=alert(1)><iframe src="https://evil.example"></iframe><a href="https://upline.example">ok</a>';
    const [row] = await rows<{ id: number }>(
      server.database,
      sql`INSERT INTO stories (kind, title, description, content, updated_at) VALUES ('article', 'Hostile', 'x', ${hostile}, now() + interval '1 minute') RETURNING id`,
    );
    try {
      for (const path of ['/api/home/promotions', '/api/home/dashboard/extra']) {
        // Stories are company-wide and cached; a change reaches the cache through the database's
        // notification, which on a PostgreSQL server arrives a moment after the insert.
        const res = await vi.waitFor(async () => {
          const answer = await get(server.app, path, { token });
          expect(answer.body.data.articles[0].id).toBe(row.id);
          return answer;
        });
        const article = (res.body.data.articles as Array<{ id: number; content: string }>).find((a) => a.id === row.id)!;
        expect(article.content).toBe('<p>Read <a>this</a></p><a href="https://upline.example" rel="noopener noreferrer nofollow" target="_blank">ok</a>');
      }
    } finally {
      await server.database.rows(sql`DELETE FROM stories WHERE id = ${row.id}`);
    }
  });
});

describe('other members', () => {
  it('a member without a downline, sponsor, wallet or rank gets zeros and empty lists', async () => {
    // A member not placed in the tree yet, with the shared demo password hash.
    await server.database.rows(
      sql`INSERT INTO members (username, email, password_hash, first_name, last_name)
          SELECT 'fresh.member', 'fresh.member@example.net', password_hash, 'Fresh', 'Member' FROM members WHERE username = 'demo'`,
    );
    const other = (await login(server.app, 'fresh.member')).token;
    const d = await data(dashboardSummarySchema, '/api/home/dashboard', other);
    expect(d.wallet_balance).toBe('0.0000');
    expect(d.total_earnings).toBe('0.0000');
    expect(d.total_paid).toBe('0.0000');
    expect(d.total_investment).toBe('0.0000');
    expect(d.package_id).toBeNull();
    expect(d.is_highest_package).toBe(false);
    expect(d.rank_id).toBeNull();
    expect(d.kyc_status).toBe('not_submitted');
    expect(d.recent_joinings).toEqual([]);
    expect(d.recent_transactions).toEqual([]);
    expect(d.credit_history.every((m) => m.total === '0.0000')).toBe(true);
    expect(d.debit_history).toHaveLength(12);
    expect(d.recruitment_progress.every((p) => p.current_count === 0 && p.progress === 0)).toBe(true);
    // Joined today: the months before it were never this member's to miss.
    expect(d.recruitment_progress.map((p) => p.month)).toEqual([monthOf(new Date())].filter((m) => d.recruitment_progress.some((p) => p.month === m)));
    expect(d.recruitment_progress.some((p) => p.status === 'missed')).toBe(false);
    const r = await data(ranksSchema, '/api/home/ranks', other);
    expect(r.current_rank).toBeNull();
    expect(r.rank_achievements).toEqual([]);
    expect(r.higher_ranks.length).toBeGreaterThan(0);
    expect(r.criteria_achieved.referral_count).toBe(0);
    const p = await data(packageDataSchema, '/api/home/packages', other);
    expect(p.package_status).toBe('none');
    expect(p.current_package_id).toBeNull();
    expect(p.packages.every((o) => o.price_difference === o.price)).toBe(true);
    const b = await data(binarySummarySchema, '/api/home/binary', other);
    expect([b.position, b.placement_first_name, b.sponsor_first_name, b.left_downline_count]).toEqual([null, null, null, 0]);
    const n = await data(notificationCountsSchema, '/api/home/notifications_count', other);
    expect(n).toEqual({ order_count: 0, payout_count: 0, message_count: 0, notice_count: 0, total_count: 0 });
  });

  it('a merchant account: merchant e-mail, no referral features', async () => {
    const [m] = await bulkMembers(server.database, 1, 40);
    await server.database.rows(sql`UPDATE members SET account_type = 'merchant', merchant_status = 1 WHERE id = ${m.id}`);
    try {
      const other = (await login(server.app, m.username)).token;
      const d = await data(dashboardSummarySchema, '/api/home/dashboard', other);
      expect(d.account_type).toBe('merchant');
      expect(d.merchant_status).toBe(1);
      expect(d.merchant_email).toBe(m.email);
      const x = await data(dashboardExtraSchema, '/api/home/dashboard/extra', other);
      expect(x.referral_allowed).toBe(false);
    } finally {
      await server.database.rows(sql`UPDATE members SET account_type = 'personal', merchant_status = NULL WHERE id = ${m.id}`);
    }
  });

  it('a member only ever sees their own figures', async () => {
    const [m] = await bulkMembers(server.database, 1, 3);
    const other = (await login(server.app, m.username)).token;
    const mine = await data(binarySummarySchema, '/api/home/binary', other);
    const row = await memberRow(m.username);
    expect(units(mine.total_left)).toBe(units(row.total_left));
    const res = await call(server.app, 'GET', `/api/home/dashboard?member_id=${demo.id}`, undefined, { token: other });
    expect(res.status).toBe(200);
    expect(res.body.data.member_email).toBe(m.email);
  });
});

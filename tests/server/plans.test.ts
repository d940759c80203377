// @vitest-environment node
/**
 * Companies on each compensation plan: the seeded tree's shape, where signups are placed, the genealogy's
 * width, and the compensation run (`npm run operator -- pairing run`) against figures worked out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { freshIp, get, login, post, rows, withSettings } from './helpers';
import { runCompensation } from '../../server/lib/compensation-run';
import { runOperator } from '../../server/operator/run';
import { promoteRanks } from '../../server/lib/packages';
import { settledServices } from '../../server/lib/fulfilment';
import { ranksSchema } from '../../src/schemas/home.schema';

type Row = { id: number; parent_id: number | null; position: string | null; slot: number | null; sponsor_id: number | null; status: number; role_id: number; path: string; depth: number };

const members = (s: TestServer) =>
  rows<Row>(s.database, sql`SELECT id, parent_id, position, slot, sponsor_id, status, role_id, path, depth FROM members ORDER BY id`);
const byName = async (s: TestServer, username: string) =>
  (await rows<Row>(s.database, sql`SELECT id, parent_id, position, slot, sponsor_id, status, role_id, path, depth FROM members WHERE lower(username) = lower(${username})`))[0];

/** Earnings a run wrote (stamped at the last millisecond it covered). */
const earningsAt = (s: TestServer, at: Date) =>
  rows<{ member_id: number; bonus_type: string; level: number | null; from_member_id: number | null; amount_generated: string; amount_payable: string }>(
    s.database,
    sql`SELECT member_id, bonus_type, level, from_member_id, amount_generated::text, amount_payable::text FROM earnings
        WHERE created_at = ${new Date(at.getTime() - 1)} ORDER BY member_id, level`,
  );
const walletOf = async (s: TestServer, memberId: number) =>
  Number(
    (await rows<{ b: string }>(s.database, sql`SELECT coalesce(-sum(e.amount), 0)::text AS b FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.member_id = ${memberId}`))[0].b,
  );
const pay = (s: TestServer, opts: Parameters<typeof runCompensation>[1]) => runCompensation({ db: s.database.db, settings: s.app.ctx.settings }, opts);
const sale = (s: TestServer, memberId: number, pv: string, at: string) =>
  s.database.db.execute(sql`INSERT INTO pv_history (member_id, type, pv, tv, total_pv, total_tv, from_member_id, created_at)
                            VALUES (${memberId}, 'repurchase', ${pv}, ${pv}, ${pv}, ${pv}, ${memberId}, ${new Date(at)})`);

const signupVerified = async (s: TestServer, body: Record<string, unknown>) => {
  let res!: Awaited<ReturnType<typeof post>>;
  await withSettings(s.app, 'signup', { otp_verification: false }, async () => {
    res = await post(s.app, '/api/users/signup', { first_name: 'Nia', password: 'Signup-pass-1', ...body }, { ip: freshIp() });
  });
  return res;
};

/**
 * demo's seeded level commissions, worked out again from the recorded volume: each purchase of its
 * downline `level` steps below it (placement depth for a matrix, sponsor generations for unilevel) up to
 * the last week the seed's runs paid, times that level's percent.
 */
async function seededLevelFigures(s: TestServer, depthColumn: 'depth' | 'sponsor_depth', pathColumn: 'path' | 'sponsor_path', percents: number[]) {
  const demo = await byName(s, 'demo');
  const [earned] = await rows<{ cents: number; n: number }>(
    s.database,
    sql`SELECT round(coalesce(sum(amount_generated), 0) * 100)::int AS cents, count(*)::int AS n FROM earnings WHERE member_id = ${demo.id} AND bonus_type = 'level_commission'`,
  );
  const sales = await rows<{ pv_cents: number; level: number }>(
    s.database,
    sql.raw(`SELECT round(h.pv * 100)::int AS pv_cents, m.${depthColumn} - d.${depthColumn} AS level
             FROM pv_history h JOIN members m ON m.id = h.member_id JOIN members d ON d.id = ${demo.id}
             WHERE h.pv > 0 AND h.from_member_id = h.member_id AND m.id <> d.id AND m.${pathColumn} LIKE d.${pathColumn} || '%'
               AND h.created_at < (SELECT max(paid_until) FROM compensation_runs)`),
  );
  const expected = sales.filter((x) => x.level >= 1 && x.level <= percents.length).map((x) => Math.round((x.pv_cents * percents[x.level - 1]) / 100));
  return { earnedCents: earned.cents, earnedCount: earned.n, expectedCents: expected.reduce((a, b) => a + b, 0), expectedCount: expected.filter((c) => c > 0).length };
}

/** Raise ranks as a purchase does (the compensation code's rule), for these members. */
const promote = async (s: TestServer, ids: number[]) => {
  const services = await settledServices({ database: s.database, config: s.config, outbox: s.app.ctx.outbox, settings: s.app.ctx.settings });
  return s.database.db.transaction((tx) => promoteRanks(tx as never, ids, new Date(), services));
};
/** The Home rank tab's answer for a member. */
const ranksOf = async (s: TestServer, username: string) => {
  const { token } = await login(s.app, username, username === 'demo' ? undefined : 'Signup-pass-1');
  const res = await get(s.app, '/api/home/ranks', { token });
  expect(res.status).toBe(200);
  return ranksSchema.parse(res.body.data);
};
const figures = (r: { criteria_achieved: { figures: Array<{ key: string; value: string }> } }) => r.criteria_achieved.figures.map((f) => [f.key, Number(f.value)]);
const rankBonuses = (s: TestServer, memberId: number) =>
  rows<{ name: string; amount_generated: string }>(
    s.database,
    sql`SELECT r.name, e.amount_generated::text FROM earnings e JOIN ranks r ON r.id = e.rank_id WHERE e.member_id = ${memberId} AND e.bonus_type = 'rank_bonus' ORDER BY r.sort_order`,
  );

describe('matrix company (width 3, depth 5)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitScale: 50, plan: 'matrix' });
  }, 120_000);
  afterAll(async () => s?.close());

  it('seeds a tree of at most 3 children a member, in slots 0–2, without legs', async () => {
    const all = await members(s);
    const children = new Map<number, Row[]>();
    for (const m of all) if (m.parent_id !== null) children.set(m.parent_id, [...(children.get(m.parent_id) ?? []), m]);
    expect(Math.max(...[...children.values()].map((c) => c.length))).toBe(3);
    expect(all.every((m) => m.position === null)).toBe(true);
    expect(all.filter((m) => m.parent_id !== null).every((m) => m.slot! >= 0 && m.slot! < 3)).toBe(true);
    // Members in every state: blocked, without a package.
    expect(all.some((m) => m.status === 0)).toBe(true);
    const modules = await s.app.ctx.settings.get('modules');
    expect(modules.compensation_plan).toBe('matrix');
  });

  it("seeds demo's level commissions as the run pays them: five placement levels of its downline's volume, no binary bonus", async () => {
    const f = await seededLevelFigures(s, 'depth', 'path', [10, 8, 6, 4, 2]);
    expect(f.earnedCount).toBeGreaterThan(20);
    expect([f.earnedCents, f.earnedCount]).toEqual([f.expectedCents, f.expectedCount]);
    const [binary] = await rows<{ n: number }>(s.database, sql`SELECT (SELECT count(*) FROM binary_history) + (SELECT count(*) FROM earnings WHERE bonus_type = 'binary_bonus')::int AS n`);
    expect(Number(binary.n)).toBe(0);
  });

  it('the genealogy answers the width; a signup spills over breadth-first into the sponsor tree and takes no position', async () => {
    const { token } = await login(s.app, 'demo');
    const g = await get(s.app, '/api/network/genealogy', { token });
    expect(g.body.data).toMatchObject({ compensation_plan: 'matrix', max_width: 3 });

    const root = await signupVerified(s, { referral: 'demo', username: 'mx.root', email: 'mx.root@example.org' });
    expect(root.status).toBe(200);
    const placed: Row[] = [];
    for (let i = 0; i < 4; i++) {
      expect((await signupVerified(s, { referral: 'mx.root', username: `mx.${i}`, email: `mx.${i}@example.org` })).status).toBe(200);
      placed.push(await byName(s, `mx.${i}`));
    }
    const r = await byName(s, 'mx.root');
    // Three under the sponsor (slots 0, 1, 2), the fourth spills over under the first of them.
    expect(placed.slice(0, 3).map((m) => [m.parent_id, m.slot])).toEqual([[r.id, 0], [r.id, 1], [r.id, 2]]);
    expect([placed[3].parent_id, placed[3].slot, placed[3].position]).toEqual([placed[0].id, 0, null]);
  });

  it("ranks ask for the matrix's filled levels, places and PV; figures worked out by hand; a purchase's promotion uses them", async () => {
    expect((await signupVerified(s, { referral: 'demo', username: 'mr.root', email: 'mr.root@example.org' })).status).toBe(200);
    // Three fill level 1 (3 = 3¹ places), two spill over to level 2 (2 of 9).
    for (let i = 0; i < 5; i++) expect((await signupVerified(s, { referral: 'mr.root', username: `mr.${i}`, email: `mr.${i}@example.org` })).status).toBe(200);
    const root = await byName(s, 'mr.root');
    await s.database.db.execute(sql`UPDATE members SET pv = 60 WHERE id = ${root.id}`);
    const before = await ranksOf(s, 'mr.root');
    expect(before.plan).toBe('matrix');
    expect(before.criteria_keys).toEqual(['levels_filled', 'places_filled', 'pv']);
    expect(before.current_rank).toBeNull();
    expect(before.higher_ranks.map((r) => r.name)).toEqual(['Associate', 'Builder', 'Director', 'Executive', 'Ambassador']);
    expect(before.higher_ranks[0].requirements).toEqual([
      { key: 'levels_filled', value: '1.0000' },
      { key: 'places_filled', value: '3.0000' },
      { key: 'pv', value: '50.0000' },
    ]);
    // Levels filled 1 (level 2 holds 2 of 9), places 3 + 2 = 5, PV 60.
    expect(figures(before)).toEqual([['levels_filled', 1], ['places_filled', 5], ['pv', 60]]);

    // Associate (1 level, 3 places, PV 50) is met; Builder asks for 10 places.
    expect(await promote(s, [root.id])).toEqual([{ memberId: root.id, rankId: before.higher_ranks[0].id }]);
    const after = await ranksOf(s, 'mr.root');
    expect(after.current_rank?.name).toBe('Associate');
    expect(after.higher_ranks[0].name).toBe('Builder');
    expect(await rankBonuses(s, root.id)).toEqual([{ name: 'Associate', amount_generated: '50.0000' }]);
    // Promoting again finds nothing new.
    expect(await promote(s, [root.id])).toEqual([]);
    // Package data reads the matrix's figures: width 3, depth 5, the first five level percents.
    const { token } = await login(s.app, 'mr.root', 'Signup-pass-1');
    expect((await get(s.app, '/api/home/packages', { token })).body.data.plan).toEqual({
      compensation_plan: 'matrix', matrix_width: 3, matrix_depth: 5, level_percents: ['10.0000', '8.0000', '6.0000', '4.0000', '2.0000'],
    });
  });

  it('pays level commissions within the depth, to placement uplines, once per period', async () => {
    // Bring the runs up to date, then a purchase of 150 PV by mx.0's new child six levels down.
    await pay(s, { planDate: new Date('2026-11-16'), now: new Date('2026-11-25T00:00:00Z') });
    const chain = ['mx.c1', 'mx.c2', 'mx.c3', 'mx.c4', 'mx.c5'];
    let sponsor = 'mx.0';
    for (const u of chain) {
      // Each spills over breadth-first: placed under the sponsor (its first free place is directly under it).
      expect((await signupVerified(s, { referral: sponsor, username: u, email: `${u}@example.org` })).status).toBe(200);
      sponsor = u;
    }
    const buyer = await byName(s, 'mx.c5');
    const ups = buyer.path.split('.').filter(Boolean).map(Number).slice(0, -1).reverse(); // c4, c3, c2, c1, mx.0, mx.root …
    expect(ups.length).toBeGreaterThan(6);
    await sale(s, buyer.id, '150', '2026-11-24T10:00:00Z');
    const before = await walletOf(s, ups[0]);
    const now = new Date('2026-11-26T12:00:00Z');
    const run = await pay(s, { planDate: new Date('2026-11-24'), now });
    expect(run).toMatchObject({ plan: 'matrix', periodStart: '2026-11-23', alreadyPaid: false, earnings: 5 });
    const paid = await earningsAt(s, now);
    // 10 %, 8 %, 6 %, 4 %, 2 % of 150 to levels 1–5; the sixth upline (mx.root) is beyond the depth.
    expect(paid.map((e) => [e.member_id, e.level, e.amount_generated])).toEqual(
      [
        [ups[0], 1, '15.0000'],
        [ups[1], 2, '12.0000'],
        [ups[2], 3, '9.0000'],
        [ups[3], 4, '6.0000'],
        [ups[4], 5, '3.0000'],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    // 15.00 less 5 % tax (0.75) and 2 % service charge (0.30) reaches the wallet.
    expect(paid.find((e) => e.level === 1)!.amount_payable).toBe('13.9500');
    expect(await walletOf(s, ups[0])).toBeCloseTo(before + 13.95, 4);
    expect(paid.every((e) => e.bonus_type === 'level_commission' && e.from_member_id === buyer.id)).toBe(true);

    // Running the same period again pays nothing more.
    const again = await pay(s, { planDate: new Date('2026-11-24'), now: new Date('2026-11-27T00:00:00Z') });
    expect(again).toMatchObject({ alreadyPaid: true, earnings: 5 });
    expect(await walletOf(s, ups[0])).toBeCloseTo(before + 13.95, 4);

    // Volume recorded after the run's cut-off is paid by the next week's run; earlier weeks are closed.
    await sale(s, buyer.id, '20', '2026-11-28T09:00:00Z');
    const next = await pay(s, { planDate: new Date('2026-12-01'), now: new Date('2026-12-08T00:00:00Z') });
    expect(next).toMatchObject({ periodStart: '2026-11-30', earnings: 5 });
    expect(next.total).toBe(60_000n); // 6.00 = 2.00 + 1.60 + 1.20 + 0.80 + 0.40
    await expect(pay(s, { planDate: new Date('2026-11-10'), now: new Date('2026-12-08T00:00:00Z') })).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('unilevel company', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitScale: 50, plan: 'unilevel' });
  }, 120_000);
  afterAll(async () => s?.close());

  it('seeds wide, uneven levels: every member placed under its sponsor, some with dozens of recruits', async () => {
    const all = await members(s);
    const generated = all.filter((m) => m.parent_id !== null && m.role_id === 3);
    expect(generated.filter((m) => m.id > 4).every((m) => m.parent_id === m.sponsor_id)).toBe(true);
    const counts = new Map<number, number>();
    for (const m of all) if (m.parent_id !== null) counts.set(m.parent_id, (counts.get(m.parent_id) ?? 0) + 1);
    const widths = [...counts.values()].sort((a, b) => b - a);
    expect(widths[0]).toBeGreaterThanOrEqual(24);
    expect(widths.filter((w) => w >= 12).length).toBeGreaterThanOrEqual(2);
    expect(widths.filter((w) => w <= 2).length).toBeGreaterThan(10);
  });

  it("seeds demo's level commissions by sponsor generation as the run pays them", async () => {
    const f = await seededLevelFigures(s, 'sponsor_depth', 'sponsor_path', [10, 5, 4, 3, 2, 1, 1]);
    expect(f.earnedCount).toBeGreaterThan(20);
    expect([f.earnedCents, f.earnedCount]).toEqual([f.expectedCents, f.expectedCount]);
  });

  it('the genealogy has no width; a signup goes directly under the sponsor, ignoring placement and position', async () => {
    const { token } = await login(s.app, 'demo');
    const g = await get(s.app, '/api/network/genealogy', { token });
    expect(g.body.data).toMatchObject({ compensation_plan: 'unilevel', max_width: null, signup_from_tree: false });
    const demo = await byName(s, 'demo');
    const slots = await rows<{ n: number }>(s.database, sql`SELECT coalesce(max(slot) + 1, 0)::int AS n FROM members WHERE parent_id = ${demo.id}`);
    expect((await signupVerified(s, { referral: 'demo', username: 'uni.a', email: 'uni.a@example.org' })).status).toBe(200);
    const a = await byName(s, 'uni.a');
    expect([a.parent_id, a.slot, a.position]).toEqual([demo.id, slots[0].n, null]);
  });

  it('ranks ask for active personal recruits, PV and the group volume of the paid generations; figures worked out by hand', async () => {
    const names = ['ur.root', 'ur.0', 'ur.1', 'ur.2', 'ur.00', 'ur.000'];
    const sponsors = ['demo', 'ur.root', 'ur.root', 'ur.root', 'ur.0', 'ur.00'];
    for (let i = 0; i < names.length; i++) {
      expect((await signupVerified(s, { referral: sponsors[i], username: names[i], email: `${names[i]}@example.org` })).status).toBe(200);
    }
    const m = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await byName(s, n)] as const)));
    const pv: Record<string, number> = { 'ur.root': 60, 'ur.0': 100, 'ur.1': 200, 'ur.2': 0, 'ur.00': 300, 'ur.000': 40 };
    for (const n of names) await s.database.db.execute(sql`UPDATE members SET pv = ${pv[n]} WHERE id = ${m[n].id}`);
    // A blocked recruit is not active; its volume still belongs to the group.
    await s.database.db.execute(sql`UPDATE members SET status = 0, pv = 25 WHERE id = ${m['ur.2'].id}`);
    const r = await ranksOf(s, 'ur.root');
    expect(r.plan).toBe('unilevel');
    expect(r.criteria_keys).toEqual(['referral_count', 'pv', 'group_volume']);
    expect(r.higher_ranks.map((x) => x.name)).toEqual(['Leader', 'Senior Leader', 'Director', 'Senior Director', 'Presidential']);
    // Active recruits: ur.0 and ur.1 (ur.2 blocked) = 2. Group volume: 60 + (100 + 200 + 25) + 300 + 40 = 725.
    expect(figures(r)).toEqual([['referral_count', 2], ['pv', 60], ['group_volume', 725]]);
    expect(r.criteria_achieved.referral_count).toBe(2);
    // No binary leg criterion anywhere.
    expect(JSON.stringify(r)).not.toMatch(/left_volume|right_volume|levels_filled/);

    // Leader (2 recruits, PV 50, group 500) is met, Senior Leader (4 recruits) is not.
    const leader = r.higher_ranks[0];
    expect(await promote(s, [m['ur.root'].id, m['ur.0'].id])).toEqual([{ memberId: m['ur.root'].id, rankId: leader.id }]);
    expect((await ranksOf(s, 'ur.root')).current_rank?.name).toBe('Leader');
    expect(await rankBonuses(s, m['ur.root'].id)).toEqual([{ name: 'Leader', amount_generated: '50.0000' }]);
    // Package data reads the unilevel's generation percents.
    const { token } = await login(s.app, 'ur.root', 'Signup-pass-1');
    expect((await get(s.app, '/api/home/packages', { token })).body.data.plan).toEqual({
      compensation_plan: 'unilevel', matrix_width: null, matrix_depth: null, level_percents: ['10.0000', '5.0000', '4.0000', '3.0000', '2.0000', '1.0000', '1.0000'],
    });
  });

  it('a member with 1 200 direct recruits: the genealogy pages them by place, every recruit once; another member\'s tree is refused', async () => {
    expect((await signupVerified(s, { referral: 'demo', username: 'wide.boss', email: 'wide.boss@example.org' })).status).toBe(200);
    const boss = await byName(s, 'wide.boss');
    // 1 200 recruits placed under wide.boss in places 0 … 1199 (ids not in place order: the places run backwards).
    await s.database.db.execute(sql`
      INSERT INTO members (username, password_hash, first_name, sponsor_id, parent_id, slot, path, depth, sponsor_path, sponsor_depth, verified, status)
      SELECT 'wide.' || g, b.password_hash, 'Wide', b.id, b.id, 1200 - g, '', b.depth + 1, '', b.sponsor_depth + 1, true, 1
      FROM generate_series(1, 1200) g CROSS JOIN members b WHERE b.id = ${boss.id}`);
    await s.database.db.execute(sql`
      UPDATE members m SET path = b.path || m.id || '.', sponsor_path = b.sponsor_path || m.id || '.'
      FROM members b WHERE b.id = ${boss.id} AND m.parent_id = b.id`);
    await s.database.db.execute(sql`UPDATE members SET child_count = 1200, downline_count = 1200 WHERE id = ${boss.id}`);
    const { token } = await login(s.app, 'wide.boss', 'Signup-pass-1');

    const first = await get(s.app, '/api/network/genealogy', { token });
    expect(first.status).toBe(200);
    const kids = (a: { affiliates: Array<{ id: number; parent_id: number | null; slot: number | null }> }) =>
      a.affiliates.filter((n) => n.parent_id === boss.id);
    const page1 = kids(first.body.data);
    // The answer's limit (500 members) cuts the level: the first recruits by place, and where to go on.
    expect(page1.length).toBe(499);
    expect(page1.map((n) => n.slot)).toEqual(Array.from({ length: 499 }, (_, i) => i));
    expect(first.body.data.more_children).toEqual([{ id: boss.id, from: 499 }]);

    const seen = page1.map((n) => n.id);
    let from: number | null = 499;
    let pages = 1;
    while (from !== null) {
      const res = await get(s.app, `/api/network/genealogy/${boss.id}?children_from=${from}`, { token });
      expect(res.status).toBe(200);
      const page = kids(res.body.data);
      expect(page[0].slot).toBe(from);
      expect(res.body.data.max_levels).toBe(1);
      seen.push(...page.map((n) => n.id));
      const more = res.body.data.more_children as Array<{ id: number; from: number }>;
      from = more.find((m) => m.id === boss.id)?.from ?? null;
      pages++;
    }
    // 499 + 499 + 202: every recruit reached, none twice.
    expect(pages).toBe(3);
    expect(seen.length).toBe(1200);
    expect(new Set(seen).size).toBe(1200);
    const all = await rows<{ id: number }>(s.database, sql`SELECT id FROM members WHERE parent_id = ${boss.id} ORDER BY slot`);
    expect(seen).toEqual(all.map((r) => r.id));

    // A page of a member outside the caller's tree is refused; a bad place is a field error.
    const demo = await byName(s, 'demo');
    expect((await get(s.app, `/api/network/genealogy/${demo.id}?children_from=0`, { token })).status).toBe(403);
    const bad = await get(s.app, `/api/network/genealogy/${boss.id}?children_from=-1`, { token });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['children_from']);
  });

  it('pays level percents by sponsor generation through the operator command, once', async () => {
    await pay(s, { planDate: new Date('2026-11-16'), now: new Date('2026-11-25T00:00:00Z') });
    for (const [u, ref] of [['uni.b', 'uni.a'], ['uni.c', 'uni.b']]) {
      expect((await signupVerified(s, { referral: ref, username: u, email: `${u}@example.org` })).status).toBe(200);
    }
    const [a, b, c, demo] = await Promise.all(['uni.a', 'uni.b', 'uni.c', 'demo'].map((u) => byName(s, u)));
    // Block uni.a: its generation still counts, it earns nothing.
    await s.database.db.execute(sql`UPDATE members SET status = 0 WHERE id = ${a.id}`);
    await sale(s, c.id, '80', '2026-11-24T08:00:00Z');
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    const services = { database: s.database, config: s.config, outbox: s.app.ctx.outbox, settings: s.app.ctx.settings };
    const demoBefore = await walletOf(s, demo.id);
    // The operator's command pays the last week that ended (the clock is today's: use a fixed week instead).
    expect(await runOperator(services, ['pairing', 'run', '--plan-date', '2026-11-24'], io)).toBe(0);
    expect(out.at(-1)).toMatch(/unilevel plan, week of 2026-11-23: paid 2 earning\(s\), 11\.20 in total/);
    // uni.b (generation 1): 10 % of 80 = 8.00; uni.a (2) blocked; demo (3): 4 % = 3.20 → 2.976 net, rounded per deduction: 3.20 − 0.16 − 0.06 = 2.98.
    const paid = await rows<{ member_id: number; level: number; amount_generated: string }>(
      s.database,
      sql`SELECT member_id, level, amount_generated::text FROM earnings WHERE from_member_id = ${c.id} ORDER BY level`,
    );
    expect(paid.map((p) => [p.member_id, p.level, p.amount_generated])).toEqual([
      [b.id, 1, '8.0000'],
      [demo.id, 3, '3.2000'],
    ]);
    expect(await walletOf(s, demo.id)).toBeCloseTo(demoBefore + 2.98, 4);
    expect(await runOperator(services, ['pairing', 'run', '--plan-date', '2026-11-24'], io)).toBe(0);
    expect(out.at(-1)).toMatch(/already paid \(2 earning\(s\), 11\.20\); nothing paid now/);
    expect(await walletOf(s, demo.id)).toBeCloseTo(demoBefore + 2.98, 4);
    expect(await runOperator(services, ['pairing', 'run', '--plan-date', 'next week'], io)).toBe(2);
  });
});

describe('binary company (the default)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitScale: 50 });
  }, 120_000);
  afterAll(async () => s?.close());

  const volume = (memberId: number, leg: 'L' | 'R', pv: string, totals: [string, string, string, string], at: string) =>
    s.database.db.execute(sql`INSERT INTO binary_history (member_id, type, leg, pv_added, total_left, total_right, carry_left, carry_right, created_at)
      VALUES (${memberId}, ${leg === 'L' ? 'left_volume' : 'right_volume'}, ${leg}, ${pv}, ${totals[0]}, ${totals[1]}, ${totals[2]}, ${totals[3]}, ${new Date(at)})`);

  it('seeds the binary tree and its legs', async () => {
    const all = await members(s);
    expect(all.filter((m) => m.parent_id !== null).every((m) => (m.position === 'L' && m.slot === 0) || (m.position === 'R' && m.slot === 1))).toBe(true);
    expect((await s.app.ctx.settings.get('modules')).compensation_plan).toBe('binary');
  });

  it('pairs recorded leg volume: a 2:1 first pair, then 1:1 pairs capped at 80 a week, each week paid once', async () => {
    await pay(s, { planDate: new Date('2026-11-16'), now: new Date('2026-11-25T00:00:00Z') });
    const x = (await rows<{ id: number }>(s.database, sql`SELECT id FROM members WHERE status = 1 AND role_id = 3 AND id NOT IN (SELECT member_id FROM binary_history) ORDER BY id LIMIT 1`))[0].id;
    const base = await walletOf(s, x);
    // Week of Nov 23: left 300, right 100 → the first pair takes 200 + 100 (2:1): one pair, 10.00; carry 100 / 0.
    await volume(x, 'L', '300', ['300', '0', '300', '0'], '2026-11-23T09:00:00Z');
    await volume(x, 'R', '100', ['300', '100', '300', '100'], '2026-11-24T09:00:00Z');
    const wk1 = await pay(s, { planDate: new Date('2026-11-23'), now: new Date('2026-12-01T00:00:00Z') });
    expect(wk1).toMatchObject({ plan: 'binary', periodStart: '2026-11-23', earnings: 1, total: 100_000n });
    const pairing = async () =>
      (await rows<Record<string, string>>(
        s.database,
        sql`SELECT pv_deducted_left::text AS dl, pv_deducted_right::text AS dr, carry_left::text AS cl, carry_right::text AS cr, bonus_generated::text AS g, bonus_to_pay::text AS p, period_start::text AS ps
            FROM binary_history WHERE member_id = ${x} AND type = 'pairing' ORDER BY id DESC LIMIT 1`,
      ))[0];
    expect(await pairing()).toMatchObject({ dl: '200.0000', dr: '100.0000', cl: '100.0000', cr: '0.0000', g: '10.0000', p: '10.0000', ps: '2026-11-23' });
    expect(await walletOf(s, x)).toBeCloseTo(base + 9.3, 4);

    // Week of Nov 30: +900 left, +1000 right → carries 1000 / 1000: ten 1:1 pairs, 100.00 capped at 80.00.
    await volume(x, 'L', '900', ['1200', '100', '1000', '0'], '2026-12-01T09:00:00Z');
    await volume(x, 'R', '1000', ['1200', '1100', '1000', '1000'], '2026-12-02T09:00:00Z');
    const wk2 = await pay(s, { planDate: new Date('2026-12-03'), now: new Date('2026-12-09T00:00:00Z') });
    expect(wk2).toMatchObject({ earnings: 1, total: 800_000n });
    expect(await pairing()).toMatchObject({ dl: '1000.0000', dr: '1000.0000', cl: '0.0000', cr: '0.0000', g: '100.0000', p: '80.0000' });
    expect(await walletOf(s, x)).toBeCloseTo(base + 9.3 + 74.4, 4);
    const [m] = await rows<{ carry_left: string; carry_right: string }>(s.database, sql`SELECT carry_left::text, carry_right::text FROM members WHERE id = ${x}`);
    expect(m).toEqual({ carry_left: '0.0000', carry_right: '0.0000' });

    // Twice → paid once.
    expect(await pay(s, { planDate: new Date('2026-12-03'), now: new Date('2026-12-10T00:00:00Z') })).toMatchObject({ alreadyPaid: true });
    expect(await walletOf(s, x)).toBeCloseTo(base + 83.7, 4);
    // Two runs of one period at once: one pays, the other finds it paid.
    await volume(x, 'L', '100', ['1300', '1100', '100', '0'], '2026-12-08T09:00:00Z');
    await volume(x, 'R', '100', ['1300', '1200', '100', '100'], '2026-12-08T10:00:00Z');
    const both = await Promise.all([0, 1].map(() => pay(s, { planDate: new Date('2026-12-08'), now: new Date('2026-12-15T00:00:00Z') })));
    expect(both.map((r) => r.alreadyPaid).sort()).toEqual([false, true]);
    expect(await walletOf(s, x)).toBeCloseTo(base + 83.7 + 9.3, 4);
  });

  it('ranks ask for active personal recruits, PV and both legs; figures worked out by hand; a promotion passes every rank on the way', async () => {
    expect((await signupVerified(s, { referral: 'demo', username: 'br.root', email: 'br.root@example.org' })).status).toBe(200);
    for (const u of ['br.a', 'br.b']) expect((await signupVerified(s, { referral: 'br.root', username: u, email: `${u}@example.org` })).status).toBe(200);
    const root = await byName(s, 'br.root');
    await s.database.db.execute(sql`UPDATE members SET pv = 120, total_left = 1600, total_right = 1500 WHERE id = ${root.id}`);
    const r = await ranksOf(s, 'br.root');
    expect(r.plan).toBe('binary');
    expect(r.criteria_keys).toEqual(['referral_count', 'pv', 'left_volume', 'right_volume']);
    expect(figures(r)).toEqual([['referral_count', 2], ['pv', 120], ['left_volume', 1600], ['right_volume', 1500]]);
    // Silver: 2 recruits, PV 100, 1 500 a leg — met; Gold asks for 3 recruits. Bronze is passed on the way: both bonuses.
    const silver = r.higher_ranks.find((x) => x.name === 'Silver')!;
    expect(await promote(s, [root.id])).toEqual([{ memberId: root.id, rankId: silver.id }]);
    const after = await ranksOf(s, 'br.root');
    expect(after.current_rank?.name).toBe('Silver');
    expect(after.rank_achievements.map((x) => x.name)).toEqual(['Bronze', 'Silver']);
    expect(await rankBonuses(s, root.id)).toEqual([
      { name: 'Bronze', amount_generated: '50.0000' },
      { name: 'Silver', amount_generated: '150.0000' },
    ]);
  });

  it('refuses a period that has not begun', async () => {
    await expect(pay(s, { planDate: new Date('2030-01-01') })).rejects.toMatchObject({ statusCode: 409 });
  });
});

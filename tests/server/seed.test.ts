// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { seed, seedIfEmpty } from '../../server/seed';
import { rows, wrongCounters } from './helpers';
import { loadRankDefinitions, meets, planShape, rankFigures } from '../../server/lib/ranks';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const digest = sql`SELECT md5(string_agg(concat_ws('|', id, username, email, mobile_code, mobile, first_name, last_name, status, sponsor_id,
  parent_id, position, slot, path, depth, package_id, rank_id, pv, tv, cv, total_left, total_right, downline_count, created_at), ',' ORDER BY id)) AS d
  FROM members`;

describe('seeded company', () => {
  it('has the named members where the demo expects them', async () => {
    const named = await rows(
      s.database,
      sql`SELECT id, username, email, mobile_code, mobile, status, role_id, demo_allowed, parent_id, position, path
          FROM members WHERE id <= 4 ORDER BY id`,
    );
    expect(named).toEqual([
      { id: 1, username: 'admin', email: 'admin@upline.example', mobile_code: null, mobile: null, status: 1, role_id: 1, demo_allowed: true, parent_id: null, position: null, path: '1.' },
      { id: 2, username: 'demo', email: 'demo@upline.example', mobile_code: '+1', mobile: '5550100', status: 1, role_id: 3, demo_allowed: true, parent_id: 1, position: 'L', path: '1.2.' },
      { id: 3, username: 'blocked', email: 'blocked@upline.example', mobile_code: null, mobile: null, status: 0, role_id: 3, demo_allowed: true, parent_id: 1, position: 'R', path: '1.3.' },
      { id: 4, username: 'demo.expired', email: 'expired@upline.example', mobile_code: null, mobile: null, status: 1, role_id: 3, demo_allowed: false, parent_id: 3, position: 'L', path: '1.3.4.' },
    ]);
    const [{ n }] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM members WHERE path LIKE '1.2.%' AND id <> 2`);
    expect(n).toBe(200);
  });

  it('keeps every tree counter exact', async () => {
    expect(await wrongCounters(s.database)).toEqual([]);
    const [demo] = await rows(s.database, sql`SELECT downline_count, left_count, right_count, child_count FROM members WHERE id = 2`);
    expect(demo.downline_count).toBe(200);
    expect(demo.left_count + demo.right_count).toBe(200);
    const [admin] = await rows(s.database, sql`SELECT downline_count, left_count, right_count FROM members WHERE id = 1`);
    expect(admin).toEqual({ downline_count: 203, left_count: 201, right_count: 2 });
  });

  it('leaves empty slots inside the tree, not only at the bottom', async () => {
    const [{ maxDepth }] = await rows<{ maxDepth: number }>(s.database, sql`SELECT max(depth) AS "maxDepth" FROM members`);
    const gaps = await rows(
      s.database,
      sql`SELECT id FROM members WHERE path LIKE '1.2.%' AND child_count < 2 AND depth < ${maxDepth - 1}`,
    );
    expect(gaps.length).toBeGreaterThan(0);
  });

  it('sponsors are uplines in the placement tree', async () => {
    const bad = await rows(
      s.database,
      sql`SELECT m.id FROM members m JOIN members sp ON sp.id = m.sponsor_id WHERE m.id > 4 AND NOT (m.path LIKE sp.path || '%')`,
    );
    expect(bad).toEqual([]);
  });

  it('ranks are earned by the plan\'s own criteria, worked out as the server works them out, and volumes are consistent', async () => {
    const shape = await planShape(s.app.ctx.settings);
    const ranks = await loadRankDefinitions(s.database.db, shape.plan);
    expect(ranks.map((r) => r.name)).toEqual(['Bronze', 'Silver', 'Gold', 'Platinum', 'Diamond']);
    expect(ranks.every((r) => r.requirements.map((q) => q.key).join() === 'referral_count,pv,left_volume,right_volume')).toBe(true);
    const all = await rows<{ id: number; rank_id: number | null }>(s.database, sql`SELECT id, rank_id FROM members WHERE role_id <> 1 ORDER BY id`);
    const figures = await rankFigures(s.database.db, shape, all.map((m) => m.id));
    // Volumes only grow after a rank is reached (the seeded purchases come later), so each rank is still met.
    const wrong = all.filter((m) => m.rank_id !== null && !meets(ranks.find((r) => r.id === m.rank_id)!, figures.get(m.id)!.values));
    expect(wrong).toEqual([]);
    const ranked = all.filter((m) => m.rank_id !== null).length;
    expect(ranked).toBeGreaterThan(0);
    expect(ranked).toBeLessThan(all.length);
    const [fmt] = await rows<{ ok: boolean }>(s.database, sql`SELECT bool_and(pv >= 0 AND tv >= pv AND cv >= 0) AS ok FROM members`);
    expect(fmt.ok).toBe(true);
  });

  it('joining dates fall in 2025–2026 and grow with the tree', async () => {
    const [range] = await rows<{ lo: string; hi: string }>(s.database, sql`SELECT min(created_at)::text AS lo, max(created_at)::text AS hi FROM members`);
    expect(range.lo >= '2025-01-01').toBe(true);
    expect(range.hi < '2027-01-01').toBe(true);
    const [{ backwards }] = await rows<{ backwards: number }>(
      s.database,
      sql`SELECT count(*)::int AS backwards FROM members c JOIN members p ON p.id = c.parent_id WHERE c.created_at < p.created_at`,
    );
    expect(backwards).toBe(0);
  });

  it('holds the reference data and settings of the demo company', async () => {
    const settings = s.app.ctx.settings;
    expect(await settings.get('company')).toMatchObject({ name: 'Upline Demo', support_email: 'support@upline.example', phone: '+1 555 0100', logo: '/logo.svg' });
    const modules = await settings.get('modules');
    expect(modules.compensation_plan).toBe('binary');
    for (const on of ['package', 'rank', 'payout_request', 'wallet_management', 'language', 'currency', 'internal_store', 'kyc', 'crm', 'support_message', 'stories', 'events', 'business_volume'] as const) {
      expect(modules[on], on).toBe(true);
    }
    for (const off of ['store', 'roi', 'roi_bonus'] as const) expect(modules[off], off).toBe(false);
    expect(await settings.get('date_format')).toBe('M d, Y h:i A');
    expect(await settings.get('signup')).toMatchObject({ default_sponsor: 'demo', otp_verification: true, otp_based_on: 'email' });

    const currencies = await rows(s.database, sql`SELECT id, code, symbol, symbol_position, decimal_place, value::text, is_default FROM currencies ORDER BY id`);
    expect(currencies.map((c) => [c.code, c.symbol, c.symbol_position, Number(c.value)])).toEqual([
      ['USD', '$', 'L', 1],
      ['EUR', '€', 'L', 0.92],
      ['GBP', '£', 'L', 0.79],
      ['INR', '₹', 'L', 83.2],
      ['SEK', 'kr', 'R', 10.6],
    ]);
    expect(currencies[0]).toMatchObject({ id: 1, is_default: true });
    const langs = await rows(s.database, sql`SELECT code, is_default FROM languages ORDER BY id`);
    expect(langs).toEqual([{ code: 'en', is_default: true }, { code: 'es', is_default: false }]);
    expect((await rows(s.database, sql`SELECT id FROM countries`)).length).toBeGreaterThanOrEqual(25);
    expect((await rows(s.database, sql`SELECT id FROM ranks WHERE plan = 'binary'`)).length).toBe(5);
    // Every plan has its ranks, so a company that changes plan finds its own.
    expect((await rows(s.database, sql`SELECT DISTINCT plan FROM ranks ORDER BY plan`)).map((r) => r.plan)).toEqual(['binary', 'matrix', 'unilevel']);
    expect((await rows(s.database, sql`SELECT id FROM packages`)).length).toBe(3);
  });

  it('named members have their own password hashes; generated members share one', async () => {
    const named = await rows<{ password_hash: string }>(s.database, sql`SELECT password_hash FROM members WHERE id <= 4`);
    expect(new Set(named.map((r) => r.password_hash)).size).toBe(4);
    const [{ n }] = await rows<{ n: number }>(s.database, sql`SELECT count(DISTINCT password_hash)::int AS n FROM members WHERE id > 4`);
    expect(n).toBe(1);
    expect(named.every((r) => r.password_hash.startsWith('scrypt$'))).toBe(true);
  });

  it('seeds the same data every time and only into an empty database', async () => {
    expect(await seedIfEmpty(s.database, s.config)).toBe(false);
    const other = await openDatabase({ dataDir: null, databaseUrl: null });
    try {
      await migrate(other);
      await seed(other, s.config, { members: 200 });
      const [a] = await rows<{ d: string }>(s.database, digest);
      const [b] = await rows<{ d: string }>(other, digest);
      expect(b.d).toBe(a.d);
    } finally {
      await other.close();
    }
  });
});

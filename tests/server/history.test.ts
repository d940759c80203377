// @vitest-environment node
/**
 * PV and binary history: paging, the type and date filters, the running totals and carries that
 * add up row by row, the binary bonus that matches the earnings, CSV exports and access.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as money from '../../server/lib/money';
import { apiGet, signedInDemo, expectedRange, parseCsv, sessionOf, walk } from './wallet-support';

const ctx = signedInDemo();

const P = money.parse;

describe('PV history', () => {
  it('needs a signed-in member', async () => {
    for (const url of ['/api/network/pv_history', '/api/network/binary_history', '/api/network/pv_history/export', '/api/network/binary_history/export']) {
      expect((await apiGet(ctx.server, undefined, url)).status, url).toBe(401);
    }
  });

  it('walks every row once with running totals that add up', async () => {
    const [n] = await ctx.server.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM pv_history WHERE member_id = ${ctx.demoId}`);
    const { items } = await walk(ctx.server, ctx.token, '/api/network/pv_history?sort=asc&limit=60');
    expect(items).toHaveLength(Number(n.n));
    expect(new Set(items.map((i: { id: number }) => i.id)).size).toBe(items.length);
    let pv = 0n;
    let tv = 0n;
    for (const r of items) {
      pv += P(r.pv);
      tv += P(r.tv);
      expect([P(r.total_pv), P(r.total_tv)]).toEqual([pv, tv]);
      // Own orders add personal and team volume; the downline's add team volume only.
      if (r.from_username === 'demo') expect(P(r.pv)).toBe(P(r.tv));
      else expect(P(r.pv)).toBe(0n);
    }
    const [m] = await ctx.server.database.rows<{ pv: string; tv: string }>(sql`SELECT pv::text AS pv, tv::text AS tv FROM members WHERE id = ${ctx.demoId}`);
    expect([P(m.pv), P(m.tv)]).toEqual([pv, tv]);
    expect(new Set(items.map((i: { type: string }) => i.type))).toEqual(new Set(['registration', 'upgrade', 'repurchase']));
  });

  it('filters by one type and by dates', async () => {
    const up = await walk(ctx.server, ctx.token, '/api/network/pv_history?type=upgrade');
    expect(up.items.length).toBeGreaterThan(0);
    expect(up.items.every((i: { type: string }) => i.type === 'upgrade')).toBe(true);
    const reg = await walk(ctx.server, ctx.token, '/api/network/pv_history?type=registration&start_date=2025-03-01&end_date=2025-03-31&limit=100');
    const [n] = await ctx.server.database.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM pv_history WHERE member_id = ${ctx.demoId} AND type = 'registration'
          AND created_at >= '2025-03-01T00:00:00Z' AND created_at < '2025-04-01T00:00:00Z'`,
    );
    expect(reg.items).toHaveLength(Number(n.n));
    expect(reg.items.every((i: { created_at: string }) => i.created_at.startsWith('2025-03'))).toBe(true);
    for (const q of ['type=registration&type=upgrade', 'type[0]=registration&type[1]=upgrade']) {
      const two = await apiGet(ctx.server, ctx.token, `/api/network/pv_history?${q}`);
      expect(two.status, q).toBe(422);
      expect(two.body.errors.type).toEqual(['validation:invalidType']);
    }
    const unknown = await apiGet(ctx.server, ctx.token, '/api/network/pv_history?type=bonus');
    expect(unknown.body.errors.type).toEqual(['validation:invalidChoice']);
    const year = await walk(ctx.server, ctx.token, '/api/network/pv_history?date_range=last_month&limit=100');
    const [from, to] = expectedRange('last_month', new Date());
    expect(year.items.every((i: { created_at: string }) => Date.parse(i.created_at) >= from && Date.parse(i.created_at) < to)).toBe(true);
  });

  it('shows another member only their own volume', async () => {
    const [other] = await ctx.server.database.rows<{ member_id: number }>(
      sql`SELECT member_id FROM pv_history WHERE member_id <> ${ctx.demoId} GROUP BY member_id ORDER BY member_id LIMIT 1`,
    );
    const t = await sessionOf(ctx.server, Number(other.member_id));
    const [me] = await ctx.server.database.rows<{ username: string }>(sql`SELECT username FROM members WHERE id = ${other.member_id}`);
    const pv = await walk(ctx.server, t, '/api/network/pv_history');
    expect(pv.items.length).toBeGreaterThan(0);
    expect(pv.items.every((i: { from_username: string }) => i.from_username === me.username)).toBe(true);
    expect((await walk(ctx.server, t, '/api/network/binary_history')).items).toEqual([]);
  });

  it('exports PV history as CSV', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/network/pv_history/export?type=repurchase&sort=asc');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="pv-history-.*\.csv"$/);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual(['id', 'date', 'type', 'from_username', 'pv', 'tv', 'total_pv', 'total_tv']);
    const listed = await walk(ctx.server, ctx.token, '/api/network/pv_history?type=repurchase&sort=asc&limit=100');
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(listed.items.map((i: { id: number }) => i.id));
    expect(rows.slice(1).every((r) => r[2] === 'repurchase')).toBe(true);
  });
});

describe('binary history', () => {
  it('adds volume to legs, pairs it weekly and carries the rest, row by row', async () => {
    const { items } = await walk(ctx.server, ctx.token, '/api/network/binary_history?sort=asc&limit=100');
    const [n] = await ctx.server.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM binary_history WHERE member_id = ${ctx.demoId}`);
    expect(items).toHaveLength(Number(n.n));
    let [tl, tr, cl, cr] = [0n, 0n, 0n, 0n];
    let pairings = 0;
    let twoToOne = 0;
    let capped = 0;
    for (const r of items) {
      if (r.leg === null) {
        pairings++;
        expect(P(r.pv_added)).toBe(0n);
        expect(P(r.pv_deducted_left)).toBeGreaterThan(0n);
        expect(P(r.pv_deducted_right)).toBeGreaterThan(0n);
        expect(P(r.bonus_to_pay)).toBeLessThanOrEqual(P(r.bonus_generated));
        expect(P(r.bonus_to_pay)).toBeLessThanOrEqual(P(r.capping_limit));
        if (r.pv_deducted_left !== r.pv_deducted_right) twoToOne++;
        if (P(r.bonus_to_pay) < P(r.bonus_generated)) capped++;
        expect(r.from_username).toBeNull();
        expect(r.created_at).toMatch(/T23:59:59\.999Z$/);
        expect(new Date(r.created_at).getUTCDay()).toBe(0); // the last moment of a week (Sunday)
        cl -= P(r.pv_deducted_left);
        cr -= P(r.pv_deducted_right);
      } else {
        expect(P(r.pv_added)).toBeGreaterThan(0n);
        expect(typeof r.from_username).toBe('string');
        if (r.leg === 'L') {
          tl += P(r.pv_added);
          cl += P(r.pv_added);
        } else {
          tr += P(r.pv_added);
          cr += P(r.pv_added);
        }
      }
      expect([P(r.total_left), P(r.total_right), P(r.carry_left), P(r.carry_right)]).toEqual([tl, tr, cl, cr]);
      expect(cl >= 0n && cr >= 0n).toBe(true);
    }
    expect(pairings).toBeGreaterThan(5);
    expect(twoToOne).toBe(1); // the qualifying first pair
    expect(capped).toBeGreaterThan(0);
    const [m] = await ctx.server.database.rows<Record<string, string>>(
      sql`SELECT total_left::text AS tl, total_right::text AS tr, carry_left::text AS cl, carry_right::text AS cr FROM members WHERE id = ${ctx.demoId}`,
    );
    expect([P(m.tl), P(m.tr), P(m.cl), P(m.cr)]).toEqual([tl, tr, cl, cr]);
  });

  it('pays exactly the pairing runs’ bonus as binary bonus earnings', async () => {
    const pairs = await walk(ctx.server, ctx.token, '/api/network/binary_history?type=pairing&limit=100');
    expect(pairs.items.every((r: { leg: string | null }) => r.leg === null)).toBe(true);
    const earned = await walk(ctx.server, ctx.token, '/api/wallet/recent_earnings?bonus_type[0]=binary_bonus&limit=100');
    const paid = pairs.items.filter((r: { bonus_to_pay: string }) => P(r.bonus_to_pay) > 0n);
    expect(earned.items).toHaveLength(paid.length);
    expect(money.sum(earned.items.map((e: { amount_generated: string }) => P(e.amount_generated)))).toBe(
      money.sum(paid.map((r: { bonus_to_pay: string }) => P(r.bonus_to_pay))),
    );
    // Each earning is dated with its pairing run.
    expect(new Set(earned.items.map((e: { created_at: string }) => e.created_at))).toEqual(new Set(paid.map((r: { created_at: string }) => r.created_at)));
  });

  it('filters by leg type and dates', async () => {
    const left = await walk(ctx.server, ctx.token, '/api/network/binary_history?type=left_volume&limit=100&start_date=2025-06-01');
    expect(left.items.length).toBeGreaterThan(0);
    expect(left.items.every((r: { leg: string; created_at: string }) => r.leg === 'L' && r.created_at >= '2025-06-01')).toBe(true);
    const [n] = await ctx.server.database.rows<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM binary_history WHERE member_id = ${ctx.demoId} AND type = 'left_volume' AND created_at >= '2025-06-01T00:00:00Z'`,
    );
    expect(left.items).toHaveLength(Number(n.n));
    const bad = await apiGet(ctx.server, ctx.token, '/api/network/binary_history?type=left_volume&type=pairing&sort=sideways&date_range=custom');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      type: ['validation:invalidType'],
      sort: ['validation:invalidChoice'],
      start_date: ['validation:required'],
      end_date: ['validation:required'],
    });
  });

  it('exports binary history as CSV', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/network/binary_history/export?type=pairing');
    expect(res.status).toBe(200);
    const rows = parseCsv(res.text);
    expect(rows[0]).toContain('bonus_to_pay');
    const pairs = await walk(ctx.server, ctx.token, '/api/network/binary_history?type=pairing&limit=100');
    expect(rows.length - 1).toBe(pairs.items.length);
    const col = rows[0].indexOf('bonus_to_pay');
    expect(money.sum(rows.slice(1).map((r) => P(r[col])))).toBe(money.sum(pairs.items.map((r: { bonus_to_pay: string }) => P(r.bonus_to_pay))));
    expect(rows.slice(1).every((r) => r[rows[0].indexOf('leg')] === '')).toBe(true);
  });
});

// @vitest-environment node
/**
 * Referral calls: the summary counts what the database holds, leaderboards rank only the member's sponsor
 * downline, joinings page through every direct referral once, and merchants and strangers are refused.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { allMembers, byUsername, get, sessionFor, type DbMember } from './network-support';
import type { Leaderboard, ReferralJoinings, ReferralSummary } from '../../src/schemas/referral.schema';

let server: TestServer;
let all: Map<number, DbMember>;
let demo: DbMember;
let token: string;

/** Everyone sponsored by `id`, at any depth (recounted from sponsor links). */
function sponsorDownline(id: number): DbMember[] {
  const out: DbMember[] = [];
  const stack = [id];
  while (stack.length) {
    const cur = stack.pop()!;
    for (const m of all.values()) if (m.sponsor_id === cur) {
      out.push(m);
      stack.push(m.id);
    }
  }
  return out;
}

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  all = await allMembers(server);
  demo = byUsername(all, 'demo');
  token = await sessionFor(server, demo.id);
});
afterAll(() => server?.close());

describe('referral calls', () => {
  it('summary: link, direct referrals, this month, team size and referral earnings', async () => {
    const res = await get<ReferralSummary>(server, token, '/api/referral/summary');
    expect(res.status).toBe(200);
    const direct = [...all.values()].filter((m) => m.sponsor_id === demo.id);
    const monthStart = new Date();
    monthStart.setUTCDate(1);
    monthStart.setUTCHours(0, 0, 0, 0);
    expect(res.body.data.referral_link).toBe('/signup?referral=demo');
    expect(res.body.data.direct_referrals).toBe(direct.length);
    expect(res.body.data.direct_referrals).toBeGreaterThan(0);
    expect(res.body.data.joined_this_month).toBe(direct.filter((m) => new Date(m.created_at) >= monthStart).length);
    expect(res.body.data.team_size).toBe(sponsorDownline(demo.id).length);
    const [earned] = await server.database.rows<{ total: string | null }>(
      sql`SELECT coalesce(sum(amount_generated), 0)::numeric(20,2)::text AS total FROM earnings WHERE member_id = ${demo.id} AND bonus_type = 'referral_bonus'`,
    );
    expect(Number(res.body.data.referral_earnings).toFixed(2)).toBe(Number(earned.total).toFixed(2));
    const recent = res.body.data.recent_joinings;
    expect(recent.length).toBe(Math.min(5, direct.length));
    for (const r of recent) expect(all.get(r.id)?.sponsor_id).toBe(demo.id);
  });

  it('recruiters: ranked by direct referrals, only from the sponsor downline', async () => {
    const res = await get<Leaderboard>(server, token, '/api/referral/recruiters');
    expect(res.status).toBe(200);
    const downline = new Set(sponsorDownline(demo.id).map((m) => m.id));
    const items = res.body.data.items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(10);
    items.forEach((it, i) => {
      expect(it.rank).toBe(i + 1);
      expect(downline.has(it.id)).toBe(true);
      expect(it.referrals).toBe([...all.values()].filter((m) => m.sponsor_id === it.id).length);
      if (i > 0) expect(items[i - 1].referrals).toBeGreaterThanOrEqual(it.referrals);
    });
    const best = Math.max(...[...downline].map((id) => [...all.values()].filter((m) => m.sponsor_id === id).length));
    expect(items[0].referrals).toBe(best);
  });

  it('earners: ranked by earnings, only from the sponsor downline', async () => {
    const res = await get<Leaderboard>(server, token, '/api/referral/earners');
    expect(res.status).toBe(200);
    const downline = new Set(sponsorDownline(demo.id).map((m) => m.id));
    const items = res.body.data.items;
    for (let i = 0; i < items.length; i++) {
      expect(downline.has(items[i].id)).toBe(true);
      if (i > 0) expect(Number(items[i - 1].earnings)).toBeGreaterThanOrEqual(Number(items[i].earnings));
    }
    expect(items.some((it) => it.id === demo.id)).toBe(false);
  });

  it('joinings: every direct referral once, newest first, page by page', async () => {
    const seen: number[] = [];
    let url: string | null = '/api/referral/joinings?per_page=2';
    let pages = 0;
    while (url && pages < 100) {
      const res: Awaited<ReturnType<typeof get<ReferralJoinings>>> = await get<ReferralJoinings>(server, token, url);
      expect(res.status).toBe(200);
      const items = res.body.data.items;
      expect(items.length).toBeLessThanOrEqual(2);
      for (let i = 1; i < items.length; i++) expect(items[i - 1].joined_date >= items[i].joined_date).toBe(true);
      seen.push(...items.map((i) => i.id));
      url = res.body.data.next_page_url;
      pages++;
    }
    const direct = [...all.values()].filter((m) => m.sponsor_id === demo.id);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort((a, b) => a - b)).toEqual(direct.map((m) => m.id).sort((a, b) => a - b));
  });

  it('a broken cursor is a validation error', async () => {
    const res = await get(server, token, '/api/referral/joinings?cursor=%%%');
    expect(res.status).toBe(422);
    expect(res.body.errors?.cursor).toEqual(['validation:invalidFormat']);
  });

  it('a member sees only their own referrals', async () => {
    const other = [...all.values()].find((m) => m.sponsor_id === demo.id && [...all.values()].some((x) => x.sponsor_id === m.id))!;
    const t = await sessionFor(server, other.id);
    const res = await get<ReferralJoinings>(server, t, '/api/referral/joinings');
    for (const j of res.body.data.items) expect(all.get(j.id)?.sponsor_id).toBe(other.id);
    const board = await get<Leaderboard>(server, t, '/api/referral/recruiters');
    const mine = new Set(sponsorDownline(other.id).map((m) => m.id));
    for (const it of board.body.data.items) expect(mine.has(it.id)).toBe(true);
  });

  it('refuses strangers (401) and merchant accounts (403)', async () => {
    for (const path of ['summary', 'recruiters', 'earners', 'joinings']) {
      expect((await get(server, undefined, `/api/referral/${path}`)).status).toBe(401);
    }
    const merchant = [...all.values()].find((m) => m.username !== 'demo' && m.sponsor_id === demo.id)!;
    await server.database.rows(sql`UPDATE members SET account_type = 'merchant' WHERE id = ${merchant.id}`);
    const t = await sessionFor(server, merchant.id);
    for (const path of ['summary', 'recruiters', 'earners', 'joinings']) {
      const res = await get(server, t, `/api/referral/${path}`);
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('referral_unavailable');
    }
  });
});

// @vitest-environment node
/**
 * A member only ever sees their own downline: every network call refuses ids outside it (a stranger, a
 * sibling, an upline, ids that do not exist, text that is no id) with one and the same answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { allMembers, byUsername, get, placementDescendants, sessionFor, type DbMember } from './network-support';

let server: TestServer;
let all: Map<number, DbMember>;
let caller: DbMember;
let token: string;
let outside: { label: string; id: string }[];
let own: DbMember[];

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  all = await allMembers(server);
  const demo = byUsername(all, 'demo');
  // The caller: a member two levels below demo whose parent has two children (so it has a sibling),
  // and with a downline of its own.
  caller = placementDescendants(all, demo.id).find((m) => {
    if (m.depth - demo.depth !== 2 || m.downline_count < 6) return false;
    return [...all.values()].filter((x) => x.parent_id === m.parent_id).length === 2;
  })!;
  token = await sessionFor(server, caller.id);
  const sibling = [...all.values()].find((x) => x.parent_id === caller.parent_id && x.id !== caller.id)!;
  const nephew = placementDescendants(all, sibling.id)[0];
  const parent = all.get(caller.parent_id!)!;
  const admin = byUsername(all, 'admin');
  const stranger = byUsername(all, 'demo.expired');
  const maxId = Math.max(...all.keys());
  outside = [
    { label: 'sibling', id: String(sibling.id) },
    { label: "sibling's downline", id: String(nephew.id) },
    { label: 'parent (upline)', id: String(parent.id) },
    { label: 'demo (upline)', id: String(demo.id) },
    { label: 'admin (top)', id: String(admin.id) },
    { label: 'stranger in another leg', id: String(stranger.id) },
    { label: 'id that does not exist', id: String(maxId + 1000) },
    { label: 'zero', id: '0' },
    { label: 'negative', id: '-1' },
    { label: 'text', id: 'abc' },
    { label: 'exponent', id: '1e3' },
    { label: 'beyond int range', id: '2147483648' },
    { label: 'huge', id: '9'.repeat(40) },
    { label: 'leading zeros', id: `00${sibling.id}` },
    { label: 'path injection', id: encodeURIComponent(`${caller.id}%`) },
  ];
  own = [caller, ...placementDescendants(all, caller.id)];
}, 60_000);
afterAll(() => server?.close());

const CALLS = ['genealogy', 'table_view', 'table_view_single', 'max_levels'];

describe('ids outside the downline', () => {
  it('are refused by every call with the same 403 not_in_network, whether the member exists or not', async () => {
    let successes = 0;
    const bodies = new Set<string>();
    for (const call of CALLS) {
      for (const o of outside) {
        const res = await get(server, token, `/api/network/${call}/${o.id}`);
        if (res.status === 200) successes++;
        expect(res.status, `${call} ${o.label}`).toBe(403);
        expect(res.body.error_code).toBe('not_in_network');
        bodies.add(res.raw);
        // Never a trace of someone else's data.
        for (const m of [...all.values()].filter((x) => !own.includes(x))) expect(res.raw.includes(`"${m.username}"`)).toBe(false);
      }
    }
    expect(successes).toBe(0);
    expect(bodies.size).toBe(1);
  });

  it('a random sample of ids: exactly the downline answers, nothing else', async () => {
    const ownIds = new Set(own.map((m) => m.id));
    const maxId = Math.max(...all.keys());
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ids = [...Array.from({ length: 60 }, () => 1 + Math.floor(rnd() * (maxId + 50))), ...[...ownIds].slice(0, 5)];
    for (const id of ids) {
      const res = await get<{ root_affiliate_id: number }>(server, token, `/api/network/genealogy/${id}`);
      if (ownIds.has(id)) {
        expect(res.status).toBe(200);
        expect(res.body.data.root_affiliate_id).toBe(id);
      } else {
        expect(res.status, `id ${id}`).toBe(403);
      }
    }
  });

  it('the member and its downline are open, with going up stopping at the member', async () => {
    for (const m of own.slice(0, 8)) {
      const res = await get<{ root_affiliate_id: number; parent_username: string | null }>(server, token, `/api/network/genealogy/${m.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.parent_username).toBe(m.id === caller.id ? null : all.get(m.parent_id!)!.username);
    }
  });

  it('usernames outside the downline never move the root or reveal anything', async () => {
    const sibling = all.get(Number(outside[0].id))!;
    const parent = all.get(caller.parent_id!)!;
    for (const call of ['genealogy', 'table_view', 'table_view_single']) {
      const answers = new Set<string>();
      for (const username of [sibling.username, parent.username, 'demo', 'admin', 'no.such.member']) {
        const res = await get<{ search_valid: boolean }>(server, token, `/api/network/${call}?username=${encodeURIComponent(username)}`);
        expect(res.status).toBe(200);
        expect(res.body.data.search_valid).toBe(false);
        expect(res.raw.includes(`"${sibling.username}"`)).toBe(false);
        expect(res.raw.includes(`"${parent.username}"`)).toBe(false);
        answers.add(res.raw.replace(/"next_page_url":"[^"]*"/, ''));
      }
      expect(answers.size, call).toBe(1);
    }
  });

  it('the downline report holds only the downline, whatever the filters', async () => {
    const ownIds = new Set(own.map((m) => m.id));
    for (const q of ['', '?username=demo', '?username=admin', `?username=${all.get(Number(outside[0].id))!.username}`, '?level=1', '?sort=asc']) {
      for (const cat of ['placement', 'sponsor']) {
        const res = await get<{ data: { id: number }[] }>(server, token, `/api/network/downline_report/${cat}${q}`);
        expect(res.status).toBe(200);
        for (const r of res.body.data.data) expect(ownIds.has(r.id), `${cat}${q} → ${r.id}`).toBe(true);
      }
    }
  });

  it('a blocked member is signed out of the network (401 without a live session, 403 once blocked)', async () => {
    const res = await get(server, undefined, `/api/network/genealogy/${caller.id}`);
    expect(res.status).toBe(401);
    const blocked = byUsername(all, 'blocked');
    const blockedToken = await sessionFor(server, blocked.id);
    const answer = await get(server, blockedToken, '/api/network/genealogy');
    expect(answer.status).toBe(403);
    expect(answer.body.error_code).toBe('user_blocked');
  });
});

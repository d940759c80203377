// @vitest-environment node
/**
 * GET /api/network/free_places per plan, and the signup's check of the place picked from it: each case
 * starts from a fresh member of demo's team (a leaf, placed by signup) whose free places are worked out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { freshIp, get, login, post, withSettings, type Answer } from './helpers';

const PASS = 'Signup-pass-1';
type Place = { placement: string; position: 'L' | 'R' | null; slot: number; level: number };
const shortly = (p: Place[]) => p.map((x) => `${x.placement}${x.position ? `:${x.position}` : `#${x.slot}`}@${x.level}`);

/** A member signed up (by a signed-in member when `token` is given), with no code to confirm. */
async function signup(s: TestServer, body: Record<string, unknown>, token?: string) {
  let res!: Answer;
  await withSettings(s.app, 'signup', { otp_verification: false }, async () => {
    res = await post(s.app, '/api/users/signup', { first_name: 'Nia', password: PASS, ...body }, { ip: freshIp(), token });
  });
  return res;
}
const places = (s: TestServer, token: string, query: Record<string, string> = {}) => get(s.app, '/api/network/free_places', { token, query });

describe('binary: the empty left and right slots of the member’s tree', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitScale: 50, plan: 'binary', seedMembers: 40 });
  }, 120_000);
  afterAll(async () => s?.close());

  it('lists the leaf’s two slots, then the slots its recruits open, upper levels first, in pages', async () => {
    expect((await signup(s, { referral: 'demo', username: 'bfp.root', email: 'bfp.root@example.org' })).status).toBe(200);
    const { token } = await login(s.app, 'bfp.root', PASS);
    let res = await places(s, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ compensation_plan: 'binary', max_width: 2, next_after: null });
    expect(shortly(res.body.data.places)).toEqual(['bfp.root:L@1', 'bfp.root:R@1']);

    // A recruit into the left slot picked from the list: it is taken, and the recruit's own two slots follow.
    expect((await signup(s, { referral: 'bfp.root', username: 'bfp.a', placement: 'bfp.root', position: 'L' }, token)).status).toBe(200);
    expect((await signup(s, { referral: 'bfp.root', username: 'bfp.b', placement: 'bfp.a', position: 'R' }, token)).status).toBe(200);
    res = await places(s, token);
    // bfp.root: R free; bfp.a (level 1): L free, R taken by bfp.b; bfp.b (level 2): both free.
    expect(shortly(res.body.data.places)).toEqual(['bfp.root:R@1', 'bfp.a:L@2', 'bfp.b:L@3', 'bfp.b:R@3']);

    // Two a page: the cursor continues after the last place, none twice, none left out.
    const first = await places(s, token, { limit: '2' });
    expect(shortly(first.body.data.places)).toEqual(['bfp.root:R@1', 'bfp.a:L@2']);
    const second = await places(s, token, { limit: '2', after: first.body.data.next_after });
    expect(shortly(second.body.data.places)).toEqual(['bfp.b:L@3', 'bfp.b:R@3']);
    expect(second.body.data.next_after).toBeNull();
    // Narrowed to one member's subtree.
    expect(shortly((await places(s, token, { placement: 'bfp.b' })).body.data.places)).toEqual(['bfp.b:L@3', 'bfp.b:R@3']);
  });

  it('another member’s placement is refused with the field named; a taken slot is a field error of the signup', async () => {
    const { token } = await login(s.app, 'bfp.root', PASS);
    for (const placement of ['demo', 'nobody.here']) {
      const res = await places(s, token, { placement });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ placement: ['validation:placementNotInTeam'] });
    }
    const bad = await places(s, token, { after: 'x' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['after']);
    // Into demo's tree from bfp.root's signup: not its own tree.
    const outside = await signup(s, { referral: 'bfp.root', username: 'bfp.out', placement: 'demo', position: 'L' }, token);
    expect(outside.status).toBe(422);
    expect(outside.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
    // bfp.a's right slot is bfp.b's.
    const taken = await signup(s, { referral: 'bfp.root', username: 'bfp.late', placement: 'bfp.a', position: 'R' }, token);
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
  });

  it('two signups into the same slot at once: exactly one gets it, the other a field error', async () => {
    const { token } = await login(s.app, 'bfp.root', PASS);
    const [a, b] = await Promise.all([
      signup(s, { referral: 'bfp.root', username: 'bfp.race1', placement: 'bfp.root', position: 'R' }, token),
      signup(s, { referral: 'bfp.root', username: 'bfp.race2', placement: 'bfp.root', position: 'R' }, token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect((a.status === 422 ? a : b).body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
    expect(shortly((await places(s, token)).body.data.places)[0]).toBe('bfp.a:L@2');
  });
});

describe('matrix (width 3): the free places in spill-over order within the depth', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitScale: 50, plan: 'matrix', seedMembers: 40 });
  }, 120_000);
  afterAll(async () => s?.close());

  it('breadth first, the place automatic placement takes first, each parent’s places in order, in pages', async () => {
    expect((await signup(s, { referral: 'demo', username: 'mfp.root', email: 'mfp.root@example.org' })).status).toBe(200);
    const { token } = await login(s.app, 'mfp.root', PASS);
    let res = await places(s, token);
    expect(res.body.data).toMatchObject({ compensation_plan: 'matrix', max_width: 3, max_depth: 5 });
    expect(shortly(res.body.data.places)).toEqual(['mfp.root#1@1', 'mfp.root#2@1', 'mfp.root#3@1']);

    // Place 2 picked first, then an automatic signup: spill-over takes place 1.
    expect((await signup(s, { referral: 'mfp.root', username: 'mfp.b', placement: 'mfp.root', slot: 2 }, token)).status).toBe(200);
    expect((await signup(s, { referral: 'mfp.root', username: 'mfp.a' }, token)).status).toBe(200);
    res = await places(s, token);
    // Level 1: place 3 of mfp.root; level 2: mfp.a (place 1) before mfp.b (place 2), three places each.
    expect(shortly(res.body.data.places)).toEqual(['mfp.root#3@1', 'mfp.a#1@2', 'mfp.a#2@2', 'mfp.a#3@2', 'mfp.b#1@2', 'mfp.b#2@2', 'mfp.b#3@2']);
    // The first place is where automatic placement puts the next recruit.
    expect((await signup(s, { referral: 'mfp.root', username: 'mfp.c' }, token)).status).toBe(200);
    res = await places(s, token, { limit: '4' });
    expect(shortly(res.body.data.places)).toEqual(['mfp.a#1@2', 'mfp.a#2@2', 'mfp.a#3@2', 'mfp.b#1@2']);
    const next = await places(s, token, { limit: '4', after: res.body.data.next_after });
    // mfp.b's places, mfp.c's places, then the level below under mfp.a … (9 at level 3 would follow beyond).
    expect(shortly(next.body.data.places)).toEqual(['mfp.b#2@2', 'mfp.b#3@2', 'mfp.c#1@2', 'mfp.c#2@2']);
  });

  it('a matrix of depth 2 offers no place below its second level, and the signup refuses one there', async () => {
    const { token } = await login(s.app, 'mfp.root', PASS);
    expect((await signup(s, { referral: 'mfp.root', username: 'mfp.a1', placement: 'mfp.a', slot: 1 }, token)).status).toBe(200);
    await withSettings(s.app, 'compensation' as never, { matrix_depth: 2 } as never, async () => {
      const res = await places(s, token, { limit: '50' });
      expect(res.body.data.max_depth).toBe(2);
      // mfp.a1 is at level 2: its places would be level 3.
      expect(res.body.data.places.every((p: Place) => p.level <= 2)).toBe(true);
      expect(shortly(res.body.data.places)).toEqual(['mfp.a#2@2', 'mfp.a#3@2', 'mfp.b#1@2', 'mfp.b#2@2', 'mfp.b#3@2', 'mfp.c#1@2', 'mfp.c#2@2', 'mfp.c#3@2']);
      const deep = await signup(s, { referral: 'mfp.root', username: 'mfp.deep', placement: 'mfp.a1', slot: 1 }, token);
      expect(deep.status).toBe(422);
      expect(deep.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
    });
  });

  it('two signups into the same place at once: one wins, the other a field error; a slot is only for a matrix placement', async () => {
    const { token } = await login(s.app, 'mfp.root', PASS);
    const [a, b] = await Promise.all([
      signup(s, { referral: 'mfp.root', username: 'mfp.race1', placement: 'mfp.b', slot: 3 }, token),
      signup(s, { referral: 'mfp.root', username: 'mfp.race2', placement: 'mfp.b', slot: 3 }, token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 422]);
    expect((a.status === 422 ? a : b).body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
    const noPlacement = await signup(s, { referral: 'mfp.root', username: 'mfp.noplace', slot: 1 }, token);
    expect(noPlacement.status).toBe(422);
    expect(noPlacement.body.errors).toEqual({ slot: ['validation:notAllowed'] });
    const wide = await signup(s, { referral: 'mfp.root', username: 'mfp.wide', placement: 'mfp.c', slot: 4 }, token);
    expect(wide.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
  });
});

describe('unilevel: no placement', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ rateLimitScale: 50, plan: 'unilevel', seedMembers: 40 });
  }, 120_000);
  afterAll(async () => s?.close());

  it('lists no place, and a placement or a slot is refused', async () => {
    const { token } = await login(s.app, 'demo');
    const res = await places(s, token);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ compensation_plan: 'unilevel', places: [], max_depth: null, max_width: null, next_after: null });
    const placed = await signup(s, { referral: 'demo', username: 'ufp.a', placement: 'demo' }, token);
    expect(placed.status).toBe(422);
    expect(placed.body.errors).toMatchObject({ placement: ['validation:notAllowed'] });
    await expect(places(s, 'not-a-token').then((r) => r.status)).resolves.toBe(401);
  });
});

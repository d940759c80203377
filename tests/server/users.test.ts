// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, freshIp, get, lastCode, login, outboxCount, post, rows, TEST_PASSWORD } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const pathOf = async (username: string) =>
  (await rows<{ path: string; id: number; depth: number }>(s.database, sql`SELECT id, path, depth FROM members WHERE username = ${username}`))[0];

describe('member searches', () => {
  it('GET /api/users/members finds at most 20 members of the caller downline matching the keyword', async () => {
    const me = await login(s.app, 'demo');
    const all = await get(s.app, '/api/users/members', { token: me.token });
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBe(20);
    const [first] = await bulkMembers(s.database, 1, 30);
    const found = await get(s.app, `/api/users/members?keyword=${first.username}`, { token: me.token });
    expect(found.body.data[0]).toMatchObject({ username: first.username, email: first.email });
    for (const m of found.body.data) expect(m.username.toLowerCase()).toContain(first.username.toLowerCase());

    const byName = await get(s.app, '/api/users/members?keyword=oliv', { token: me.token });
    const demoPath = (await pathOf('demo')).path;
    for (const m of byName.body.data) {
      expect(`${m.username} ${m.first_name} ${m.last_name} ${m.email}`.toLowerCase()).toContain('oliv');
      expect((await pathOf(m.username)).path.startsWith(demoPath)).toBe(true);
    }
  });

  it('does not show uplines or members outside the downline', async () => {
    const [leaf] = await rows<{ username: string }>(
      s.database,
      sql`SELECT username FROM members WHERE id > 4 AND status = 1 AND child_count = 0 ORDER BY id LIMIT 1`,
    );
    const me = await login(s.app, leaf.username);
    expect((await get(s.app, '/api/users/members?keyword=demo', { token: me.token })).body.data).toEqual([]);
    expect((await get(s.app, '/api/users/members', { token: me.token })).body.data).toEqual([]);
    // Wildcards in the keyword are taken literally.
    const demo = await login(s.app, 'demo');
    expect((await get(s.app, '/api/users/members?keyword=%25', { token: demo.token })).body.data).toEqual([]);
  });

  it('a member not placed in the tree yet has no placement downline to search', async () => {
    await s.database.db.execute(
      sql`INSERT INTO members (username, email, password_hash, first_name, last_name)
          SELECT 'not.placed', 'not.placed@example.net', password_hash, 'Not', 'Placed' FROM members WHERE username = 'demo'`,
    );
    expect((await pathOf('not.placed')).path).toBe('');
    const me = await login(s.app, 'not.placed');
    expect((await get(s.app, '/api/users/members', { token: me.token })).body.data).toEqual([]);
    expect((await get(s.app, '/api/users/placement_downlines?levels=3', { token: me.token })).body.data).toEqual([]);
    expect((await get(s.app, '/api/users/members?keyword=demo', { token: me.token })).body.data).toEqual([]);
  });

  it('placement_downlines and sponsor_downlines honour levels', async () => {
    const me = await login(s.app, 'demo');
    const demo = await pathOf('demo');
    const placement = await get(s.app, '/api/users/placement_downlines?levels=1', { token: me.token });
    expect(placement.status).toBe(200);
    const children = await rows<{ username: string }>(s.database, sql`SELECT username FROM members WHERE parent_id = ${demo.id} ORDER BY id`);
    expect(placement.body.data.map((m: { username: string }) => m.username)).toEqual(children.map((c) => c.username));

    const sponsor = await get(s.app, '/api/users/sponsor_downlines?levels=1', { token: me.token });
    expect(sponsor.status).toBe(200);
    const direct = await rows<{ username: string }>(s.database, sql`SELECT username FROM members WHERE sponsor_id = ${demo.id} ORDER BY id LIMIT 20`);
    expect(sponsor.body.data.map((m: { username: string }) => m.username)).toEqual(direct.map((c) => c.username));

    const deeper = await get(s.app, '/api/users/sponsor_downlines?levels=3', { token: me.token });
    expect(deeper.body.data.length).toBeGreaterThanOrEqual(sponsor.body.data.length);

    const [target] = await rows<{ username: string }>(
      s.database,
      sql`SELECT username FROM members WHERE sponsor_id IN (SELECT id FROM members WHERE sponsor_id = ${demo.id}) ORDER BY id DESC LIMIT 1`,
    );
    const byKeyword = await get(s.app, `/api/users/sponsor_downlines?keyword=${target.username}&levels=2`, { token: me.token });
    expect(byKeyword.status).toBe(200);
    expect(byKeyword.body.data.map((m: { username: string }) => m.username)).toContain(target.username);
    const tooShallow = await get(s.app, `/api/users/sponsor_downlines?keyword=${target.username}&levels=1`, { token: me.token });
    expect(tooShallow.body.data.map((m: { username: string }) => m.username)).not.toContain(target.username);
    const placed = await get(s.app, '/api/users/placement_downlines?keyword=a&levels=2', { token: me.token });
    expect(placed.status).toBe(200);
    for (const m of placed.body.data) expect((await pathOf(m.username)).depth).toBeLessThanOrEqual(demo.depth + 2);

    const bad = await get(s.app, '/api/users/placement_downlines?levels=abc', { token: me.token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ levels: ['validation:invalidFormat'] });
    expect((await get(s.app, '/api/users/sponsor_downlines?levels=0', { token: me.token })).status).toBe(422);
  });

  it('searches need a signed-in member', async () => {
    for (const url of ['/api/users/members', '/api/users/placement_downlines', '/api/users/sponsor_downlines', '/api/users/admin_info']) {
      const res = await get(s.app, url);
      expect(res.status).toBe(401);
      expect(res.body.error_code).toBe('unauthenticated');
    }
  });

  it('GET /api/users/admin_info answers the company administrator', async () => {
    const me = await login(s.app, 'demo');
    const res = await get(s.app, '/api/users/admin_info', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ admin: { username: 'admin', first_name: 'Company', last_name: 'Admin', email: 'admin@upline.example', avatar: null } });
  });
});

describe('DELETE /api/users', () => {
  it('is blocked in demo mode', async () => {
    const [m] = await bulkMembers(s.database, 1, 50);
    const me = await login(s.app, m.username);
    s.config.demoMode = true;
    try {
      const res = await call(s.app, 'DELETE', '/api/users', { password: TEST_PASSWORD }, { token: me.token });
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('demo_blocked');
    } finally {
      s.config.demoMode = false;
    }
    expect((await get(s.app, '/api/auth_check', { token: me.token })).status).toBe(200);
  });

  it('needs the password re-entered', async () => {
    const [m] = await bulkMembers(s.database, 1, 51);
    const me = await login(s.app, m.username);
    const wrong = await call(s.app, 'DELETE', '/api/users', { password: 'Not-my-pass-1' }, { token: me.token });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    const missing = await call(s.app, 'DELETE', '/api/users', {}, { token: me.token });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ password: ['validation:required'] });
    expect((await call(s.app, 'DELETE', '/api/users', { password: TEST_PASSWORD })).status).toBe(401);
  });

  it('anonymises the member, blocks it and ends its sessions', async () => {
    const [m] = await bulkMembers(s.database, 1, 52);
    const me = await login(s.app, m.username);
    const other = await login(s.app, m.username);
    const res = await call(s.app, 'DELETE', '/api/users', { password: TEST_PASSWORD }, { token: me.token });
    expect(res.status).toBe(200);
    expect(typeof res.body.data.message).toBe('string');
    const [row] = await rows(s.database, sql`SELECT username, email, mobile, first_name, status, path FROM members WHERE id = ${m.id}`);
    expect(row).toMatchObject({ username: `deleted-${m.id}`, email: null, mobile: null, first_name: 'Deleted', status: 0, path: m.path });
    expect((await get(s.app, '/api/auth_check', { token: me.token })).status).toBe(401);
    expect((await get(s.app, '/api/auth_check', { token: other.token })).status).toBe(401);
    const again = await post(s.app, '/api/auth/login', { login_using: 'username', username: m.username, password: TEST_PASSWORD }, { ip: freshIp() });
    expect(again.status).toBe(422);
    const byEmail = await post(s.app, '/api/auth/login', { login_using: 'email', email: m.email, password: TEST_PASSWORD }, { ip: freshIp() });
    expect(byEmail.status).toBe(422);
  });
});

describe('request a demo', () => {
  it('GET /api/request_demo answers countries, plans and industries', async () => {
    const res = await get(s.app, '/api/request_demo');
    expect(res.status).toBe(200);
    expect(res.body.data.compensation_plans.map((p: { name: string }) => p.name)).toEqual(['Binary', 'Matrix', 'Unilevel']);
    expect(res.body.data.industries.length).toBeGreaterThanOrEqual(8);
    expect(res.body.data.countries.length).toBeGreaterThanOrEqual(25);
  });

  it('POST /api/request_demo stores the request and tells the company by e-mail', async () => {
    const before = await outboxCount(s.database, 'info@upline.example');
    const res = await post(
      s.app,
      '/api/request_demo',
      { name: 'Rita Prospect', email: 'rita@prospect.example', mobile: '+1 (555) 010-2000', platform: 'web', country_id: 1, industry: 2, compensation_plan: 1 },
      { ip: freshIp() },
    );
    expect(res.status).toBe(200);
    expect(typeof res.body.data.message).toBe('string');
    const [row] = await rows(s.database, sql`SELECT name, email, country_id, industry_id, compensation_plan_id FROM demo_requests ORDER BY id DESC LIMIT 1`);
    expect(row).toEqual({ name: 'Rita Prospect', email: 'rita@prospect.example', country_id: 1, industry_id: 2, compensation_plan_id: 1 });
    expect(await outboxCount(s.database, 'info@upline.example')).toBe(before + 1);
    const [mail] = await rows<{ body: string }>(s.database, sql`SELECT body FROM outbox WHERE destination = 'info@upline.example' ORDER BY id DESC LIMIT 1`);
    expect(mail.body).toContain('rita@prospect.example');
  });

  it('validates the request', async () => {
    const bad = await post(
      s.app,
      '/api/request_demo',
      { name: '', email: 'not-an-email', mobile: 'abc', platform: 'ios', country_id: 'x' },
      { ip: freshIp() },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      name: ['validation:required'],
      email: ['validation:invalidEmail'],
      mobile: ['validation:invalidFormat'],
      platform: ['validation:invalidChoice'],
      country_id: ['validation:invalidType'],
    });
    const unknownChoice = await post(
      s.app,
      '/api/request_demo',
      { name: 'A', email: 'a@b.example', mobile: '5550000000', platform: 'web', country_id: 9999, industry: 99, compensation_plan: 7 },
      { ip: freshIp() },
    );
    expect(unknownChoice.status).toBe(422);
    expect(unknownChoice.body.errors).toEqual({
      country_id: ['validation:invalidChoice'],
      industry: ['validation:invalidChoice'],
      compensation_plan: ['validation:invalidChoice'],
    });
  });
});

describe('the seeded demo member', () => {
  it('can receive a sign-in code on its mobile and e-mail', async () => {
    expect((await post(s.app, '/api/auth/send_otp', { login_using: 'mobile_code', mobile_code: '+1', mobile: '5550100' })).status).toBe(200);
    expect(await lastCode(s.database, '+15550100')).toMatch(/^\d{6}$/);
  });
});

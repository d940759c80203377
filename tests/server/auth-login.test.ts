// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { blockMember, unblockMember } from '../../server/lib/members';
import { bulkMembers, call, freshIp, get, login, post, rows, TEST_PASSWORD, withSettings } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const sessionCount = async (memberId: number) =>
  Number((await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM sessions WHERE member_id = ${memberId}`))[0].n);

describe('login fields', () => {
  it('GET /api/auth/login_fields answers the auth settings and the countries', async () => {
    const res = await get(s.app, '/api/auth/login_fields');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ phone_unique: true, email_unique: true, login_with_otp: true, signup_location: 'app' });
    expect(res.body.data.countries.length).toBeGreaterThanOrEqual(25);
    expect(res.body.data.countries.find((c: { iso_code_2: string }) => c.iso_code_2 === 'US')).toMatchObject({ phone_code: '+1' });
    expect(res.body.loaded_modules).toBeUndefined();
  });

  it('adds loaded_modules when the GET asks with load_modules=1', async () => {
    const res = await get(s.app, '/api/auth/login_fields?load_modules=1&route=/login');
    expect(res.status).toBe(200);
    expect(res.body.loaded_modules.company.name).toBe('Upline Demo');
    expect(res.body.loaded_modules.modules.compensation_plan).toBe('binary');
  });

  it('GET /api/auth/reset_password_field answers the policy and where codes may go', async () => {
    const res = await get(s.app, '/api/auth/reset_password_field');
    expect(res.status).toBe(200);
    expect(res.body.data.reset_password_based_on).toBe('both');
    expect(res.body.data.password_policy).toMatchObject({ enabled: true, min_length: 8, uppercase: true, lowercase: true, number: true });
    expect(res.body.data.countries.length).toBeGreaterThan(0);
  });
});

describe('POST /api/auth/login', () => {
  it('signs in by username (any case), e-mail and mobile, and the token opens protected calls', async () => {
    const byName = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'DEMO', password: TEST_PASSWORD }, { ip: freshIp() });
    expect(byName.status).toBe(200);
    expect(byName.body.data).toMatchObject({ user_status: 1, user_allowed: true, compensation_plan: 'binary', store_token: null, cart: [] });
    expect(byName.body.data.user.username).toBe('demo');
    expect(byName.body.data.token.length).toBeGreaterThan(30);
    expect(byName.body.data.sso_token.length).toBeGreaterThan(30);
    expect(byName.body.data.default_currency.code).toBe('USD');
    expect(byName.body.data.default_language.code).toBe('en');

    const check = await get(s.app, '/api/auth_check', { token: byName.body.data.token });
    expect(check.status).toBe(200);
    expect(check.body.data.username).toBe('demo');

    const byEmail = await post(s.app, '/api/auth/login', { login_using: 'email', email: 'Demo@Upline.example', password: TEST_PASSWORD }, { ip: freshIp() });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data.user.username).toBe('demo');

    const byMobile = await post(
      s.app,
      '/api/auth/login',
      { login_using: 'mobile_code', mobile_code: '1', mobile: '5550100', password: TEST_PASSWORD },
      { ip: freshIp() },
    );
    expect(byMobile.status).toBe(200);
    expect(byMobile.body.data.user.username).toBe('demo');
    // Each sign-in is its own session.
    expect(new Set([byName.body.data.token, byEmail.body.data.token, byMobile.body.data.token]).size).toBe(3);
  });

  it('answers a wrong password and an unknown member identically (no enumeration)', async () => {
    const wrong = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'demo', password: 'Wrong-pass-1' }, { ip: freshIp() });
    const unknown = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'nobody.here', password: 'Wrong-pass-1' }, { ip: freshIp() });
    const unknownEmail = await post(s.app, '/api/auth/login', { login_using: 'email', email: 'nobody@nowhere.example', password: 'x' }, { ip: freshIp() });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error_code: 'validation_error', errors: { password: ['validation:invalidCredentials'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknownEmail.body).toEqual(wrong.body);
  });

  it('asks for the identifier the chosen login_using needs', async () => {
    const noName = await post(s.app, '/api/auth/login', { login_using: 'username', password: 'x' }, { ip: freshIp() });
    expect(noName.status).toBe(422);
    expect(noName.body.errors).toEqual({ username: ['validation:required'] });
    const noMobile = await post(s.app, '/api/auth/login', { login_using: 'mobile_code', password: 'x', email: 'demo@upline.example' }, { ip: freshIp() });
    expect(noMobile.status).toBe(422);
    expect(noMobile.body.errors).toEqual({ mobile_code: ['validation:required'], mobile: ['validation:required'] });
    const noPassword = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'demo' }, { ip: freshIp() });
    expect(noPassword.status).toBe(422);
    expect(noPassword.body.errors.password).toEqual(['validation:required']);
  });

  it('a blocked member with the right password gets user_status 0, no token and no session', async () => {
    const [{ id }] = await rows<{ id: number }>(s.database, sql`SELECT id FROM members WHERE username = 'blocked'`);
    const before = await sessionCount(id);
    const res = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'blocked', password: TEST_PASSWORD }, { ip: freshIp() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user_status: 0, token: '', sso_token: null, store_token: null });
    expect(res.body.data.user.status).toBe(0);
    expect(await sessionCount(id)).toBe(before);
    // The wrong password still gets the plain credentials error.
    const wrong = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'blocked', password: 'Nope-1234' }, { ip: freshIp() });
    expect(wrong.status).toBe(422);
  });

  it('demo.expired (demo access not allowed) gets user_allowed false and no token', async () => {
    const res = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'demo.expired', password: TEST_PASSWORD }, { ip: freshIp() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ user_status: 1, user_allowed: false, token: '', sso_token: null });
  });

  it('counts wrong passwords per account from every address: after the 4th the next attempt waits, even with the right password', async () => {
    const [m] = await bulkMembers(s.database, 1, 150);
    for (let i = 0; i < 4; i++) {
      const r = await post(s.app, '/api/auth/login', { login_using: 'username', username: m.username, password: `Wrong-${i}` }, { ip: freshIp() });
      expect(r.status).toBe(422);
    }
    const fifth = await post(s.app, '/api/auth/login', { login_using: 'username', username: m.username, password: 'Wrong-5' }, { ip: freshIp() });
    expect(fifth.status).toBe(422);
    const limited = await post(s.app, '/api/auth/login', { login_using: 'username', username: m.username, password: TEST_PASSWORD }, { ip: freshIp() });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error_code: 'rate_limited', errors: {} });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another member from the same address still goes through.
    const other = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'admin', password: TEST_PASSWORD }, { ip: freshIp() });
    expect(other.status).toBe(200);
  });
});

describe('sessions end', () => {
  it('logout revokes the token and the SSO token issued with it', async () => {
    const a = await login(s.app, 'demo');
    const out = await post(s.app, '/api/auth/logout', undefined, { token: a.token });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ sso_logout_token: null });
    expect((await get(s.app, '/api/auth_check', { token: a.token })).status).toBe(401);
    expect((await get(s.app, '/api/user_data', { token: a.token })).status).toBe(401);
    const sso = await post(s.app, '/api/auth/sso_login', { sso_token: a.sso_token });
    expect(sso.status).toBe(422);
    expect(sso.body.errors).toEqual({ sso_token: ['validation:invalidToken'] });
    // Logging out again with the dead token is a 401.
    expect((await post(s.app, '/api/auth/logout', undefined, { token: a.token })).status).toBe(401);
  });

  it('/auth/logout is the same logout: application key required, token revoked', async () => {
    const a = await login(s.app, 'demo');
    const noKey = await s.app.inject({ method: 'POST', url: '/auth/logout', headers: { authorization: `Bearer ${a.token}` } });
    expect(noKey.statusCode).toBe(403);
    const out = await post(s.app, '/auth/logout', undefined, { token: a.token });
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ sso_logout_token: null });
    expect((await get(s.app, '/api/auth_check', { token: a.token })).status).toBe(401);
  });

  it('logout without a token is 401', async () => {
    const res = await post(s.app, '/api/auth/logout');
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('unauthenticated');
  });

  it('blockMember revokes every live session: the old token gets 401 and a new login is blocked', async () => {
    const [m] = await bulkMembers(s.database, 1, 3);
    const a = await login(s.app, m.username);
    const b = await login(s.app, m.username);
    expect((await get(s.app, '/api/auth_check', { token: a.token })).status).toBe(200);
    await blockMember(s.database.db, m.id);
    expect((await get(s.app, '/api/auth_check', { token: a.token })).status).toBe(401);
    expect((await get(s.app, '/api/auth_check', { token: b.token })).status).toBe(401);
    const again = await post(s.app, '/api/auth/login', { login_using: 'username', username: m.username, password: TEST_PASSWORD }, { ip: freshIp() });
    expect(again.body.data).toMatchObject({ user_status: 0, token: '' });
    await unblockMember(s.database.db, m.id);
    expect((await login(s.app, m.username)).token).not.toBe('');
  });

  it('a bearer token that was never issued is 401 on protected calls', async () => {
    const res = await get(s.app, '/api/user_data', { token: 'x'.repeat(43) });
    expect(res.status).toBe(401);
  });
});

describe('SSO', () => {
  it('exchanges a live SSO token once for a new session', async () => {
    const a = await login(s.app, 'demo');
    const res = await post(s.app, '/api/auth/sso_login', { sso_token: a.sso_token });
    expect(res.status).toBe(200);
    expect(res.body.data.user.username).toBe('demo');
    expect(res.body.data.token).not.toBe(a.token);
    expect((await get(s.app, '/api/auth_check', { token: res.body.data.token })).status).toBe(200);
    const again = await post(s.app, '/api/auth/sso_login', { sso_token: a.sso_token });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ sso_token: ['validation:invalidToken'] });
  });

  it('refuses an expired or unknown SSO token', async () => {
    const a = await login(s.app, 'demo');
    await rows(s.database, sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE kind = 'sso' AND parent_session_id = (
      SELECT id FROM sessions WHERE kind = 'access' ORDER BY id DESC LIMIT 1)`);
    const expired = await post(s.app, '/api/auth/sso_login', { sso_token: a.sso_token });
    expect(expired.status).toBe(422);
    const unknown = await post(s.app, '/api/auth/sso_login', { sso_token: 'A'.repeat(43) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ sso_token: ['validation:invalidToken'] });
    const short = await post(s.app, '/api/auth/sso_login', { sso_token: 'abc' });
    expect(short.status).toBe(422);
    expect(short.body.errors.sso_token).toBeDefined();
  });

  it('sso_logout ends the session the SSO token belongs to, even after the token was used', async () => {
    const a = await login(s.app, 'demo');
    expect((await post(s.app, '/api/auth/sso_login', { sso_token: a.sso_token })).status).toBe(200);
    const out = await post(s.app, '/api/auth/sso_logout', { sso_token: a.sso_token });
    expect(out.status).toBe(200);
    expect(typeof out.body.data.message).toBe('string');
    expect((await get(s.app, '/api/auth_check', { token: a.token })).status).toBe(401);
    const unknown = await post(s.app, '/api/auth/sso_logout', { sso_token: 'B'.repeat(43) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ sso_token: ['validation:invalidToken'] });
  });
});

describe('store sessions', () => {
  it('with the store module on, login issues a store token that /api/store/logout revokes', async () => {
    await withSettings(s.app, 'modules', { store: true }, async () => {
      const a = await login(s.app, 'demo');
      expect(a.store_token).toEqual(expect.any(String));
      const live = await rows(s.database, sql`SELECT id FROM sessions WHERE kind = 'store' AND revoked_at IS NULL`);
      const out = await post(s.app, '/api/store/logout', {}, { headers: { 'x-store-token': a.store_token! } });
      expect(out.status).toBe(200);
      const after = await rows(s.database, sql`SELECT id FROM sessions WHERE kind = 'store' AND revoked_at IS NULL`);
      expect(after.length).toBe(live.length - 1);
      // The member's own session is untouched.
      expect((await get(s.app, '/api/auth_check', { token: a.token })).status).toBe(200);
    });
  });
});

describe('storefront logout token', () => {
  it('with a storefront session, logout answers a single-use token stored hashed; without one, null', async () => {
    await withSettings(s.app, 'modules', { store: true }, async () => {
      const a = await login(s.app, 'demo');
      const out = await post(s.app, '/api/auth/logout', undefined, { token: a.token });
      expect(out.status).toBe(200);
      const token = out.body.data.sso_logout_token as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      // Stored as a hash only, expiring within five minutes.
      const stored = await rows(s.database, sql`SELECT token_hash, expires_at FROM sessions WHERE kind = 'sso_logout' ORDER BY id DESC LIMIT 1`);
      expect(stored[0].token_hash).not.toBe(token);
      expect(new Date(String(stored[0].expires_at)).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000);
      // Every login gets its own.
      const b = await login(s.app, 'demo');
      const again = await post(s.app, '/api/auth/logout', undefined, { token: b.token });
      expect(again.body.data.sso_logout_token).not.toBe(token);
      // The token is no access token.
      expect((await get(s.app, '/api/auth_check', { token })).status).toBe(401);
      // A store session already ended: nothing to log out of in the storefront.
      const c = await login(s.app, 'demo');
      await post(s.app, '/api/store/logout', {}, { headers: { 'x-store-token': c.store_token! } });
      expect((await post(s.app, '/api/auth/logout', undefined, { token: c.token })).body.data).toEqual({ sso_logout_token: null });
    });
  });
});

describe('caller data', () => {
  it('GET /api/user_data and /api/user_role answer the signed-in member', async () => {
    const a = await login(s.app, 'admin');
    const user = await get(s.app, '/api/user_data', { token: a.token });
    expect(user.status).toBe(200);
    expect(user.body.data).toMatchObject({ username: 'admin', role_id: 1, status: 1 });
    const role = await get(s.app, '/api/user_role', { token: a.token });
    expect(role.body.data).toEqual({ role_id: 1 });
    const demo = await login(s.app, 'demo');
    expect((await get(s.app, '/api/user_role', { token: demo.token })).body.data).toEqual({ role_id: 3 });
    expect((await get(s.app, '/api/user_role')).status).toBe(401);
  });

  it('every /api call needs the application key', async () => {
    const noKey = await s.app.inject({ method: 'GET', url: '/api/auth/login_fields' });
    expect(noKey.statusCode).toBe(403);
    expect(JSON.parse(noKey.body)).toMatchObject({ error_code: 'invalid_app_key', errors: {} });
    const wrongKey = await call(s.app, 'POST', '/api/auth/login', { login_using: 'username', username: 'demo', password: TEST_PASSWORD }, { headers: { 'x-app-key': 'nope' } });
    expect(wrongKey.status).toBe(403);
  });
});

// @vitest-environment node
/** PUT /api/user/password: the caller's own password, under the company policy; other sessions end. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, freshIp, get, login, post, rows, TEST_PASSWORD, withSettings } from './helpers';

let s: TestServer;
const logLines: string[] = [];
const NEW_PASSWORD = 'Fresh-pass-2027';

const change = (token: string | undefined, body: unknown) => call(s.app, 'PUT', '/api/user/password', body, { token });
const signIn = (username: string, password: string) => post(s.app, '/api/auth/login', { login_using: 'username', username, password }, { ip: freshIp() });
const check = (token: string) => get(s.app, '/api/auth_check', { token });
const body = (current = TEST_PASSWORD, password = NEW_PASSWORD, confirmation = password) => ({
  current_password: current,
  password,
  password_confirmation: confirmation,
});

/** A fresh ordinary member for each test (offset into the seeded members), signed in. */
let offset = 60;
async function member() {
  const [m] = await bulkMembers(s.database, 1, offset++);
  return { ...m, session: await login(s.app, m.username) };
}

const hashOf = async (id: number) => (await rows<{ h: string }>(s.database, sql`SELECT password_hash AS h FROM members WHERE id = ${id}`))[0].h;

beforeAll(async () => {
  s = await startTestServer({ logLevel: 'info', logStream: { write: (line) => void logLines.push(line) } });
}, 120_000);
afterAll(() => s?.close());

describe('PUT /api/user/password', () => {
  it('changes the password, ends every other session and keeps the current one', async () => {
    const m = await member();
    const other = await login(s.app, m.username);
    const res = await change(m.session.token, body());
    expect(res.status).toBe(200);
    expect(typeof res.body.data.message).toBe('string');

    expect((await check(other.token)).status).toBe(401);
    expect((await check(m.session.token)).status).toBe(200);
    expect((await signIn(m.username, TEST_PASSWORD)).status).toBe(422);
    expect((await signIn(m.username, NEW_PASSWORD)).status).toBe(200);
    const trail = await rows<{ action: string; detail: object }>(s.database, sql`SELECT action, detail FROM account_audit WHERE member_id = ${m.id} ORDER BY id`);
    expect(trail).toEqual([{ action: 'password.changed', detail: {} }]);
  });

  it('a wrong current password is a field error of current_password and changes nothing', async () => {
    const m = await member();
    const other = await login(s.app, m.username);
    const before = await hashOf(m.id);
    const res = await change(m.session.token, body('Not-my-pass-9'));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'validation_error', errors: { current_password: ['validation:invalidPassword'] } });
    expect(Object.keys(res.body.errors)).toEqual(['current_password']);
    expect(await hashOf(m.id)).toBe(before);
    expect((await check(other.token)).status).toBe(200);
  });

  it('the new password must meet the company policy', async () => {
    const m = await member();
    const before = await hashOf(m.id);
    const weak = await change(m.session.token, body(TEST_PASSWORD, 'short'));
    expect(weak.status).toBe(422);
    expect(weak.body.errors.password).toEqual(
      expect.arrayContaining(['validation:passwordMinLength', 'validation:passwordUppercase', 'validation:passwordNumber']),
    );
    await withSettings(s.app, 'auth', { password_policy: { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: true } }, async () => {
      const noSpecial = await change(m.session.token, body(TEST_PASSWORD, 'Fresh2027pass'));
      expect(noSpecial.status).toBe(422);
      expect(noSpecial.body.errors).toEqual({ password: ['validation:passwordSpecial'] });
    });
    expect(await hashOf(m.id)).toBe(before);
    expect((await signIn(m.username, TEST_PASSWORD)).status).toBe(200);
  });

  it('the confirmation must match', async () => {
    const m = await member();
    const res = await change(m.session.token, body(TEST_PASSWORD, NEW_PASSWORD, 'Fresh-pass-2028'));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ password_confirmation: ['validation:passwordMismatch'] });
    expect((await signIn(m.username, TEST_PASSWORD)).status).toBe(200);
  });

  it('missing fields and unknown ones are field errors', async () => {
    const m = await member();
    const res = await change(m.session.token, { password: NEW_PASSWORD, member_id: 1 });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({ current_password: ['validation:required'], password_confirmation: ['validation:required'] });
  });

  it('answers 401 without a session, and 401 with a session the change ended', async () => {
    expect((await change(undefined, body())).status).toBe(401);
    const m = await member();
    const other = await login(s.app, m.username);
    expect((await change(m.session.token, body())).status).toBe(200);
    const res = await change(other.token, body(NEW_PASSWORD, 'Third-pass-2029'));
    expect(res.status).toBe(401);
  });

  it('only ever changes the caller: another member keeps its password and sessions', async () => {
    const me = await member();
    const them = await member();
    const theirs = await hashOf(them.id);
    const res = await change(me.session.token, { ...body(), username: them.username });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ username: ['validation:unknownField'] });
    expect((await change(me.session.token, body())).status).toBe(200);
    expect(await hashOf(them.id)).toBe(theirs);
    expect((await check(them.session.token)).status).toBe(200);
    expect((await signIn(them.username, TEST_PASSWORD)).status).toBe(200);
  });

  it('is throttled per member after repeated wrong current passwords', async () => {
    const m = await member();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await change(m.session.token, body(`Wrong-pass-${i}0`))).status);
    expect(statuses).toEqual(Array(10).fill(422));
    const blocked = await change(m.session.token, body());
    expect(blocked.status).toBe(429);
    expect(blocked.body.error_code).toBe('rate_limited');
    expect((await signIn(m.username, TEST_PASSWORD)).status).toBe(200);
    // Another member is not held back by it.
    const other = await member();
    expect((await change(other.session.token, body('Wrong-pass-x1'))).status).toBe(422);
  });

  it('is refused in demo mode', async () => {
    const m = await member();
    s.config.demoMode = true;
    try {
      const res = await change(m.session.token, body());
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('demo_blocked');
    } finally {
      s.config.demoMode = false;
    }
    expect((await signIn(m.username, TEST_PASSWORD)).status).toBe(200);
  });

  it('GET /api/user/password answers the password policy signup uses', async () => {
    const m = await member();
    const res = await get(s.app, '/api/user/password', { token: m.session.token });
    expect(res.status).toBe(200);
    const signup = await get(s.app, '/api/users/signup_data');
    expect(res.body.data).toEqual({ password_policy: signup.body.data.password_policy });
    expect((await get(s.app, '/api/user/password')).status).toBe(401);
  });

  it('never writes a password to the log', async () => {
    const m = await member();
    const wrong = 'Leaky-guess-4242';
    const fresh = 'Leaky-fresh-4242';
    logLines.length = 0;
    expect((await change(m.session.token, body(wrong, fresh))).status).toBe(422);
    expect((await change(m.session.token, body(TEST_PASSWORD, 'weak'))).status).toBe(422);
    expect((await change(m.session.token, body(TEST_PASSWORD, fresh))).status).toBe(200);
    const log = logLines.join('\n');
    expect(log).toContain('/api/user/password');
    for (const secret of [wrong, fresh, 'weak', TEST_PASSWORD]) expect(log).not.toContain(secret);
  });
});

// @vitest-environment node
/**
 * Two-factor sign-in: enrolment (/api/user/two_factor…) and the second step of sign-in
 * (/api/auth/login/two_factor). Codes are made here with otplib from the key the setup answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { generate } from 'otplib';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, freshIp, get, lastCode, login, post, rows, TEST_PASSWORD, withSettings } from './helpers';

let s: TestServer;
const logLines: string[] = [];

const PATH = '/api/user/two_factor';
const signIn = (username: string, password = TEST_PASSWORD) =>
  post(s.app, '/api/auth/login', { login_using: 'username', username, password }, { ip: freshIp() });
const second = (body: Record<string, unknown>) => post(s.app, '/api/auth/login/two_factor', body, { ip: freshIp() });
const check = (token: string) => get(s.app, '/api/auth_check', { token });

/** A code of the step `steps` away from now (±1 is accepted). */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
/** A six-digit code that is not the right one for any step near now. */
async function wrongCode(secret: string) {
  const near = new Set(await Promise.all([-1, 0, 1, 2].map((d) => codeAt(secret, d))));
  for (let n = 0; ; n++) {
    const c = String(n).padStart(6, '0');
    if (!near.has(c)) return c;
  }
}

let offset = 100;
async function member() {
  const [m] = await bulkMembers(s.database, 1, offset++);
  return { ...m, session: await login(s.app, m.username) };
}

/** A member with two-factor sign-in on: its secret and recovery codes. */
async function enrolled() {
  const m = await member();
  const setup = await post(s.app, `${PATH}/setup`, { password: TEST_PASSWORD }, { token: m.session.token });
  expect(setup.status).toBe(200);
  const secret = (setup.body.data.secret as string).replace(/\s+/g, '');
  const confirm = await post(s.app, `${PATH}/confirm`, { code: await codeAt(secret) }, { token: m.session.token });
  expect(confirm.status).toBe(200);
  return { ...m, secret, recovery: confirm.body.data.recovery_codes as string[] };
}

/** Forget the last accepted step, as if the next code were minutes later. */
const forgetLastStep = (memberId: number) => s.database.db.execute(sql`UPDATE member_two_factor SET last_step = NULL WHERE member_id = ${memberId}`);

async function challengeOf(username: string) {
  const res = await signIn(username);
  expect(res.status).toBe(200);
  return res.body.data.challenge as string;
}

beforeAll(async () => {
  s = await startTestServer({ logLevel: 'info', logStream: { write: (line) => void logLines.push(line) } });
}, 120_000);
afterAll(() => s?.close());

describe('enrolment', () => {
  it('is off at first, and setting up needs the account password', async () => {
    const m = await member();
    expect((await get(s.app, PATH, { token: m.session.token })).body.data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });

    const wrong = await post(s.app, `${PATH}/setup`, { password: 'Not-my-pass-9' }, { token: m.session.token });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    expect((await post(s.app, `${PATH}/setup`, {}, { token: m.session.token })).status).toBe(422);
    expect((await post(s.app, `${PATH}/setup`, { password: TEST_PASSWORD })).status).toBe(401);

    const ok = await post(s.app, `${PATH}/setup`, { password: TEST_PASSWORD }, { token: m.session.token });
    expect(ok.status).toBe(200);
    expect(ok.body.data.secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    expect(ok.body.data.otpauth_uri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
    expect(ok.body.data.qr_code).toMatch(/^data:image\/png;base64,/);
    // The secret is stored encrypted, and never logged.
    const secret = ok.body.data.secret.replace(/\s+/g, '');
    const [row] = await rows<{ secret_enc: string }>(s.database, sql`SELECT secret_enc FROM member_two_factor WHERE member_id = ${m.id}`);
    expect(row.secret_enc).not.toContain(secret);
    expect(logLines.join('\n')).not.toContain(secret);
    // Still off until the first code.
    expect((await get(s.app, PATH, { token: m.session.token })).body.data.enabled).toBe(false);
    expect((await signIn(m.username)).body.data.token).toEqual(expect.any(String));
  });

  it('a wrong first code keeps it off; the right one turns it on with ten recovery codes', async () => {
    const m = await member();
    const setup = await post(s.app, `${PATH}/setup`, { password: TEST_PASSWORD }, { token: m.session.token });
    const secret = setup.body.data.secret.replace(/\s+/g, '');

    const wrong = await post(s.app, `${PATH}/confirm`, { code: await wrongCode(secret) }, { token: m.session.token });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ code: ['validation:twoFactorCodeInvalid'] });
    expect((await post(s.app, `${PATH}/confirm`, { code: '12ab' }, { token: m.session.token })).body.errors).toEqual({ code: ['validation:twoFactorCodeFormat'] });
    expect((await get(s.app, PATH, { token: m.session.token })).body.data.enabled).toBe(false);

    const ok = await post(s.app, `${PATH}/confirm`, { code: await codeAt(secret) }, { token: m.session.token });
    expect(ok.status).toBe(200);
    const codes = ok.body.data.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const status = (await get(s.app, PATH, { token: m.session.token })).body.data;
    expect(status).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // Stored hashed only.
    const stored = await rows<{ code_hash: string }>(s.database, sql`SELECT code_hash FROM two_factor_recovery_codes WHERE member_id = ${m.id}`);
    expect(stored).toHaveLength(10);
    for (const r of stored) expect(codes.some((c) => r.code_hash.includes(c.replace('-', '')))).toBe(false);
    // Setting up again is refused while it is on; the secret is not answered again.
    const again = await post(s.app, `${PATH}/setup`, { password: TEST_PASSWORD }, { token: m.session.token });
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.body)).not.toContain(secret);
    expect(JSON.stringify((await get(s.app, PATH, { token: m.session.token })).body)).not.toContain(secret);
    const audit = await rows<{ action: string }>(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${m.id}`);
    expect(audit.map((a) => a.action)).toContain('two_factor.enabled');
  });

  it('new recovery codes need the password and replace the old ones', async () => {
    const m = await enrolled();
    expect((await post(s.app, `${PATH}/recovery_codes`, { password: 'Not-my-pass-9' }, { token: m.session.token })).status).toBe(422);
    const res = await post(s.app, `${PATH}/recovery_codes`, { password: TEST_PASSWORD }, { token: m.session.token });
    expect(res.status).toBe(200);
    const fresh = res.body.data.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    const old = await second({ challenge: await challengeOf(m.username), recovery_code: m.recovery[0] });
    expect(old.status).toBe(422);
    expect(old.body.errors).toEqual({ recovery_code: ['validation:recoveryCodeInvalid'] });
    const ok = await second({ challenge: await challengeOf(m.username), recovery_code: fresh[0].toLowerCase() });
    expect(ok.status).toBe(200);
  });
});

describe('sign-in with two-factor on', () => {
  it('the right password gives no session, only a challenge; a right code completes it', async () => {
    const m = await enrolled();
    const res = await signIn(m.username);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ two_factor_required: true, challenge: expect.any(String), expires_in: 300 });
    expect(res.body.data.token).toBeUndefined();
    expect(res.body.data.challenge).not.toBe(m.session.token);
    // The challenge is not a session.
    expect((await check(res.body.data.challenge)).status).toBe(401);
    // A wrong password still says only that.
    expect((await signIn(m.username, 'Not-my-pass-9')).body.errors).toEqual({ password: ['validation:invalidCredentials'] });

    const done = await second({ challenge: res.body.data.challenge, code: await codeAt(m.secret, 1) });
    expect(done.status).toBe(200);
    expect(done.body.data.user.username).toBe(m.username);
    expect((await check(done.body.data.token)).status).toBe(200);
    // Single use.
    const again = await second({ challenge: res.body.data.challenge, code: await codeAt(m.secret, 1) });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ challenge: ['validation:twoFactorChallengeExpired'] });
  });

  it('a code already accepted is refused (no replay within its window)', async () => {
    const m = await enrolled();
    const code = await codeAt(m.secret, 1);
    expect((await second({ challenge: await challengeOf(m.username), code })).status).toBe(200);
    const replay = await second({ challenge: await challengeOf(m.username), code });
    expect(replay.status).toBe(422);
    expect(replay.body.errors).toEqual({ code: ['validation:twoFactorCodeInvalid'] });
    // An earlier step is refused too; the confirm code was of the current one.
    expect((await second({ challenge: await challengeOf(m.username), code: await codeAt(m.secret, 0) })).status).toBe(422);
  });

  it('a recovery code works once, and its use is audited', async () => {
    const m = await enrolled();
    const first = await second({ challenge: await challengeOf(m.username), recovery_code: m.recovery[3] });
    expect(first.status).toBe(200);
    const used = await second({ challenge: await challengeOf(m.username), recovery_code: m.recovery[3] });
    expect(used.status).toBe(422);
    expect(used.body.errors).toEqual({ recovery_code: ['validation:recoveryCodeInvalid'] });
    expect((await get(s.app, PATH, { token: first.body.data.token })).body.data.recovery_codes_left).toBe(9);
    const audit = await rows<{ action: string }>(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${m.id}`);
    expect(audit.filter((a) => a.action === 'two_factor.recovery_used')).toHaveLength(1);
  });

  it('a challenge expires after five minutes; an unknown one is refused the same way', async () => {
    const m = await enrolled();
    const challenge = await challengeOf(m.username);
    await s.database.db.execute(sql`UPDATE two_factor_challenges SET expires_at = now() - interval '1 second' WHERE member_id = ${m.id}`);
    const late = await second({ challenge, code: await codeAt(m.secret, 1) });
    expect(late.status).toBe(422);
    expect(late.body.errors).toEqual({ challenge: ['validation:twoFactorChallengeExpired'] });
    expect((await second({ challenge: 'not-a-challenge', code: '123456' })).body.errors).toEqual({ challenge: ['validation:twoFactorChallengeExpired'] });
    expect((await second({ challenge })).status).toBe(422);
  });

  it('wrong codes are throttled per challenge and per account', async () => {
    const m = await enrolled();
    const wrong = await wrongCode(m.secret);
    const first = await challengeOf(m.username);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await second({ challenge: first, code: wrong }));
    expect(answers.slice(0, 4).every((a) => a.body.errors?.code?.[0] === 'validation:twoFactorCodeInvalid')).toBe(true);
    expect(answers[4].body.errors).toEqual({ challenge: ['validation:twoFactorTooManyAttempts'] });
    // That challenge is dead, even for the right code.
    const dead = await second({ challenge: first, code: await codeAt(m.secret, 1) });
    expect(dead.body.errors).toEqual({ challenge: ['validation:twoFactorTooManyAttempts'] });

    // A new challenge does not reset the account's count: ten wrong codes in the window → 429.
    const next = await challengeOf(m.username);
    for (let i = 0; i < 5; i++) await second({ challenge: next, code: wrong });
    const third = await challengeOf(m.username);
    const limited = await second({ challenge: third, code: await codeAt(m.secret, 1) });
    expect(limited.status).toBe(429);
    expect(limited.body.error_code).toBe('rate_limited');
    // Once the window is over, the right code gets in.
    await s.database.db.execute(sql`UPDATE member_two_factor SET failed_since = now() - interval '16 minutes' WHERE member_id = ${m.id}`);
    expect((await second({ challenge: third, code: await codeAt(m.secret, 1) })).status).toBe(200);
  });

  it('sign-in by e-mail code is refused for the member; the password and the app are the way in', async () => {
    const m = await enrolled();
    await withSettings(s.app, 'auth', { login_with_otp: true }, async () => {
      expect((await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() })).status).toBe(200);
      const code = await lastCode(s.database, m.email);
      const res = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip: freshIp() });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ otp: ['validation:twoFactorUsePassword'] });
      expect(JSON.stringify(res.body)).not.toMatch(/"token"/);
    });
  });

  it('an SSO token of a signed-in session still opens the storefront once', async () => {
    const m = await enrolled();
    const done = await second({ challenge: await challengeOf(m.username), code: await codeAt(m.secret, 1) });
    const sso = await post(s.app, '/api/auth/sso_login', { sso_token: done.body.data.sso_token }, { ip: freshIp() });
    expect(sso.status).toBe(200);
    expect(sso.body.data.token).toEqual(expect.any(String));
  });
});

describe('turning it off', () => {
  it('needs the password and a current code; then the password alone signs in again', async () => {
    const m = await enrolled();
    const noCode = await call(s.app, 'DELETE', PATH, { password: TEST_PASSWORD }, { token: m.session.token });
    expect(noCode.status).toBe(422);
    expect(noCode.body.errors).toEqual({ code: ['validation:required'] });
    const badPassword = await call(s.app, 'DELETE', PATH, { password: 'Not-my-pass-9', code: await codeAt(m.secret, 1) }, { token: m.session.token });
    expect(badPassword.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    const badCode = await call(s.app, 'DELETE', PATH, { password: TEST_PASSWORD, code: await wrongCode(m.secret) }, { token: m.session.token });
    expect(badCode.body.errors).toEqual({ code: ['validation:twoFactorCodeInvalid'] });
    expect((await get(s.app, PATH, { token: m.session.token })).body.data.enabled).toBe(true);

    const off = await call(s.app, 'DELETE', PATH, { password: TEST_PASSWORD, code: await codeAt(m.secret, 1) }, { token: m.session.token });
    expect(off.status).toBe(200);
    expect((await get(s.app, PATH, { token: m.session.token })).body.data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
    expect((await signIn(m.username)).body.data.token).toEqual(expect.any(String));
    const audit = await rows<{ action: string }>(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${m.id}`);
    expect(audit.map((a) => a.action)).toContain('two_factor.disabled');
  });

  it('a recovery code can stand in for the code', async () => {
    const m = await enrolled();
    await forgetLastStep(m.id);
    const off = await call(s.app, 'DELETE', PATH, { password: TEST_PASSWORD, recovery_code: m.recovery[9] }, { token: m.session.token });
    expect(off.status).toBe(200);
  });

  it('another member cannot turn it off: each call is about the caller only', async () => {
    const a = await enrolled();
    const b = await member();
    const code = await codeAt(a.secret, 1);
    const res = await call(s.app, 'DELETE', PATH, { password: TEST_PASSWORD, code }, { token: b.session.token });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ password: ['validation:twoFactorNotOn'] });
    expect((await call(s.app, 'DELETE', PATH, { password: TEST_PASSWORD, recovery_code: a.recovery[0] }, { token: b.session.token })).status).toBe(422);
    expect((await post(s.app, `${PATH}/recovery_codes`, { password: TEST_PASSWORD }, { token: b.session.token })).status).toBe(422);
    expect((await get(s.app, PATH, { token: a.session.token })).body.data).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect((await get(s.app, PATH, { token: b.session.token })).body.data.enabled).toBe(false);
    expect((await signIn(a.username)).body.data.two_factor_required).toBe(true);
  });

  it('bad bodies are field maps, never 5xx', async () => {
    const m = await member();
    for (const body of [{}, { password: 5 }, { password: TEST_PASSWORD, extra: 1 }, { password: TEST_PASSWORD, code: 'abcdef' }]) {
      const res = await call(s.app, 'DELETE', PATH, body, { token: m.session.token });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).length).toBeGreaterThan(0);
    }
    expect((await post(s.app, `${PATH}/confirm`, { code: '123456' }, { token: m.session.token })).body.errors).toEqual({ code: ['validation:twoFactorSetupMissing'] });
    expect((await second({ code: '123456' })).status).toBe(422);
    expect((await second({ challenge: 'x', recovery_code: 'short' })).body.errors).toEqual({ recovery_code: ['validation:recoveryCodeFormat'] });
  });

  it('the endpoints are in the OpenAPI document', async () => {
    const doc = (await get(s.app, '/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/user/two_factor', '/api/user/two_factor/setup', '/api/user/two_factor/confirm', '/api/user/two_factor/recovery_codes', '/api/auth/login/two_factor']),
    );
    expect(doc.paths['/api/user/two_factor'].delete).toBeDefined();
  });
});

// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { ageLastCode, bulkMembers, freshIp, get, lastCode, login, outboxCount, post, rows, TEST_PASSWORD, withSettings } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** A fresh bulk member per test, so codes and limits of one test do not meet another's. */
let next = 0;
const member = async () => (await bulkMembers(s.database, 1, 10 + next++))[0];

describe('sign-in with a one-time code', () => {
  it('sends a code to the e-mail, and the code signs the member in once', async () => {
    const m = await member();
    const sent = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ message: expect.any(String), destination: `${m.email[0]}***@example.net`, expires_in: 600, resend_in: 30 });
    const code = await lastCode(s.database, m.email);
    expect(code).toMatch(/^\d{6}$/);
    // The database keeps only a hash of the code.
    const stored = await rows<{ code_hash: string }>(s.database, sql`SELECT code_hash FROM otp_codes WHERE destination = ${m.email}`);
    expect(stored.every((r) => !r.code_hash.includes(code!))).toBe(true);

    const ok = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip: freshIp() });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.username).toBe(m.username);
    expect((await get(s.app, '/api/auth_check', { token: ok.body.data.token })).status).toBe(200);

    const reuse = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip: freshIp() });
    expect(reuse.status).toBe(422);
    expect(reuse.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
  });

  it('sends by SMS to mobile + phone code and masks the number', async () => {
    const m = await member();
    const sent = await post(s.app, '/api/auth/send_otp', { login_using: 'mobile_code', mobile_code: m.mobile_code, mobile: m.mobile }, { ip: freshIp() });
    expect(sent.status).toBe(200);
    expect(sent.body.data.destination).toBe(`${m.mobile_code} ***${m.mobile.slice(-4)}`);
    const code = await lastCode(s.database, `${m.mobile_code}${m.mobile}`);
    const ok = await post(
      s.app,
      '/api/auth/login_with_otp',
      { login_using: 'mobile_code', mobile_code: m.mobile_code.replace('+', ''), mobile: m.mobile, otp: code },
      { ip: freshIp() },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.username).toBe(m.username);
  });

  it('an expired code is refused with otpExpired', async () => {
    const m = await member();
    await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    const code = await lastCode(s.database, m.email);
    await ageLastCode(s.database, 'login', m.email, 601);
    const res = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip: freshIp() });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ otp: ['validation:otpExpired'] });
  });

  it('the fifth wrong try kills the code, even for the right code afterwards', async () => {
    const m = await member();
    await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    const code = (await lastCode(s.database, m.email))!;
    const ip = freshIp();
    for (let i = 0; i < 4; i++) {
      const r = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: wrongCode(code) }, { ip });
      expect(r.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
    }
    const fifth = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: wrongCode(code) }, { ip });
    expect(fifth.body.errors).toEqual({ otp: ['validation:otpTooManyAttempts'] });
    const right = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip });
    expect(right.status).toBe(422);
    expect(right.body.errors).toEqual({ otp: ['validation:otpTooManyAttempts'] });
  });

  it('a resend within 30 s is refused; a later resend supersedes the previous code', async () => {
    const m = await member();
    await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    const first = (await lastCode(s.database, m.email))!;
    const early = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    expect(early.status).toBe(429);
    expect(early.body).toMatchObject({ error_code: 'rate_limited', errors: {} });
    await ageLastCode(s.database, 'login', m.email, 31);
    const again = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    expect(again.status).toBe(200);
    const second = (await lastCode(s.database, m.email))!;
    if (first !== second) {
      const old = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: first }, { ip: freshIp() });
      expect(old.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
    }
    const fresh = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: second }, { ip: freshIp() });
    expect(fresh.status).toBe(200);
    const live = await rows(s.database, sql`SELECT id FROM otp_codes WHERE destination = ${m.email} AND superseded_at IS NULL`);
    expect(live.length).toBe(1);
  });

  it('an unknown destination answers like a known one but nothing is sent', async () => {
    const known = await member();
    const k = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: known.email }, { ip: freshIp() });
    const u = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: 'nobody-at-all@example.net' }, { ip: freshIp() });
    expect(u.status).toBe(200);
    expect(Object.keys(u.body.data).sort()).toEqual(Object.keys(k.body.data).sort());
    expect(u.body.data).toMatchObject({ destination: 'n***@example.net', expires_in: 600, resend_in: 30, message: k.body.data.message });
    expect(await outboxCount(s.database, 'nobody-at-all@example.net')).toBe(0);
    expect((await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: 'nobody-at-all@example.net' }, { ip: freshIp() })).status).toBe(429);
    const guess = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: 'nobody-at-all@example.net', otp: '123456' }, { ip: freshIp() });
    expect(guess.status).toBe(422);
    expect(guess.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
  });

  it('at most 5 codes per destination in an hour, whichever addresses ask', async () => {
    const m = await member();
    for (let i = 0; i < 5; i++) {
      expect((await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() })).status).toBe(200);
      await ageLastCode(s.database, 'login', m.email, 31);
    }
    const sixth = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error_code).toBe('rate_limited');
    expect(await outboxCount(s.database, m.email)).toBe(5);
  });

  it('refuses codes when the company turned sign-in by code off', async () => {
    await withSettings(s.app, 'auth', { login_with_otp: false }, async () => {
      const m = await member();
      const res = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ login_using: ['validation:otpLoginDisabled'] });
      expect(await outboxCount(s.database, m.email)).toBe(0);
    });
  });

  it('validates the code format and the identifier', async () => {
    const bad = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: 'demo@upline.example', otp: '12ab' }, { ip: freshIp() });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.otp).toEqual(['validation:invalidFormat']);
    const noEmail = await post(s.app, '/api/auth/send_otp', { login_using: 'email' }, { ip: freshIp() });
    expect(noEmail.body.errors).toEqual({ email: ['validation:required'] });
    const username = await post(s.app, '/api/auth/send_otp', { login_using: 'username', username: 'demo' }, { ip: freshIp() });
    expect(username.status).toBe(422);
    expect(username.body.errors.login_using).toEqual(['validation:invalidChoice']);
  });
});

describe('password reset', () => {
  it('check_reset_otp validates without using the code up; reset_password changes the password and ends every session', async () => {
    const m = await member();
    const session = await login(s.app, m.username);
    const sent = await post(s.app, '/api/auth/send_reset_otp', { reset_using: 'email', email: m.email }, { ip: freshIp() });
    expect(sent.status).toBe(200);
    expect(sent.body.data.expires_in).toBe(600);
    const code = (await lastCode(s.database, m.email))!;
    const body = { reset_using: 'email', email: m.email };

    const wrong = await post(s.app, '/api/auth/check_reset_otp', { ...body, otp: wrongCode(code) }, { ip: freshIp() });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
    const right = await post(s.app, '/api/auth/check_reset_otp', { ...body, otp: code }, { ip: freshIp() });
    expect(right.status).toBe(200);
    expect(right.body.data).toEqual({ valid: true });

    const weak = await post(s.app, '/api/auth/reset_password', { ...body, otp: code, password: 'short', password_confirmation: 'short' }, { ip: freshIp() });
    expect(weak.status).toBe(422);
    expect(weak.body.errors.password).toEqual(
      expect.arrayContaining(['validation:passwordMinLength', 'validation:passwordUppercase', 'validation:passwordNumber']),
    );
    const mismatch = await post(
      s.app,
      '/api/auth/reset_password',
      { ...body, otp: code, password: 'New-pass-2026', password_confirmation: 'New-pass-2027' },
      { ip: freshIp() },
    );
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual({ password_confirmation: ['validation:passwordMismatch'] });

    const done = await post(
      s.app,
      '/api/auth/reset_password',
      { ...body, otp: code, password: 'New-pass-2026', password_confirmation: 'New-pass-2026' },
      { ip: freshIp() },
    );
    expect(done.status).toBe(200);
    expect(typeof done.body.data.message).toBe('string');
    expect((await get(s.app, '/api/auth_check', { token: session.token })).status).toBe(401);
    expect((await login(s.app, m.username, 'New-pass-2026')).token).toBeTruthy();
    const old = await post(s.app, '/api/auth/login', { login_using: 'username', username: m.username, password: TEST_PASSWORD }, { ip: freshIp() });
    expect(old.status).toBe(422);
    const trail = await rows<{ action: string }>(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${m.id} AND action LIKE 'password.%'`);
    expect(trail.map((r) => r.action)).toEqual(['password.reset']);

    const reuse = await post(
      s.app,
      '/api/auth/reset_password',
      { ...body, otp: code, password: 'Other-pass-2026', password_confirmation: 'Other-pass-2026' },
      { ip: freshIp() },
    );
    expect(reuse.status).toBe(422);
    expect(reuse.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
  });

  it('resets by mobile too, and a code for one purpose does not work for another', async () => {
    const m = await member();
    await post(s.app, '/api/auth/send_otp', { login_using: 'mobile_code', mobile_code: m.mobile_code, mobile: m.mobile }, { ip: freshIp() });
    const loginCode = (await lastCode(s.database, `${m.mobile_code}${m.mobile}`))!;
    const body = { reset_using: 'mobile_code', mobile_code: m.mobile_code, mobile: m.mobile };
    const cross = await post(s.app, '/api/auth/check_reset_otp', { ...body, otp: loginCode }, { ip: freshIp() });
    expect(cross.status).toBe(422);
    await post(s.app, '/api/auth/send_reset_otp', body, { ip: freshIp() });
    const code = (await lastCode(s.database, `${m.mobile_code}${m.mobile}`))!;
    const done = await post(
      s.app,
      '/api/auth/reset_password',
      { ...body, otp: code, password: 'Mobile-pass-1', password_confirmation: 'Mobile-pass-1' },
      { ip: freshIp() },
    );
    expect(done.status).toBe(200);
    expect((await login(s.app, m.username, 'Mobile-pass-1')).token).toBeTruthy();
  });

  it('follows reset_password_based_on and answers unknown addresses like known ones', async () => {
    await withSettings(s.app, 'auth', { reset_password_based_on: 'email' }, async () => {
      const m = await member();
      const byMobile = await post(s.app, '/api/auth/send_reset_otp', { reset_using: 'mobile_code', mobile_code: m.mobile_code, mobile: m.mobile }, { ip: freshIp() });
      expect(byMobile.status).toBe(422);
      expect(byMobile.body.errors).toEqual({ reset_using: ['validation:invalidChoice'] });
    });
    const unknown = await post(s.app, '/api/auth/send_reset_otp', { reset_using: 'email', email: 'ghost@example.net' }, { ip: freshIp() });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data.destination).toBe('g***@example.net');
    expect(await outboxCount(s.database, 'ghost@example.net')).toBe(0);
    const guess = await post(
      s.app,
      '/api/auth/reset_password',
      { reset_using: 'email', email: 'ghost@example.net', otp: '000000', password: 'Ghost-pass-1', password_confirmation: 'Ghost-pass-1' },
      { ip: freshIp() },
    );
    expect(guess.status).toBe(422);
    expect(guess.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
  });

  it('limits code checks to 20 per 10 minutes per IP', async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      const r = await post(s.app, '/api/auth/check_reset_otp', { reset_using: 'email', email: `x${i}@example.net`, otp: '000000' }, { ip });
      expect(r.status).toBe(422);
    }
    const limited = await post(s.app, '/api/auth/check_reset_otp', { reset_using: 'email', email: 'x@example.net', otp: '000000' }, { ip });
    expect(limited.status).toBe(429);
  });
});

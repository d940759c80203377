// @vitest-environment node
/**
 * Throttling that an attacker cannot step around: failed sign-ins per account (whatever identifier and
 * address), per IP (spraying), code sends per IP and per destination, referral checks, exports; every
 * refusal is a 429 in the API's error shape with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, freshIp, get, lastCode, login, outboxCount, post, rows, TEST_PASSWORD, type Answer } from './helpers';
import { LIMITS } from '../../server/lib/rate-limit';
import { LOCK_SECONDS, MAX_FAILURES } from '../../server/lib/sign-in-throttle';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** A fresh bulk member per test, so the counts of one test do not meet another's. */
let next = 0;
const member = async () => (await bulkMembers(s.database, 1, 20 + next++))[0];

type Via = 'username' | 'email' | 'mobile_code';
const signIn = (m: { username: string; email: string; mobile_code: string; mobile: string }, password: string, via: Via = 'username', ip = freshIp()) =>
  post(
    s.app,
    '/api/auth/login',
    via === 'username'
      ? { login_using: 'username', username: m.username, password }
      : via === 'email'
        ? { login_using: 'email', email: m.email, password }
        : { login_using: 'mobile_code', mobile_code: m.mobile_code, mobile: m.mobile, password },
    { ip },
  );

/** Skip the delay the last failure set (as if its time had passed). */
const waitOut = (memberId: number) => s.database.rows(sql`UPDATE sign_in_failures SET blocked_until = now() WHERE account = ${`m:${memberId}`}`);

function expectRefused(r: Answer, atLeast = 1, atMost = Infinity) {
  expect(r.status).toBe(429);
  expect(r.body).toEqual({ error_code: 'rate_limited', message: expect.any(String), errors: {} });
  const wait = Number(r.headers['retry-after']);
  expect(wait).toBeGreaterThanOrEqual(atLeast);
  expect(wait).toBeLessThanOrEqual(atMost);
  // The client reads the wait from the message ("… Try again in 42 s.").
  if (Number.isFinite(atMost)) expect(r.body.message).toContain(`${wait} s`);
}

describe('failed sign-ins per account', () => {
  it('count together across username, e-mail and phone from different addresses, then wait a growing delay', async () => {
    const m = await member();
    const vias: Via[] = ['username', 'email', 'mobile_code', 'email'];
    for (const via of vias) expect((await signIn(m, 'Wrong-pass-1', via)).status).toBe(422);
    // The 5th failure is answered, and it sets a delay: the next attempt waits, even with the right password, from anywhere.
    expect((await signIn(m, 'Wrong-pass-1', 'mobile_code')).status).toBe(422);
    expectRefused(await signIn(m, TEST_PASSWORD, 'username'), 1, 2);
    expectRefused(await signIn(m, TEST_PASSWORD, 'email'), 1, 2);
    // After the delay: the 6th failure doubles it.
    await waitOut(m.id);
    expect((await signIn(m, 'Wrong-pass-1', 'email')).status).toBe(422);
    expectRefused(await signIn(m, TEST_PASSWORD), 3, 4);
    // A sign-in starts the count again.
    await waitOut(m.id);
    expect((await signIn(m, TEST_PASSWORD, 'mobile_code')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await signIn(m, 'Wrong-pass-1')).status).toBe(422);
    expect((await signIn(m, TEST_PASSWORD)).status).toBe(200);
  });

  it('lock the account for 15 minutes at the 10th failure, and the member is told by e-mail', async () => {
    const m = await member();
    const mailsBefore = await outboxCount(s.database, m.email);
    for (let i = 0; i < 10; i++) {
      await waitOut(m.id);
      expect((await signIn(m, `Wrong-pass-${i}`, i % 2 ? 'email' : 'username')).status).toBe(422);
    }
    expectRefused(await signIn(m, TEST_PASSWORD), LOCK_SECONDS - 5, LOCK_SECONDS);
    expect(await outboxCount(s.database, m.email)).toBe(mailsBefore + 1);
    const [mail] = await rows<{ subject: string; body: string }>(
      s.database,
      sql`SELECT subject, body FROM outbox WHERE destination = ${m.email} ORDER BY id DESC LIMIT 1`,
    );
    expect(mail.subject).toMatch(/sign-in locked/);
    expect(mail.body).toContain('10 failed attempts');
    expect(mail.body).toContain('15 minutes');
    const [audit] = await rows<{ action: string }>(s.database, sql`SELECT action FROM account_audit WHERE member_id = ${m.id} ORDER BY id DESC LIMIT 1`);
    expect(audit.action).toBe('sign_in.locked');
  });

  it(`lock for good at the ${MAX_FAILURES}th failure until the password is reset (NIST: at most ${MAX_FAILURES})`, async () => {
    const m = await member();
    await s.database.rows(
      sql`INSERT INTO sign_in_failures (account, failures, blocked_until) VALUES (${`m:${m.id}`}, ${MAX_FAILURES - 1}, now())`,
    );
    expect((await signIn(m, 'Wrong-pass-1')).status).toBe(422);
    const locked = await signIn(m, TEST_PASSWORD);
    expectRefused(locked);
    expect(locked.body.message).toMatch(/locked until its password is reset/);
    expect((await rows<{ body: string }>(s.database, sql`SELECT body FROM outbox WHERE destination = ${m.email} ORDER BY id DESC LIMIT 1`))[0].body).toMatch(
      /locked until the password is reset/,
    );
    // Still locked long after any delay.
    await s.database.rows(sql`UPDATE sign_in_failures SET last_failure_at = now() - interval '2 days' WHERE account = ${`m:${m.id}`}`);
    expectRefused(await signIn(m, TEST_PASSWORD));
    // A password reset by code unlocks it.
    expect((await post(s.app, '/api/auth/send_reset_otp', { reset_using: 'email', email: m.email }, { ip: freshIp() })).status).toBe(200);
    const code = await lastCode(s.database, m.email);
    const reset = await post(
      s.app,
      '/api/auth/reset_password',
      { reset_using: 'email', email: m.email, otp: code, password: 'Fresh-pass-2026', password_confirmation: 'Fresh-pass-2026' },
      { ip: freshIp() },
    );
    expect(reset.status).toBe(200);
    expect((await signIn(m, 'Fresh-pass-2026')).status).toBe(200);
  });

  it('an identifier of nobody is delayed exactly like a member (the delays tell nothing)', async () => {
    const ghost = { username: 'nobody.here', email: 'nobody.here@example.net', mobile_code: '+1', mobile: '5559999' };
    for (let i = 0; i < 5; i++) expect((await signIn(ghost, 'Wrong-pass-1')).status).toBe(422);
    expectRefused(await signIn(ghost, 'Wrong-pass-1'), 1, 2);
  });

  it('parallel attempts cannot slip past the count', async () => {
    const m = await member();
    const answers = await Promise.all(Array.from({ length: 10 }, () => signIn(m, 'Wrong-pass-1')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(422), ...Array(5).fill(429)]);
  });
});

describe('per IP', () => {
  it(`spraying many usernames from one address is refused after ${LIMITS.signInFailuresPerIp.max} failures; sign-ins that succeed do not count`, async () => {
    const ip = freshIp();
    const victims = await bulkMembers(s.database, LIMITS.signInFailuresPerIp.max + 1, 60);
    const me = await member();
    expect((await signIn(me, TEST_PASSWORD, 'username', ip)).status).toBe(200);
    for (const v of victims.slice(0, -1)) expect((await signIn(v, 'Spring-2026!', 'username', ip)).status).toBe(422);
    expectRefused(await signIn(victims.at(-1)!, 'Spring-2026!', 'username', ip), 60, LIMITS.signInFailuresPerIp.seconds);
    // Even the right password of a member waits at that address; from another it goes through.
    expectRefused(await signIn(me, TEST_PASSWORD, 'username', ip));
    expect((await signIn(me, TEST_PASSWORD, 'username', freshIp())).status).toBe(200);
    // The accounts tried were not held back (one failure each).
    expect((await signIn(victims[0], TEST_PASSWORD)).status).toBe(200);
  });

  it(`sends at most ${LIMITS.codeSendsPerIp.max} one-time codes for one address, to anyone`, async () => {
    const ip = freshIp();
    const people = await bulkMembers(s.database, LIMITS.codeSendsPerIp.max + 1, 100);
    for (const p of people.slice(0, -1)) {
      expect((await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: p.email }, { ip })).status).toBe(200);
    }
    const last = people.at(-1)!;
    expectRefused(await post(s.app, '/api/auth/send_reset_otp', { reset_using: 'email', email: last.email }, { ip }), 60, LIMITS.codeSendsPerIp.seconds);
    expect(await outboxCount(s.database, last.email)).toBe(0);
  });

  it(`sends at most ${LIMITS.codeSendsPerDestination.max} codes to one destination, for any purpose and from any address`, async () => {
    const m = await member();
    const age = () => s.database.rows(sql`UPDATE otp_codes SET created_at = created_at - interval '31 seconds' WHERE destination = ${`${m.mobile_code}${m.mobile}`}`);
    for (let i = 0; i < LIMITS.codeSendsPerDestination.max; i++) {
      const body =
        i % 2
          ? { reset_using: 'mobile_code', mobile_code: m.mobile_code, mobile: m.mobile }
          : { login_using: 'mobile_code', mobile_code: m.mobile_code, mobile: m.mobile };
      expect((await post(s.app, i % 2 ? '/api/auth/send_reset_otp' : '/api/auth/send_otp', body, { ip: freshIp() })).status).toBe(200);
      await age();
    }
    const refused = await post(s.app, '/api/auth/send_otp', { login_using: 'mobile_code', mobile_code: m.mobile_code.replace("+", ""), mobile: m.mobile }, { ip: freshIp() });
    expectRefused(refused, 60, LIMITS.codeSendsPerDestination.seconds);
  });

  it('the 30 seconds between two codes are answered with Retry-After', async () => {
    const m = await member();
    expect((await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() })).status).toBe(200);
    expectRefused(await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() }), 25, 30);
  });

  it(`answers at most ${LIMITS.referralChecksPerIp.max} referral checks for one address (members from non-members)`, async () => {
    const ip = freshIp();
    for (let i = 0; i < LIMITS.referralChecksPerIp.max; i++) {
      expect((await get(s.app, `/api/users/signup_validate_referral?referral=guess${i}`, { ip })).status).not.toBe(429);
    }
    expectRefused(await get(s.app, '/api/users/signup_validate_referral?referral=demo', { ip }), 60, LIMITS.referralChecksPerIp.seconds);
    expect((await get(s.app, '/api/users/signup_validate_referral?referral=demo', { ip: freshIp() })).status).toBe(200);
  });
});

describe('exports', () => {
  it(`at most ${LIMITS.exportsPerMember.max} CSV exports per member, across all lists and addresses`, async () => {
    const a = await login(s.app, (await member()).username);
    const b = await login(s.app, (await member()).username);
    const lists = ['/api/wallet/transactions/export', '/api/orders/recent_orders/export', '/api/payout/transactions/export'];
    for (let i = 0; i < LIMITS.exportsPerMember.max; i++) {
      expect((await get(s.app, lists[i % lists.length], { token: a.token, ip: freshIp() })).status).toBe(200);
    }
    expectRefused(await get(s.app, lists[0], { token: a.token, ip: freshIp() }), 60, LIMITS.exportsPerMember.seconds);
    expect((await get(s.app, lists[0], { token: b.token })).status).toBe(200);
    // Without a session nothing is counted: the answer is 401.
    expect((await get(s.app, lists[0])).status).toBe(401);
  });
});

describe('counters', () => {
  it('past their window are swept', async () => {
    await s.database.rows(sql`INSERT INTO throttle_counters (key, hits, reset_at) VALUES ('old:1', 3, now() - interval '1 second'), ('live:1', 3, now() + interval '1 hour')`);
    await s.app.ctx.throttle.sweep();
    const keys = (await rows<{ key: string }>(s.database, sql`SELECT key FROM throttle_counters WHERE key IN ('old:1', 'live:1')`)).map((r) => r.key);
    expect(keys).toEqual(['live:1']);
  });
});

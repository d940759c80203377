// @vitest-environment node
/**
 * /api/user/email and /api/user/phone: a change asked for with the account password, confirmed with a
 * code sent to the NEW address or number, applied only then; the old one is told; audited; throttled;
 * only ever about the caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { ageLastCode, bulkMembers, call, get, lastCode, login, outboxCount, post, rows, TEST_PASSWORD, withSettings } from './helpers';

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
}, 120_000);
afterAll(() => s?.close());

let offset = 120;
async function member() {
  const [m] = await bulkMembers(s.database, 1, offset++);
  return { ...m, session: await login(s.app, m.username) };
}
type Member = Awaited<ReturnType<typeof member>>;

const askEmail = (m: Member, email: string, password = TEST_PASSWORD) => call(s.app, 'PUT', '/api/user/email', { email, password }, { token: m.session.token });
const verifyEmail = (m: Member, otp: string) => post(s.app, '/api/user/email/verify', { otp }, { token: m.session.token });
const askPhone = (m: Member, mobile_code: string, mobile: string, password = TEST_PASSWORD) =>
  call(s.app, 'PUT', '/api/user/phone', { mobile_code, mobile, password }, { token: m.session.token });
const verifyPhone = (m: Member, otp: string) => post(s.app, '/api/user/phone/verify', { otp }, { token: m.session.token });

const emailOf = async (id: number) => (await rows<{ e: string }>(s.database, sql`SELECT email AS e FROM members WHERE id = ${id}`))[0].e;
const phoneOf = async (id: number) => (await rows<{ c: string; m: string }>(s.database, sql`SELECT mobile_code AS c, mobile AS m FROM members WHERE id = ${id}`))[0];
const audit = async (id: number) => (await rows<{ action: string; detail: Record<string, unknown> }>(s.database, sql`SELECT action, detail FROM account_audit WHERE member_id = ${id} ORDER BY id`));
const lastMessage = async (destination: string) =>
  (await rows<{ subject: string; body: string }>(s.database, sql`SELECT subject, body FROM outbox WHERE destination = ${destination} ORDER BY id DESC LIMIT 1`))[0];
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

let n = 0;
const freshEmail = () => `changed.${Date.now()}.${n++}@example.org`;

describe('changing the e-mail address', () => {
  it('sends a code to the new address, changes nothing until it is entered, then applies and tells the old address', async () => {
    const m = await member();
    const next = freshEmail();
    const before = await outboxCount(s.database, m.email);

    const asked = await askEmail(m, next);
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ destination: expect.stringContaining('@example.org'), expires_in: 600, resend_in: 30 });
    expect(asked.body.data.destination).not.toBe(next);
    const code = await lastCode(s.database, next);
    expect(code).toMatch(/^\d{6}$/);
    // Nothing changed yet, and the old address heard nothing.
    expect(await emailOf(m.id)).toBe(m.email);
    expect(await outboxCount(s.database, m.email)).toBe(before);
    expect((await get(s.app, '/api/user/email', { token: m.session.token })).body.data).toEqual({ email: m.email });

    const done = await verifyEmail(m, code!);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ email: next });
    expect(await emailOf(m.id)).toBe(next);
    const notice = await lastMessage(m.email);
    expect(notice.subject).toMatch(/e-mail address was changed/);
    expect(notice.body).not.toContain(code!);

    expect((await audit(m.id)).map((a) => a.action)).toEqual(['email.change_requested', 'email.changed']);
    expect((await audit(m.id))[1].detail).toEqual({ old_email: m.email, new_email: next });
    // The member signs in with the new address.
    const signIn = await post(s.app, '/api/auth/login', { login_using: 'email', email: next, password: TEST_PASSWORD });
    expect(signIn.status).toBe(200);
  });

  it('a wrong account password or a bad address is a field error; nothing is sent', async () => {
    const m = await member();
    const next = freshEmail();
    const wrong = await askEmail(m, next, 'Not-my-pass-9');
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    expect(await outboxCount(s.database, next)).toBe(0);

    const bad = await askEmail(m, 'not-an-address');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ email: ['validation:invalidEmail'] });

    const missing = await call(s.app, 'PUT', '/api/user/email', { email: next, member_id: 1 }, { token: m.session.token });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({ password: ['validation:required'], member_id: ['validation:unknownField'] });

    const same = await askEmail(m, m.email.toUpperCase());
    expect(same.status).toBe(422);
    expect(same.body.errors).toEqual({ email: ['account:email.errors.sameAsCurrent'] });
    expect(await audit(m.id)).toEqual([]);
  });

  it("another member's address is taken", async () => {
    const m = await member();
    const other = await member();
    const res = await askEmail(m, other.email);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email: ['validation:emailTaken'] });
    expect(await outboxCount(s.database, other.email)).toBe(0);
  });

  it('an address taken while the code was on its way is refused at verification', async () => {
    const m = await member();
    const other = await member();
    const next = freshEmail();
    await askEmail(m, next);
    await askEmail(other, next);
    const otherCode = await lastCode(s.database, next);
    expect((await verifyEmail(other, otherCode!)).status).toBe(200);
    // The member's own code went before the other's: read it from the first message.
    const [first] = await rows<{ body: string }>(s.database, sql`SELECT body FROM outbox WHERE destination = ${next} ORDER BY id LIMIT 1`);
    const mine = /\b(\d{6})\b/.exec(first.body)![1];
    const res = await verifyEmail(m, mine);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email: ['validation:emailTaken'] });
    expect(await emailOf(m.id)).toBe(m.email);
  });

  it('a wrong, reused or expired code is refused; five wrong tries kill the code', async () => {
    const m = await member();
    const next = freshEmail();
    await askEmail(m, next);
    const code = (await lastCode(s.database, next))!;

    const wrong = await verifyEmail(m, wrongCode(code));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
    const malformed = await verifyEmail(m, '12ab');
    expect(malformed.status).toBe(422);
    expect(Object.keys(malformed.body.errors)).toEqual(['otp']);
    expect(await emailOf(m.id)).toBe(m.email);

    expect((await verifyEmail(m, code)).status).toBe(200);
    const reused = await verifyEmail(m, code);
    expect(reused.status).toBe(422);
    expect(reused.body.errors.otp).toBeDefined();

    // Expired.
    const later = freshEmail();
    await askEmail(m, later);
    const laterCode = (await lastCode(s.database, later))!;
    await ageLastCode(s.database, 'email_change', `member:${m.id}:${later}`, 601);
    const expired = await verifyEmail(m, laterCode);
    expect(expired.status).toBe(422);
    expect(expired.body.errors).toEqual({ otp: ['validation:otpExpired'] });
    expect(await emailOf(m.id)).toBe(next);

    // Too many wrong tries.
    const third = freshEmail();
    await askEmail(m, third);
    const thirdCode = (await lastCode(s.database, third))!;
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) answers.push((await verifyEmail(m, wrongCode(thirdCode))).body.errors.otp[0]);
    expect(answers.at(-1)).toBe('validation:otpTooManyAttempts');
    expect((await verifyEmail(m, thirdCode)).body.errors).toEqual({ otp: ['validation:otpTooManyAttempts'] });
    expect(await emailOf(m.id)).toBe(next);
  });

  it('a new request replaces the pending one: only the latest address can be confirmed', async () => {
    const m = await member();
    const first = freshEmail();
    const second = freshEmail();
    await askEmail(m, first);
    const firstCode = (await lastCode(s.database, first))!;
    await askEmail(m, second);
    const secondCode = (await lastCode(s.database, second))!;
    expect((await verifyEmail(m, firstCode)).status).toBe(422);
    expect((await verifyEmail(m, secondCode)).status).toBe(200);
    expect(await emailOf(m.id)).toBe(second);
  });

  it('resend: a new code to the pending address, no sooner than 30 s; nothing pending is an expired code', async () => {
    const m = await member();
    const none = await post(s.app, '/api/user/email/resend', undefined, { token: m.session.token });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({ otp: ['validation:otpExpired'] });

    const next = freshEmail();
    await askEmail(m, next);
    const soon = await post(s.app, '/api/user/email/resend', undefined, { token: m.session.token });
    expect(soon.status).toBe(429);
    await ageLastCode(s.database, 'email_change', `member:${m.id}:${next}`, 31);
    const first = (await lastCode(s.database, next))!;
    const again = await post(s.app, '/api/user/email/resend', undefined, { token: m.session.token });
    expect(again.status).toBe(200);
    const second = (await lastCode(s.database, next))!;
    expect(await outboxCount(s.database, next)).toBe(2);
    if (second !== first) expect((await verifyEmail(m, first)).status).toBe(422);
    expect((await verifyEmail(m, second)).status).toBe(200);
  });

  it('code sends are throttled per member', async () => {
    const m = await member();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await askEmail(m, freshEmail())).status);
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(200));
    expect(statuses[5]).toBe(429);
    // Another member is not held back.
    const other = await member();
    expect((await askEmail(other, freshEmail())).status).toBe(200);
  });

  it('verification tries are throttled per member', async () => {
    const m = await member();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await verifyEmail(m, '000000')).status);
    expect(statuses.slice(0, 20).every((x) => x === 422)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("another member's session cannot confirm or affect this member's change", async () => {
    const m = await member();
    const other = await member();
    const next = freshEmail();
    await askEmail(m, next);
    const code = (await lastCode(s.database, next))!;
    const res = await verifyEmail(other, code);
    expect(res.status).toBe(422);
    expect(await emailOf(other.id)).toBe(other.email);
    expect(await emailOf(m.id)).toBe(m.email);
    // The other's tries do not count against this member's code.
    expect((await verifyEmail(m, code)).status).toBe(200);
    expect(await emailOf(m.id)).toBe(next);
  });

  it('answers 401 without a session and 403 in demo mode', async () => {
    expect((await call(s.app, 'PUT', '/api/user/email', { email: freshEmail(), password: TEST_PASSWORD })).status).toBe(401);
    expect((await post(s.app, '/api/user/email/verify', { otp: '123456' })).status).toBe(401);
    expect((await get(s.app, '/api/user/email')).status).toBe(401);
    const m = await member();
    s.config.demoMode = true;
    try {
      const res = await askEmail(m, freshEmail());
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('demo_blocked');
    } finally {
      s.config.demoMode = false;
    }
  });
});

describe('changing the mobile number', () => {
  it('sends a code by SMS to the new number, applies it after the code and tells the old number', async () => {
    const m = await member();
    const res = await get(s.app, '/api/user/phone', { token: m.session.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ mobile_code: m.mobile_code, mobile: m.mobile });
    expect(res.body.data.countries.length).toBeGreaterThan(0);

    const number = `7${String(m.id).padStart(8, '0')}`;
    const asked = await askPhone(m, '44', number);
    expect(asked.status).toBe(200);
    expect(asked.body.data.destination).toBe(`+44 ***${number.slice(-4)}`);
    const code = (await lastCode(s.database, `+44${number}`))!;
    expect(code).toMatch(/^\d{6}$/);
    const [sms] = await rows<{ channel: string }>(s.database, sql`SELECT channel FROM outbox WHERE destination = ${`+44${number}`}`);
    expect(sms.channel).toBe('sms');
    expect(await phoneOf(m.id)).toEqual({ c: m.mobile_code, m: m.mobile });

    const wrong = await verifyPhone(m, wrongCode(code));
    expect(wrong.status).toBe(422);
    expect(await phoneOf(m.id)).toEqual({ c: m.mobile_code, m: m.mobile });

    const done = await verifyPhone(m, code);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ mobile_code: '+44', mobile: number });
    expect(await phoneOf(m.id)).toEqual({ c: '+44', m: number });
    const notice = await lastMessage(`${m.mobile_code}${m.mobile}`);
    expect(notice.subject).toMatch(/mobile number was changed/);
    expect((await audit(m.id)).map((a) => a.action)).toEqual(['phone.change_requested', 'phone.changed']);
  });

  it('bad input, a wrong password and the same number are field errors', async () => {
    const m = await member();
    const bad = await askPhone(m, 'x', '12');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['mobile', 'mobile_code']);
    const wrong = await askPhone(m, '44', '700000001', 'Not-my-pass-9');
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    const same = await askPhone(m, m.mobile_code, m.mobile);
    expect(same.body.errors).toEqual({ mobile: ['account:phone.errors.sameAsCurrent'] });
  });

  it("another member's number is taken when the company keeps numbers unique", async () => {
    const m = await member();
    const other = await member();
    await withSettings(s.app, 'auth', { phone_unique: true }, async () => {
      const res = await askPhone(m, other.mobile_code, other.mobile);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ mobile: ['validation:phoneTaken'] });
    });
    await withSettings(s.app, 'auth', { phone_unique: false }, async () => {
      expect((await askPhone(m, other.mobile_code, other.mobile)).status).toBe(200);
    });
  });

  it('an e-mail code does not confirm a phone change', async () => {
    const m = await member();
    const next = freshEmail();
    await askEmail(m, next);
    const code = (await lastCode(s.database, next))!;
    const res = await verifyPhone(m, code);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ otp: ['validation:otpExpired'] });
  });
});

describe('OpenAPI', () => {
  it('documents the calls', async () => {
    const doc = (await get(s.app, '/api/openapi.json')).body;
    for (const path of ['/api/user/email', '/api/user/email/verify', '/api/user/email/resend', '/api/user/phone', '/api/user/phone/verify', '/api/user/wallet_password', '/api/user/wallet_password/reset_code', '/api/user/wallet_password/reset']) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});

describe('asking again', () => {
  it('the same request again sends a new code and keeps one pending change and one audit row', async () => {
    const m = await member();
    const next = freshEmail();
    await askEmail(m, next);
    await ageLastCode(s.database, 'email_change', `member:${m.id}:${next}`, 31);
    expect((await askEmail(m, next)).status).toBe(200);
    expect(await outboxCount(s.database, next)).toBe(2);
    const code = (await lastCode(s.database, next))!;
    expect((await verifyEmail(m, code)).status).toBe(200);
    expect((await audit(m.id)).map((a) => a.action)).toEqual(['email.change_requested', 'email.changed']);
  });
});

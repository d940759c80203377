// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { ageLastCode, bulkMembers, freshIp, get, lastCode, login, post, rows, wrongCounters, withSettings, type Answer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  // Many signups from one address: the limits themselves are tested in the auth files.
  s = await startTestServer({ rateLimitScale: 50 });
});
afterAll(async () => {
  await s?.close();
});

const PASSWORD = 'Signup-pass-1';
let n = 0;
/** A signup body with a unique e-mail (and username when asked). */
const person = (extra: Record<string, unknown> = {}) => {
  n++;
  return { referral: 'demo', first_name: 'Nora', last_name: 'Newcomer', email: `nora.${n}@example.org`, password: PASSWORD, ...extra };
};


const memberRow = async (username: string) =>
  (
    await rows<{ id: number; parent_id: number | null; position: string | null; slot: number | null; path: string; sponsor_id: number; verified: boolean }>(
      s.database,
      sql`SELECT id, parent_id, position, slot, path, sponsor_id, verified FROM members WHERE lower(username) = lower(${username})`,
    )
  )[0];

/** Sign up with OTP off (verified at once). */
async function signupVerified(body: Record<string, unknown>) {
  let res!: Answer;
  await withSettings(s.app, 'signup', { otp_verification: false }, async () => {
    res = await post(s.app, '/api/users/signup', body, { ip: freshIp() });
  });
  return res;
}

describe('signup data and referral', () => {
  it('GET /api/users/signup_data answers the default sponsor and the signup rules', async () => {
    const res = await get(s.app, '/api/users/signup_data');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      default_sponsor: 'demo',
      referral_id: 2,
      default_leg: 'L',
      compensation_plan: 'binary',
      otp_verification: true,
      otp_based_on: 'email',
      show_signup_page: true,
      enforce_default_sponsor: false,
      enforce_link_sponsor: false,
      email_unique: true,
      phone_unique: true,
    });
    expect(res.body.data.password_policy.min_length).toBe(8);
    expect(res.body.data.countries.length).toBeGreaterThanOrEqual(25);
  });

  it('names the referral when it may sponsor, and none for blocked or unknown referrals', async () => {
    const [m] = await bulkMembers(s.database, 1, 40);
    const ok = await get(s.app, `/api/users/signup_data?referral=${m.username}`);
    expect(ok.body.data.referral_id).toBe(m.id);
    const blocked = await get(s.app, '/api/users/signup_data?referral=blocked');
    expect(blocked.body.data).toMatchObject({ referral_id: null, default_leg: null });
    const unknown = await get(s.app, '/api/users/signup_data?referral=no.such.member');
    expect(unknown.body.data.referral_id).toBeNull();
  });

  it('a signed-in member is the default sponsor of the people they sign up', async () => {
    const [m] = await bulkMembers(s.database, 1, 41);
    const me = await login(s.app, m.username);
    const res = await get(s.app, '/api/users/signup_data', { token: me.token });
    expect(res.body.data).toMatchObject({ default_sponsor: m.username, referral_id: m.id });
  });

  it('GET /api/users/signup_validate_referral accepts active members only', async () => {
    const ok = await get(s.app, '/api/users/signup_validate_referral?referral=demo');
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ default_leg: 'L', referral_id: 2 });
    for (const referral of ['blocked', 'nobody.at.all', 'x'.repeat(40)]) {
      const bad = await get(s.app, `/api/users/signup_validate_referral?referral=${referral}`);
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual({ referral: ['validation:invalidReferral'] });
    }
    const missing = await get(s.app, '/api/users/signup_validate_referral');
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ referral: ['validation:required'] });
  });
});

describe('signup with a one-time code', () => {
  it('creates an unverified member, who can sign in only after entering the e-mailed code', async () => {
    const body = person({ username: 'nora.otp' });
    const res = await post(s.app, '/api/users/signup', body, { ip: freshIp() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username: 'nora.otp', otp_required: true, destination: 'n***@example.org' });
    const key = res.body.data.key as string;
    expect(key.length).toBeGreaterThan(30);
    const row = await memberRow('nora.otp');
    expect(row.verified).toBe(false);
    expect(row.sponsor_id).toBe(2);

    const early = await post(s.app, '/api/auth/login', { login_using: 'email', email: body.email, password: PASSWORD }, { ip: freshIp() });
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual({ email: ['validation:accountNotVerified'] });
    const earlyName = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'nora.otp', password: PASSWORD }, { ip: freshIp() });
    expect(earlyName.body.errors).toEqual({ username: ['validation:accountNotVerified'] });
    // The wrong password still says nothing about the account.
    const wrong = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'nora.otp', password: 'Bad-pass-1' }, { ip: freshIp() });
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidCredentials'] });
    const autoEarly = await post(s.app, '/api/auth/login', { email: body.email, login_with_otp: 1, key }, { ip: freshIp() });
    expect(autoEarly.body.errors).toEqual({ key: ['validation:invalidToken'] });

    const first = (await lastCode(s.database, body.email))!;
    expect(first).toMatch(/^\d{6}$/);
    const tooSoon = await post(s.app, '/api/users/resend_signup_verification', { key });
    expect(tooSoon.status).toBe(429);
    await ageLastCode(s.database, 'signup', body.email, 31);
    const resent = await post(s.app, '/api/users/resend_signup_verification', { key });
    expect(resent.status).toBe(200);
    expect(resent.body.data).toMatchObject({ destination: 'n***@example.org', expires_in: 600, resend_in: 30 });
    const second = (await lastCode(s.database, body.email))!;

    const badKey = await post(s.app, '/api/users/verify_signup', { key: 'not-the-key', otp: second });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors).toEqual({ key: ['validation:invalidToken'] });
    if (first !== second) {
      const old = await post(s.app, '/api/users/verify_signup', { key, otp: first });
      expect(old.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
    }
    const ok = await post(s.app, '/api/users/verify_signup', { key, otp: second });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.data.message).toBe('string');
    expect((await memberRow('nora.otp')).verified).toBe(true);
    const twice = await post(s.app, '/api/users/verify_signup', { key, otp: second });
    expect(twice.status).toBe(422);

    // The automatic sign-in right after verification works once, with the member's e-mail.
    const wrongEmail = await post(s.app, '/api/auth/login', { email: 'someone@else.org', login_with_otp: 1, key }, { ip: freshIp() });
    expect(wrongEmail.body.errors).toEqual({ key: ['validation:invalidToken'] });
    const auto = await post(s.app, '/api/auth/login', { email: body.email, login_with_otp: 1, key }, { ip: freshIp() });
    expect(auto.status).toBe(200);
    expect(auto.body.data.user.username).toBe('nora.otp');
    expect((await get(s.app, '/api/auth_check', { token: auto.body.data.token })).status).toBe(200);
    const autoAgain = await post(s.app, '/api/auth/login', { email: body.email, login_with_otp: '1', key }, { ip: freshIp() });
    expect(autoAgain.status).toBe(422);
    expect(autoAgain.body.errors).toEqual({ key: ['validation:invalidToken'] });
    expect((await login(s.app, 'nora.otp', PASSWORD)).token).toBeTruthy();
  });

  it('the automatic sign-in expires 10 minutes after verification', async () => {
    const body = person();
    const res = await post(s.app, '/api/users/signup', body, { ip: freshIp() });
    const key = res.body.data.key;
    const code = await lastCode(s.database, body.email);
    expect((await post(s.app, '/api/users/verify_signup', { key, otp: code })).status).toBe(200);
    await rows(s.database, sql`UPDATE signup_verifications SET verified_at = now() - interval '11 minutes' WHERE member_id = (
      SELECT id FROM members WHERE username = ${res.body.data.username})`);
    const late = await post(s.app, '/api/auth/login', { email: body.email, login_with_otp: 1, key }, { ip: freshIp() });
    expect(late.status).toBe(422);
    expect(late.body.errors).toEqual({ key: ['validation:invalidToken'] });
  });

  it('with otp_based_on mobile the code goes by SMS and a mobile number is required', async () => {
    await withSettings(s.app, 'signup', { otp_based_on: 'mobile' }, async () => {
      const noMobile = await post(s.app, '/api/users/signup', person(), { ip: freshIp() });
      expect(noMobile.status).toBe(422);
      expect(noMobile.body.errors).toEqual({ mobile: ['validation:required'] });
      const res = await post(s.app, '/api/users/signup', person({ mobile_code: '+44', mobile: '7700900123' }), { ip: freshIp() });
      expect(res.status).toBe(200);
      expect(res.body.data.destination).toBe('+44 ***0123');
      expect(await lastCode(s.database, '+447700900123')).toMatch(/^\d{6}$/);
      await ageLastCode(s.database, 'signup', '+447700900123', 31);
      const resent = await post(s.app, '/api/users/resend_signup_verification', { key: res.body.data.key });
      expect(resent.body.data.destination).toBe('+44 ***0123');
    });
  });

  it('without OTP verification the member can sign in at once; a username is generated when none is given', async () => {
    const body = person({ first_name: 'Zoë' });
    const res = await signupVerified(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ otp_required: false, destination: null });
    expect(res.body.data.username).toMatch(/^zoe\d{4,}$/);
    expect((await memberRow(res.body.data.username)).verified).toBe(true);
    expect((await login(s.app, res.body.data.username, PASSWORD)).token).toBeTruthy();
    // The key still allows the one automatic sign-in.
    const auto = await post(s.app, '/api/auth/login', { username: res.body.data.username, login_with_otp: true, key: res.body.data.key }, { ip: freshIp() });
    expect(auto.status).toBe(200);
  });
});

describe('signup rules', () => {
  it('refuses taken usernames, e-mails and phones, and weak passwords, naming each field', async () => {
    const res = await post(
      s.app,
      '/api/users/signup',
      person({ username: 'Demo', email: 'DEMO@upline.example', mobile_code: '1', mobile: '5550100', password: 'weak' }),
      { ip: freshIp() },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.password).toEqual(expect.arrayContaining(['validation:passwordMinLength', 'validation:passwordUppercase']));
    const taken = await post(s.app, '/api/users/signup', person({ username: 'Demo', email: 'DEMO@upline.example', mobile_code: '1', mobile: '5550100' }), {
      ip: freshIp(),
    });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({
      username: ['validation:usernameTaken'],
      email: ['validation:emailTaken'],
      mobile: ['validation:phoneTaken'],
    });
  });

  it('allows a shared e-mail or phone when the company does not require them unique', async () => {
    await withSettings(s.app, 'auth', { email_unique: false, phone_unique: false }, async () => {
      const res = await signupVerified(person({ email: 'demo@upline.example', mobile_code: '+1', mobile: '5550100' }));
      expect(res.status).toBe(200);
    });
    // The original owner still signs in by e-mail.
    const demo = await post(s.app, '/api/auth/login', { login_using: 'email', email: 'demo@upline.example', password: 'Demo-pass-2026' }, { ip: freshIp() });
    expect(demo.body.data.user.username).toBe('demo');
  });

  it('requires the e-mail when codes go by e-mail, and a phone code with a mobile number', async () => {
    const { email: _e, ...noEmail } = person();
    void _e;
    const res = await post(s.app, '/api/users/signup', { ...noEmail, mobile: '5551234567' }, { ip: freshIp() });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email: ['validation:required'], mobile_code: ['validation:required'] });
  });

  it('refuses unknown and blocked referrals', async () => {
    for (const referral of ['blocked', 'no.such.member']) {
      const res = await post(s.app, '/api/users/signup', person({ referral }), { ip: freshIp() });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ referral: ['validation:invalidReferral'] });
    }
  });

  it('enforce_default_sponsor and enforce_link_sponsor restrict the referral', async () => {
    const [m] = await bulkMembers(s.database, 1, 42);
    await withSettings(s.app, 'signup', { enforce_default_sponsor: true, otp_verification: false }, async () => {
      const other = await post(s.app, '/api/users/signup', person({ referral: m.username }), { ip: freshIp() });
      expect(other.body.errors).toEqual({ referral: ['validation:invalidReferral'] });
      expect((await get(s.app, `/api/users/signup_validate_referral?referral=${m.username}`)).status).toBe(422);
      expect((await post(s.app, '/api/users/signup', person({ referral: 'demo' }), { ip: freshIp() })).status).toBe(200);
    });
    await withSettings(s.app, 'signup', { enforce_link_sponsor: true, otp_verification: false }, async () => {
      const mismatch = await post(s.app, '/api/users/signup', person({ referral: m.username, referral_key: 'demo' }), { ip: freshIp() });
      expect(mismatch.body.errors).toEqual({ referral: ['validation:invalidReferral'] });
      const none = await post(s.app, '/api/users/signup', person({ referral: m.username }), { ip: freshIp() });
      expect(none.status).toBe(422);
      const match = await post(s.app, '/api/users/signup', person({ referral: m.username, referral_key: m.username }), { ip: freshIp() });
      expect(match.status).toBe(200);
    });
  });

  it('when the signup page is off only signed-in members can sign people up', async () => {
    await withSettings(s.app, 'signup', { show_signup_page: false, otp_verification: false }, async () => {
      const visitor = await post(s.app, '/api/users/signup', person(), { ip: freshIp() });
      expect(visitor.status).toBe(403);
      expect(visitor.body.error_code).toBe('signup_disabled');
      const me = await login(s.app, 'demo');
      const member = await post(s.app, '/api/users/signup', person(), { token: me.token, ip: freshIp() });
      expect(member.status).toBe(200);
    });
  });
});

describe('placement', () => {
  it('places at a free slot in the sponsor downline and keeps every counter exact', async () => {
    const [target] = await rows<{ id: number; username: string; path: string }>(
      s.database,
      sql`SELECT m.id, m.username, m.path FROM members m WHERE m.path LIKE '1.2.%' AND m.status = 1 AND m.id > 4
          AND NOT EXISTS (SELECT 1 FROM members c WHERE c.parent_id = m.id AND c.position = 'L') ORDER BY m.depth, m.id LIMIT 1`,
    );
    const ancestors = target.path.split('.').filter(Boolean).map(Number);
    const before = await rows<{ id: number; downline_count: number }>(
      s.database,
      sql`SELECT id, downline_count FROM members WHERE id IN (${sql.raw(ancestors.join(','))})`,
    );
    const res = await signupVerified(person({ username: 'placed.left', placement: target.username, position: 'L' }));
    expect(res.status).toBe(200);
    const row = await memberRow('placed.left');
    expect(row).toMatchObject({ parent_id: target.id, position: 'L', slot: 0, path: `${target.path}${row.id}.` });
    const after = await rows<{ id: number; downline_count: number }>(
      s.database,
      sql`SELECT id, downline_count FROM members WHERE id IN (${sql.raw(ancestors.join(','))})`,
    );
    for (const a of after) expect(a.downline_count).toBe(before.find((b) => b.id === a.id)!.downline_count + 1);
    expect(await wrongCounters(s.database)).toEqual([]);
  });

  it('refuses a taken slot and a placement outside the sponsor downline', async () => {
    const taken = await post(s.app, '/api/users/signup', person({ placement: 'demo', position: 'L' }), { ip: freshIp() });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
    const [deep] = await rows<{ username: string }>(s.database, sql`SELECT username FROM members WHERE depth >= 4 AND status = 1 ORDER BY id LIMIT 1`);
    const outside = await post(s.app, '/api/users/signup', person({ referral: deep.username, placement: 'demo' }), { ip: freshIp() });
    expect(outside.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
    const unknown = await post(s.app, '/api/users/signup', person({ placement: 'no.such.member' }), { ip: freshIp() });
    expect(unknown.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
  });

  it('without a placement goes to the outermost free slot of the chosen leg', async () => {
    const [sponsor] = await rows<{ id: number; username: string }>(
      s.database,
      sql`SELECT id, username FROM members WHERE id > 4 AND status = 1 AND depth = 3 ORDER BY id LIMIT 1`,
    );
    let cur = sponsor.id;
    for (;;) {
      const [child] = await rows<{ id: number }>(s.database, sql`SELECT id FROM members WHERE parent_id = ${cur} AND position = 'R'`);
      if (!child) break;
      cur = child.id;
    }
    const res = await signupVerified(person({ username: 'outer.right', referral: sponsor.username, position: 'R' }));
    expect(res.status).toBe(200);
    expect(await memberRow('outer.right')).toMatchObject({ parent_id: cur, position: 'R', sponsor_id: sponsor.id });
    expect(await wrongCounters(s.database)).toEqual([]);
  });

  it('matrix: fills the first free slot breadth-first, width 3, and takes no position', async () => {
    const root = await signupVerified(person({ username: 'matrix.root' }));
    expect(root.status).toBe(200);
    await withSettings(s.app, 'modules', { compensation_plan: 'matrix' }, async () => {
      const pos = await post(s.app, '/api/users/signup', person({ referral: 'matrix.root', position: 'L' }), { ip: freshIp() });
      expect(pos.body.errors).toEqual({ position: ['validation:notAllowed'] });
      const rootRow = await memberRow('matrix.root');
      const placed: { parent_id: number | null; slot: number | null; position: string | null }[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await signupVerified(person({ username: `matrix.${i}`, referral: 'matrix.root' }));
        expect(r.status).toBe(200);
        placed.push(await memberRow(`matrix.${i}`));
      }
      const first = await memberRow('matrix.0');
      expect(placed.map((p) => [p.parent_id, p.slot, p.position])).toEqual([
        [rootRow.id, 0, null],
        [rootRow.id, 1, null],
        [rootRow.id, 2, null],
        [first.id, 0, null],
        [first.id, 1, null],
      ]);
      const explicit = await signupVerified(person({ username: 'matrix.x', referral: 'matrix.root', placement: 'matrix.2' }));
      expect(explicit.status).toBe(200);
      expect((await memberRow('matrix.x')).parent_id).toBe((await memberRow('matrix.2')).id);
      const full = await post(s.app, '/api/users/signup', person({ referral: 'matrix.root', placement: 'matrix.root' }), { ip: freshIp() });
      expect(full.body.errors).toEqual({ placement: ['validation:placementUnavailable'] });
      const data = await get(s.app, '/api/users/signup_data?referral=matrix.root');
      expect(data.body.data).toMatchObject({ compensation_plan: 'matrix', default_leg: null });
    });
    expect(await wrongCounters(s.database)).toEqual([]);
  });

  it('unilevel: the new member goes directly under the sponsor; a placement is refused', async () => {
    await withSettings(s.app, 'modules', { compensation_plan: 'unilevel' }, async () => {
      const refused = await post(s.app, '/api/users/signup', person({ placement: 'demo' }), { ip: freshIp() });
      expect(refused.body.errors).toEqual({ placement: ['validation:notAllowed'] });
      const res = await signupVerified(person({ username: 'uni.one' }));
      expect(res.status).toBe(200);
      expect((await memberRow('uni.one')).parent_id).toBe(2);
    });
    expect(await wrongCounters(s.database)).toEqual([]);
  });

  it('parallel signups never share a slot', async () => {
    const bodies = Array.from({ length: 6 }, (_, i) => person({ username: `racer.${i}`, referral: 'demo', position: 'R' }));
    await withSettings(s.app, 'signup', { otp_verification: false }, async () => {
      const answers = await Promise.all(bodies.map((b) => post(s.app, '/api/users/signup', b, { ip: freshIp() })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    });
    const slots = await rows<{ parent_id: number; slot: number }>(
      s.database,
      sql`SELECT parent_id, slot FROM members WHERE username LIKE 'racer.%'`,
    );
    expect(new Set(slots.map((r) => `${r.parent_id}/${r.slot}`)).size).toBe(6);
    expect(await wrongCounters(s.database)).toEqual([]);
  });
});

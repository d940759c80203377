// @vitest-environment node
/**
 * Hostile and sloppy input to the auth and user calls, and the crafted input that once reached the database: the answer is always a 4xx with the error
 * shape `{ error_code, message, errors: { field: [i18n key] } }`, never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { call, freshIp, login, post } from './helpers';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
  token = (await login(s.app, 'demo')).token;
});
afterAll(async () => {
  await s?.close();
});

const BODY_ROUTES: [method: 'POST' | 'DELETE', url: string][] = [
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/send_otp'],
  ['POST', '/api/auth/login_with_otp'],
  ['POST', '/api/auth/send_reset_otp'],
  ['POST', '/api/auth/check_reset_otp'],
  ['POST', '/api/auth/reset_password'],
  ['POST', '/api/auth/sso_login'],
  ['POST', '/api/auth/sso_logout'],
  ['POST', '/api/request_demo'],
  ['POST', '/api/users/signup'],
  ['POST', '/api/users/resend_signup_verification'],
  ['POST', '/api/users/verify_signup'],
  ['DELETE', '/api/users'],
];
const NO_BODY_ROUTES = ['/api/auth/logout', '/api/store/logout'];

const long = 'x'.repeat(5000);
const JUNK: { raw: string; contentType?: string }[] = [
  { raw: '' },
  { raw: 'null' },
  { raw: '[]' },
  { raw: '[1,2,3]' },
  { raw: '"just a string"' },
  { raw: '12345' },
  { raw: 'true' },
  { raw: '{' },
  { raw: '{"a":' },
  { raw: '{}' },
  { raw: '{"unexpected":"field"}' },
  { raw: JSON.stringify({ password: { $gt: '' }, login_using: ['username'], username: { a: 1 } }) },
  { raw: JSON.stringify({ login_using: 'username', username: long, password: long, email: long, otp: long, key: long, sso_token: long }) },
  { raw: JSON.stringify({ referral: 5, first_name: null, email: 12, password: false, position: 'X', placement: [] }) },
  { raw: JSON.stringify({ name: long, email: 'a@b.c', mobile: long, platform: 'web', country_id: -1, industry: 1.5 }) },
  { raw: JSON.stringify({ login_with_otp: 1 }) },
  { raw: JSON.stringify({ login_with_otp: 'yes', key: 'k' }) },
  { raw: JSON.stringify({ otp: '１２３４５６', email: 'ｄｅｍｏ@upline.example', login_using: 'email', reset_using: 'email' }) },
  { raw: JSON.stringify({ key: '\u0000\u0000', otp: '000000' }) },
  { raw: JSON.stringify(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}')) },
  { raw: '{"a":' + '['.repeat(500) + ']'.repeat(500) + '}' },
  { raw: 'login_using=username&username=demo&password=x', contentType: 'application/x-www-form-urlencoded' },
  { raw: 'password=' + long, contentType: 'application/x-www-form-urlencoded' },
  { raw: 'plain text', contentType: 'text/plain' },
  { raw: '<xml/>', contentType: 'application/xml' },
  { raw: JSON.stringify({ big: 'y'.repeat(70 * 1024) }) },
];

function hasErrorShape(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  if (typeof b.error_code !== 'string' || typeof b.message !== 'string' || !b.errors || typeof b.errors !== 'object') return false;
  return Object.values(b.errors).every((list) => Array.isArray(list) && list.every((k) => typeof k === 'string' && /^validation:[A-Za-z]+$/.test(k)));
}

function expectErrorShape(body: unknown) {
  expect(body).toEqual(expect.objectContaining({ error_code: expect.any(String), message: expect.any(String), errors: expect.any(Object) }));
  const errors = (body as { errors: Record<string, unknown> }).errors;
  for (const list of Object.values(errors)) {
    expect(Array.isArray(list)).toBe(true);
    for (const key of list as unknown[]) expect(key).toMatch(/^validation:[A-Za-z]+$/);
  }
}

describe('junk bodies', () => {
  it('every POST/DELETE route answers junk with a 4xx and the error shape, never a 5xx', async () => {
    const failures: string[] = [];
    for (const [method, url] of BODY_ROUTES) {
      for (const j of JUNK) {
        const res = await call(s.app, method, url, undefined, { raw: j.raw, contentType: j.contentType, token, ip: freshIp() });
        const where = `${method} ${url} ${j.contentType ?? 'json'} ${j.raw.slice(0, 40)}`;
        if (res.status >= 500 || res.status < 400) failures.push(`${where} → ${res.status}`);
        else if (!hasErrorShape(res.body)) failures.push(`${where} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('routes without a body ignore junk and never fail with a 5xx', async () => {
    for (const url of NO_BODY_ROUTES) {
      for (const j of JUNK) {
        const res = await call(s.app, 'POST', url, undefined, { raw: j.raw, contentType: j.contentType, ip: freshIp() });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expectErrorShape(res.body);
      }
    }
  });

  it('malformed JSON is a 400 with a _body error', async () => {
    const res = await call(s.app, 'POST', '/api/auth/login', undefined, { raw: '{"login_using":', ip: freshIp() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: 'validation_error', errors: { _body: ['validation:malformedBody'] } });
  });

  it('a body over 64 KB is a 413', async () => {
    const res = await call(s.app, 'POST', '/api/users/signup', undefined, { raw: JSON.stringify({ first_name: 'z'.repeat(70 * 1024) }), ip: freshIp() });
    expect(res.status).toBe(413);
    expect(res.body.errors).toEqual({ _body: ['validation:tooLarge'] });
  });

  it('an unsupported content type is a 415', async () => {
    const res = await call(s.app, 'POST', '/api/auth/login', undefined, { raw: '<x/>', contentType: 'application/xml', ip: freshIp() });
    expect(res.status).toBe(415);
    expect(res.body.errors).toEqual({ _body: ['validation:unsupportedMediaType'] });
  });

  it('form-encoded bodies are read like JSON', async () => {
    const res = await call(s.app, 'POST', '/api/auth/login', undefined, {
      raw: 'login_using=username&username=demo&password=Demo-pass-2026',
      contentType: 'application/x-www-form-urlencoded',
      ip: freshIp(),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.user.username).toBe('demo');
  });
});

describe('field errors', () => {
  it('names missing fields, wrong types, oversize strings and unknown fields', async () => {
    const missing = await post(s.app, '/api/users/signup', {}, { ip: freshIp() });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({
      referral: ['validation:required'],
      first_name: ['validation:required'],
      password: ['validation:required'],
    });
    const types = await post(s.app, '/api/users/signup', { referral: 'demo', first_name: 42, password: ['x'] }, { ip: freshIp() });
    expect(types.body.errors).toEqual({ first_name: ['validation:invalidType'], password: ['validation:invalidType'] });
    const oversize = await post(
      s.app,
      '/api/users/signup',
      { referral: 'demo', first_name: 'f'.repeat(61), last_name: 'l'.repeat(61), password: 'p'.repeat(129) },
      { ip: freshIp() },
    );
    expect(oversize.body.errors).toEqual({
      first_name: ['validation:tooLong'],
      last_name: ['validation:tooLong'],
      password: ['validation:tooLong'],
    });
    const unknown = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: 'a@b.example', is_admin: true }, { ip: freshIp() });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ is_admin: ['validation:unknownField'] });
    const choice = await post(s.app, '/api/auth/login', { login_using: 'telepathy', password: 'x' }, { ip: freshIp() });
    expect(choice.body.errors).toEqual({ login_using: ['validation:invalidChoice'] });
    const email = await post(s.app, '/api/auth/login', { login_using: 'email', email: 'not-an-email', password: 'x' }, { ip: freshIp() });
    expect(email.body.errors).toEqual({ email: ['validation:invalidEmail'] });
  });

  it('query strings are validated too', async () => {
    const res = await call(s.app, 'GET', `/api/users/signup_validate_referral?referral=${'r'.repeat(100)}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ referral: ['validation:tooLong'] });
    // Extra parameters the client always adds (route, load_modules, demo_plan) are accepted.
    const extra = await call(s.app, 'GET', '/api/users/signup_validate_referral?referral=demo&route=/signup&demo_plan=binary');
    expect(extra.status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('/api/openapi.json lists the auth and user calls with their schemas', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body);
    expect(doc.openapi).toBe('3.1.0');
    const expected: [string, string][] = [
      ['/api/auth/login_fields', 'get'],
      ['/api/auth/reset_password_field', 'get'],
      ['/api/auth/login', 'post'],
      ['/api/auth/send_otp', 'post'],
      ['/api/auth/login_with_otp', 'post'],
      ['/api/auth/send_reset_otp', 'post'],
      ['/api/auth/check_reset_otp', 'post'],
      ['/api/auth/reset_password', 'post'],
      ['/api/auth/logout', 'post'],
      ['/api/auth/sso_login', 'post'],
      ['/api/auth/sso_logout', 'post'],
      ['/api/store/logout', 'post'],
      ['/api/request_demo', 'get'],
      ['/api/request_demo', 'post'],
      ['/api/user_data', 'get'],
      ['/api/user_role', 'get'],
      ['/api/auth_check', 'get'],
      ['/api/users/signup_data', 'get'],
      ['/api/users/signup_validate_referral', 'get'],
      ['/api/users/signup', 'post'],
      ['/api/users/resend_signup_verification', 'post'],
      ['/api/users/verify_signup', 'post'],
      ['/api/users/admin_info', 'get'],
      ['/api/users/members', 'get'],
      ['/api/users/sponsor_downlines', 'get'],
      ['/api/users/placement_downlines', 'get'],
      ['/api/users', 'delete'],
    ];
    for (const [path, method] of expected) expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    const login = doc.paths['/api/auth/login'].post;
    const body = JSON.stringify(login.requestBody);
    expect(body).toContain('login_using');
    expect(body).toContain('login_with_otp');
    expect(JSON.stringify(login.responses['200'])).toContain('sso_token');
  });
});

describe('crafted input that once reached the database answers 4xx', () => {
  const cursorOf = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  /** Year −29 719: a time JavaScript reads and PostgreSQL refuses. */
  const farCursor = 'djF8ZGVzY3wtOTk5OTk5OTk5OTk5OTk5fDU';
  const expect4xx = async (url: string, field: string) => {
    const res = await call(s.app, 'GET', url, undefined, { token, ip: freshIp() });
    expect(res.status, url).toBeGreaterThanOrEqual(400);
    expect(res.status, url).toBeLessThan(500);
    expectErrorShape(res.body);
    expect(Object.keys(res.body.errors), url).toContain(field);
  };

  it('a NUL byte in the text of a query string', async () => {
    await expect4xx('/api/users/signup_validate_referral?referral=%00', 'referral');
    await expect4xx('/api/users/signup_data?referral=a%00b', 'referral');
    for (const list of ['members', 'sponsor_downlines', 'placement_downlines']) await expect4xx(`/api/users/${list}?keyword=%00`, 'keyword');
    for (const page of ['genealogy', 'table_view', 'table_view_single', 'downline_report', 'downline_report/sponsor']) {
      await expect4xx(`/api/network/${page}?username=a%00b`, 'username');
    }
  });

  it('other control characters in single-line text', async () => {
    await expect4xx('/api/users/members?keyword=a%0Db', 'keyword');
    await expect4xx('/api/network/table_view?username=a%0Ab', 'username');
    await expect4xx('/api/wallet/transactions?transaction_key=payout%09', 'transaction_key');
  });

  it('a NUL byte in a JSON body', async () => {
    const signup = await post(s.app, '/api/users/signup', { referral: 'demo', first_name: 'A\u0000', password: 'Pass-word-2026' }, { ip: freshIp() });
    expect(signup.status).toBe(422);
    expect(signup.body.errors).toEqual({ first_name: ['validation:invalidFormat'] });
    const demo = await post(s.app, '/api/request_demo', { name: '\u0000', email: 'a@b.example', mobile: '5550000000', platform: 'web' }, { ip: freshIp() });
    expect(demo.status).toBe(422);
    expect(demo.body.errors).toEqual({ name: ['validation:invalidFormat'] });
    // Wherever a schema lets text through, a NUL never reaches the database.
    const [spain] = await s.database.rows<{ id: number }>(sql`SELECT id FROM countries WHERE iso_code_2 = 'ES'`);
    const madrid = { first_name: 'Lucía', address_1: 'Calle Mayor 10', city: 'Madrid', postcode: '28013', country_id: spain.id };
    const address = await call(s.app, 'POST', '/api/user/addresses', { ...madrid, company: 'x\u0000y' }, { token, ip: freshIp() });
    expect(address.status).toBe(422);
    expect(Object.keys(address.body.errors)).toContain('company');
  });

  it('a cursor whose time or id is out of range, on every cursor list', async () => {
    const lists = [
      '/api/wallet/transactions',
      '/api/wallet/recent_earnings',
      '/api/payout/transactions',
      '/api/orders/recent_orders',
      '/api/network/pv_history',
      '/api/network/binary_history',
      '/api/user/addresses',
    ];
    for (const list of lists) {
      for (const cursor of [farCursor, cursorOf('v1|asc|8640000000000000|1'), cursorOf('v1|desc|1700000000000|2147483648')]) {
        await expect4xx(`${list}?cursor=${cursor}`, 'cursor');
      }
    }
    await expect4xx(`/api/referral/joinings?cursor=${farCursor}`, 'cursor');
  });

  it("an impossible date in downline_report's after", async () => {
    for (const at of ['2023-02-30T00:00:00.000000Z', '0000-01-01T00:00:00.000000Z', '9999-12-31T23:59:59.999999Z']) {
      await expect4xx(`/api/network/downline_report?after=${cursorOf(`${at}|5`)}`, 'after');
    }
  });

  it('ids beyond 32 bits', async () => {
    await expect4xx('/api/network/table_view_single?after=2147483648', 'after');
    await expect4xx('/api/network/table_view_single?after=9999999999', 'after');
  });
});

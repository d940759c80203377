// @vitest-environment node
/**
 * The log never holds a secret: it is captured (the pino destination) through a password sign-in, an SSO
 * sign-in (token in the page URL and in the body), a failing query whose parameters are a password hash and
 * an e-mail, and a one-time code sent; none of the password, hash, tokens, code or e-mail appears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { apiHeaders } from '../support/server';
import { bulkMembers, freshIp, get, lastCode, post, TEST_PASSWORD } from './helpers';
import { members } from '../../server/db/schema';
import type { RouteModule } from '../../server/lib/app-context';
import { redactUrl } from '../../server/lib/log-safety';

const lines: string[] = [];
const logText = () => lines.join('');

/** Routes only this test has: queries that fail with secret parameters. */
const failingQueries: RouteModule = (app, ctx) => {
  app.get('/api/test/failing_query/:kind', async (req) => {
    const [m] = await ctx.database.db.select({ hash: members.passwordHash, email: members.email }).from(members).where(eq(members.username, 'demo'));
    const kind = (req.params as { kind: string }).kind;
    // The caller's fault (a value PostgreSQL cannot read as a number) and the server's (a missing table).
    if (kind === 'client') await ctx.database.rows(sql`SELECT ${m.hash}::int AS n, ${m.email}::text AS e`);
    else await ctx.database.rows(sql`SELECT * FROM no_such_table WHERE password_hash = ${m.hash} AND email = ${m.email}`);
    return { data: null };
  });
};

let s: TestServer;
let hash: string;
let email: string;
beforeAll(async () => {
  s = await startTestServer({ logLevel: 'info', logStream: { write: (line: string) => void lines.push(line) }, rateLimitScale: 100 }, [failingQueries]);
  const [m] = await s.database.db.select({ hash: members.passwordHash, email: members.email }).from(members).where(eq(members.username, 'demo'));
  hash = m.hash;
  email = m.email!;
});
afterAll(async () => {
  await s?.close();
});

describe('the log holds no secret', () => {
  it('through a sign-in, an SSO sign-in, failing queries and a code sent', async () => {
    // Password sign-in.
    const signedIn = await post(s.app, '/api/auth/login', { login_using: 'username', username: 'demo', password: TEST_PASSWORD }, { ip: freshIp() });
    expect(signedIn.status).toBe(200);
    const { token, sso_token: ssoToken } = signedIn.body.data as { token: string; sso_token: string };
    expect(ssoToken).toEqual(expect.any(String));

    // The storefront opens the SSO page with the token in its URL; the page hands it over in a body.
    await s.app.inject({ method: 'GET', url: `/sso_login?token=${ssoToken}&redirect=/member/home` });
    await s.app.inject({ method: 'GET', url: `/api/auth_check?sso_token=${ssoToken}&password=${TEST_PASSWORD}&otp=123456`, headers: apiHeaders(token) });
    const sso = await post(s.app, '/api/auth/sso_login', { sso_token: ssoToken }, { ip: freshIp() });
    expect(sso.status).toBe(200);

    // Failing queries with a password hash and an e-mail as parameters.
    const clientFault = await get(s.app, '/api/test/failing_query/client', { token });
    expect(clientFault.status).toBe(400);
    expect(clientFault.body).toEqual({ error_code: 'validation_error', message: expect.any(String), errors: { _body: ['validation:invalid'] } });
    const serverFault = await get(s.app, '/api/test/failing_query/server', { token });
    expect(serverFault.status).toBe(500);
    expect(JSON.stringify(serverFault.body)).not.toMatch(/no_such_table|password_hash|scrypt/);

    // A one-time code sent.
    const [m] = await bulkMembers(s.database, 1, 60);
    expect((await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() })).status).toBe(200);
    const code = await lastCode(s.database, m.email);
    expect(code).toMatch(/^\d{6}$/);

    const log = logText();
    // The log did record all of it…
    expect(log).toContain('/sso_login?token=[redacted]&redirect=/member/home');
    expect(log).toContain('"code":"22P02"');
    expect(log).toContain('"code":"42P01"');
    expect(log).toContain('no_such_table');
    expect(log).toContain('outbox → email');
    // …and none of the secrets.
    for (const secret of [TEST_PASSWORD, hash, hash.split('$').pop()!, token, ssoToken, email, m.email, code!]) {
      expect(log.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
    }
    expect(log).not.toMatch(/scrypt\$/);
    expect(log).not.toMatch(/Bearer /i);
    expect(log).not.toMatch(/params:/);
  });

  it('one-time codes are written to the log in demo mode only', async () => {
    lines.length = 0;
    await s.app.ctx.outbox.send('email', 'someone@example.net', 'Your sign-in code', 'Your code is 246810.');
    expect(logText()).not.toContain('246810');
    s.config.demoMode = true;
    try {
      await s.app.ctx.outbox.send('email', 'someone@example.net', 'Your sign-in code', 'Your code is 135791.');
    } finally {
      s.config.demoMode = false;
    }
    expect(logText()).toContain('135791');
    expect(logText()).not.toContain('someone@example.net');
  });
});

describe('redacting URLs', () => {
  it('replaces the values of secret-looking parameters, by name', () => {
    expect(redactUrl('/sso_login?token=abc&redirect=%2Fmember')).toBe('/sso_login?token=[redacted]&redirect=%2Fmember');
    expect(redactUrl('/x?password=a&new_password=b&otp=1&code=2&secret=3&password_hash=4&key=5&sso_token=6&page=2')).toBe(
      '/x?password=[redacted]&new_password=[redacted]&otp=[redacted]&code=[redacted]&secret=[redacted]&password_hash=[redacted]&key=[redacted]&sso_token=[redacted]&page=2',
    );
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[redacted]');
    expect(redactUrl('/x?%ZZ=1&Token=2')).toBe('/x?%ZZ=1&Token=[redacted]');
    expect(redactUrl('/member/home')).toBe('/member/home');
  });
});

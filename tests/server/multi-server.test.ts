// @vitest-environment node
/**
 * Several servers on one database answer as one: two app instances, each with its own caches, counters in
 * memory (none) and connections, on one database. With TEST_DATABASE_URL (.ci/run) they share one PostgreSQL
 * database through two connection pools; without it, one in-memory PGlite database in this process — which
 * still shows that the state lives in the database, not in an instance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../support/server';
import { buildApp } from '../../server/app';
import { openDatabase, type Database } from '../../server/db/client';
import { adjustWallet } from '../../server/lib/ledger';
import * as money from '../../server/lib/money';
import { bulkMembers, freshIp, get, lastCode, login, post, call } from './helpers';
import { setKyc, setPayoutMethod } from './wallet-support';
import { LIMITS } from '../../server/lib/rate-limit';

let s: TestServer;
let a: FastifyInstance;
let b: FastifyInstance;
let secondDatabase: Database;

beforeAll(async () => {
  s = await startTestServer();
  a = s.app;
  // The second server: its own app (settings cache, page cache, throttle) and, on PostgreSQL, its own pool.
  secondDatabase = s.config.databaseUrl ? await openDatabase({ dataDir: null, databaseUrl: s.config.databaseUrl }) : s.database;
  // It keeps verified sessions far longer than any test runs: only the announced changes can drop them.
  b = await buildApp(secondDatabase, { ...s.config, sessionCacheMs: 600_000 });
  await b.ready();
});
afterAll(async () => {
  await b?.close();
  if (secondDatabase && secondDatabase !== s.database) await secondDatabase.close();
  await s?.close();
});

it(`runs on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL, two connection pools' : 'PGlite, one database shared in-process'}`, () => {
  expect(a).not.toBe(b);
  expect(a.ctx.settings).not.toBe(b.ctx.settings);
  expect(secondDatabase.kind).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  if (process.env.TEST_DATABASE_URL) expect(secondDatabase).not.toBe(s.database);
});

let next = 0;
const member = async () => (await bulkMembers(s.database, 1, 30 + next++))[0];

describe('the sign-in limit', () => {
  it('counts failures made on either server against the same account', async () => {
    const m = await member();
    const signIn = (app: FastifyInstance, password: string, body: object = { login_using: 'username', username: m.username }) =>
      post(app, '/api/auth/login', { ...body, password }, { ip: freshIp() });
    for (const [i, app] of [a, b, a, b, a].entries()) {
      const r = await signIn(app, `Wrong-pass-${i}`, i % 2 ? { login_using: 'email', email: m.email } : undefined);
      expect(r.status).toBe(422);
    }
    for (const app of [a, b]) {
      const refused = await signIn(app, TEST_PASSWORD);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('counts one address spraying usernames over both servers', async () => {
    const ip = freshIp();
    const max = a.ctx.throttle.max(LIMITS.signInFailuresPerIp);
    const victims = await bulkMembers(s.database, max + 1, 120);
    for (const [i, v] of victims.slice(0, -1).entries()) {
      expect((await post(i % 2 ? a : b, '/api/auth/login', { login_using: 'username', username: v.username, password: 'Spring-2026!' }, { ip })).status).toBe(422);
    }
    const last = victims.at(-1)!;
    expect((await post(a, '/api/auth/login', { login_using: 'username', username: last.username, password: TEST_PASSWORD }, { ip })).status).toBe(429);
    expect((await post(b, '/api/auth/login', { login_using: 'username', username: last.username, password: TEST_PASSWORD }, { ip })).status).toBe(429);
  });
});

describe('a one-time code', () => {
  it('sent by one server signs in on the other, once; a resend too soon is refused by either', async () => {
    const m = await member();
    expect((await post(a, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() })).status).toBe(200);
    const early = await post(b, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    expect(early.status).toBe(429);
    const code = await lastCode(s.database, m.email);
    const ok = await post(b, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip: freshIp() });
    expect(ok.status).toBe(200);
    expect(ok.body.data.user.username).toBe(m.username);
    // The session it opened is known to both; the code is used up on both.
    expect((await get(a, '/api/auth_check', { token: ok.body.data.token })).status).toBe(200);
    const again = await post(a, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip: freshIp() });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ otp: ['validation:otpInvalid'] });
  });
});

describe('a payout idempotency key', () => {
  it('replays the first answer on the other server, and one payout is made', async () => {
    const m = await member();
    await adjustWallet(s.database.db, { memberId: m.id, amount: money.parse('500'), memo: 'test funds' });
    await setKyc(s, m.id, 'approved');
    await setPayoutMethod(s, m.id);
    const { token } = await login(a, m.username);
    const key = randomUUID();
    const request = (app: FastifyInstance) =>
      call(app, 'POST', '/api/payout/request_payout', { amount: '100', password: TEST_PASSWORD }, { token, headers: { 'idempotency-key': key } });
    const [first, second] = await Promise.all([request(a), request(b)]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.data).toEqual(first.body.data);
    expect([first.headers['idempotent-replayed'], second.headers['idempotent-replayed']].filter((h) => h === 'true')).toHaveLength(1);
    const third = await request(b);
    expect(third.headers['idempotent-replayed']).toBe('true');
    const [{ n }] = await s.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM payout_requests WHERE member_id = ${m.id}`);
    expect(Number(n)).toBe(1);
  });
});

describe('company settings', () => {
  it('changed through one server are answered by the other at once', async () => {
    const fields = async () => (await get(b, '/api/auth/login_fields')).body.data.login_with_otp as boolean;
    expect(await fields()).toBe(true);
    const versionBefore = await b.ctx.settings.currentVersion();
    const auth = await a.ctx.settings.get('auth');
    await a.ctx.settings.set('auth', { ...auth, login_with_otp: false });
    try {
      // The notice travels between the servers (LISTEN/NOTIFY); the version row backs it up within seconds.
      const deadline = Date.now() + 5000;
      while ((await fields()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await fields()).toBe(false);
      // What the other server derived from the settings (its rendered /login pages) is dropped with them.
      expect(await b.ctx.settings.currentVersion()).toBeGreaterThan(versionBefore);
    } finally {
      await a.ctx.settings.set('auth', auth);
    }
  });

  it('changed by hand in the database (no server involved) reach both servers', async () => {
    const name = async (app: FastifyInstance) => (await get(app, '/api/auth/dummy?load_modules=1')).body.loaded_modules.company.name as string;
    const before = await name(a);
    expect(await name(b)).toBe(before);
    await s.database.rows(sql`UPDATE settings SET value = jsonb_set(value, '{name}', '"Renamed Company"') WHERE key = 'company'`);
    try {
      const deadline = Date.now() + 5000;
      while ((await name(a) !== 'Renamed Company' || (await name(b)) !== 'Renamed Company') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect([await name(a), await name(b)]).toEqual(['Renamed Company', 'Renamed Company']);
    } finally {
      await s.database.rows(sql`UPDATE settings SET value = jsonb_set(value, '{name}', ${JSON.stringify(before)}::jsonb) WHERE key = 'company'`);
    }
  });
});

describe('company data the member pages show (packages, ranks, articles, events)', () => {
  it('changed by hand in the database reaches both servers, though each keeps it cached', async () => {
    const { token } = await login(a, 'demo');
    const packageName = async (app: FastifyInstance) => (await get(app, '/api/home/dashboard', { token })).body.data.package_name as string | null;
    const before = await packageName(a);
    expect(before).not.toBeNull();
    expect(await packageName(b)).toBe(before);
    await s.database.rows(sql`UPDATE packages SET name = 'Renamed Package' WHERE name = ${before}`);
    try {
      const deadline = Date.now() + 5000;
      while (((await packageName(a)) !== 'Renamed Package' || (await packageName(b)) !== 'Renamed Package') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect([await packageName(a), await packageName(b)]).toEqual(['Renamed Package', 'Renamed Package']);
    } finally {
      await s.database.rows(sql`UPDATE packages SET name = ${before} WHERE name = 'Renamed Package'`);
    }
  });
});

describe('a signed-in session, which each server keeps in memory once verified', () => {
  const settle = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 5000;
    while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  };

  it('ended through one server is refused by the other at once', async () => {
    const m = await member();
    const { token } = await login(a, m.username);
    expect((await get(b, '/api/auth_check', { token })).status).toBe(200);
    expect((await get(a, '/api/auth_check', { token })).status).toBe(200);
    expect((await post(a, '/api/auth/logout', {}, { token })).status).toBe(200);
    // The server that ended it refuses it on the very next call; the other as soon as it hears of it.
    expect((await get(a, '/api/auth_check', { token })).status).toBe(401);
    await settle(async () => (await get(b, '/api/auth_check', { token })).status === 401);
    expect((await get(b, '/api/auth_check', { token })).status).toBe(401);
  });

  it('of a member blocked or renamed by hand in the database (no server involved) is seen so by both servers', async () => {
    const m = await member();
    const { token } = await login(a, m.username);
    const answers = async () => [(await get(a, '/api/auth_check', { token })).status, (await get(b, '/api/auth_check', { token })).status];
    expect(await answers()).toEqual([200, 200]);
    await s.database.rows(sql`UPDATE members SET first_name = 'Renamed' WHERE id = ${m.id}`);
    const names = async () => [(await get(a, '/api/auth_check', { token })).body.data.first_name, (await get(b, '/api/auth_check', { token })).body.data.first_name];
    await settle(async () => (await names()).every((n) => n === 'Renamed'));
    expect(await names()).toEqual(['Renamed', 'Renamed']);
    await s.database.rows(sql`UPDATE members SET status = 0 WHERE id = ${m.id}`);
    await settle(async () => (await answers()).every((x) => x === 403));
    expect(await answers()).toEqual([403, 403]);
  });
});

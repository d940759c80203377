/** Small helpers shared by the server tests: calls through `inject`, codes from the outbox, DB tweaks. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import type { SettingsMap } from '../../server/lib/settings';
import { apiHeaders, TEST_PASSWORD } from '../support/server';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

export interface CallOptions {
  token?: string;
  ip?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Raw payload (string) instead of a JSON body. */
  raw?: string;
  contentType?: string;
}

export async function call<T = any>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE' | 'PUT',
  url: string,
  body?: unknown,
  opts: CallOptions = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...apiHeaders(opts.token), ...opts.headers };
  let payload: string | undefined;
  if (opts.raw !== undefined) {
    payload = opts.raw;
    headers['content-type'] = opts.contentType ?? 'application/json';
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const res = await app.inject({ method, url, headers, payload, query: opts.query, remoteAddress: opts.ip ?? '127.0.0.1' });
  let parsed: unknown = res.body;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body: parsed as T, headers: res.headers as Record<string, unknown> };
}

export const post = <T = any>(app: FastifyInstance, url: string, body?: unknown, opts?: CallOptions) => call<T>(app, 'POST', url, body, opts);
export const get = <T = any>(app: FastifyInstance, url: string, opts?: CallOptions) => call<T>(app, 'GET', url, undefined, opts);

/** Every IP used by a test is fresh, so per-IP limits of one test do not leak into another. */
let ipCounter = 10;
export const freshIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

export async function login(app: FastifyInstance, username: string, password = TEST_PASSWORD) {
  const res = await post(app, '/api/auth/login', { login_using: 'username', username, password }, { ip: freshIp() });
  if (res.status !== 200) throw new Error(`login of ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { token: string; sso_token: string | null; store_token: string | null; user: { id: number; username: string } };
}

export async function rows<T = Record<string, any>>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return database.rows<T>(query);
}

/** The six-digit code of the latest outbox message to `destination`, or null. */
export async function lastCode(database: Database, destination: string): Promise<string | null> {
  const [row] = await database.rows<{ body: string }>(sql`SELECT body FROM outbox WHERE destination = ${destination} ORDER BY id DESC LIMIT 1`);
  return row ? (/\b(\d{6})\b/.exec(row.body)?.[1] ?? null) : null;
}

export async function outboxCount(database: Database, destination: string): Promise<number> {
  const [row] = await database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM outbox WHERE destination = ${destination}`);
  return Number(row.n);
}

/** Pretend the latest code of (purpose, destination) was issued `seconds` earlier (resend delay, expiry). */
export async function ageLastCode(database: Database, purpose: string, destination: string, seconds: number) {
  await database.rows(sql`
    UPDATE otp_codes SET created_at = created_at - make_interval(secs => ${seconds}), expires_at = expires_at - make_interval(secs => ${seconds})
    WHERE id = (SELECT id FROM otp_codes WHERE purpose = ${purpose} AND destination = ${destination} ORDER BY created_at DESC LIMIT 1)`);
}

/** Ordinary seeded members (not the named ones), active, with their contact data. */
export async function bulkMembers(database: Database, n: number, offset = 0) {
  return database.rows<{ id: number; username: string; email: string; mobile_code: string; mobile: string; path: string }>(
    sql`SELECT id, username, email, mobile_code, mobile, path FROM members WHERE id > 4 AND status = 1 AND verified ORDER BY id LIMIT ${n} OFFSET ${offset}`,
  );
}

/** Ids of members whose tree counters disagree with a recount from the paths (empty when all are exact). */
export async function wrongCounters(database: Database): Promise<number[]> {
  const bad = await database.rows<{ id: number }>(sql`
    SELECT m.id FROM members m
    WHERE m.path <> '' AND (
      m.downline_count <> (SELECT count(*) FROM members d WHERE d.path LIKE m.path || '%' AND d.id <> m.id)
      OR m.child_count <> (SELECT count(*) FROM members c WHERE c.parent_id = m.id)
      OR m.left_count <> coalesce((SELECT count(*) FROM members c JOIN members d ON d.path LIKE c.path || '%'
                                    WHERE c.parent_id = m.id AND c.position = 'L'), 0)
      OR m.right_count <> coalesce((SELECT count(*) FROM members c JOIN members d ON d.path LIKE c.path || '%'
                                    WHERE c.parent_id = m.id AND c.position = 'R'), 0)
    )`);
  return bad.map((r) => r.id);
}

export { TEST_PASSWORD };

/** Runs `fn` with setting `key` patched, and puts the setting back afterwards whatever happens. */
export async function withSettings<K extends keyof SettingsMap>(app: FastifyInstance, key: K, patch: Partial<SettingsMap[K]>, fn: () => Promise<void>) {
  const before = await app.ctx.settings.get(key);
  await app.ctx.settings.set(key, { ...(before as object), ...(patch as object) } as SettingsMap[K]);
  try {
    await fn();
  } finally {
    await app.ctx.settings.set(key, before);
  }
}

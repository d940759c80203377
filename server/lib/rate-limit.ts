/**
 * Throttling, kept in the database so that every server process on it counts together (several processes,
 * several machines behind one load balancer): a limit counts the hits of one key (an IP, a destination, a
 * member) in a fixed window and refuses the hit after `max` with 429 and `Retry-After` (the seconds left in
 * the window). Counts are scaled by the deployment's rateLimitScale (tests relax them).
 *
 * A route names its limits in its config — `config: throttle([LIMITS.codeSendsPerIp, perIp], …)` — and they
 * are counted after validation (the key may use the parsed body) and before the route's own handlers.
 * Code that counts by hand (sign-in, server/lib/sign-in-throttle.ts) uses `Throttle.take` / `giveBack`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { tokenHash } from './crypto';
import { rateLimited } from './errors';

export interface Limit {
  /** Names the counter (and the limit in the docs). */
  name: string;
  /** Hits allowed per window (before scaling). */
  max: number;
  /** Length of the window. */
  seconds: number;
  /** Count each route apart (the same key on two routes is two counters). */
  perRoute?: boolean;
}

const MINUTES = 60;

/** Every windowed limit of the API, in one place. */
export const LIMITS = {
  /** Failed sign-ins (password, any account) from one IP: spraying many names from one address. */
  signInFailuresPerIp: { name: 'sign_in_failures_ip', max: 20, seconds: 15 * MINUTES },
  /** One-time codes sent at the request of one IP (sign-in, reset, signup), to anyone. */
  codeSendsPerIp: { name: 'code_sends_ip', max: 10, seconds: 15 * MINUTES },
  /** One-time codes sent to one e-mail address or phone, whoever asks (besides the 30 s between two codes). */
  codeSendsPerDestination: { name: 'code_sends_to', max: 5, seconds: 60 * MINUTES },
  /** Codes, signup keys and SSO tokens tried from one IP. */
  codeChecksPerIp: { name: 'code_checks_ip', max: 20, seconds: 10 * MINUTES },
  /** Referral checks (they tell a member's username from anything else) from one IP. */
  referralChecksPerIp: { name: 'referral_checks_ip', max: 30, seconds: 10 * MINUTES },
  /** CSV exports of one member (up to 10 000 rows each), all lists together. */
  exportsPerMember: { name: 'exports_member', max: 10, seconds: 10 * MINUTES },
  /** Signups from one IP. */
  signupsPerIp: { name: 'signups_ip', max: 20, seconds: 10 * MINUTES },
  /** Demo requests from one IP. */
  demoRequestsPerIp: { name: 'demo_requests_ip', max: 10, seconds: 10 * MINUTES },
  /** Checks of a signed-in member's current password (password change, account removal). */
  passwordChecksPerMember: { name: 'password_checks_member', max: 10, seconds: 10 * MINUTES },
  /** Payout requests of one member. */
  payoutsPerMember: { name: 'payouts_member', max: 20, seconds: 1 * MINUTES },
} satisfies Record<string, Limit>;

/** Whom a hit is counted for; null counts nothing (e.g. no member: the route's own check answers). */
export type KeyOf = (req: FastifyRequest) => string | null;

export const perIp: KeyOf = (req) => req.ip;
export const perMember: KeyOf = (req) => (req.member ? `m:${req.member.id}` : null);

/** Route config naming the limits a call counts against, in order. */
export function throttle(...rules: Array<[Limit, KeyOf]>) {
  return { throttle: rules };
}

export const MINUTE = 60_000;

/**
 * A route's own limit, for routes without one in LIMITS: `config: limit(max, windowMs, key)` counts `max`
 * calls per window per key on this route alone (in the database, like every limit).
 */
export function routeLimits(_config?: Pick<Config, 'rateLimitScale'>) {
  return (max: number, timeWindow: number, key: KeyOf) =>
    throttle([{ name: 'route', max, seconds: Math.max(1, Math.round(timeWindow / 1000)), perRoute: true }, key]);
}

export class Throttle {
  constructor(
    private readonly database: Database,
    private readonly config: Pick<Config, 'rateLimitScale'>,
  ) {}

  /** `max` of `limit` for this deployment. */
  max(limit: Limit) {
    return Math.max(1, Math.round(limit.max * this.config.rateLimitScale));
  }

  /** Count one hit of `key`; throws 429 (with the seconds left in the window) when it is one too many. */
  async take(limit: Limit, key: string): Promise<void> {
    const [row] = await this.database.rows<{ hits: number; wait: number }>(sql`
      INSERT INTO throttle_counters AS c (key, hits, reset_at)
      VALUES (${counterKey(limit, key)}, 1, now() + make_interval(secs => ${limit.seconds}))
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN c.reset_at <= now() THEN 1 ELSE c.hits + 1 END,
        reset_at = CASE WHEN c.reset_at <= now() THEN excluded.reset_at ELSE c.reset_at END
      RETURNING hits, greatest(1, ceil(extract(epoch FROM reset_at - now())))::int AS wait`);
    if (Number(row.hits) > this.max(limit)) throw rateLimited(Number(row.wait));
  }

  /** Take back one hit of `key` (an attempt that turned out to be fine). */
  async giveBack(limit: Limit, key: string): Promise<void> {
    await this.database.rows(sql`
      UPDATE throttle_counters SET hits = greatest(0, hits - 1) WHERE key = ${counterKey(limit, key)} AND reset_at > now()`);
  }

  /** Forget the counts past their window (and old failed sign-ins of nobody); returns how many rows went. */
  async sweep(): Promise<number> {
    const a = await this.database.rows(sql`DELETE FROM throttle_counters WHERE reset_at <= now() RETURNING 1 AS gone`);
    const b = await this.database.rows(sql`
      DELETE FROM sign_in_failures
      WHERE (account NOT LIKE 'm:%' AND last_failure_at < now() - interval '30 days') OR (failures = 0 AND blocked_until <= now())
      RETURNING 1 AS gone`);
    return a.length + b.length;
  }
}

/** The stored key: the limit's name and a hash of whom it counts (no address or e-mail kept in clear). */
const counterKey = (limit: Limit, key: string) => `${limit.name}:${tokenHash(key).slice(0, 32)}`;

export const SWEEP_EVERY_MS = 10 * 60_000;

/** Count every route's `throttle` config before its handlers, and sweep old counters now and then. */
export function registerThrottle(app: FastifyInstance, limiter: Throttle) {
  const count = async (req: FastifyRequest, rules: Array<[Limit, KeyOf]>) => {
    for (const [limit, keyOf] of rules) {
      const key = keyOf(req);
      if (key !== null) await limiter.take(limit, limit.perRoute ? `${req.method} ${req.routeOptions.url}|${key}` : key);
    }
  };
  // A route without limits goes on at once (nothing to wait for).
  app.addHook('preHandler', (req, _reply, done) => {
    const rules = req.routeOptions.config?.throttle;
    if (!rules) return done();
    count(req, rules).then(() => done(), done);
  });
  const timer = setInterval(() => {
    limiter.sweep().catch((err) => app.log.warn({ err }, 'throttle counters were not swept'));
  }, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    throttle?: Array<[Limit, KeyOf]>;
  }
}

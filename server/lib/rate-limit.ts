/** Per-route rate limits (@fastify/rate-limit), scaled by the deployment's rateLimitScale. */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * `limit(max, timeWindow, key)`: at most `max` calls per `timeWindow` ms per key, counted after validation
 * so that the key can use the parsed body.
 */
export function routeLimits(config: Pick<Config, 'rateLimitScale'>) {
  const scaled = (n: number) => Math.max(1, Math.round(n * config.rateLimitScale));
  return (max: number, timeWindow: number, key: (req: FastifyRequest) => string) => ({
    rateLimit: { max: scaled(max), timeWindow, hook: 'preHandler' as const, keyGenerator: key },
  });
}

export const perIp = (req: FastifyRequest) => req.ip;

export const MINUTE = 60_000;

/**
 * One setting of the signed-in member as a GET/PUT pair: GET answers it, PUT (signed in, not in demo mode,
 * throttled per member) changes it and answers the new state. Only ever about the caller: the member comes
 * from the bearer token, never from the body or the path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import type { MemberRow } from '../db/schema';
import { envelope } from '../../src/schemas/common.schema';
import type { AppContext } from './app-context';
import { protectedAction, requireAuth } from './auth';
import { MINUTE, routeLimits } from './rate-limit';

export interface MemberSettingDeclaration<A extends z.ZodMiniType, B extends z.ZodMiniType> {
  path: string;
  tags: string[];
  describe: { get: string; put: string };
  answer: A;
  body: B;
  /** Changes per member in ten minutes. */
  changesPer10Minutes: number;
  read: (member: MemberRow) => Promise<z.infer<A>>;
  save: (member: MemberRow, body: z.infer<B>, ip: string) => Promise<z.infer<A>>;
}

export function memberSettingEndpoints<A extends z.ZodMiniType, B extends z.ZodMiniType>(base: FastifyInstance, ctx: AppContext, d: MemberSettingDeclaration<A, B>) {
  // Plain route typing: the zod schemas still validate the body and the answer (the compilers are global); the
  // generic schemas are beyond the type provider's inference.
  const app = base;
  const limit = routeLimits(ctx.config);
  const perMember = (req: FastifyRequest) => `${d.path}|${req.member?.id ?? req.ip}`;
  app.get(
    d.path,
    { preHandler: requireAuth, schema: { tags: d.tags, description: d.describe.get, response: { 200: envelope(d.answer) } } },
    async (req) => ctx.envelope(req, await d.read(req.member!)),
  );
  app.put(
    d.path,
    {
      preValidation: [requireAuth, protectedAction(ctx.isDemo)],
      config: limit(d.changesPer10Minutes, 10 * MINUTE, perMember),
      schema: { tags: d.tags, description: d.describe.put, body: d.body, response: { 200: envelope(d.answer) } },
    },
    async (req) => ctx.envelope(req, await d.save(req.member!, req.body as z.infer<B>, req.ip)),
  );
}

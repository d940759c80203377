/**
 * Support snapshots (not named by the spec): a member sends the diagnostic snapshot of their app (already
 * redacted in the browser) and reads back their own; support staff read any one by id with an operator
 * token (X-Operator-Token, from `npm run operator -- token create`) to open it in the replay.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { storedSnapshotSchema, supportSnapshotSchema } from '../../src/schemas/support-snapshot.schema';
import { requireAuth } from '../lib/auth';
import { fieldError, notFound } from '../lib/errors';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { inlineScriptHashes, pagePolicy } from '../lib/security-headers';
import { memberSnapshots, snapshotBody, storeSnapshot, verifyOperatorToken } from '../lib/support-snapshot';

/** A snapshot is the app's state, the last 200 events and answers: a few hundred kilobytes at most. */
export const SNAPSHOT_BODY_LIMIT = 2 * 1024 * 1024;
/** Sent by hand or on an unexpected error: a few dozen an hour at most. */
export const SNAPSHOTS_PER_HOUR = 30;
const idParams = z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{10,40}$/, 'validation:invalid')) });

const perMember = (req: FastifyRequest) => `support_snapshot|${req.member?.id ?? req.ip}`;
const perIp = (req: FastifyRequest) => `support_replay|${req.ip}`;

const sendJson = (reply: { header(k: string, v: string): unknown; type(t: string): unknown; send(b: string): unknown }, name: string, body: unknown) => {
  reply.header('Content-Disposition', `attachment; filename="${name}"`);
  reply.header('Cache-Control', 'no-store');
  reply.type('application/json; charset=utf-8');
  return reply.send(JSON.stringify(body));
};

export async function supportSnapshotRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);

  // The support replay's page (replay.html, its own entry of the build); staff sign in on it with a token.
  app.get('/support/replay', { schema: { hide: true } }, async (_req, reply) => {
    const file = ctx.config.staticDir ? path.join(ctx.config.staticDir, 'replay.html') : null;
    if (!file || !existsSync(file)) throw notFound('The replay is not built');
    const html = readFileSync(file, 'utf8');
    reply.header('Cache-Control', 'no-store');
    reply.header('X-Robots-Tag', 'noindex');
    reply.header('Content-Security-Policy', pagePolicy(inlineScriptHashes(html)));
    return reply.type('text/html; charset=utf-8').send(html);
  });

  app.post(
    '/api/support/snapshots',
    {
      preHandler: requireAuth,
      bodyLimit: SNAPSHOT_BODY_LIMIT,
      config: limit(SNAPSHOTS_PER_HOUR, 60 * MINUTE, perMember),
      schema: {
        tags: ['support'],
        description: 'Keep a diagnostic snapshot of the signed-in member’s app for support (redacted by the app before it is sent); answers its id.',
        body: supportSnapshotSchema,
        response: { 201: envelope(z.object({ snapshot: storedSnapshotSchema })) },
      },
    },
    async (req, reply) => {
      // PostgreSQL's JSON cannot hold a NUL character: such text is refused, not stored.
      if (JSON.stringify(req.body).includes('\\u0000')) throw fieldError('snapshot', 'validation:invalid');
      const snapshot = await storeSnapshot(db, req.member!.id, req.body);
      reply.code(201);
      return ctx.envelope(req, { snapshot });
    },
  );

  app.get(
    '/api/support/snapshots',
    {
      preHandler: requireAuth,
      schema: { tags: ['support'], description: 'The signed-in member’s diagnostic snapshots, newest first.', response: { 200: envelope(z.object({ snapshots: z.array(storedSnapshotSchema) })) } },
    },
    async (req) => ctx.envelope(req, { snapshots: await memberSnapshots(db, req.member!.id) }),
  );

  app.get(
    '/api/support/snapshots/:id',
    {
      preHandler: requireAuth,
      schema: { tags: ['support'], description: 'Download one of the signed-in member’s own snapshots as a JSON file (another member’s: 404).', params: idParams, produces: ['application/json'] },
    },
    async (req, reply) => sendJson(reply, `upline-support-${req.params.id}.json`, await snapshotBody(db, req.params.id, req.member!.id)),
  );

  app.get(
    '/api/support/replay/snapshots/:id',
    {
      config: limit(120, 10 * MINUTE, perIp),
      schema: {
        tags: ['support'],
        description: 'Any member’s snapshot, for support staff: needs an operator token in X-Operator-Token (401 without a valid one).',
        params: idParams,
        headers: z.object({ 'x-operator-token': z.optional(z.string()) }),
        produces: ['application/json'],
      },
    },
    async (req, reply) => {
      await verifyOperatorToken(db, req.headers['x-operator-token']);
      return sendJson(reply, `upline-support-${req.params.id}.json`, await snapshotBody(db, req.params.id, null));
    },
  );
}

/**
 * Mail (spec §2 Mail): GET /api/mail/inbox, /api/mail/sent and /api/mail/bin (keyset pages; keyword over
 * subject and person, unread=1), GET /api/mail/counts, GET /api/mail/recipients (whom the caller may write
 * to), GET /api/mail/threads/{id} (a conversation), PUT /api/mail/threads/{id}/read, GET /api/mail/sent/{id}
 * (a sent item), POST /api/mail/messages and /api/mail/threads/{id}/reply (multipart: fields and files under
 * attachments[]), DELETE /api/mail/messages/{id} (to the bin) and POST /api/mail/messages/{id}/restore, and
 * GET /api/mail/attachments/{id} (to the message's sender and recipient only). Another member's thread,
 * message or file answers 404.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { messageSchema } from '../../src/schemas/auth.schema';
import {
  mailConversationSchema,
  mailCountsSchema,
  mailListQuery,
  mailListSchema,
  mailMessageSchema,
  mailReadRequestSchema,
  mailRecipientListSchema,
  mailRecipientsQuery,
} from '../../src/schemas/mail.schema';
import { requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { listEndpoint } from '../lib/list-endpoint';
import {
  MAIL_UPLOAD_POLICY,
  binMessage,
  binRows,
  conversation,
  inboxRows,
  mailCounts,
  mailFilters,
  mailRecipients,
  markThread,
  replyMail,
  sendMail,
  sendMailAttachment,
  sentItem,
  sentRows,
} from '../lib/mail';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { readUploadRequest, uploadRoute } from '../lib/uploads';

const tags = ['mail'];
const perMember = (req: FastifyRequest) => `mail|${req.member?.id ?? req.ip}`;
const recordId = (text: string) => {
  if (!/^\d{1,15}$/.test(text)) throw notFound();
  return Number(text);
};
const idParams = z.object({ id: z.string() });
const sentAnswer = z.object({ thread_id: z.number(), message_id: z.number() });

export async function mailRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const limit = routeLimits(ctx.config);

  for (const [path, rows] of [
    ['/api/mail/inbox', inboxRows],
    ['/api/mail/sent', sentRows],
    ['/api/mail/bin', binRows],
  ] as const) {
    listEndpoint(base, ctx, { path, tags, querystring: mailListQuery, response: mailListSchema, filters: mailFilters, rows });
  }

  app.get(
    '/api/mail/counts',
    { preHandler: requireAuth, schema: { tags, description: 'Unread, inbox, sent and bin counts of the signed-in member.', response: { 200: envelope(mailCountsSchema) } } },
    async (req) => ctx.envelope(req, await mailCounts(db, req.member!.id)),
  );

  app.get(
    '/api/mail/recipients',
    {
      preHandler: requireAuth,
      schema: {
        tags,
        description: 'Whom the signed-in member may write to, matching `keyword`: the company, their sponsor and upline, their downline.',
        querystring: mailRecipientsQuery,
        response: { 200: envelope(mailRecipientListSchema) },
      },
    },
    async (req) => ctx.envelope(req, await mailRecipients(db, req.member!, req.query.keyword)),
  );

  app.get(
    '/api/mail/threads/:id',
    { preHandler: requireAuth, schema: { tags, description: 'A thread the signed-in member takes part in, oldest message first (any other → 404).', params: idParams, response: { 200: envelope(mailConversationSchema) } } },
    async (req) => ctx.envelope(req, await conversation(db, req.member!.id, recordId(req.params.id))),
  );

  app.put(
    '/api/mail/threads/:id/read',
    {
      preHandler: requireAuth,
      config: limit(120, MINUTE, perMember),
      schema: { tags, description: 'Mark what the member received in the thread read (read: true) or its latest message unread.', params: idParams, body: mailReadRequestSchema, response: { 200: envelope(mailCountsSchema) } },
    },
    async (req) => ctx.envelope(req, await markThread(db, req.member!.id, recordId(req.params.id), req.body.read)),
  );

  app.get(
    '/api/mail/sent/:id',
    { preHandler: requireAuth, schema: { tags, description: 'A message the signed-in member sent (any other → 404).', params: idParams, response: { 200: envelope(mailMessageSchema) } } },
    async (req) => ctx.envelope(req, await sentItem(db, req.member!.id, recordId(req.params.id))),
  );

  app.delete(
    '/api/mail/messages/:id',
    {
      preHandler: requireAuth,
      config: limit(120, MINUTE, perMember),
      schema: { tags, description: "Move a message of the member's to their bin (the other side keeps it).", params: idParams, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      await binMessage(db, req.member!.id, recordId(req.params.id), true);
      return ctx.envelope(req, { message: 'The message is in the bin.' });
    },
  );

  app.post(
    '/api/mail/messages/:id/restore',
    {
      preHandler: requireAuth,
      config: limit(120, MINUTE, perMember),
      schema: { tags, description: 'Take a message back out of the bin.', params: idParams, response: { 200: envelope(messageSchema) } },
    },
    async (req) => {
      await binMessage(db, req.member!.id, recordId(req.params.id), false);
      return ctx.envelope(req, { message: 'The message is back.' });
    },
  );

  app.get(
    '/api/mail/attachments/:id',
    { preHandler: requireAuth, schema: { tags, description: 'A file attached to a message the member sent or received (anyone else → 404).', params: idParams } },
    async (req, reply) => sendMailAttachment(reply, db, ctx.config, req.member!.id, recordId(req.params.id)),
  );

  const files = 'Files under `attachments[]`: JPG, PNG, WebP or PDF by their content, 10 MB each, at most 5 (too large or too many → 413; another type → 422).';
  await uploadRoute(
    app,
    ctx.isDemo,
    {
      path: '/api/mail/messages',
      tags,
      description:
        'Send a new message (multipart/form-data): `to` (a username of the sponsor, upline or downline, or @company), `subject`, `body` ' +
        `(HTML, cleaned by the server). Anyone else as \`to\` → 422. ${files}`,
      response: { 201: envelope(sentAnswer) },
      config: limit(20, 10 * MINUTE, perMember),
    },
    async (req, reply) => {
      const upload = await readUploadRequest(req, MAIL_UPLOAD_POLICY);
      const r = await sendMail(ctx, req.member!, upload, req.ip);
      return reply.status(201).send(await ctx.envelope(req, { thread_id: r.threadId, message_id: r.messageId }));
    },
  );

  await uploadRoute(
    app,
    ctx.isDemo,
    {
      path: '/api/mail/threads/:id/reply',
      tags,
      description: `Reply in a thread the member takes part in (multipart/form-data): \`body\` (HTML). Any other thread → 404. ${files}`,
      response: { 201: envelope(sentAnswer) },
      config: limit(20, 10 * MINUTE, perMember),
    },
    async (req, reply) => {
      const threadId = recordId((req.params as { id: string }).id);
      const upload = await readUploadRequest(req, MAIL_UPLOAD_POLICY);
      const r = await replyMail(ctx, req.member!, threadId, upload, req.ip);
      return reply.status(201).send(await ctx.envelope(req, { thread_id: r.threadId, message_id: r.messageId }));
    },
  );
}

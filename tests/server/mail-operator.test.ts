// @vitest-environment node
/**
 * `npm run operator -- message …`: staff write to a member from the company, read what members wrote to
 * the company, and answer in a thread — the member reads it through the API, with the badge raised.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startTestServer, type TestServer } from '../support/server';
import { get, login } from './helpers';
import { postMultipart } from './upload-support';
import { Outbox } from '../../server/lib/outbox';
import { SettingsService } from '../../server/lib/settings';
import { runOperator } from '../../server/operator/run';
import { textToHtml } from '../../server/operator/mail.operator';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

async function operator(...argv: string[]) {
  const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => log } as unknown as FastifyBaseLogger;
  const services = { database: s.database, config: s.config, outbox: new Outbox(s.database.db, log), settings: new SettingsService(s.database.db, () => false) };
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOperator(services, argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run operator -- message', () => {
  it('sends from the company: the member sees it unread from the company, escaped as text', async () => {
    const { token } = await login(s.app, 'demo');
    const before = (await get(s.app, '/api/home/notifications_count', { token })).body.data.message_count;
    const r = await operator('message', 'send', '--to', 'demo', '--subject', 'Office hours', 'We are open <b>Monday</b>\nto Friday.');
    expect(r.code).toBe(0);
    const thread = Number(/thread (\d+)/.exec(r.out)![1]);
    expect((await get(s.app, '/api/home/notifications_count', { token })).body.data.message_count).toBe(before + 1);
    const conv = (await get(s.app, `/api/mail/threads/${thread}`, { token })).body.data;
    expect(conv).toMatchObject({ subject: 'Office hours', reply_to: { company: true } });
    expect(conv.messages[0].body).toBe('<p>We are open &lt;b&gt;Monday&lt;/b&gt;</p><p>to Friday.</p>');
  });

  it("lists the company's inbox and answers in a thread; the member reads the answer", async () => {
    const { token } = await login(s.app, 'demo');
    const sent = await postMultipart(s.app, '/api/mail/messages', [
      { field: 'to', value: '@company' },
      { field: 'subject', value: 'Shipping question' },
      { field: 'body', value: '<p>When does my order ship?</p>' },
    ], token);
    expect(sent.status).toBe(201);
    const thread = sent.body.data.thread_id;
    const inbox = await operator('message', 'inbox', '--unread');
    expect(inbox.code).toBe(0);
    expect(inbox.out).toContain(`${thread}\tdemo\tunread\tShipping question\tWhen does my order ship?`);
    const answer = await operator('message', 'reply', String(thread), 'Tomorrow morning.');
    expect(answer.code).toBe(0);
    expect((await operator('message', 'inbox', '--unread')).out).not.toContain(`${thread}\tdemo`);
    const conv = (await get(s.app, `/api/mail/threads/${thread}`, { token })).body.data;
    expect(conv.messages.map((m: { body: string; mine: boolean }) => [m.mine, m.body])).toEqual([
      [true, '<p>When does my order ship?</p>'],
      [false, '<p>Tomorrow morning.</p>'],
    ]);
  });

  it('refuses wrong usage (2) and what the rules refuse (1)', async () => {
    expect((await operator('message', 'send', 'no recipient')).code).toBe(2);
    expect((await operator('message', 'send', '--to', 'demo')).code).toBe(2);
    expect((await operator('message', 'reply', 'x', 'text')).code).toBe(2);
    expect((await operator('message', 'send', '--to', 'nobody-here', 'hi')).code).toBe(1);
    expect((await operator('message', 'reply', '999999999', 'hi')).code).toBe(1);
  });

  it('writes text as escaped paragraphs', () => {
    expect(textToHtml('a & b\n<i>')).toBe('<p>a &#38; b</p><p>&#60;i&#62;</p>');
  });
});

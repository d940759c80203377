// @vitest-environment jsdom
/**
 * Hostile HTML in a message never comes back executable: every attack of the shared corpus, sent as one
 * body, is stored clean and answered clean to the recipient (conversation) and to the sender (sent item),
 * checked by parsing the answers with a real HTML parser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { apiHeaders } from '../support/server';
import { get, login, rows } from './helpers';
import { assertHarmless, HOSTILE_HTML } from '../support/html-corpus';
import { hasControlCharacters } from '../../src/schemas/values.schema';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** A form of text fields only, sent as multipart (no files: this environment's Blob is the DOM's). */
async function composeText(token: string, fields: Record<string, string>) {
  const boundary = '----mailtest' + Math.random().toString(16).slice(2);
  const body = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('') + `--${boundary}--\r\n`;
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/mail/messages',
    headers: { ...apiHeaders(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
    remoteAddress: '127.0.0.1',
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

describe('hostile HTML in a message', () => {
  it('is stored and answered without anything executable, and the harmless part survives', async () => {
    const demo = await login(s.app, 'demo');
    const [dl] = await rows<{ username: string }>(s.database, sql`SELECT username FROM members WHERE sponsor_id = ${demo.user.id} AND verified AND status = 1 ORDER BY id LIMIT 1`);
    const other = await login(s.app, dl.username);
    // Control characters are refused before anything else (422): the corpus is sent without those entries.
    const hostile = '<p>visible</p>' + HOSTILE_HTML.map(([input]) => input).filter((h) => !hasControlCharacters(h, true)).join('');
    const res = await composeText(demo.token, { to: dl.username, subject: 'Hostile', body: hostile });
    expect(res.status).toBe(201);
    const conv = (await get(s.app, `/api/mail/threads/${res.body.data.thread_id}`, { token: other.token })).body.data;
    assertHarmless(conv.messages[0].body);
    expect(conv.messages[0].body).toContain('<p>visible</p>');
    const item = (await get(s.app, `/api/mail/sent/${res.body.data.message_id}`, { token: demo.token })).body.data;
    assertHarmless(item.body);
    const [stored] = await rows<{ body: string }>(s.database, sql`SELECT body FROM messages WHERE id = ${res.body.data.message_id}`);
    assertHarmless(stored.body);
    const list = (await get(s.app, '/api/mail/inbox', { token: other.token })).body.data.items;
    expect(list[0].snippet).not.toMatch(/<script|onerror/i);
  });

  it('a body with a control character is refused with the field named', async () => {
    const demo = await login(s.app, 'demo');
    const res = await composeText(demo.token, { to: '@company', subject: 'x', body: '<p>a\u0007b</p>' });
    expect(res.status).toBe(422);
    expect(res.body.errors.body).toBeTruthy();
  });
});

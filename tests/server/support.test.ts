// @vitest-environment node
/**
 * Support tickets through the real server: the member's own list (status filter, paging), opening a ticket
 * with files judged by their bytes, the conversation, the statuses (member's replies, support's answers,
 * reopen of a resolved ticket, close) with the trail of every change, the answer told to the member, nothing
 * of another member's (404), and every call gone while the company's ticketing is off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { call, get, login, post, rows, withSettings } from './helpers';
import { file, pdf, photo, postMultipart, text } from './upload-support';
import { closeAsSupport, replyAsSupport, ticketsForSupport } from '../../server/lib/support';
import { erasePersonalData, readPersonalData } from '../../server/lib/personal-data';

let s: TestServer;
let demo: string;
let other: string;
beforeAll(async () => {
  s = await startTestServer();
  demo = (await login(s.app, 'demo')).token;
  const [m] = await rows<{ username: string }>(s.database, sql`SELECT username FROM members WHERE id > 4 AND status = 1 ORDER BY id LIMIT 1`);
  other = (await login(s.app, m.username)).token;
});
afterAll(async () => {
  await s?.close();
});

const fields = (over: Record<string, string> = {}) =>
  Object.entries({ category: 'payments', priority: 'high', subject: 'Missing payout', description: 'Line one\nLine two', ...over }).map(([k, v]) => text(k, v));

async function open(token = demo, extra: Parameters<typeof postMultipart>[2] = []) {
  const res = await postMultipart(s.app, '/api/support/tickets', [...fields(), ...extra], token);
  expect(res.status).toBe(201);
  return res.body.data as { id: number; status: string; messages: Array<{ attachments: Array<{ id: number; url: string; content_type: string; name: string }> }> };
}

describe('the member’s tickets', () => {
  it('demo has a ticket in every status, newest first, each status its own filter', async () => {
    const res = await get(s.app, '/api/support/tickets', { token: demo });
    expect(res.status).toBe(200);
    const statuses = res.body.data.items.map((t: { status: string }) => t.status);
    expect(new Set(statuses)).toEqual(new Set(['open', 'awaiting_member', 'answered', 'resolved', 'closed']));
    const created = res.body.data.items.map((t: { created_at: string }) => t.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    const answered = await get(s.app, '/api/support/tickets?status=answered', { token: demo });
    expect(answered.body.data.items.length).toBeGreaterThan(0);
    expect(answered.body.data.items.every((t: { status: string }) => t.status === 'answered')).toBe(true);
  });

  it('pages with a cursor', async () => {
    const first = await get(s.app, '/api/support/tickets?limit=2', { token: demo });
    expect(first.body.data.items).toHaveLength(2);
    const next = first.body.data.next_page_url as string;
    expect(next).toMatch(/cursor=/);
    const second = await get(s.app, next, { token: demo });
    expect(second.status).toBe(200);
    const ids = new Set(first.body.data.items.map((t: { id: number }) => t.id));
    expect(second.body.data.items.some((t: { id: number }) => ids.has(t.id))).toBe(false);
  });

  it('refuses a wrong status (422 field map) and needs a signed-in member', async () => {
    const bad = await get(s.app, '/api/support/tickets?status=lost', { token: demo });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.status).toBeDefined();
    expect((await get(s.app, '/api/support/tickets')).status).toBe(401);
    expect((await get(s.app, '/api/support/tickets/1')).status).toBe(401);
  });

  it('another member sees none of demo’s tickets (list empty, detail and every action 404)', async () => {
    const mine = await open();
    const list = await get(s.app, '/api/support/tickets', { token: other });
    expect(list.body.data.items.map((t: { id: number }) => t.id)).not.toContain(mine.id);
    expect((await get(s.app, `/api/support/tickets/${mine.id}`, { token: other })).status).toBe(404);
    expect((await postMultipart(s.app, `/api/support/tickets/${mine.id}/replies`, [text('body', 'hi')], other)).status).toBe(404);
    expect((await post(s.app, `/api/support/tickets/${mine.id}/close`, {}, { token: other })).status).toBe(404);
    expect((await post(s.app, `/api/support/tickets/${mine.id}/reopen`, {}, { token: other })).status).toBe(404);
    expect((await get(s.app, `/api/support/tickets/${mine.id}`, { token: demo })).status).toBe(200);
    expect((await get(s.app, '/api/support/tickets/99999999', { token: demo })).status).toBe(404);
    expect((await get(s.app, '/api/support/tickets/abc', { token: demo })).status).toBe(404);
  });
});

describe('opening a ticket', () => {
  it('opens it with its description as the first message and the trail’s first row', async () => {
    const t = await open();
    const res = await get(s.app, `/api/support/tickets/${t.id}`, { token: demo });
    const d = res.body.data;
    expect(d).toMatchObject({ subject: 'Missing payout', category: 'payments', priority: 'high', status: 'open' });
    expect(d.messages).toEqual([expect.objectContaining({ author: 'member', body: 'Line one\nLine two', attachments: [] })]);
    expect(d.events).toEqual([expect.objectContaining({ from: null, to: 'open', actor: 'member' })]);
  });

  it('answers every wrong field at once (422), nothing stored', async () => {
    const before = (await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM support_tickets`))[0].n;
    const res = await postMultipart(s.app, '/api/support/tickets', [text('category', 'cars'), text('priority', 'now'), text('subject', ''), text('description', '  '), text('extra', 'x')], demo);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['category', 'description', 'extra', 'priority', 'subject']);
    const subjectBreak = await postMultipart(s.app, '/api/support/tickets', fields({ subject: 'a\nb' }), demo);
    expect(subjectBreak.status).toBe(422);
    expect((await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM support_tickets`))[0].n).toBe(before);
  });

  it('keeps files judged by their bytes (a PDF named .jpg stays a PDF; image metadata gone), for their owner only', async () => {
    const t = await open(demo, [file('attachments[]', 'scan.jpg', pdf(), 'image/jpeg'), file('attachments[]', 'photo.png', await photo(), 'image/png')]);
    const files = t.messages[0].attachments;
    expect(files.map((f) => f.content_type)).toEqual(['application/pdf', 'image/png']);
    expect(files[0].name).toMatch(/\.pdf$/);
    const own = await call(s.app, 'GET', files[1].url, undefined, { token: demo });
    expect(own.status).toBe(200);
    expect(String(own.body)).not.toContain('private-exif-marker');
    expect((await call(s.app, 'GET', files[0].url, undefined, { token: other })).status).toBe(404);
    const [u] = await rows<{ kind: string }>(s.database, sql`SELECT kind FROM uploads WHERE id = ${files[0].id}`);
    expect(u.kind).toBe('support');
  });

  it('refuses a file that is not an allowed type (422) and too many files (413), storing nothing', async () => {
    const before = (await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM uploads WHERE kind = 'support'`))[0].n;
    const html = await postMultipart(s.app, '/api/support/tickets', [...fields(), file('attachments[]', 'x.png', Buffer.from('<script>alert(1)</script>'), 'image/png')], demo);
    expect(html.status).toBe(422);
    expect(html.body.errors.attachments).toBeDefined();
    const png = await photo();
    const many = await postMultipart(s.app, '/api/support/tickets', [...fields(), ...Array.from({ length: 6 }, (_, i) => file('attachments[]', `p${i}.png`, png, 'image/png'))], demo);
    expect(many.status).toBe(413);
    expect(many.body.errors.attachments).toEqual(['account:upload.tooManyFiles']);
    expect((await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM uploads WHERE kind = 'support'`))[0].n).toBe(before);
  });
});

describe('the conversation and the statuses', () => {
  it('support answers (member told), the member replies (open again), support resolves, the member reopens and closes; every change in the trail', async () => {
    const t = await open();
    const [m] = await rows<{ id: number }>(s.database, sql`SELECT id FROM members WHERE username = 'demo'`);
    const notices = async () => (await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM member_notices WHERE member_id = ${m.id} AND link = ${`/member/support/tickets/${t.id}`}`))[0].n;
    expect(await notices()).toBe(0);

    await replyAsSupport(s.app.ctx, t.id, 'We are looking into it.', 'awaiting_member');
    expect(await notices()).toBe(1);
    let d = (await get(s.app, `/api/support/tickets/${t.id}`, { token: demo })).body.data;
    expect(d.status).toBe('awaiting_member');
    expect(d.messages.at(-1)).toMatchObject({ author: 'support', body: 'We are looking into it.' });

    const reply = await postMultipart(s.app, `/api/support/tickets/${t.id}/replies`, [text('body', 'Here is the receipt.'), file('attachments[]', 'r.pdf', pdf(), 'application/pdf')], demo);
    expect(reply.status).toBe(201);
    expect(reply.body.data.status).toBe('open');
    expect(reply.body.data.messages.at(-1).attachments).toHaveLength(1);

    // A resolved ticket takes no reply until it is reopened.
    await replyAsSupport(s.app.ctx, t.id, 'Sent again today.', 'resolved');
    const refused = await postMultipart(s.app, `/api/support/tickets/${t.id}/replies`, [text('body', 'Thanks')], demo);
    expect(refused.status).toBe(422);
    expect(refused.body.errors._body).toEqual(['support:tickets.errors.reopenFirst']);
    const reopened = await post(s.app, `/api/support/tickets/${t.id}/reopen`, {}, { token: demo });
    expect(reopened.status).toBe(200);
    expect(reopened.body.data.status).toBe('open');
    expect((await post(s.app, `/api/support/tickets/${t.id}/reopen`, {}, { token: demo })).status).toBe(422);

    const closed = await post(s.app, `/api/support/tickets/${t.id}/close`, {}, { token: demo });
    expect(closed.body.data.status).toBe('closed');
    expect((await post(s.app, `/api/support/tickets/${t.id}/close`, {}, { token: demo })).status).toBe(422);
    const late = await postMultipart(s.app, `/api/support/tickets/${t.id}/replies`, [text('body', 'One more thing')], demo);
    expect(late.body.errors._body).toEqual(['support:tickets.errors.closed']);
    await expect(replyAsSupport(s.app.ctx, t.id, 'Too late')).rejects.toThrow();

    d = (await get(s.app, `/api/support/tickets/${t.id}`, { token: demo })).body.data;
    expect(d.events.map((e: { from: string | null; to: string; actor: string }) => [e.from, e.to, e.actor])).toEqual([
      [null, 'open', 'member'],
      ['open', 'awaiting_member', 'support'],
      ['awaiting_member', 'open', 'member'],
      ['open', 'resolved', 'support'],
      ['resolved', 'open', 'member'],
      ['open', 'closed', 'member'],
    ]);
  });

  it('a reply needs a text', async () => {
    const t = await open();
    const res = await postMultipart(s.app, `/api/support/tickets/${t.id}/replies`, [text('body', '')], demo);
    expect(res.status).toBe(422);
    expect(res.body.errors.body).toBeDefined();
  });

  it('support lists what waits for it and closes a ticket', async () => {
    const t = await open();
    expect((await ticketsForSupport(s.database.db)).map((r) => r.id)).toContain(t.id);
    const d = await closeAsSupport(s.app.ctx, t.id);
    expect(d.status).toBe('closed');
    expect(d.events.at(-1)).toMatchObject({ from: 'open', to: 'closed', actor: 'support' });
  });
});

describe('personal data', () => {
  it('the export holds the member’s tickets with their conversation; deleting the account removes them and their files', async () => {
    const [m] = await rows<{ id: number; username: string }>(s.database, sql`SELECT id, username FROM members WHERE id > 4 AND status = 1 ORDER BY id OFFSET 3 LIMIT 1`);
    const token = (await login(s.app, m.username)).token;
    const t = await open(token, [file('attachments[]', 'r.pdf', pdf(), 'application/pdf')]);
    const data = await readPersonalData(s.database.db, m.id);
    expect(data.support_tickets).toEqual([expect.objectContaining({ id: t.id, subject: 'Missing payout', messages: [expect.objectContaining({ body: 'Line one\nLine two' })] })]);
    expect((await readPersonalData(s.database.db, (await rows<{ id: number }>(s.database, sql`SELECT id FROM members WHERE username = 'demo'`))[0].id)).support_tickets).not.toContainEqual(expect.objectContaining({ id: t.id }));
    await s.database.db.transaction(async (tx) => {
      await erasePersonalData(tx as never, m.id);
    });
    expect(await rows(s.database, sql`SELECT id FROM support_tickets WHERE member_id = ${m.id}`)).toEqual([]);
    expect(await rows(s.database, sql`SELECT id FROM uploads WHERE member_id = ${m.id} AND kind = 'support'`)).toEqual([]);
  });
});

describe('with ticketing off', () => {
  it('every ticket call answers 404', async () => {
    await withSettings(s.app, 'modules', { ticketing_system: false }, async () => {
      expect((await get(s.app, '/api/support/tickets', { token: demo })).status).toBe(404);
      expect((await get(s.app, '/api/support/tickets/1', { token: demo })).status).toBe(404);
      expect((await postMultipart(s.app, '/api/support/tickets', fields(), demo)).status).toBe(404);
      expect((await post(s.app, '/api/support/tickets/1/close', {}, { token: demo })).status).toBe(404);
    });
  });
});

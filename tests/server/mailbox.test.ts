// @vitest-environment node
/**
 * Mail through the real server: the inbox, sent and bin lists (keyset pages, unread, search by subject or
 * person), conversations and sent items, compose and reply with attachments, who may be written to, read
 * and unread (the notifications badge), the bin and its restore — and nothing of anyone else's: another
 * member's thread, message or attachment is a 404. (Hostile HTML: mailbox-html.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { call, get, login, post, rows } from './helpers';
import { pdf, photo, postMultipart, type Part } from './upload-support';
import { relationTo } from '../../server/lib/mail';
import { members } from '../../server/db/schema';
import { eq } from 'drizzle-orm';

let s: TestServer;
let demo: { id: number; token: string };
let downline: { id: number; username: string; token: string };
let stranger: { id: number; username: string; token: string };
let grandchild: { id: number; username: string; token: string };

const memberRow = async (id: number) => (await s.database.db.select().from(members).where(eq(members.id, id)))[0];

beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
  const d = await login(s.app, 'demo');
  demo = { id: d.user.id, token: d.token };
  const [dl] = await rows<{ id: number; username: string }>(s.database, sql`SELECT id, username FROM members WHERE sponsor_id = ${demo.id} AND verified AND status = 1 ORDER BY id DESC LIMIT 1`);
  downline = { ...dl, token: (await login(s.app, dl.username)).token };
  const [deep] = await rows<{ id: number; username: string }>(
    s.database,
    sql`SELECT g.id, g.username FROM members g JOIN members p ON p.id = g.sponsor_id WHERE p.sponsor_id = ${demo.id} AND g.verified AND g.status = 1 ORDER BY g.id LIMIT 1`,
  );
  grandchild = { ...deep, token: (await login(s.app, deep.username)).token };
  // Everyone of the seeded tree is below demo: the stranger is someone in another leg than `downline`'s.
  const downlineRow = await memberRow(downline.id);
  const candidates = await rows<{ id: number; username: string }>(
    s.database,
    sql`SELECT id, username FROM members WHERE id > 4 AND status = 1 AND verified AND path NOT LIKE ${downlineRow.path + '%'} ORDER BY depth DESC, id LIMIT 60`,
  );
  for (const c of candidates) {
    if ((await relationTo(s.database.db, downlineRow, c.id)) === null) {
      stranger = { ...c, token: (await login(s.app, c.username)).token };
      break;
    }
  }
  expect(stranger).toBeTruthy();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const compose = (token: string, fields: Record<string, string>, files: Part[] = []) =>
  postMultipart(s.app, '/api/mail/messages', [...Object.entries(fields).map(([field, value]) => ({ field, value })), ...files], token);
const reply = (token: string, thread: number, body: string, files: Part[] = []) =>
  postMultipart(s.app, `/api/mail/threads/${thread}/reply`, [{ field: 'body', value: body }, ...files], token);
const counts = async (token: string) => (await get(s.app, '/api/mail/counts', { token })).body.data;
const badge = async (token: string) => (await get(s.app, '/api/home/notifications_count', { token })).body.data;

describe('lists', () => {
  it('need a signed-in member', async () => {
    for (const path of ['/api/mail/inbox', '/api/mail/sent', '/api/mail/bin', '/api/mail/counts', '/api/mail/recipients', '/api/mail/threads/1', '/api/mail/sent/1', '/api/mail/attachments/1']) {
      expect((await get(s.app, path)).status, path).toBe(401);
    }
  });

  it("show demo's seeded inbox with read and unread messages, newest first, and its counts", async () => {
    const res = await get(s.app, '/api/mail/inbox', { token: demo.token });
    expect(res.status).toBe(200);
    const items = res.body.data.items as Array<{ read: boolean; created_at: string; box: string; party: { company: boolean } }>;
    expect(items.some((i) => i.read)).toBe(true);
    expect(items.some((i) => !i.read)).toBe(true);
    expect(items.every((i) => i.box === 'inbox')).toBe(true);
    expect(items.some((i) => i.party.company)).toBe(true);
    expect([...items].sort((a, b) => b.created_at.localeCompare(a.created_at))).toEqual(items);
    const c = await counts(demo.token);
    expect(c.unread).toBe(items.filter((i) => !i.read).length);
    expect(c.sent).toBeGreaterThan(0);
    expect(c.bin).toBe(2);
  });

  it('filter unread only and search by subject or person', async () => {
    const unread = (await get(s.app, '/api/mail/inbox', { token: demo.token, query: { unread: '1' } })).body.data.items;
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.every((i: { read: boolean }) => !i.read)).toBe(true);
    const bySubject = (await get(s.app, '/api/mail/inbox', { token: demo.token, query: { keyword: 'summit photos' } })).body.data.items;
    expect(bySubject.map((i: { subject: string }) => i.subject)).toEqual(['Summit photos']);
    const byPerson = (await get(s.app, '/api/mail/inbox', { token: demo.token, query: { keyword: 'Company Admin' } })).body.data.items;
    expect(byPerson.length).toBeGreaterThan(0);
    expect(byPerson.every((i: { party: { company: boolean } }) => i.party.company)).toBe(true);
    expect((await get(s.app, '/api/mail/inbox', { token: demo.token, query: { unread: 'yes' } })).status).toBe(422);
  });

  it('page by keyset: the next page continues with no repeats and keeps the filters', async () => {
    const first = (await get(s.app, '/api/mail/inbox', { token: demo.token, query: { limit: '2', keyword: 'a' } })).body.data;
    expect(first.items).toHaveLength(2);
    expect(first.next_page_url).toMatch(/keyword=a/);
    const next = new URL(first.next_page_url, 'http://x');
    const second = (await get(s.app, next.pathname + next.search, { token: demo.token })).body.data;
    expect(second.items.length).toBeGreaterThan(0);
    const ids = [...first.items, ...second.items].map((i: { id: number }) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sent lists what demo sent, with the recipient as the party; the bin holds both directions', async () => {
    const sent = (await get(s.app, '/api/mail/sent', { token: demo.token })).body.data.items;
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((i: { box: string; read: boolean }) => i.box === 'sent' && i.read)).toBe(true);
    const bin = (await get(s.app, '/api/mail/bin', { token: demo.token })).body.data.items;
    expect(bin.map((i: { box: string }) => i.box).sort()).toEqual(['inbox', 'sent']);
  });
});

describe('recipients', () => {
  it('are the company, the sponsor and upline, and the downline — nobody else', async () => {
    const all = (await get(s.app, '/api/mail/recipients', { token: demo.token })).body.data as Array<{ username: string; relation: string }>;
    expect(all[0]).toMatchObject({ username: '@company', relation: 'company', company: true });
    // Demo's sponsor is the company itself: it is listed once, as the company.
    expect(all.filter((r) => r.relation === 'company')).toHaveLength(1);
    const above = (await get(s.app, '/api/mail/recipients', { token: grandchild.token })).body.data as Array<{ username: string; relation: string }>;
    expect(above.map((r) => r.relation).slice(0, 3)).toEqual(['company', 'sponsor', 'upline']);
    expect(above.find((r) => r.username === 'demo')?.relation).toBe('upline');
    const found = (await get(s.app, '/api/mail/recipients', { token: demo.token, query: { keyword: downline.username } })).body.data;
    expect(found.map((r: { username: string }) => r.username)).toContain(downline.username);
    expect(found.find((r: { username: string }) => r.username === downline.username).relation).toBe('downline');
    const none = (await get(s.app, '/api/mail/recipients', { token: downline.token, query: { keyword: stranger.username } })).body.data;
    expect(none.map((r: { username: string }) => r.username)).not.toContain(stranger.username);
  });

  it('a member not placed in the tree yet (and recruiting no one) may write to the company only', async () => {
    await s.database.db.execute(
      sql`INSERT INTO members (username, email, password_hash, first_name, last_name)
          SELECT 'mail.unplaced', 'mail.unplaced@example.net', password_hash, 'Una', 'Placed' FROM members WHERE username = 'demo'`,
    );
    const [me] = await rows<{ id: number; path: string }>(s.database, sql`SELECT id, path FROM members WHERE username = 'mail.unplaced'`);
    expect(me.path).toBe('');
    const token = (await login(s.app, 'mail.unplaced')).token;
    const listed = (await get(s.app, '/api/mail/recipients', { token })).body.data as Array<{ username: string; relation: string }>;
    expect(listed.map((r) => r.relation)).toEqual(['company']);
    expect(await relationTo(s.database.db, await memberRow(me.id), stranger.id)).toBeNull();
    expect(await relationTo(s.database.db, await memberRow(me.id), demo.id)).toBeNull();
  });
});

describe('compose, read and reply', () => {
  it('sends to a downline member with an attachment: their badge rises, they read it (badge drops) and reply', async () => {
    const before = await badge(downline.token);
    const sent = await compose(demo.token, { to: downline.username, subject: 'Training plan', body: '<p>See the <strong>plan</strong> attached.</p>' }, [
      { field: 'attachments[]', filename: 'plan.pdf', type: 'application/pdf', value: pdf() },
      { field: 'attachments[]', filename: 'chart.png', type: 'image/png', value: await photo() },
    ]);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const { thread_id: thread, message_id: messageId } = sent.body.data;

    const after = await badge(downline.token);
    expect(after.message_count).toBe(before.message_count + 1);
    const notes = (await get(s.app, '/api/home/notifications', { token: downline.token })).body.data;
    expect(notes.messages.find((m: { thread_id: number }) => m.thread_id === thread)).toMatchObject({ subject: 'Training plan', first_name: 'Dana' });
    expect(notes.notices.find((n: { link: string }) => n.link === `/member/mail/conversation/${thread}`)).toBeTruthy();
    const [mail] = await rows<{ subject: string }>(s.database, sql`SELECT o.subject FROM outbox o JOIN members m ON m.email = o.destination WHERE m.id = ${downline.id} ORDER BY o.id DESC LIMIT 1`);
    expect(mail.subject).toBe('New message: Training plan');

    const inbox = (await get(s.app, '/api/mail/inbox', { token: downline.token, query: { unread: '1' } })).body.data.items;
    expect(inbox[0]).toMatchObject({ thread_id: thread, subject: 'Training plan', read: false, attachments: 2, party: { username: 'demo' } });

    const conv = await get(s.app, `/api/mail/threads/${thread}`, { token: downline.token });
    expect(conv.status).toBe(200);
    expect(conv.body.data.reply_to.username).toBe('demo');
    const [msg] = conv.body.data.messages;
    expect(msg.body).toBe('<p>See the <strong>plan</strong> attached.</p>');
    expect(msg.attachments.map((a: { name: string; content_type: string }) => [a.name, a.content_type])).toEqual([
      ['plan.pdf', 'application/pdf'],
      ['chart.png', 'image/png'],
    ]);

    const read = await call(s.app, 'PUT', `/api/mail/threads/${thread}/read`, { read: true }, { token: downline.token });
    expect(read.status).toBe(200);
    const dropped = await badge(downline.token);
    expect(dropped.message_count).toBe(before.message_count);
    expect(dropped.notice_count).toBe(before.notice_count);

    // Attachments: the sender and the recipient download them; anyone else gets 404.
    const file = msg.attachments[0];
    const down = await get(s.app, file.url, { token: downline.token });
    expect(down.status).toBe(200);
    expect(down.headers['content-disposition']).toMatch(/attachment; filename="plan.pdf"/);
    expect(down.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(s.app, file.url, { token: demo.token })).status).toBe(200);
    expect((await get(s.app, file.url, { token: stranger.token })).status).toBe(404);
    expect((await get(s.app, `/api/uploads/${file.id}`, { token: downline.token })).status).toBe(404);

    // The reply goes to demo, in order after the first message.
    const answer = await reply(downline.token, thread, '<p>Thanks, <em>on it</em>.</p>');
    expect(answer.status).toBe(201);
    const demoConv = (await get(s.app, `/api/mail/threads/${thread}`, { token: demo.token })).body.data;
    expect(demoConv.messages.map((m: { body: string; mine: boolean }) => [m.mine, m.body])).toEqual([
      [true, '<p>See the <strong>plan</strong> attached.</p>'],
      [false, '<p>Thanks, <em>on it</em>.</p>'],
    ]);
    expect(demoConv.messages[0].read_at).not.toBeNull();

    // Demo's sent item; nobody else's.
    const item = await get(s.app, `/api/mail/sent/${messageId}`, { token: demo.token });
    expect(item.body.data).toMatchObject({ id: messageId, subject: 'Training plan', to: { username: downline.username }, mine: true });
    expect((await get(s.app, `/api/mail/sent/${messageId}`, { token: downline.token })).status).toBe(404);
    expect((await get(s.app, `/api/mail/sent/${messageId}`, { token: stranger.token })).status).toBe(404);

    // Mark unread again: the badge rises.
    await call(s.app, 'PUT', `/api/mail/threads/${thread}/read`, { read: false }, { token: downline.token });
    expect((await badge(downline.token)).message_count).toBe(before.message_count + 1);
    await call(s.app, 'PUT', `/api/mail/threads/${thread}/read`, { read: true }, { token: downline.token });
  });

  it("never shows another member's thread: reading, replying and marking it are 404", async () => {
    const [t] = await rows<{ thread_id: number }>(s.database, sql`SELECT thread_id::int FROM message_participants WHERE member_id = ${demo.id} LIMIT 1`);
    expect((await get(s.app, `/api/mail/threads/${t.thread_id}`, { token: stranger.token })).status).toBe(404);
    expect((await reply(stranger.token, t.thread_id, '<p>hi</p>')).status).toBe(404);
    expect((await call(s.app, 'PUT', `/api/mail/threads/${t.thread_id}/read`, { read: true }, { token: stranger.token })).status).toBe(404);
    expect((await get(s.app, '/api/mail/threads/999999999', { token: demo.token })).status).toBe(404);
    expect((await get(s.app, '/api/mail/threads/abc', { token: demo.token })).status).toBe(404);
  });

  it('refuses a message to anyone outside the upline and downline, to oneself and to nobody', async () => {
    for (const to of [stranger.username, downline.username, 'nobody-at-all', 'blocked']) {
      const res = await compose(downline.token, { to, subject: 'Hello', body: '<p>hi</p>' });
      expect(res.status, to).toBe(422);
      expect(res.body.errors.to).toEqual(['mail:errors.recipientNotAllowed']);
    }
    // The stranger cannot write to them either.
    expect((await compose(stranger.token, { to: downline.username, subject: 'Hello', body: '<p>hi</p>' })).status).toBe(422);
  });

  it('sends to the sponsor, the upline and the company', async () => {
    expect((await compose(downline.token, { to: 'demo', subject: 'Hi sponsor', body: '<p>hello</p>' })).status).toBe(201);
    expect((await compose(grandchild.token, { to: 'demo', subject: 'Hi upline', body: '<p>hello</p>' })).status).toBe(201);
    expect((await compose(demo.token, { to: grandchild.username, subject: 'Hi below', body: '<p>hello</p>' })).status).toBe(201);
    const res = await compose(demo.token, { to: '@company', subject: 'Question', body: '<p>When is the next payout?</p>' });
    expect(res.status).toBe(201);
    const conv = (await get(s.app, `/api/mail/threads/${res.body.data.thread_id}`, { token: demo.token })).body.data;
    expect(conv.reply_to).toMatchObject({ username: '@company', company: true });
  });

  it('names every missing or bad field, and unknown ones', async () => {
    const res = await compose(demo.token, { to: '', subject: '', body: '<p> </p>', extra: 'x' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['body', 'extra', 'subject', 'to']);
    expect((await compose(demo.token, { to: downline.username, subject: 'x'.repeat(151), body: '<p>a</p>' })).body.errors.subject).toBeTruthy();
    expect((await compose(demo.token, { to: downline.username, subject: 'Long', body: `<p>${'a'.repeat(20_001)}</p>` })).body.errors.body).toBeTruthy();
    expect((await reply(demo.token, 1, '')).status).toBe(422);
  });

  it('judges attachments by their bytes, and bounds their size and number', async () => {
    const fake = await compose(demo.token, { to: downline.username, subject: 'Fake', body: '<p>a</p>' }, [
      { field: 'attachments[]', filename: 'photo.png', type: 'image/png', value: Buffer.from('<script>alert(1)</script>') },
    ]);
    expect(fake.status).toBe(422);
    expect(fake.body.errors.attachments).toBeTruthy();
    const six = await compose(
      demo.token,
      { to: downline.username, subject: 'Many', body: '<p>a</p>' },
      Array.from({ length: 6 }, (_, i) => ({ field: 'attachments[]', filename: `f${i}.pdf`, type: 'application/pdf', value: pdf() })),
    );
    expect(six.status).toBe(413);
    const big = await compose(demo.token, { to: downline.username, subject: 'Big', body: '<p>a</p>' }, [
      { field: 'attachments[]', filename: 'big.pdf', type: 'application/pdf', value: Buffer.concat([pdf(), Buffer.alloc(10 * 1024 * 1024 + 1)]) },
    ]);
    expect(big.status).toBe(413);
    const wrongField = await compose(demo.token, { to: downline.username, subject: 'W', body: '<p>a</p>' }, [{ field: 'other', filename: 'a.pdf', type: 'application/pdf', value: pdf() }]);
    expect(wrongField.status).toBe(422);
    expect((await post(s.app, '/api/mail/messages', { to: 'x' }, { token: demo.token })).status).toBe(422);
  });
});

describe('bin', () => {
  it('moves a message to the member’s bin only, restores it, and refuses anyone else’s message', async () => {
    const sent = await compose(demo.token, { to: downline.username, subject: 'To bin', body: '<p>bin me</p>' });
    const id = sent.body.data.message_id;
    const before = await counts(downline.token);
    expect((await call(s.app, 'DELETE', `/api/mail/messages/${id}`, undefined, { token: downline.token })).status).toBe(200);
    const inbox = (await get(s.app, '/api/mail/inbox', { token: downline.token })).body.data.items;
    expect(inbox.some((i: { id: number }) => i.id === id)).toBe(false);
    const bin = (await get(s.app, '/api/mail/bin', { token: downline.token })).body.data.items;
    expect(bin.some((i: { id: number }) => i.id === id)).toBe(true);
    const after = await counts(downline.token);
    expect(after.bin).toBe(before.bin + 1);
    expect(after.unread).toBe(before.unread - 1);
    // The sender still has it.
    expect((await get(s.app, '/api/mail/sent', { token: demo.token })).body.data.items.some((i: { id: number }) => i.id === id)).toBe(true);
    expect((await call(s.app, 'DELETE', `/api/mail/messages/${id}`, undefined, { token: stranger.token })).status).toBe(404);
    expect((await post(s.app, `/api/mail/messages/${id}/restore`, undefined, { token: stranger.token })).status).toBe(404);
    expect((await post(s.app, `/api/mail/messages/${id}/restore`, undefined, { token: downline.token })).status).toBe(200);
    expect((await get(s.app, '/api/mail/inbox', { token: downline.token })).body.data.items.some((i: { id: number }) => i.id === id)).toBe(true);
    expect((await call(s.app, 'DELETE', '/api/mail/messages/x', undefined, { token: demo.token })).status).toBe(404);
  });
});

describe('notification switches', () => {
  it('an e-mail and a notice only when the recipient keeps them on; the message itself always counts', async () => {
    await call(s.app, 'PUT', '/api/user/notification_settings', { events: [{ event: 'new_message', email: false, push: false }] }, { token: downline.token });
    const before = await badge(downline.token);
    const [{ n: mailsBefore }] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM outbox o JOIN members m ON m.email = o.destination WHERE m.id = ${downline.id}`);
    expect((await compose(demo.token, { to: downline.username, subject: 'Quiet', body: '<p>q</p>' })).status).toBe(201);
    const after = await badge(downline.token);
    expect(after.message_count).toBe(before.message_count + 1);
    expect(after.notice_count).toBe(before.notice_count);
    const [{ n: mailsAfter }] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM outbox o JOIN members m ON m.email = o.destination WHERE m.id = ${downline.id}`);
    expect(mailsAfter).toBe(mailsBefore);
  });
});

// @vitest-environment node
/**
 * Stories and events through the real server: paged article and video lists, an article's HTML never
 * coming back executable, a video, events upcoming and past (by tag), an event's calendar file (RFC 5545:
 * CRLF, UTC times, escaped text), and the staff's `article add` / `event add` from JSON or Markdown files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { call, get, login, rows } from './helpers';
import { HOSTILE_HTML } from '../support/html-corpus';
import { addEvent, addStory, eventCalendar, foldLine, icsText, markdownToHtml, parseContentFile } from '../../server/lib/stories';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startTestServer();
  token = (await login(s.app, 'demo')).token;
});
afterAll(async () => {
  await s?.close();
});

describe('articles and videos', () => {
  it('lists articles and videos newest first, paged', async () => {
    for (const kind of ['articles', 'videos']) {
      const all = await get(s.app, `/api/stories/${kind}`, { token });
      expect(all.status).toBe(200);
      const items = all.body.data.items as Array<{ id: number; updated_at: string; title: string }>;
      expect(items.length).toBeGreaterThan(3);
      expect(items.map((i) => i.updated_at)).toEqual([...items.map((i) => i.updated_at)].sort().reverse());
      const first = await get(s.app, `/api/stories/${kind}?limit=2`, { token });
      const second = await get(s.app, first.body.data.next_page_url, { token });
      expect([...first.body.data.items, ...second.body.data.items].map((i: { id: number }) => i.id)).toEqual(items.slice(0, 4).map((i) => i.id));
    }
    expect((await get(s.app, '/api/stories/articles')).status).toBe(401);
  });

  it('answers an article with its content and image; a video id is not an article (404)', async () => {
    const list = (await get(s.app, '/api/stories/articles', { token })).body.data.items;
    const a = await get(s.app, `/api/stories/articles/${list[0].id}`, { token });
    expect(a.status).toBe(200);
    expect(a.body.data).toMatchObject({ id: list[0].id, title: list[0].title });
    expect(a.body.data.content).toMatch(/<p>|<h2>/);
    const video = (await get(s.app, '/api/stories/videos', { token })).body.data.items[0];
    expect((await get(s.app, `/api/stories/articles/${video.id}`, { token })).status).toBe(404);
    const v = await get(s.app, `/api/stories/videos/${video.id}`, { token });
    expect(v.body.data).toMatchObject({ id: video.id, url: video.url });
    expect((await get(s.app, `/api/stories/videos/${list[0].id}`, { token })).status).toBe(404);
    expect((await get(s.app, '/api/stories/articles/0x1', { token })).status).toBe(404);
  });

  it('never answers hostile HTML in a form that runs', async () => {
    // PostgreSQL keeps no NUL in text: those inputs are the browser's to test.
    const hostile = HOSTILE_HTML.map(([input]) => input).filter((i) => !i.includes('\u0000')).join('\n');
    const [r] = await rows<{ id: number }>(s.database, sql`INSERT INTO stories (kind, title, content) VALUES ('article', 'Hostile', ${hostile}) RETURNING id`);
    const out = (await get(s.app, `/api/stories/articles/${r.id}`, { token })).body.data.content as string;
    expect(out).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|math|form|base|meta|link)/i);
    expect(out).not.toMatch(/\son[a-z]+\s*=/i);
    expect(out).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|data|vbscript):/i);
    expect(out).not.toMatch(/\sstyle\s*=/i);
    await s.database.db.execute(sql`DELETE FROM stories WHERE id = ${r.id}`);
  });
});

describe('events', () => {
  const NOW = Date.now();
  it('upcoming (not over, soonest first with sort=asc) and past (over, latest first), by tag', async () => {
    const up = (await get(s.app, '/api/events?when=upcoming&sort=asc', { token })).body.data.items as Array<{ start_date: string; end_date: string; tag: string }>;
    expect(up.length).toBeGreaterThan(0);
    expect(up.every((e) => Date.parse(e.end_date) >= NOW - 60_000)).toBe(true);
    expect(up.map((e) => e.start_date)).toEqual([...up.map((e) => e.start_date)].sort());
    const past = (await get(s.app, '/api/events?when=past', { token })).body.data.items as Array<{ end_date: string }>;
    expect(past.length).toBeGreaterThan(0);
    expect(past.every((e) => Date.parse(e.end_date) < NOW + 60_000)).toBe(true);
    expect(past.map((e) => e.end_date)).toEqual([...past.map((e) => e.end_date)].sort().reverse());
    const tags = (await get(s.app, '/api/events/tags', { token })).body.data as string[];
    expect(tags).toEqual(expect.arrayContaining(['webinar', 'training']));
    const webinars = (await get(s.app, '/api/events?when=upcoming&tag=webinar', { token })).body.data.items as Array<{ tag: string }>;
    expect(webinars.length).toBeGreaterThan(0);
    expect(webinars.every((e) => e.tag === 'webinar')).toBe(true);
    expect((await get(s.app, '/api/events?when=soon', { token })).status).toBe(422);
  });

  it('answers one event, and its calendar file', async () => {
    const e = (await get(s.app, '/api/events?when=upcoming&sort=asc', { token })).body.data.items[0];
    const one = await get(s.app, `/api/events/${e.id}`, { token });
    expect(one.body.data).toEqual(e);
    const ics = await call(s.app, 'GET', `/api/events/${e.id}/calendar`, undefined, { token });
    expect(ics.status).toBe(200);
    expect(String(ics.headers['content-type'])).toMatch(/^text\/calendar/);
    expect(String(ics.headers['content-disposition'])).toMatch(/^attachment; filename=".+\.ics"$/);
    const body = String(ics.body);
    expect(body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(body.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(body.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const stamp = (d: string) => d.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    expect(body).toContain(`DTSTART:${stamp(e.start_date)}\r\n`);
    expect(body).toContain(`DTEND:${stamp(e.end_date)}\r\n`);
    expect(body).toMatch(/\r\nUID:event-\d+@[^\r]+\r\n/);
    expect((await get(s.app, '/api/events/99999999', { token })).status).toBe(404);
    expect((await call(s.app, 'GET', '/api/events/99999999/calendar', undefined, { token })).status).toBe(404);
    expect((await call(s.app, 'GET', `/api/events/${e.id}/calendar`)).status).toBe(401);
  });
});

describe('the calendar file', () => {
  const event = {
    id: 7,
    title: 'Kick-off; team, 2027',
    venue: 'Hall A\\B, Madrid',
    about: 'Line one\r\nLine two',
    image_preview: null,
    tag: 'summit',
    start_date: '2027-01-15T17:00:00.000Z',
    end_date: '2027-01-15T19:30:00.000Z',
    updated_at: '2026-12-01T09:00:00.000Z',
  };

  it('escapes text, uses UTC times and folds long lines at 75 octets', () => {
    const ics = eventCalendar(event, { host: 'upline.example', now: new Date('2026-12-02T10:00:00Z') });
    expect(ics).toContain('SUMMARY:Kick-off\\; team\\, 2027\r\n');
    expect(ics).toContain('LOCATION:Hall A\\\\B\\, Madrid\r\n');
    expect(ics).toContain('DESCRIPTION:Line one\\nLine two\r\n');
    expect(ics).toContain('DTSTART:20270115T170000Z\r\nDTEND:20270115T193000Z\r\n');
    expect(ics).toContain('DTSTAMP:20261202T100000Z\r\n');
    expect(icsText('a\nb;c,d\\e')).toBe('a\\nb\\;c\\,d\\\\e');
    const long = foldLine(`DESCRIPTION:${'ñ'.repeat(80)}`);
    for (const line of long.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(long.split('\r\n').slice(1).every((l) => l.startsWith(' '))).toBe(true);
    expect(long.replace(/\r\n /g, '')).toBe(`DESCRIPTION:${'ñ'.repeat(80)}`);
  });
});

describe('what staff publish', () => {
  it('reads JSON and Markdown with front matter', () => {
    expect(parseContentFile('{"title":"T","content":"<p>x</p>"}', 'a.json')).toEqual({ fields: { title: 'T', content: '<p>x</p>' }, body: '<p>x</p>' });
    expect(parseContentFile('---\ntitle: "Hello: world"\nimage: /x.png\n---\nBody text', 'a.md')).toEqual({ fields: { title: 'Hello: world', image: '/x.png' }, body: 'Body text' });
    expect(() => parseContentFile('no front matter', 'a.md')).toThrow();
    expect(() => parseContentFile('[1]', 'a.json')).toThrow();
    expect(markdownToHtml('# Title\n\nSome **bold** <script>x</script> and [a link](https://x.example)\n\n- one\n- two')).toBe(
      '<h2>Title</h2>\n<p>Some <strong>bold</strong> &lt;script&gt;x&lt;/script&gt; and <a href="https://x.example">a link</a></p>\n<ul><li>one</li><li>two</li></ul>',
    );
  });

  it('adds an article, a video and an event; refuses what is missing or wrong, every field at once', async () => {
    const a = await addStory(s.database.db, 'article', { name: 'n.md', text: '---\ntitle: Fresh news\ndescription: Short\n---\nHello **members**' });
    const art = (await get(s.app, `/api/stories/articles/${a.id}`, { token })).body.data;
    expect(art.content).toBe('<p>Hello <strong>members</strong></p>');
    const v = await addStory(s.database.db, 'video', { name: 'v.json', text: JSON.stringify({ title: 'Clip', url: 'https://vimeo.com/76979871' }) });
    expect(v.url).toBe('https://vimeo.com/76979871');
    await expect(addStory(s.database.db, 'video', { name: 'v.json', text: JSON.stringify({ title: 'Clip', url: 'javascript:alert(1)' }) })).rejects.toMatchObject({ errors: { url: ['validation:invalidFormat'] } });
    const e = await addEvent(s.database.db, { name: 'e.md', text: '---\ntitle: Gala\nvenue: Rome\nstart_date: 2027-06-01T18:00:00Z\nend_date: 2027-06-01T23:00:00Z\ntag: gala\n---\nDinner and awards.' });
    expect(e).toMatchObject({ title: 'Gala', venue: 'Rome', about: 'Dinner and awards.', tag: 'gala', start_date: '2027-06-01T18:00:00.000Z' });
    await expect(addEvent(s.database.db, { name: 'e.json', text: JSON.stringify({ title: '', start_date: '2027-06-02T10:00:00Z', end_date: '2027-06-01T10:00:00Z' }) })).rejects.toMatchObject({
      errors: { title: ['validation:required'], venue: ['validation:required'], end_date: ['validation:endBeforeStart'] },
    });
    await expect(addEvent(s.database.db, { name: 'e.json', text: JSON.stringify({ title: 'x', venue: 'y', start_date: '2027-06-02', end_date: '2027-06-02T10:00:00Z' }) })).rejects.toMatchObject({
      errors: { start_date: ['validation:invalidDate'] },
    });
  });
});

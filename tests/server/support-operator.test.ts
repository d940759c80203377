// @vitest-environment node
/**
 * `npm run operator -- ticket …`, `article add`, `video add` and `event add` as staff run them: a real process on a
 * real embedded database folder (the one `npm start` would open), then what the database holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../server/config';
import { runOperatorIn, withDatabaseIn } from './operator-process';
import { migrate } from '../../server/db/migrate';
import { seed } from '../../server/seed';

let dir: string;
let files: string;

const operator = (...args: string[]) => runOperatorIn(dir, ...args);
const withDatabase = <T,>(fn: Parameters<typeof withDatabaseIn<T>>[1]) => withDatabaseIn(dir, fn);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'upline-support-operator-'));
  files = mkdtempSync(path.join(tmpdir(), 'upline-support-files-'));
  const config = loadConfig({ SEED_PASSWORD: 'Demo-pass-2026', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, { dataDir: dir, databaseUrl: null, seedMembers: 40, uploadsDir: null });
  await withDatabase(async (database) => {
    await migrate(database);
    await seed(database, config);
  });
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(files, { recursive: true, force: true });
});

describe('npm run operator -- ticket', () => {
  it('lists what waits, answers (the member is told), closes; refuses wrong usage (2) and what the rules refuse (1)', async () => {
    const list = await operator('ticket', 'list');
    expect(list.code).toBe(0);
    const lines = list.stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.split('\t')[2] === 'open')).toBe(true);
    const id = Number(lines[0].split('\t')[0]);

    const reply = await operator('ticket', 'reply', String(id), 'The payout left on Monday.');
    expect(reply).toMatchObject({ code: 0 });
    expect(reply.stdout).toContain(`Ticket ${id} answered; it is answered.`);
    const close = await operator('ticket', 'close', String(id));
    expect(close.stdout).toContain(`Ticket ${id} closed.`);
    expect((await operator('ticket', 'close', String(id))).code).toBe(1);
    expect((await operator('ticket', 'reply', 'abc', 'x')).code).toBe(2);
    expect((await operator('ticket', 'reply', String(id))).code).toBe(2);
    expect((await operator('ticket', 'list', '--status', 'lost')).code).toBe(2);
    const all = await operator('ticket', 'list', '--status', 'all');
    expect(all.stdout).toContain(`${id}\t`);

    await withDatabase(async (database) => {
      const [t] = await database.rows<{ status: string; member_id: number }>(sql`SELECT status, member_id FROM support_tickets WHERE id = ${id}`);
      expect(t.status).toBe('closed');
      const msgs = await database.rows<{ author: string; body: string }>(sql`SELECT author, body FROM support_messages WHERE ticket_id = ${id} ORDER BY id`);
      expect(msgs.at(-1)).toEqual({ author: 'support', body: 'The payout left on Monday.' });
      const events = await database.rows<{ to_status: string; actor: string }>(sql`SELECT to_status, actor FROM support_ticket_events WHERE ticket_id = ${id} ORDER BY id`);
      expect(events.slice(-2)).toEqual([
        { to_status: 'answered', actor: 'support' },
        { to_status: 'closed', actor: 'support' },
      ]);
      const notices = await database.rows<{ link: string }>(sql`SELECT link FROM member_notices WHERE member_id = ${t.member_id} AND link = ${`/member/support/tickets/${id}`}`);
      expect(notices).toHaveLength(1);
    });
  }, 120_000);
});

describe('npm run operator -- article|video|event add', () => {
  it('publishes from Markdown and JSON files; a wrong file is refused with its fields', async () => {
    const article = path.join(files, 'news.md');
    writeFileSync(article, '---\ntitle: Spring news\ndescription: What is new\nimage: /images/stories/summit.svg\n---\n# Hello\n\nA **new** season.');
    const a = await operator('article', 'add', article);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/^Article \d+ published: Spring news/);
    const video = path.join(files, 'clip.json');
    writeFileSync(video, JSON.stringify({ title: 'Clip', description: 'Short', url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' }));
    expect((await operator('video', 'add', video)).stdout).toMatch(/^Video \d+ published: Clip/);
    const event = path.join(files, 'gala.json');
    writeFileSync(event, JSON.stringify({ title: 'Gala', venue: 'Rome', start_date: '2027-06-01T18:00:00Z', end_date: '2027-06-01T23:00:00Z', tag: 'gala', about: 'Dinner.' }));
    expect((await operator('event', 'add', event)).stdout).toMatch(/^Event \d+ published: Gala/);
    const bad = path.join(files, 'bad.json');
    writeFileSync(bad, JSON.stringify({ title: 'No venue' }));
    const refused = await operator('event', 'add', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/venue: validation:required/);
    expect((await operator('article', 'add', path.join(files, 'missing.md'))).code).toBe(2);
    expect((await operator('article', 'add', path.join(files, 'x.txt'))).code).toBe(2);

    await withDatabase(async (database) => {
      const [s] = await database.rows<{ content: string }>(sql`SELECT content FROM stories WHERE title = 'Spring news'`);
      expect(s.content).toBe('<h2>Hello</h2>\n<p>A <strong>new</strong> season.</p>');
      const [e] = await database.rows<{ venue: string }>(sql`SELECT venue FROM events WHERE title = 'Gala'`);
      expect(e.venue).toBe('Rome');
    });
  }, 120_000);
});

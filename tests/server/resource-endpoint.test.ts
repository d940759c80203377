// @vitest-environment node
/**
 * The member-owned records helper (server/lib/resource-endpoint.ts) on a table of its own (notes), the way
 * addresses, CRM entities, tickets and mail are declared on it: list, detail, create, update, soft delete and
 * restore of the member's own records only; another member's ids answer 404 and change nothing; bad bodies get
 * a field map; nothing answers 5xx.
 */
import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../server/lib/app-context';
import { createSession } from '../../server/lib/auth';
import { resourceEndpoints } from '../../server/lib/resource-endpoint';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, login, type Answer } from './helpers';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const notes = pgTable('test_notes', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  title: text('title').notNull(),
  body: text('body'),
  priority: smallint('priority').notNull(),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at'),
  deletedAt: ts('deleted_at'),
});

const noteBody = z.strictObject({
  title: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  body: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
  priority: z.number().check(z.int(), z.gte(1), z.lte(5)),
});
const noteItem = z.object({ id: z.number(), title: z.string(), body: z.nullable(z.string()), priority: z.number(), created_at: z.string() });
type Note = z.infer<typeof noteItem>;

async function noteRoutes(app: FastifyInstance, ctx: AppContext) {
  resourceEndpoints(app, ctx, {
    path: '/api/test/notes',
    tags: ['test'],
    table: notes,
    body: noteBody,
    item: noteItem,
    values: (b) => ({ title: b.title, body: b.body ?? null, priority: b.priority }),
    toItem: (r) => ({ id: r.id, title: r.title, body: r.body, priority: r.priority, created_at: r.createdAt.toISOString() }),
    // A title is unique among the member's own live notes.
    check: async (db, member, b, id) => {
      const [same] = await db
        .select({ id: notes.id })
        .from(notes)
        .where(sql`${notes.memberId} = ${member.id} AND ${notes.deletedAt} IS NULL AND lower(${notes.title}) = lower(${b.title}) AND ${notes.id} <> ${id ?? 0}`);
      return same ? { title: ['validation:taken'] } : undefined;
    },
    list: {
      querystring: z.looseObject({}),
      filters: (q) => q.oneOf('priority', ['1', '2', '3', '4', '5']),
      where: (priority) => (priority ? sql`${notes.priority} = ${Number(priority)}` : undefined),
      csv: { name: 'notes', columns: ['id', 'title', 'priority'], line: (n) => [n.id, n.title, n.priority] },
    },
    demoBlocked: true,
  });
}

let s: TestServer;
let mine: string;
let theirs: string;
let theirId: number;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 }, [noteRoutes]);
  await s.database.execText(`CREATE TABLE test_notes (
    id serial PRIMARY KEY, member_id integer NOT NULL REFERENCES members(id), title text NOT NULL, body text,
    priority smallint NOT NULL, created_at timestamptz NOT NULL, updated_at timestamptz, deleted_at timestamptz)`);
  mine = (await login(s.app, 'demo')).token;
  const [other] = await bulkMembers(s.database, 1);
  theirId = other.id;
  theirs = (await createSession(s.database.db, other.id)).token;
});
afterAll(async () => {
  await s?.close();
});

const api = <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown): Promise<Answer<T>> =>
  call<T>(s.app, method, url, body, { token });
const create = async (token: string, body: object) => {
  const res = await api<{ data: Note }>('POST', '/api/test/notes', token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const stored = (id: number) => s.database.rows<{ title: string; deleted_at: Date | null }>(sql`SELECT title, deleted_at FROM test_notes WHERE id = ${id}`);

describe('member-owned records', () => {
  it('creates, reads, updates and lists the member’s own notes', async () => {
    const a = await create(mine, { title: 'Call Ana', priority: 2 });
    expect(a).toEqual({ id: expect.any(Number), title: 'Call Ana', body: null, priority: 2, created_at: expect.any(String) });
    expect((await api('GET', `/api/test/notes/${a.id}`, mine)).body.data).toEqual(a);

    const changed = await api('PUT', `/api/test/notes/${a.id}`, mine, { title: 'Call Ana back', body: 'after 5 pm', priority: 1 });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ ...a, title: 'Call Ana back', body: 'after 5 pm', priority: 1 });

    const b = await create(mine, { title: 'Order samples', priority: 3 });
    const list = await api('GET', '/api/test/notes', mine);
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((n: Note) => n.id)).toEqual([b.id, a.id]);
    expect(list.body.data.next_page_url).toBeNull();
    const urgent = await api('GET', '/api/test/notes?priority=1', mine);
    expect(urgent.body.data.items.map((n: Note) => n.id)).toEqual([a.id]);
  });

  it('pages with a cursor that loses and repeats nothing, and exports the same rows as CSV', async () => {
    for (let i = 0; i < 5; i++) await create(mine, { title: `Page note ${i}`, priority: 4 });
    const seen: number[] = [];
    let url: string | null = '/api/test/notes?priority=4&limit=2&sort=asc';
    let pages = 0;
    while (url) {
      const res: Answer = await api('GET', url, mine);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items.map((n: Note) => n.id));
      url = res.body.data.next_page_url;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(new Set(seen).size).toBe(5);

    const res = await s.app.inject({ method: 'GET', url: '/api/test/notes/export?priority=4&sort=asc', headers: { 'x-app-key': 'test-app-key', authorization: `Bearer ${mine}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('id,title,priority');
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(seen);
  });

  it('answers another member’s ids 404 on every call, and changes nothing', async () => {
    const note = await create(mine, { title: 'Private', priority: 5 });
    for (const [method, url, body] of [
      ['GET', `/api/test/notes/${note.id}`, undefined],
      ['PUT', `/api/test/notes/${note.id}`, { title: 'Taken over', priority: 1 }],
      ['PUT', `/api/test/notes/${note.id}`, { title: '' }],
      ['DELETE', `/api/test/notes/${note.id}`, undefined],
      ['POST', `/api/test/notes/${note.id}/restore`, undefined],
    ] as const) {
      const res = await api(method, url, theirs, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body).toEqual({ error_code: 'not_found', message: 'Not found', errors: {} });
    }
    expect(await stored(note.id)).toEqual([{ title: 'Private', deleted_at: null }]);
    expect((await api('GET', '/api/test/notes?priority=5', theirs)).body.data.items).toEqual([]);

    // Their own note is theirs alone, with their id as owner.
    const own = await create(theirs, { title: 'Private', priority: 5 });
    const [row] = await s.database.rows<{ member_id: number }>(sql`SELECT member_id FROM test_notes WHERE id = ${own.id}`);
    expect(row.member_id).toBe(theirId);
    expect((await api('GET', `/api/test/notes/${own.id}`, mine)).status).toBe(404);
  });

  it('deletes softly and restores, once', async () => {
    const note = await create(mine, { title: 'Undo me', priority: 3 });
    const del = await api('DELETE', `/api/test/notes/${note.id}`, mine);
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ id: note.id });
    expect((await stored(note.id))[0].deleted_at).not.toBeNull();
    expect((await api('GET', `/api/test/notes/${note.id}`, mine)).status).toBe(404);
    expect((await api('PUT', `/api/test/notes/${note.id}`, mine, { title: 'Edited', priority: 3 })).status).toBe(404);
    expect((await api('DELETE', `/api/test/notes/${note.id}`, mine)).status).toBe(404);
    expect((await api('GET', '/api/test/notes?priority=3', mine)).body.data.items.map((n: Note) => n.id)).not.toContain(note.id);

    const back = await api('POST', `/api/test/notes/${note.id}/restore`, mine);
    expect(back.status).toBe(200);
    expect(back.body.data).toEqual(note);
    expect((await api('GET', `/api/test/notes/${note.id}`, mine)).status).toBe(200);
    expect((await api('POST', `/api/test/notes/${note.id}/restore`, mine)).status).toBe(404);
  });

  it('answers bad bodies with a field map of i18n keys, and keeps rules beyond the schema', async () => {
    const missing = await api('POST', '/api/test/notes', mine, { body: 'no title' });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ error_code: 'validation_error', errors: { title: ['validation:required'], priority: ['validation:required'] } });

    const wrong = await api('POST', '/api/test/notes', mine, { title: 'x'.repeat(81), priority: 9, colour: 'red' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ title: ['validation:tooLong'], priority: ['validation:tooBig'], colour: ['validation:unknownField'] });

    await create(mine, { title: 'Unique title', priority: 1 });
    const twice = await api('POST', '/api/test/notes', mine, { title: 'unique TITLE', priority: 2 });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual({ title: ['validation:taken'] });
    // Another member may use the same title.
    await create(theirs, { title: 'Unique title', priority: 1 });

    const other = await create(mine, { title: 'Second', priority: 1 });
    const rename = await api('PUT', `/api/test/notes/${other.id}`, mine, { title: 'Unique Title', priority: 1 });
    expect(rename.status).toBe(422);
    expect(rename.body.errors).toEqual({ title: ['validation:taken'] });
    // Its own title is no clash.
    expect((await api('PUT', `/api/test/notes/${other.id}`, mine, { title: 'Second', priority: 2 })).status).toBe(200);
  });

  it('needs a session for every call, and refuses writes in demo mode', async () => {
    const note = await create(mine, { title: 'Signed in only', priority: 1 });
    for (const [method, url] of [
      ['GET', '/api/test/notes'],
      ['GET', '/api/test/notes/export'],
      ['GET', `/api/test/notes/${note.id}`],
      ['POST', '/api/test/notes'],
      ['PUT', `/api/test/notes/${note.id}`],
      ['DELETE', `/api/test/notes/${note.id}`],
      ['POST', `/api/test/notes/${note.id}/restore`],
    ] as const) {
      expect((await api(method, url, undefined, method === 'POST' || method === 'PUT' ? { title: 'x', priority: 1 } : undefined)).status, `${method} ${url}`).toBe(401);
    }
    s.config.demoMode = true;
    try {
      const res = await api('POST', '/api/test/notes', mine, { title: 'In demo', priority: 1 });
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe('demo_blocked');
      expect((await api('DELETE', `/api/test/notes/${note.id}`, mine)).status).toBe(403);
      expect((await api('GET', `/api/test/notes/${note.id}`, mine)).status).toBe(200);
    } finally {
      s.config.demoMode = false;
    }
    expect((await stored(note.id))[0].deleted_at).toBeNull();
  });

  it('answers junk ids, bodies and queries with a 4xx, never a 5xx', async () => {
    const note = await create(mine, { title: 'Target', priority: 1 });
    const ids = ['abc', '0', '-1', '1.5', '01', '2147483648', '99999999999999999999', '%00', '1e3', encodeURIComponent("1' OR '1'='1")];
    for (const id of ids) {
      for (const [method, url] of [
        ['GET', `/api/test/notes/${id}`],
        ['PUT', `/api/test/notes/${id}`],
        ['DELETE', `/api/test/notes/${id}`],
        ['POST', `/api/test/notes/${id}/restore`],
      ] as const) {
        const res = await api(method, url, mine, method === 'PUT' ? { title: 'x', priority: 1 } : undefined);
        expect(res.status, `${method} ${url}`).toBe(404);
      }
    }
    const bodies = ['', 'null', '[]', '"text"', '{', '{"title":{"$gt":""},"priority":"1"}', JSON.stringify({ title: null, priority: 1.5 }), '{"__proto__":{"x":1}}'];
    for (const raw of bodies) {
      for (const [method, url] of [
        ['POST', '/api/test/notes'],
        ['PUT', `/api/test/notes/${note.id}`],
      ] as const) {
        const res = await call(s.app, method, url, undefined, { token: mine, raw });
        expect(res.status, `${method} ${raw}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${raw}`).toBeLessThan(500);
        expect(res.body).toMatchObject({ error_code: expect.any(String), errors: expect.any(Object) });
      }
    }
    for (const query of ['limit=0', 'limit=abc', 'cursor=zz', 'sort=sideways', 'priority=9', 'start_date=2024-02-30', 'priority=1&priority=2', 'date_range=custom']) {
      const res = await api('GET', `/api/test/notes?${query}`, mine);
      expect(res.status, query).toBe(422);
      expect(res.body.error_code).toBe('validation_error');
    }
    expect(await stored(note.id)).toEqual([{ title: 'Target', deleted_at: null }]);
  });
});

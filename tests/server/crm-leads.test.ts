// @vitest-environment node
/**
 * The member's leads (/api/crm/leads): the seeded pipeline, the list's search, status, source, date
 * filters, sort and cursor paging, create/read/update/delete/restore, the board and a move on it, the
 * timeline of notes, the CSV export; bad bodies and queries are 4xx with a field map; another member's
 * lead answers 404 on every call and stays as it was; no session is a 401.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../server/lib/auth';
import type { Board, Lead } from '../../src/schemas/crm.schema';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, login, type Answer } from './helpers';

let s: TestServer;
let mine: string;
let theirs: string;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
  mine = (await login(s.app, 'demo')).token;
  const [other] = await bulkMembers(s.database, 1);
  theirs = (await createSession(s.database.db, other.id)).token;
});
afterAll(async () => {
  await s?.close();
});

const api = <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown): Promise<Answer<T>> =>
  call<T>(s.app, method, url, body, { token });
const lead = (over: object = {}) => ({ name: 'Marta Ruiz', company: 'Globex', email: 'marta@example.com', phone: '34911222333', source: 'event', status: 'new', estimated_value: '1250.50', next_follow_up: '2026-12-01', ...over });
const create = async (token: string, body: object) => {
  const res = await api<{ data: Lead }>('POST', '/api/crm/leads', token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const list = async (query: string, token = mine) => {
  const res = await api('GET', `/api/crm/leads${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { items: Lead[]; next_page_url: string | null };
};

describe('leads', () => {
  it('the demo member has a seeded pipeline of about 300 leads in every status and source', async () => {
    const [n] = await s.database.rows<{ n: number; statuses: number; sources: number }>(
      sql`SELECT count(*)::int AS n, count(DISTINCT status)::int AS statuses, count(DISTINCT source)::int AS sources FROM crm_leads WHERE member_id = (SELECT id FROM members WHERE username = 'demo')`,
    );
    expect(n).toEqual({ n: 300, statuses: 6, sources: 6 });
    const page = await list('');
    expect(page.items).toHaveLength(20);
    expect(page.next_page_url).toMatch(/cursor=/);
  });

  it('creates, reads, updates, deletes and restores a lead; money is decimal text', async () => {
    const l = await create(mine, lead());
    expect(l).toMatchObject({ ...lead(), estimated_value: '1250.50', lost_reason: '', contact_id: null });
    expect((await api('GET', `/api/crm/leads/${l.id}`, mine)).body.data).toEqual(l);
    const changed = await api('PUT', `/api/crm/leads/${l.id}`, mine, lead({ status: 'lost', lost_reason: 'Chose another company', estimated_value: '' }));
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ status: 'lost', lost_reason: 'Chose another company', estimated_value: '0.00' });
    expect((await api('DELETE', `/api/crm/leads/${l.id}`, mine)).body.data).toEqual({ id: l.id });
    expect((await api('GET', `/api/crm/leads/${l.id}`, mine)).status).toBe(404);
    expect((await api('POST', `/api/crm/leads/${l.id}/restore`, mine)).status).toBe(200);
    expect((await api('GET', `/api/crm/leads/${l.id}`, mine)).status).toBe(200);
  });

  it('searches, filters by status, source and dates, sorts and pages without repeats', async () => {
    const l = await create(mine, lead({ name: 'Zebulon Quartz_1%', source: 'advert', status: 'proposal' }));
    expect((await list('?q=quartz_1%25')).items.map((x) => x.id)).toEqual([l.id]);
    expect((await list('?q=quartz&status=new')).items).toEqual([]);
    const proposals = await list('?status=proposal&source=advert&limit=100');
    expect(proposals.items.length).toBeGreaterThan(0);
    expect(proposals.items.every((x) => x.status === 'proposal' && x.source === 'advert')).toBe(true);
    const day = l.created_at.slice(0, 10);
    expect((await list(`?start_date=${day}&end_date=${day}&q=Zebulon`)).items.map((x) => x.id)).toEqual([l.id]);
    expect((await list('?start_date=2020-01-01&end_date=2020-01-02')).items).toEqual([]);

    const seen = new Set<number>();
    let url: string | null = '/api/crm/leads?status=new&sort=asc&limit=50';
    let last = '';
    while (url) {
      const page = (await api('GET', url, mine)).body.data as { items: Lead[]; next_page_url: string | null };
      for (const x of page.items) {
        expect(seen.has(x.id)).toBe(false);
        expect(x.created_at >= last).toBe(true);
        last = x.created_at;
        seen.add(x.id);
      }
      url = page.next_page_url;
    }
    const [{ n }] = await s.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM crm_leads WHERE status = 'new' AND deleted_at IS NULL AND member_id = (SELECT id FROM members WHERE username = 'demo')`);
    expect(seen.size).toBe(n);
  });

  it('answers bad bodies and queries with a field map, never a 5xx', async () => {
    const bad = await api('POST', '/api/crm/leads', mine, { name: ' ', source: 'tv', status: 'maybe', email: 'nope', estimated_value: '-5', next_follow_up: '2026-02-30' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      name: ['validation:required'],
      source: ['validation:invalidChoice'],
      status: ['validation:invalidChoice'],
      email: ['validation:invalidEmail'],
      estimated_value: ['validation:invalidAmount'],
      next_follow_up: ['validation:invalidDate'],
    });
    expect((await api('POST', '/api/crm/leads', mine, { ...lead(), estimated_value: 12.5 })).status).toBe(422);
    expect((await api('POST', '/api/crm/leads', mine, { ...lead(), extra: 1 })).status).toBe(422);
    const q = await api('GET', '/api/crm/leads?status=maybe&source=tv&sort=up&cursor=%00', mine);
    expect(q.status).toBe(422);
    expect(Object.keys(q.body.errors)).toEqual(expect.arrayContaining(['status', 'source', 'sort']));
    const l = await create(mine, lead());
    const move = await api('PUT', `/api/crm/leads/${l.id}/status`, mine, { status: 'gone' });
    expect(move.status).toBe(422);
    expect(move.body.errors).toEqual({ status: ['validation:invalidChoice'] });
    const note = await api('POST', `/api/crm/leads/${l.id}/notes`, mine, { body: '' });
    expect(note.status).toBe(422);
    expect(note.body.errors).toEqual({ body: ['validation:required'] });
  });

  it('the board groups the leads by status with totals; a move changes the status and the lost reason', async () => {
    const l = await create(mine, lead({ status: 'new', estimated_value: '10' }));
    const board = (await api<{ data: Board }>('GET', '/api/crm/leads/board', mine)).body.data;
    expect(board.columns.map((c) => c.status)).toEqual(['new', 'contacted', 'qualified', 'proposal', 'won', 'lost']);
    expect(board.columns[0].cards[0]).toMatchObject({ id: l.id, name: 'Marta Ruiz', estimated_value: '10.00' });
    expect(board.columns.reduce((n, c) => n + c.total, 0)).toBeGreaterThanOrEqual(300);
    const moved = await api('PUT', `/api/crm/leads/${l.id}/status`, mine, { status: 'lost', lost_reason: 'No budget' });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ status: 'lost', lost_reason: 'No budget' });
    const again = (await api<{ data: Board }>('GET', '/api/crm/leads/board', mine)).body.data;
    expect(again.columns[5].cards[0].id).toBe(l.id);
    expect((await api('PUT', `/api/crm/leads/${l.id}/status`, mine, { status: 'won' })).body.data).toMatchObject({ status: 'won', lost_reason: '' });
  });

  it('keeps a timeline of notes, newest first', async () => {
    const l = await create(mine, lead());
    expect((await api('GET', `/api/crm/leads/${l.id}/timeline`, mine)).body.data.items).toEqual([]);
    expect((await api('POST', `/api/crm/leads/${l.id}/notes`, mine, { body: 'First call went well.\nSend prices.' })).status).toBe(201);
    await api('POST', `/api/crm/leads/${l.id}/notes`, mine, { body: 'Prices sent.' });
    const items = (await api('GET', `/api/crm/leads/${l.id}/timeline`, mine)).body.data.items;
    expect(items.map((x: { text: string; kind: string }) => [x.kind, x.text])).toEqual([
      ['note', 'Prices sent.'],
      ['note', 'First call went well.\nSend prices.'],
    ]);
  });

  it('exports the filtered leads as CSV', async () => {
    await create(mine, lead({ name: 'Csv Export Person' }));
    const res = await api<string>('GET', '/api/crm/leads/export?q=Csv%20Export', mine);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^"?id"?,"?name"?/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Csv Export Person');
  });

  it("another member's lead is a 404 on every call and stays as it was", async () => {
    const l = await create(mine, lead({ name: 'Private Lead' }));
    for (const [method, url, body] of [
      ['GET', `/api/crm/leads/${l.id}`],
      ['PUT', `/api/crm/leads/${l.id}`, lead({ name: 'Taken' })],
      ['PUT', `/api/crm/leads/${l.id}`, { bad: true }],
      ['DELETE', `/api/crm/leads/${l.id}`],
      ['POST', `/api/crm/leads/${l.id}/restore`],
      ['PUT', `/api/crm/leads/${l.id}/status`, { status: 'won' }],
      ['PUT', `/api/crm/leads/${l.id}/status`, { status: 'nope' }],
      ['GET', `/api/crm/leads/${l.id}/timeline`],
      ['POST', `/api/crm/leads/${l.id}/notes`, { body: 'x' }],
      ['GET', '/api/crm/leads/abc'],
      ['GET', '/api/crm/leads/99999999999'],
    ] as const) {
      const res = await api(method, url, theirs, body);
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    expect((await list('?q=Private%20Lead', theirs)).items).toEqual([]);
    expect((await api<{ data: Board }>('GET', '/api/crm/leads/board', theirs)).body.data.columns.every((c) => c.total === 0)).toBe(true);
    expect((await api('GET', `/api/crm/leads/${l.id}`, mine)).body.data).toMatchObject({ name: 'Private Lead', status: 'new' });
  });

  it('asks for a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/crm/leads'],
      ['GET', '/api/crm/leads/board'],
      ['POST', '/api/crm/leads'],
      ['PUT', '/api/crm/leads/1/status'],
    ] as const)
      expect((await api(method, url, undefined, {})).status, url).toBe(401);
  });
});

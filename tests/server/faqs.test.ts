// @vitest-environment node
/** GET /api/faqs: the company's questions in the member's language, searchable, cursor-paged, answers sanitised. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, get, login, rows } from './helpers';

let s: TestServer;
let token: string;
let memberId: number;

const faqs = (query: Record<string, string> = {}, t: string | undefined = token) => get(s.app, '/api/faqs', { token: t, query });
const questions = (res: { body: { data: { items: Array<{ question: string }> } } }) => res.body.data.items.map((f) => f.question);

beforeAll(async () => {
  s = await startTestServer();
  const [m] = await bulkMembers(s.database, 1, 5);
  memberId = m.id;
  await s.database.rows(sql`UPDATE members SET language_code = 'en' WHERE id = ${m.id}`);
  token = (await login(s.app, m.username)).token;
}, 120_000);
afterAll(() => s?.close());

describe('GET /api/faqs', () => {
  it('lists the seeded questions in the order the company wrote them, in pages', async () => {
    const first = await faqs({ limit: '5' });
    expect(first.status).toBe(200);
    expect(first.body.data.items).toHaveLength(5);
    expect(questions(first)[0]).toBe('How do I request a payout?');
    expect(first.body.data.next_page_url).toMatch(/^\/api\/faqs\?limit=5&cursor=/);
    const cursor = new URL(first.body.data.next_page_url, 'http://x').searchParams.get('cursor')!;
    const second = await faqs({ limit: '5', cursor });
    expect(second.status).toBe(200);
    expect(questions(second)).not.toContain(questions(first)[0]);
    const all = await faqs({ limit: '100' });
    expect(all.body.data.items.length).toBeGreaterThanOrEqual(10);
    expect(all.body.data.next_page_url).toBeNull();
  });

  it('finds a keyword in the question or in the answer text (not in its markup), and keeps it in next_page_url', async () => {
    const payout = await faqs({ keyword: 'payout' });
    expect(questions(payout)).toEqual(expect.arrayContaining(['How do I request a payout?', 'What is the minimum payout amount?']));
    expect(questions(payout).every((q) => /payout/i.test(q)) || payout.body.data.items.some((f: { answer: string }) => /payout/i.test(f.answer))).toBe(true);
    const inAnswer = await faqs({ keyword: 'government-issued' });
    expect(questions(inAnswer)).toEqual(['Why do I need to verify my identity (KYC)?']);
    expect(questions(await faqs({ keyword: 'strong' }))).toEqual([]);
    expect(questions(await faqs({ keyword: '%' }))).toEqual([]);
    expect(questions(await faqs({ keyword: '   ' })).length).toBeGreaterThanOrEqual(10);
    const paged = await faqs({ keyword: 'account', limit: '1' });
    expect(paged.body.data.next_page_url).toContain('keyword=account');
  });

  it('answers in the member\'s language, English when that language has no questions', async () => {
    await s.database.rows(sql`UPDATE members SET language_code = 'es' WHERE id = ${memberId}`);
    try {
      const es = await faqs();
      expect(questions(es)[0]).toBe('¿Cómo solicito un retiro?');
      expect(questions(await faqs({ keyword: 'contraseña' }))).toContain('¿Cómo cambio mi contraseña?');
      await s.database.rows(sql`UPDATE members SET language_code = 'fr' WHERE id = ${memberId}`);
      expect(questions(await faqs())[0]).toBe('How do I request a payout?');
    } finally {
      await s.database.rows(sql`UPDATE members SET language_code = 'en' WHERE id = ${memberId}`);
    }
  });

  it('sends answers through the sanitiser', async () => {
    const [{ id }] = await rows<{ id: number }>(
      s.database,
      sql`INSERT INTO faqs (language_code, question, answer, created_at) VALUES ('en', 'Hostile?', '<p onclick="x()">Hi<script>alert(1)</script><a href="javascript:alert(1)">link</a></p>', '2020-01-01') RETURNING id`,
    );
    try {
      const res = await faqs({ keyword: 'Hostile' });
      const answer = res.body.data.items[0].answer as string;
      expect(answer).toContain('Hi');
      expect(answer).not.toMatch(/script|onclick|javascript:/i);
    } finally {
      await s.database.rows(sql`DELETE FROM faqs WHERE id = ${id}`);
    }
  });

  it('refuses bad input with a field map, and callers without a session', async () => {
    for (const query of <Array<Record<string, string>>>[{ keyword: 'x'.repeat(101) }, { cursor: 'not a cursor!' }, { limit: '0' }, { limit: '1000' }, { cursor: 'djF8YXNjfDB8MQ' }]) {
      const res = await faqs(query);
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(Object.keys(res.body.errors).length).toBeGreaterThan(0);
    }
    expect((await get(s.app, '/api/faqs')).status).toBe(401);
  });
});

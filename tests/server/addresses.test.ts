// @vitest-environment node
/**
 * The address book (/api/user/addresses): the member's own addresses only, created, read, changed,
 * deleted and restored; another member's address answers 404 and stays as it was; bad bodies get a field
 * map with the form's keys; no session is a 401; junk never answers 5xx.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../server/lib/auth';
import type { Address } from '../../src/schemas/account.schema';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, login, type Answer } from './helpers';

let s: TestServer;
let mine: string;
let theirs: string;
let spainId: number;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
  mine = (await login(s.app, 'demo')).token;
  const [other] = await bulkMembers(s.database, 1);
  theirs = (await createSession(s.database.db, other.id)).token;
  spainId = (await s.database.rows<{ id: number }>(sql`SELECT id FROM countries WHERE iso_code_2 = 'ES'`))[0].id;
});
afterAll(async () => {
  await s?.close();
});

const api = <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown): Promise<Answer<T>> =>
  call<T>(s.app, method, url, body, { token });
const madrid = () => ({ first_name: 'Lucía', last_name: 'Gómez', address_1: 'Calle Mayor 10', city: 'Madrid', postcode: '28013', country_id: spainId });
const create = async (token: string, body: object) => {
  const res = await api<{ data: Address }>('POST', '/api/user/addresses', token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const listIds = async (token: string) => ((await api('GET', '/api/user/addresses', token)).body.data.items as Address[]).map((a) => a.id);

describe('address book', () => {
  it('lists the seeded addresses of demo, newest first', async () => {
    const res = await api('GET', '/api/user/addresses', mine);
    expect(res.status).toBe(200);
    const items = res.body.data.items as Address[];
    expect(items.map((a) => a.address_1)).toEqual(['233 South Wacker Drive', '1200 Lake Shore Drive']);
    expect(items[0]).toMatchObject({ city: 'Chicago', country_name: 'United States', company: 'Upline Distribution' });
  });

  it('creates, reads, updates, deletes and restores an address', async () => {
    const a = await create(mine, madrid());
    expect(a).toMatchObject({ ...madrid(), company: '', email: '', phone: '', country_name: 'Spain', zone_id: null, zone_name: '' });
    expect((await api('GET', `/api/user/addresses/${a.id}`, mine)).body.data).toEqual(a);
    expect(await listIds(mine)).toContain(a.id);

    const changed = await api('PUT', `/api/user/addresses/${a.id}`, mine, { ...madrid(), city: '  Sevilla ', email: 'lucia@example.com', phone: '34911222333', zone_name: 'Andalucía' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ ...a, city: 'Sevilla', email: 'lucia@example.com', phone: '34911222333', zone_name: 'Andalucía' });

    const gone = await api('DELETE', `/api/user/addresses/${a.id}`, mine);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ id: a.id });
    expect(await listIds(mine)).not.toContain(a.id);
    expect((await api('GET', `/api/user/addresses/${a.id}`, mine)).status).toBe(404);

    const back = await api('POST', `/api/user/addresses/${a.id}/restore`, mine);
    expect(back.status).toBe(200);
    expect(back.body.data.city).toBe('Sevilla');
    expect(await listIds(mine)).toContain(a.id);
  });

  it('answers 404 for another member’s address and changes nothing', async () => {
    const theirAddress = await create(theirs, { ...madrid(), first_name: 'Other' });
    const url = `/api/user/addresses/${theirAddress.id}`;
    expect((await api('GET', url, mine)).status).toBe(404);
    expect((await api('PUT', url, mine, madrid())).status).toBe(404);
    expect((await api('DELETE', url, mine)).status).toBe(404);
    expect((await api('POST', `${url}/restore`, mine)).status).toBe(404);
    expect(await listIds(mine)).not.toContain(theirAddress.id);
    // Deleted by its owner, still not restorable by anyone else.
    expect((await api('DELETE', url, theirs)).status).toBe(200);
    expect((await api('POST', `${url}/restore`, mine)).status).toBe(404);
    expect((await api('POST', `${url}/restore`, theirs)).status).toBe(200);
    expect((await api('GET', url, theirs)).body.data.first_name).toBe('Other');
  });

  it('every addition, change, deletion and restore is in the member’s audit trail and data export; refused calls leave none', async () => {
    const demoId = (await s.database.rows<{ id: number }>(sql`SELECT id FROM members WHERE username = 'demo'`))[0].id;
    const trail = async (memberId: number) =>
      s.database.rows<{ action: string; detail: Record<string, unknown> }>(
        sql`SELECT action, detail FROM account_audit WHERE member_id = ${memberId} AND action LIKE 'address.%' ORDER BY id`,
      );
    const before = (await trail(demoId)).length;
    const a = await create(mine, madrid());
    expect((await api('PUT', `/api/user/addresses/${a.id}`, mine, { ...madrid(), city: 'Sevilla' })).status).toBe(200);
    expect((await api('DELETE', `/api/user/addresses/${a.id}`, mine)).status).toBe(200);
    expect((await api('POST', `/api/user/addresses/${a.id}/restore`, mine)).status).toBe(200);
    // Refused: a bad body, someone else's address, no such address.
    expect((await api('PUT', `/api/user/addresses/${a.id}`, mine, { ...madrid(), country_id: 999999 })).status).toBe(422);
    const theirAddress = await create(theirs, madrid());
    expect((await api('DELETE', `/api/user/addresses/${theirAddress.id}`, mine)).status).toBe(404);
    expect((await api('POST', `/api/user/addresses/${a.id}/restore`, mine)).status).toBe(404);
    const rows = (await trail(demoId)).slice(before);
    expect(rows.map((r) => r.action)).toEqual(['address.added', 'address.changed', 'address.deleted', 'address.restored']);
    expect(rows.every((r) => r.detail.address_id === a.id && r.detail.country === 'Spain')).toBe(true);
    // The member reads them in their personal data export.
    const exported = await api('GET', '/api/user/data_export', mine);
    expect(exported.status).toBe(200);
    const actions = (exported.body.audit as { action: string }[]).map((x) => x.action);
    expect(actions).toEqual(expect.arrayContaining(['address.added', 'address.changed', 'address.deleted', 'address.restored']));
  });

  it('answers a field map with the form’s keys', async () => {
    const missing = await api('POST', '/api/user/addresses', mine, {});
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({
      error_code: 'validation_error',
      errors: { first_name: ['validation:required'], address_1: ['validation:required'], city: ['validation:required'], country_id: ['validation:required'] },
    });
    const wrong = await api('POST', '/api/user/addresses', mine, { ...madrid(), first_name: 'x'.repeat(65), email: 'not-mail', phone: '+34 (91)', colour: 'red' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({
      first_name: ['validation:tooLong'],
      email: ['validation:invalidEmail'],
      phone: ['validation:invalidMobile'],
      colour: ['validation:unknownField'],
    });
    const nowhere = await api('POST', '/api/user/addresses', mine, { ...madrid(), country_id: 999999 });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors).toEqual({ country_id: ['validation:invalidChoice'] });
  });

  it('needs a session for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/user/addresses'],
      ['GET', '/api/user/addresses/1'],
      ['POST', '/api/user/addresses'],
      ['PUT', '/api/user/addresses/1'],
      ['DELETE', '/api/user/addresses/1'],
      ['POST', '/api/user/addresses/1/restore'],
    ] as const) {
      expect((await api(method, url, undefined, method === 'POST' || method === 'PUT' ? madrid() : undefined)).status, `${method} ${url}`).toBe(401);
    }
  });

  it('answers junk ids, bodies and queries with a 4xx, never a 5xx', async () => {
    const a = await create(mine, madrid());
    for (const id of ['abc', '0', '-1', '1.5', '2147483648', '%00', encodeURIComponent("1' OR '1'='1")]) {
      expect((await api('GET', `/api/user/addresses/${id}`, mine)).status).toBe(404);
      expect((await api('PUT', `/api/user/addresses/${id}`, mine, madrid())).status).toBe(404);
      expect((await api('DELETE', `/api/user/addresses/${id}`, mine)).status).toBe(404);
    }
    const bodies = ['', 'null', '[]', '"text"', '{', JSON.stringify({ ...madrid(), country_id: 'x' }), JSON.stringify({ ...madrid(), country_id: 1e12 }), JSON.stringify({ ...madrid(), zone_id: -3 }), '{"first_name":{"$gt":""}}'];
    for (const raw of bodies) {
      for (const [method, url] of [
        ['POST', '/api/user/addresses'],
        ['PUT', `/api/user/addresses/${a.id}`],
      ] as const) {
        const res = await call(s.app, method, url, undefined, { token: mine, raw });
        expect(res.status, `${method} ${raw}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${raw}`).toBeLessThan(500);
      }
    }
    for (const query of ['limit=0', 'limit=abc', 'cursor=%%%']) expect((await api('GET', `/api/user/addresses?${query}`, mine)).status, query).toBe(422);
    expect((await api('GET', `/api/user/addresses/${a.id}`, mine)).body.data.city).toBe('Madrid');
  });
});

// @vitest-environment node
/** The downline report (placement and sponsor), page by page, against the tree in the database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { startTestServer, type TestServer } from '../support/server';
import { allMembers, byUsername, get, login, placementDescendants, sessionFor, sponsorDescendants, type DbMember } from './network-support';
import { downlineReportSchema, type DownlineReport, type ReportMember } from '../../src/schemas/network.schema';

let server: TestServer;
let token: string;
let all: Map<number, DbMember>;
let demo: DbMember;

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  token = await login(server, 'demo');
  all = await allMembers(server);
  demo = byUsername(all, 'demo');
}, 60_000);
afterAll(() => server?.close());

/** Follow next_page_url from the first page to the last. */
async function walk(first: string): Promise<{ rows: ReportMember[]; pages: number }> {
  const rows: ReportMember[] = [];
  let url: string | null = first;
  let pages = 0;
  while (url) {
    const res: { status: number; raw: string; body: { data: DownlineReport } } = await get<DownlineReport>(server, token, url);
    expect(res.status, res.raw).toBe(200);
    const page: DownlineReport = z.parse(downlineReportSchema, res.body.data);
    expect(page.current_page).toBe(pages + 1);
    expect(page.data.length).toBeLessThanOrEqual(page.per_page);
    if (page.next_page_url) expect(page.data).toHaveLength(page.per_page);
    rows.push(...page.data);
    url = page.next_page_url;
    pages++;
    expect(pages).toBeLessThan(200);
  }
  return { rows, pages };
}

const key = (m: { created_at: string; id: number }) => `${m.created_at}|${String(m.id).padStart(10, '0')}`;
const ids = (rows: { id: number }[]) => rows.map((r) => r.id).sort((a, b) => a - b);

describe('placement report', () => {
  it('walks every member of the downline exactly once, newest first by default', async () => {
    const { rows, pages } = await walk('/api/network/downline_report/placement');
    const expected = placementDescendants(all, demo.id);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(ids(rows)).toEqual(ids(expected));
    expect(pages).toBe(Math.ceil(expected.length / 20));
    const keys = rows.map(key);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('the category defaults to placement', async () => {
    const a = await get(server, token, '/api/network/downline_report?page=2');
    const b = await get(server, token, '/api/network/downline_report/placement?page=2');
    expect(a.status).toBe(200);
    expect(a.raw).toBe(b.raw);
  });

  it('every field of a row is the member as stored', async () => {
    const { rows } = await walk('/api/network/downline_report/placement?sort=asc');
    const extra = new Map(
      (
        await server.database.rows<{ id: number; rank_name: string | null; pv: string; first_name: string; last_name: string | null }>(
          sql`SELECT m.id, r.name AS rank_name, m.pv::text AS pv, m.first_name, m.last_name FROM members m LEFT JOIN ranks r ON r.id = m.rank_id`,
        )
      ).map((r) => [Number(r.id), r]),
    );
    for (const r of rows) {
      const m = all.get(r.id)!;
      expect(r.username).toBe(m.username);
      expect(r.email).toBe(m.email);
      expect(r.parent_id).toBe(m.parent_id);
      expect(r.placement_username).toBe(all.get(m.parent_id!)!.username);
      expect(r.sponsor_username).toBe(m.sponsor_id === null ? null : all.get(m.sponsor_id)!.username);
      expect(r.level).toBe(m.depth - demo.depth);
      expect(r.created_at).toBe(m.created_at);
      expect(r.status).toBe(m.status);
      expect(r.rank_name).toBe(extra.get(r.id)!.rank_name);
      expect(Number(r.pv)).toBe(Number(extra.get(r.id)!.pv));
      expect(r.first_name).toBe(extra.get(r.id)!.first_name);
    }
  });

  it('sort=asc is the exact reverse of sort=desc', async () => {
    const desc = (await walk('/api/network/downline_report/placement?sort=desc')).rows.map((r) => r.id);
    const asc = (await walk('/api/network/downline_report/placement?sort=asc')).rows.map((r) => r.id);
    expect(asc).toEqual([...desc].reverse());
  });

  it('level filter: exactly the members that many levels below', async () => {
    for (const level of [1, 3, 5]) {
      const { rows } = await walk(`/api/network/downline_report/placement?level=${level}&sort=asc`);
      expect(rows.every((r) => r.level === level)).toBe(true);
      expect(ids(rows), `level ${level}`).toEqual(ids(placementDescendants(all, demo.id).filter((m) => m.depth - demo.depth === level)));
    }
    const deeper = await get<DownlineReport>(server, token, '/api/network/downline_report/placement?level=500');
    expect(deeper.body.data.data).toEqual([]);
    expect(deeper.body.data.next_page_url).toBeNull();
  });

  it('username search: members of the downline whose username starts with the text, any letter case', async () => {
    const sample = placementDescendants(all, demo.id)[7];
    const prefix = sample.username.replace(/\d+$/, '').slice(0, 3);
    const { rows } = await walk(`/api/network/downline_report/placement?username=${prefix.toUpperCase()}`);
    const expected = placementDescendants(all, demo.id).filter((m) => m.username.toLowerCase().startsWith(prefix.toLowerCase()));
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(rows)).toEqual(ids(expected));
    const exact = await get<DownlineReport>(server, token, `/api/network/downline_report/placement?username=${sample.username}`);
    expect(exact.body.data.data.map((r) => r.id)).toContain(sample.id);
    for (const outside of ['admin', 'demo', 'blocked', '%', '_']) {
      const res = await get<DownlineReport>(server, token, `/api/network/downline_report/placement?username=${encodeURIComponent(outside)}`);
      expect(res.status).toBe(200);
      expect(res.body.data.data, outside).toEqual([]);
    }
  });

  it('filters travel in next_page_url', async () => {
    const res = await get<DownlineReport>(server, token, '/api/network/downline_report/placement?sort=asc&level=6');
    const url = new URL(res.body.data.next_page_url!, 'http://x');
    expect(url.pathname).toBe('/api/network/downline_report/placement');
    const { after, ...rest } = Object.fromEntries(url.searchParams);
    expect(rest).toEqual({ page: '2', level: '6', sort: 'asc' });
    expect(after).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('page N asked by number is page N reached through next_page_url', async () => {
    for (const q of ['sort=desc', 'sort=asc', 'level=7&sort=desc']) {
      let url: string | null = `/api/network/downline_report/placement?${q}`;
      for (let page = 1; page <= 4 && url; page++) {
        const followed: { body: { data: DownlineReport } } = await get<DownlineReport>(server, token, url);
        const byNumber = await get<DownlineReport>(server, token, `/api/network/downline_report/placement?${q}&page=${page}`);
        expect(byNumber.body.data.data.map((r) => r.id), `${q} page ${page}`).toEqual(followed.body.data.data.map((r) => r.id));
        url = followed.body.data.next_page_url;
      }
    }
  });

  it('members joining while the member pages through: next_page_url neither repeats nor skips anyone', async () => {
    const first = await get<DownlineReport>(server, token, '/api/network/downline_report/placement');
    const seen = first.body.data.data.map((r) => r.id);
    // Three newcomers (newest of all) join below a leaf of demo's downline.
    const leaf = placementDescendants(all, demo.id).find((m) => m.child_count === 0)!;
    const added: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [row] = await server.database.rows<{ id: number }>(sql`
        INSERT INTO members (username, password_hash, first_name, sponsor_id, parent_id, position, slot, path, depth, created_at)
        VALUES (${`paging.newcomer${i}`}, 'x', 'New', ${demo.id}, ${i === 0 ? leaf.id : added[0]}, 'L', ${i === 2 ? 1 : 0}, '', 0, now()) RETURNING id`);
      added.push(Number(row.id));
    }
    for (const id of added) {
      const parent = id === added[0] ? leaf : { path: `${leaf.path}${added[0]}.`, depth: leaf.depth + 1 };
      await server.database.rows(sql`UPDATE members SET path = ${`${parent.path}${id}.`}, depth = ${parent.depth + 1} WHERE id = ${id}`);
    }
    try {
      let url = first.body.data.next_page_url;
      while (url) {
        const res = await get<DownlineReport>(server, token, url);
        seen.push(...res.body.data.data.map((r) => r.id));
        url = res.body.data.next_page_url;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(ids(seen.map((id) => ({ id })))).toEqual(ids(placementDescendants(all, demo.id)));
      // A fresh walk shows them first.
      const again = await get<DownlineReport>(server, token, '/api/network/downline_report/placement');
      expect(again.body.data.data.slice(0, 3).map((r) => r.id).sort()).toEqual([...added].sort());
    } finally {
      await server.database.rows(sql`DELETE FROM members WHERE id IN (${added[2]}, ${added[1]}, ${added[0]})`);
    }
  });

  it('a member with a smaller downline gets the same report, read from its path range', async () => {
    const member = placementDescendants(all, demo.id).find((m) => m.depth - demo.depth === 2 && m.downline_count >= 30)!;
    const memberToken = await sessionFor(server, member.id);
    const rows: ReportMember[] = [];
    let url: string | null = '/api/network/downline_report/placement?sort=asc';
    while (url) {
      const res: { body: { data: DownlineReport } } = await get<DownlineReport>(server, memberToken, url);
      rows.push(...res.body.data.data);
      url = res.body.data.next_page_url;
    }
    const expected = placementDescendants(all, member.id);
    expect(rows.map((r) => r.id)).toEqual(
      [...expected].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map((m) => m.id),
    );
    expect(rows.every((r) => r.level === all.get(r.id)!.depth - member.depth)).toBe(true);
    const level2 = await get<DownlineReport>(server, memberToken, '/api/network/downline_report/placement?level=2');
    expect(ids(level2.body.data.data)).toEqual(ids(expected.filter((m) => m.depth - member.depth === 2)));
    const sponsor = await get<DownlineReport>(server, memberToken, '/api/network/downline_report/sponsor?page=1');
    const expectedSponsor = sponsorDescendants(all, member.id);
    expect(sponsor.body.data.data.every((r) => expectedSponsor.get(r.id) === r.level)).toBe(true);
    expect(sponsor.body.data.data.length).toBe(Math.min(20, expectedSponsor.size));
  });

  it('many newer members outside the downline: the same pages (read from the downline itself once the join-date walk gives up)', async () => {
    const db = server.database;
    const blocked = byUsername(all, 'blocked');
    const admin = byUsername(all, 'admin');
    // 200 members newer than anyone, below blocked (outside demo's placement and sponsor downlines): walking the
    // join dates from the newest, demo's report meets all of them before its first row.
    const added = (
      await db.rows<{ id: number }>(sql`
        INSERT INTO members (username, password_hash, first_name, sponsor_id, parent_id, path, depth, created_at)
        SELECT 'outsider' || i, 'x', 'Out', ${blocked.id}, ${blocked.id}, '', ${blocked.depth + 1}, timestamptz '2031-01-01' + i * interval '1 s'
        FROM generate_series(1, 200) i RETURNING id`)
    ).map((r) => Number(r.id));
    await db.rows(sql`UPDATE members SET path = ${blocked.path} || id || '.' WHERE id IN (${sql.join(added.map((id) => sql`${id}`), sql`, `)})`);
    await db.rows(sql`UPDATE members SET downline_count = downline_count + 200 WHERE id IN (${admin.id}, ${blocked.id})`);
    try {
      const expected = [...placementDescendants(all, demo.id)].sort((a, b) => (key(a) < key(b) ? 1 : -1)).map((m) => m.id);
      let url: string | null = '/api/network/downline_report/placement';
      const seen: number[] = [];
      for (let page = 1; page <= 3 && url; page++) {
        const res: { body: { data: DownlineReport } } = await get<DownlineReport>(server, token, url);
        seen.push(...res.body.data.data.map((r) => r.id));
        const byNumber = await get<DownlineReport>(server, token, `/api/network/downline_report/placement?page=${page}`);
        expect(byNumber.body.data.data.map((r) => r.id), `page ${page}`).toEqual(res.body.data.data.map((r) => r.id));
        url = res.body.data.next_page_url;
      }
      expect(seen).toEqual(expected.slice(0, 60));
      const sponsor = await get<DownlineReport>(server, token, '/api/network/downline_report/sponsor');
      const sponsorIds = sponsorDescendants(all, demo.id);
      expect(sponsor.body.data.data.map((r) => r.id)).toEqual(expected.filter((id) => sponsorIds.has(id)).slice(0, 20));
      const level = await get<DownlineReport>(server, token, '/api/network/downline_report/placement?level=3');
      const atLevel = expected.filter((id) => all.get(id)!.depth - demo.depth === 3);
      expect(level.body.data.data.map((r) => r.id)).toEqual(atLevel.slice(0, 20));
    } finally {
      await db.rows(sql`UPDATE members SET downline_count = downline_count - 200 WHERE id IN (${admin.id}, ${blocked.id})`);
      await db.rows(sql`DELETE FROM members WHERE id IN (${sql.join(added.map((id) => sql`${id}`), sql`, `)})`);
    }
  });

  it('a downline that is most of the tree, walked by join date: the same pages, and where the walk gives up after a few rows the page goes on from them', async () => {
    const db = server.database;
    const blocked = byUsername(all, 'blocked');
    const at = (seconds: number) => new Date(Date.UTC(2031, 0, 1) + seconds * 1000).toISOString();
    const inserted: number[] = [];
    const counted: Array<{ under: DbMember; count: number }> = [];
    const add = async (count: number, under: DbMember, firstAt: number, stepMs: number) => {
      const rows = await db.rows<{ id: number }>(sql`
        INSERT INTO members (username, password_hash, first_name, sponsor_id, parent_id, path, depth, created_at)
        SELECT ${`walk${inserted.length}.`} || i, 'x', 'Walk', ${under.id}, ${under.id}, '', ${under.depth + 1},
               ${at(firstAt)}::timestamptz + i * ${stepMs} * interval '1 ms'
        FROM generate_series(1, ${count}) i RETURNING id`);
      const added = rows.map((r) => Number(r.id));
      inserted.push(...added);
      await db.rows(sql`UPDATE members SET path = ${under.path} || id || '.' WHERE id IN (${sql.join(added.map((id) => sql`${id}`), sql`, `)})`);
      await db.rows(sql`UPDATE members SET downline_count = downline_count + ${count} WHERE path <> '' AND starts_with(${under.path}, path)`);
      counted.push({ under, count });
    };
    const ordered = (members: DbMember[], desc = true) =>
      [...members].sort((a, b) => (key(a) < key(b) ? (desc ? 1 : -1) : desc ? -1 : 1)).map((m) => m.id);
    try {
      // 400 newcomers below demo (newer than anyone): demo's downline is most of every tree, so the report walks
      // the join dates (the function's rule: twice what it may read, 4 × (skip + 21) × members / downline + 64, fits in it).
      await add(400, demo, 0, 1000);
      let now = await allMembers(server);
      const downline = placementDescendants(now, demo.id);
      const [{ members }] = await db.rows<{ members: number }>(sql`SELECT sum(downline_count + 1)::int AS members FROM members WHERE parent_id IS NULL`);
      expect(2 * (Math.ceil((21 * members) / downline.length) * 4 + 64)).toBeLessThanOrEqual(downline.length);
      for (const sort of ['desc', 'asc'] as const) {
        const { rows } = await walk(`/api/network/downline_report/placement?sort=${sort}`);
        expect(rows.map((r) => r.id), sort).toEqual(ordered(downline, sort === 'desc'));
        expect(rows.every((r) => r.level === now.get(r.id)!.depth - demo.depth)).toBe(true);
      }
      for (let page = 1; page <= 3; page++) {
        const byNumber = await get<DownlineReport>(server, token, `/api/network/downline_report/placement?page=${page}`);
        expect(byNumber.body.data.data.map((r) => r.id), `page ${page}`).toEqual(ordered(downline).slice((page - 1) * 20, page * 20));
      }
      const level1 = await walk('/api/network/downline_report/placement?level=1');
      expect(level1.rows.map((r) => r.id)).toEqual(ordered(downline.filter((m) => m.depth === demo.depth + 1)));
      const sponsored = sponsorDescendants(now, demo.id);
      const sponsor = await get<DownlineReport>(server, token, '/api/network/downline_report/sponsor');
      expect(sponsor.body.data.data.map((r) => [r.id, r.level])).toEqual(
        ordered([...now.values()].filter((m) => sponsored.has(m.id))).slice(0, 20).map((id) => [id, sponsored.get(id)]),
      );

      // 300 members outside demo's downline join between its 5th and 6th newest: the walk finds five rows, then
      // passes more than it may read; the page goes on from the downline's range after those five.
      await add(300, blocked, 395, 1);
      now = await allMembers(server);
      const expected = ordered(placementDescendants(now, demo.id));
      const first = await get<DownlineReport>(server, token, '/api/network/downline_report/placement');
      expect(first.body.data.data.map((r) => r.id)).toEqual(expected.slice(0, 20));
      const second = await get<DownlineReport>(server, token, first.body.data.next_page_url!);
      expect(second.body.data.data.map((r) => r.id)).toEqual(expected.slice(20, 40));
      const byNumber = await get<DownlineReport>(server, token, '/api/network/downline_report/placement?page=2');
      expect(byNumber.body.data.data.map((r) => r.id)).toEqual(expected.slice(20, 40));
    } finally {
      await db.rows(sql`DELETE FROM members WHERE id IN (${sql.join(inserted.map((id) => sql`${id}`), sql`, `)})`);
      for (const { under, count } of counted) {
        await db.rows(sql`UPDATE members SET downline_count = downline_count - ${count} WHERE path <> '' AND starts_with(${under.path}, path)`);
      }
    }
  });

  it('a page past the end is empty', async () => {
    const res = await get<DownlineReport>(server, token, '/api/network/downline_report/placement?page=9999');
    expect(res.status).toBe(200);
    expect(res.body.data.data).toEqual([]);
    expect(res.body.data.next_page_url).toBeNull();
  });
});

describe('sponsor report', () => {
  it('everyone the member brought in, and everyone they brought in, with their generation', async () => {
    const { rows } = await walk('/api/network/downline_report/sponsor');
    const expected = sponsorDescendants(all, demo.id);
    expect(expected.size).toBeGreaterThan(20);
    expect(ids(rows)).toEqual([...expected.keys()].sort((a, b) => a - b));
    for (const r of rows) expect(r.level, r.username).toBe(expected.get(r.id));
    const level1 = await walk('/api/network/downline_report/sponsor?level=1');
    expect(ids(level1.rows)).toEqual([...all.values()].filter((m) => m.sponsor_id === demo.id).map((m) => m.id).sort((a, b) => a - b));
  });

  it('the sponsor chain is kept by the database when a member is added or changes sponsor', async () => {
    const db = server.database;
    const below = placementDescendants(all, demo.id);
    const leaf = below.find((m) => m.child_count === 0)!;
    // A new member sponsored by a member two generations below demo.
    const sponsor = [...sponsorDescendants(all, demo.id)].find(([, gen]) => gen === 2)![0];
    const [row] = await db.rows<{ id: number }>(sql`
      INSERT INTO members (username, password_hash, first_name, sponsor_id, parent_id, position, slot, path, depth, created_at)
      VALUES ('report.newcomer', 'x', 'New', ${sponsor}, ${leaf.id}, 'L', 0, '', ${leaf.depth + 1}, '2030-01-01T00:00:00Z') RETURNING id`);
    const id = Number(row.id);
    await db.rows(sql`UPDATE members SET path = ${`${leaf.path}${id}.`} WHERE id = ${id}`);
    let first = (await get<DownlineReport>(server, token, '/api/network/downline_report/sponsor')).body.data.data[0];
    expect(first.id).toBe(id);
    expect(first.level).toBe(3);
    // Moved under demo directly: generation 1 now.
    await db.rows(sql`UPDATE members SET sponsor_id = ${demo.id} WHERE id = ${id}`);
    first = (await get<DownlineReport>(server, token, '/api/network/downline_report/sponsor')).body.data.data[0];
    expect(first.level).toBe(1);
    // A sponsor moving takes everyone below it along: give the newcomer a recruit, then move the newcomer out of demo's reach.
    const [rec] = await db.rows<{ id: number }>(sql`
      INSERT INTO members (username, password_hash, first_name, sponsor_id, created_at)
      VALUES ('report.recruit', 'x', 'Rec', ${id}, '2030-01-02T00:00:00Z') RETURNING id`);
    let sponsorRows = (await walk('/api/network/downline_report/sponsor')).rows;
    expect(sponsorRows.find((r) => r.id === Number(rec.id))?.level).toBe(2);
    const admin = byUsername(all, 'admin');
    await db.rows(sql`UPDATE members SET sponsor_id = ${admin.id} WHERE id = ${id}`);
    sponsorRows = (await walk('/api/network/downline_report/sponsor')).rows;
    expect(sponsorRows.some((r) => r.id === id || r.id === Number(rec.id))).toBe(false);
    const chains = await db.rows<{ sponsor_path: string; sponsor_depth: number }>(
      sql`SELECT sponsor_path, sponsor_depth FROM members WHERE id = ${Number(rec.id)}`,
    );
    expect(chains[0].sponsor_path).toBe(`${admin.id}.${id}.${rec.id}.`);
    expect(Number(chains[0].sponsor_depth)).toBe(2);
    await db.rows(sql`DELETE FROM members WHERE id IN (${Number(rec.id)}, ${id})`);
  });

  it('every stored sponsor chain matches the sponsor links', async () => {
    const rows = await server.database.rows<{ id: number; sponsor_path: string; sponsor_depth: number }>(
      sql`SELECT id, sponsor_path, sponsor_depth FROM members`,
    );
    for (const r of rows) {
      const chain: number[] = [];
      for (let m: DbMember | undefined = all.get(Number(r.id)); m; m = m.sponsor_id === null ? undefined : all.get(m.sponsor_id)) chain.unshift(m.id);
      expect(r.sponsor_path).toBe(chain.map((c) => `${c}.`).join(''));
      expect(Number(r.sponsor_depth)).toBe(chain.length - 1);
    }
  });
});

describe('bad input', () => {
  it('sort other than asc or desc → 422 with a field message', async () => {
    for (const sort of ['ASC', 'up', 'created_at', '1']) {
      const res = await get(server, token, `/api/network/downline_report/placement?sort=${sort}`);
      expect(res.status, sort).toBe(422);
      expect(res.body.error_code).toBe('validation_error');
      expect(res.body.errors).toEqual({ sort: ['validation:invalidChoice'] });
    }
  });

  it('page that is not a positive whole number → 422 with a field message', async () => {
    for (const page of ['0', '-1', 'abc', '1.5', '', '99999999999']) {
      const res = await get(server, token, `/api/network/downline_report/placement?page=${page}`);
      expect(res.status, `page=${page}`).toBe(422);
      expect(Object.keys(res.body.errors ?? {})).toEqual(['page']);
    }
    const twice = await get(server, token, '/api/network/downline_report/placement?page=1&page=2');
    expect(twice.status).toBe(422);
    expect(twice.body.errors?.page).toBeDefined();
  });

  it('bad level, unknown category, oversize username, a cursor that is not one → 422 field maps, never 5xx', async () => {
    const cases: [string, string][] = [
      ['/api/network/downline_report/placement?after=xyz', 'after'],
      [`/api/network/downline_report/placement?after=${Buffer.from('2026-01-01T00:00:00.000000Z|0').toString('base64url')}`, 'after'],
      [`/api/network/downline_report/placement?after=${'A'.repeat(200)}`, 'after'],
      ['/api/network/downline_report/placement?level=0', 'level'],
      ['/api/network/downline_report/placement?level=x', 'level'],
      ['/api/network/downline_report/everyone', 'category'],
      [`/api/network/downline_report/placement?username=${'a'.repeat(65)}`, 'username'],
    ];
    for (const [url, field] of cases) {
      const res = await get(server, token, url);
      expect(res.status, url).toBe(422);
      expect(res.body.errors?.[field], url).toBeDefined();
    }
  });
});

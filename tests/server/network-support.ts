/** Helpers of the network server tests: signing in and reading the tree straight from the database. */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { apiHeaders, TEST_PASSWORD, type TestServer } from '../support/server';
import { createSession } from '../../server/lib/auth';

export interface DbMember {
  id: number;
  username: string;
  parent_id: number | null;
  sponsor_id: number | null;
  position: string | null;
  slot: number | null;
  path: string;
  depth: number;
  downline_count: number;
  left_count: number;
  right_count: number;
  child_count: number;
  created_at: string;
  status: number;
  email: string | null;
}

/** Every member, keyed by id (the test database holds a few hundred). */
export async function allMembers(server: TestServer): Promise<Map<number, DbMember>> {
  const rows = await server.database.rows<DbMember>(sql`
    SELECT id, username, parent_id, sponsor_id, position, slot, path, depth, downline_count, left_count, right_count,
           child_count, status, email, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
    FROM members ORDER BY id`);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        ...r,
        id: Number(r.id),
        parent_id: r.parent_id === null ? null : Number(r.parent_id),
        sponsor_id: r.sponsor_id === null ? null : Number(r.sponsor_id),
        slot: r.slot === null ? null : Number(r.slot),
        depth: Number(r.depth),
        downline_count: Number(r.downline_count),
        left_count: Number(r.left_count),
        right_count: Number(r.right_count),
        child_count: Number(r.child_count),
        status: Number(r.status),
      },
    ]),
  );
}

export const byUsername = (all: Map<number, DbMember>, username: string) => {
  const m = [...all.values()].find((x) => x.username === username);
  if (!m) throw new Error(`no member ${username}`);
  return m;
};

/** Members strictly below `root` in the placement tree, recounted from parent links (not from paths). */
export function placementDescendants(all: Map<number, DbMember>, rootId: number): DbMember[] {
  const children = new Map<number, DbMember[]>();
  for (const m of all.values()) if (m.parent_id !== null) (children.get(m.parent_id) ?? children.set(m.parent_id, []).get(m.parent_id)!).push(m);
  const out: DbMember[] = [];
  const stack = [...(children.get(rootId) ?? [])];
  while (stack.length) {
    const m = stack.pop()!;
    out.push(m);
    stack.push(...(children.get(m.id) ?? []));
  }
  return out;
}

/** Members brought in by `rootId` directly or through the people it brought in, with their generation. */
export function sponsorDescendants(all: Map<number, DbMember>, rootId: number): Map<number, number> {
  const sponsored = new Map<number, DbMember[]>();
  for (const m of all.values()) if (m.sponsor_id !== null) (sponsored.get(m.sponsor_id) ?? sponsored.set(m.sponsor_id, []).get(m.sponsor_id)!).push(m);
  const out = new Map<number, number>();
  let frontier = [rootId];
  for (let gen = 1; frontier.length; gen++) {
    const next: number[] = [];
    for (const id of frontier) for (const m of sponsored.get(id) ?? []) if (!out.has(m.id)) (out.set(m.id, gen), next.push(m.id));
    frontier = next;
  }
  return out;
}

/** Sign in through the API like the app does. */
export async function login(server: TestServer, username: string, password = TEST_PASSWORD): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { ...apiHeaders(), 'content-type': 'application/json' },
    payload: { login_using: 'username', username, password },
  });
  expect(res.statusCode, res.body).toBe(200);
  const token = (res.json() as { data: { token: string } }).data.token;
  expect(token).not.toBe('');
  return token;
}

/** A session for any member (seeded members share the demo password but are signed in directly here). */
export async function sessionFor(server: TestServer, memberId: number): Promise<string> {
  return (await createSession(server.database.db, memberId)).token;
}

export async function get<T = Record<string, unknown>>(server: TestServer, token: string | undefined, url: string) {
  const res = await server.app.inject({ method: 'GET', url, headers: apiHeaders(token) });
  return { status: res.statusCode, body: res.json() as { data: T; error_code?: string; errors?: Record<string, string[]> }, raw: res.body };
}

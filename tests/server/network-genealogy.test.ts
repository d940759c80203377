// @vitest-environment node
/** Genealogy, table view and max levels answers checked against the tree in the database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { allMembers, byUsername, get, login, placementDescendants, type DbMember } from './network-support';
import { withSettings } from './helpers';
import {
  genealogySchema,
  maxLevelsSchema,
  tableViewSchema,
  tableViewSingleSchema,
  type Genealogy,
  type NestedTableNode,
  type NestedTreeNode,
  type TableViewSingle,
  type TreeNode,
} from '../../src/schemas/network.schema';
import * as z from 'zod/mini';

let server: TestServer;
let token: string;
let all: Map<number, DbMember>;
let demo: DbMember;
let earnings: Map<number, string>;
/** What the tree shows of each member besides the tree fields, as stored. */
let facts: Map<number, MemberFacts>;

interface MemberFacts {
  avatar: string | null;
  first_name: string;
  last_name: string | null;
  rank_id: number | null;
  rank_name: string | null;
  rank_icon: string | null;
  package_id: number | null;
  package_name: string | null;
  figures: Record<'pv' | 'tv' | 'cv' | 'total_left' | 'total_right' | 'carry_left' | 'carry_right', string>;
}

const FIGURES = ['pv', 'tv', 'cv', 'total_left', 'total_right', 'carry_left', 'carry_right'] as const;

async function readFacts(): Promise<Map<number, MemberFacts>> {
  const rows = await server.database.rows<Omit<MemberFacts, 'figures'> & { id: number } & MemberFacts['figures']>(sql`
    SELECT m.id, m.avatar, m.first_name, m.last_name, m.rank_id, r.name AS rank_name, r.icon AS rank_icon, m.package_id, p.name AS package_name,
           m.pv::text AS pv, m.tv::text AS tv, m.cv::text AS cv, m.total_left::text AS total_left, m.total_right::text AS total_right,
           m.carry_left::text AS carry_left, m.carry_right::text AS carry_right
    FROM members m LEFT JOIN ranks r ON r.id = m.rank_id LEFT JOIN packages p ON p.id = m.package_id`);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        ...r,
        rank_id: r.rank_id === null ? null : Number(r.rank_id),
        package_id: r.package_id === null ? null : Number(r.package_id),
        figures: Object.fromEntries(FIGURES.map((f) => [f, r[f]])) as MemberFacts['figures'],
      },
    ]),
  );
}

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  token = await login(server, 'demo');
  all = await allMembers(server);
  demo = byUsername(all, 'demo');
  const rows = await server.database.rows<{ member_id: number; total: string }>(
    sql`SELECT member_id, sum(amount_generated)::text AS total FROM earnings GROUP BY member_id`,
  );
  earnings = new Map(rows.map((r) => [Number(r.member_id), r.total]));
  facts = await readFacts();
}, 60_000);
afterAll(() => server?.close());

const flatten = <T extends { children: T[] }>(n: T): T[] => [n, ...n.children.flatMap((c) => flatten(c))];
const children = (id: number) => [...all.values()].filter((m) => m.parent_id === id);
const num = (s: string) => Number(s);

function expectNodeMatchesDb(node: TreeNode) {
  const m = all.get(node.id)!;
  expect(m, `node ${node.id} exists`).toBeDefined();
  expect(node.username).toBe(m.username);
  expect(node.parent_id).toBe(m.parent_id);
  expect(node.level).toBe(m.depth - demo.depth);
  expect(node.status).toBe(m.status);
  expect(node.created_at).toBe(m.created_at);
  // Counters are maintained columns; they must equal a recount from the parent links.
  const below = placementDescendants(all, m.id);
  expect(node.downlines_count).toBe(below.length);
  expect(node.child_count).toBe(children(m.id).length);
  const leftChild = children(m.id).find((c) => c.position === 'L');
  const rightChild = children(m.id).find((c) => c.position === 'R');
  expect(node.left_downline_count).toBe(leftChild ? placementDescendants(all, leftChild.id).length + 1 : 0);
  expect(node.right_downline_count).toBe(rightChild ? placementDescendants(all, rightChild.id).length + 1 : 0);
  expect(num(node.total_earnings)).toBeCloseTo(num(earnings.get(m.id) ?? '0'), 4);
  // What the node shows of the member: names, rank and package by name, figures without trailing zeros.
  const f = facts.get(m.id)!;
  expect(node).toMatchObject({
    avatar: f.avatar,
    first_name: f.first_name,
    last_name: f.last_name,
    rank_id: f.rank_id,
    rank_name: f.rank_name,
    rank_icon: f.rank_icon,
    package_name: f.package_name,
  });
  for (const k of [...FIGURES, 'total_earnings'] as const) expect(node[k], `${k} of ${m.username}`).toMatch(/^-?\d+(\.\d*[1-9])?$/);
  for (const k of FIGURES) expect(num(node[k]), `${k} of ${m.username}`).toBe(num(f.figures[k]));
  if ('name' in node) {
    const n = node as NestedTreeNode;
    expect(n.name).toBe([f.first_name, (f.last_name ?? '').trim()].filter(Boolean).join(' '));
    expect(n.package_id).toBe(f.package_id);
  }
}

describe('GET /api/network/genealogy', () => {
  it('answers the nested tree below the member, max_levels deep, every node as in the database', async () => {
    const res = await get<Genealogy>(server, token, '/api/network/genealogy?is_nested=1');
    expect(res.status, res.raw).toBe(200);
    const data = z.parse(genealogySchema, res.body.data);
    expect(data.root_affiliate_id).toBe(demo.id);
    expect(data.parent_username).toBeNull();
    expect(data.search_valid).toBe(false);
    expect(data.max_width).toBe(2);
    expect(data.compensation_plan).toBe('binary');
    expect(data.affiliates).toEqual([]);
    const root = data.genealogy!;
    expect(root.id).toBe(demo.id);
    expect(root.level).toBe(0);
    expect(root.name).toBe('Dana Demo');

    const nodes = flatten<NestedTreeNode>(root);
    // Exactly the members within max_levels below demo, no more, no less.
    const expected = placementDescendants(all, demo.id).filter((m) => m.depth - demo.depth <= data.max_levels);
    expect(nodes.map((n) => n.id).sort((a, b) => a - b)).toEqual([demo.id, ...expected.map((m) => m.id)].sort((a, b) => a - b));
    for (const n of nodes) {
      expectNodeMatchesDb(n);
      expect(n.level).toBeLessThanOrEqual(data.max_levels);
      if (n.level < data.max_levels) {
        // The children really are the children, left before right.
        expect(n.children.map((c) => c.id).sort()).toEqual(children(n.id).map((c) => c.id).sort());
        expect(n.children.map((c) => c.position)).toEqual(
          children(n.id)
            .sort((a, b) => (a.slot ?? 0) - (b.slot ?? 0))
            .map((c) => c.position),
        );
        expect(new Set(n.children.map((c) => c.position)).size).toBe(n.children.length);
      } else {
        expect(n.children).toEqual([]);
      }
      for (const c of n.children) {
        expect(c.parent_id).toBe(n.id);
        expect(c.position === 'L' || c.position === 'R').toBe(true);
        expect(c.slot).toBe(c.position === 'L' ? 0 : 1);
      }
    }
  });

  it('the seeded tree has empty binary slots, shown as missing positions', async () => {
    const data = (await get<Genealogy>(server, token, '/api/network/genealogy?is_nested=1')).body.data;
    const nodes = flatten<NestedTreeNode>(data.genealogy!);
    const partial = nodes.filter((n) => n.level < data.max_levels && n.children.length < 2);
    for (const n of partial) expect(n.child_count).toBe(n.children.length);
    // Somewhere in demo's downline a member has a free slot (the seed leaves gaps).
    expect([...all.values()].some((m) => m.path.startsWith(demo.path) && m.id !== demo.id && m.child_count < 2)).toBe(true);
  });

  it('without is_nested answers the same nodes as a flat list, parents before children', async () => {
    const nested = (await get<Genealogy>(server, token, '/api/network/genealogy?is_nested=1')).body.data;
    const res = await get<Genealogy>(server, token, '/api/network/genealogy');
    const data = z.parse(genealogySchema, res.body.data);
    expect(data.genealogy).toBeNull();
    expect(data.affiliates.map((n) => n.id).sort()).toEqual(flatten<NestedTreeNode>(nested.genealogy!).map((n) => n.id).sort());
    const seen = new Set<number>();
    for (const n of data.affiliates) {
      if (n.id !== demo.id) expect(seen.has(n.parent_id!)).toBe(true);
      seen.add(n.id);
      expect(n).not.toHaveProperty('children');
    }
  });

  it('shows names as stored, whatever characters they hold, and a rank added a moment ago by its name', async () => {
    const child = children(demo.id).sort((a, b) => (a.slot ?? 0) - (b.slot ?? 0))[0];
    const before = facts.get(child.id)!;
    const first = 'Zoë "Z" \\ Ōno\t😀';
    const last = '</script> \u2028 O\'Neil';
    const [{ id: rankId }] = await server.database.rows<{ id: number }>(
      sql`INSERT INTO ranks (name, icon, sort_order) VALUES ('Ruby "Star"', '/ranks/ruby.svg', 99) RETURNING id`,
    );
    await server.database.rows(sql`UPDATE members SET first_name = ${first}, last_name = ${last}, rank_id = ${rankId} WHERE id = ${child.id}`);
    try {
      for (const url of ['/api/network/genealogy?is_nested=1', '/api/network/genealogy']) {
        const res = await get<Genealogy>(server, token, url);
        expect(res.status, res.raw).toBe(200);
        const data = z.parse(genealogySchema, res.body.data);
        const nodes: TreeNode[] = data.genealogy ? flatten<NestedTreeNode>(data.genealogy) : data.affiliates;
        const node = nodes.find((n) => n.id === child.id)!;
        expect(node).toMatchObject({ first_name: first, last_name: last, rank_id: Number(rankId), rank_name: 'Ruby "Star"', rank_icon: '/ranks/ruby.svg' });
        if (data.genealogy) expect((node as NestedTreeNode).name).toBe(`${first} ${last}`);
      }
    } finally {
      await server.database.rows(
        sql`UPDATE members SET first_name = ${before.first_name}, last_name = ${before.last_name}, rank_id = ${before.rank_id} WHERE id = ${child.id}`,
      );
      await server.database.rows(sql`DELETE FROM ranks WHERE id = ${rankId}`);
    }
  });

  it('opens a node of the downline by id, with levels still counted from the member', async () => {
    const deep = placementDescendants(all, demo.id).find((m) => m.depth - demo.depth === 5 && m.downline_count > 3)!;
    const data = z.parse(genealogySchema, (await get(server, token, `/api/network/genealogy/${deep.id}?is_nested=1`)).body.data);
    expect(data.root_affiliate_id).toBe(deep.id);
    expect(data.genealogy!.level).toBe(5);
    expect(data.parent_username).toBe(all.get(deep.parent_id!)!.username);
    for (const n of flatten<NestedTreeNode>(data.genealogy!)) {
      expect(n.level - 5).toBeLessThanOrEqual(data.max_levels);
      expect(all.get(n.id)!.path.startsWith(deep.path)).toBe(true);
    }
  });

  it('finds a username in the downline (any letter case) and goes up one parent at a time, never above the member', async () => {
    const target = placementDescendants(all, demo.id).find((m) => m.depth - demo.depth === 6)!;
    let res = await get<Genealogy>(server, token, `/api/network/genealogy?is_nested=1&username=${target.username.toUpperCase()}`);
    expect(res.body.data.search_valid).toBe(true);
    expect(res.body.data.root_affiliate_id).toBe(target.id);
    const visited: number[] = [target.id];
    let up = res.body.data.parent_username;
    while (up !== null) {
      res = await get<Genealogy>(server, token, `/api/network/genealogy?is_nested=1&username=${encodeURIComponent(up)}`);
      expect(res.body.data.search_valid).toBe(true);
      visited.push(res.body.data.root_affiliate_id);
      up = res.body.data.parent_username;
      expect(visited.length).toBeLessThan(20);
    }
    expect(visited.at(-1)).toBe(demo.id);
    expect(visited).toHaveLength(7);
  });

  it('a username outside the downline, or unknown, leaves the member at the root and answers alike', async () => {
    const admin = await get<Genealogy>(server, token, '/api/network/genealogy?is_nested=1&username=admin');
    const nobody = await get<Genealogy>(server, token, '/api/network/genealogy?is_nested=1&username=no.such.member');
    const stranger = await get<Genealogy>(server, token, '/api/network/genealogy?is_nested=1&username=demo.expired');
    for (const r of [admin, nobody, stranger]) {
      expect(r.status).toBe(200);
      expect(r.body.data.search_valid).toBe(false);
      expect(r.body.data.root_affiliate_id).toBe(demo.id);
    }
    expect(admin.raw).toBe(nobody.raw);
    expect(stranger.raw).toBe(nobody.raw);
  });

  it('is described in the OpenAPI document', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys((res.json() as { paths: Record<string, unknown> }).paths);
    for (const call of ['genealogy', 'table_view', 'table_view_single', 'max_levels']) {
      expect(paths).toContain(`/api/network/${call}`);
      expect(paths).toContain(`/api/network/${call}/{id}`);
    }
    expect(paths).toContain('/api/network/downline_report');
    expect(paths).toContain('/api/network/downline_report/{category}');
  });

  it('needs a signed-in member', async () => {
    const res = await get(server, undefined, '/api/network/genealogy');
    expect(res.status).toBe(401);
  });

  it('carries module data on the first GET of the app (load_modules=1)', async () => {
    const res = await get<Genealogy>(server, token, '/api/network/genealogy?load_modules=1&route=/member/network/genealogy');
    expect(res.status).toBe(200);
    expect((res.body as { loaded_modules?: { modules: { compensation_plan: string } } }).loaded_modules?.modules.compensation_plan).toBe('binary');
  });
});

describe('plans', () => {
  const withPlan = (plan: 'binary' | 'matrix' | 'unilevel', fn: () => Promise<void>) =>
    withSettings(server.app, 'modules', { compensation_plan: plan }, fn);

  it('matrix: no left/right positions, slots instead, width from the settings, sign-up from the tree', async () => {
    await withPlan('matrix', async () => {
      const data = z.parse(genealogySchema, (await get(server, token, '/api/network/genealogy?is_nested=1')).body.data);
      expect(data.compensation_plan).toBe('matrix');
      expect(data.max_width).toBe(3);
      expect(data.signup_from_tree).toBe(true);
      const nodes = flatten<NestedTreeNode>(data.genealogy!);
      expect(nodes.every((n) => n.position === null)).toBe(true);
      for (const n of nodes) {
        expect(n.children.length).toBeLessThanOrEqual(data.max_width!);
        expect(n.children.map((c) => c.slot)).toEqual([...n.children.map((c) => c.slot)].sort());
      }
      expect(Math.max(...nodes.map((n) => n.level))).toBe(data.max_levels);
    });
  });

  it('unilevel: no width limit, no sign-up from the tree, same members', async () => {
    await withPlan('unilevel', async () => {
      const data = z.parse(genealogySchema, (await get(server, token, '/api/network/genealogy')).body.data);
      expect(data.compensation_plan).toBe('unilevel');
      expect(data.max_width).toBeNull();
      expect(data.signup_from_tree).toBe(false);
      expect(data.affiliates.every((n) => n.position === null)).toBe(true);
      const expected = placementDescendants(all, demo.id).filter((m) => m.depth - demo.depth <= data.max_levels);
      expect(data.affiliates).toHaveLength(expected.length + 1);
    });
  });

  it('binary again after the switch back', async () => {
    const data = (await get<Genealogy>(server, token, '/api/network/genealogy')).body.data;
    expect(data.compensation_plan).toBe('binary');
    expect(data.affiliates.filter((n) => n.id !== demo.id).every((n) => n.position === 'L' || n.position === 'R')).toBe(true);
  });
});

describe('GET /api/network/max_levels', () => {
  it('is the distance to the deepest member below the node', async () => {
    const height = (id: number) => {
      const m = all.get(id)!;
      return Math.max(0, ...placementDescendants(all, id).map((d) => d.depth - m.depth));
    };
    const own = z.parse(maxLevelsSchema, (await get(server, token, '/api/network/max_levels')).body.data);
    expect(own.max_levels).toBe(height(demo.id));
    expect(own.max_levels).toBeGreaterThan(3);
    const below = placementDescendants(all, demo.id);
    const samples = [below.find((m) => m.child_count === 0)!, below.find((m) => m.child_count === 1)!, below.find((m) => m.depth - demo.depth === 2)!];
    for (const m of samples.filter(Boolean)) {
      const res = await get<{ max_levels: number }>(server, token, `/api/network/max_levels/${m.id}`);
      expect(res.body.data.max_levels, m.username).toBe(height(m.id));
    }
  });
});

describe('GET /api/network/table_view and table_view_single', () => {
  it('table view: the root and its first levels, nested, with max_levels of the whole downline', async () => {
    const res = await get(server, token, '/api/network/table_view');
    expect(res.status, res.raw).toBe(200);
    const data = z.parse(tableViewSchema, res.body.data);
    expect(data.genealogy.id).toBe(demo.id);
    expect(data.max_levels).toBe(Math.max(...placementDescendants(all, demo.id).map((d) => d.depth - demo.depth)));
    const nodes = flatten<NestedTableNode>(data.genealogy);
    const expected = placementDescendants(all, demo.id).filter((m) => m.depth - demo.depth <= data.levels_loaded);
    expect(nodes).toHaveLength(expected.length + 1);
    for (const n of nodes) {
      const m = all.get(n.id)!;
      expect(n.downlines_count).toBe(placementDescendants(all, n.id).length);
      expect(n.level).toBe(m.depth - demo.depth);
      if (n.level < data.levels_loaded) expect(n.children.map((c) => c.id).sort()).toEqual(children(n.id).map((c) => c.id).sort());
    }
  });

  it('table view of a node by id or username', async () => {
    const node = placementDescendants(all, demo.id).find((m) => m.depth - demo.depth === 3 && m.child_count > 0)!;
    const byId = z.parse(tableViewSchema, (await get(server, token, `/api/network/table_view/${node.id}`)).body.data);
    const byName = z.parse(tableViewSchema, (await get(server, token, `/api/network/table_view?username=${node.username}`)).body.data);
    expect(byId.genealogy.id).toBe(node.id);
    expect(byName.genealogy).toEqual(byId.genealogy);
    expect(byName.search_valid).toBe(true);
  });

  it('one level at a time: exactly the members at that level, page by page without losses or repeats', async () => {
    for (const level of [1, 2, 4, 6]) {
      const expected = placementDescendants(all, demo.id)
        .filter((m) => m.depth - demo.depth === level)
        .map((m) => m.id)
        .sort((a, b) => a - b);
      const got: number[] = [];
      let url: string | null = `/api/network/table_view_single?level=${level}`;
      let pages = 0;
      while (url) {
        const res: { status: number; raw: string; body: { data: TableViewSingle } } = await get<TableViewSingle>(server, token, url);
        expect(res.status, res.raw).toBe(200);
        const data: TableViewSingle = z.parse(tableViewSingleSchema, res.body.data);
        expect(data.level).toBe(level);
        for (const n of data.genealogy) {
          expect(n.level).toBe(level);
          expect(n.downlines_count).toBe(all.get(n.id)!.downline_count);
        }
        got.push(...data.genealogy.map((n) => n.id));
        url = data.next_page_url;
        pages++;
      }
      expect(got.sort((a, b) => a - b), `level ${level}`).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / 50)));
    }
  });

  it('a page of a level asked by number is the page reached through next_page_url', async () => {
    const level = Math.max(...placementDescendants(all, demo.id).map((m) => m.depth - demo.depth)) - 1;
    const first = (await get<TableViewSingle>(server, token, `/api/network/table_view_single?level=${level}`)).body.data;
    expect(first.next_page_url).not.toBeNull();
    const followed = (await get<TableViewSingle>(server, token, first.next_page_url!)).body.data;
    const byNumber = (await get<TableViewSingle>(server, token, `/api/network/table_view_single?level=${level}&page=2`)).body.data;
    expect(byNumber.genealogy.map((n) => n.id)).toEqual(followed.genealogy.map((n) => n.id));
    // A continuation point that is not a node of that level is refused.
    const other = placementDescendants(all, demo.id).find((m) => m.depth - demo.depth === 1)!;
    for (const after of [String(other.id), String(byUsername(all, 'admin').id), '999999']) {
      const res = await get(server, token, `/api/network/table_view_single?level=${level}&after=${after}`);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ after: ['validation:invalidFormat'] });
    }
  });

  it('one level below a node named by id', async () => {
    const node = placementDescendants(all, demo.id).find((m) => m.depth - demo.depth === 2 && m.downline_count > 6)!;
    const res = await get<TableViewSingle>(server, token, `/api/network/table_view_single/${node.id}?level=2`);
    const expected = placementDescendants(all, node.id).filter((m) => m.depth - node.depth === 2);
    expect(res.body.data.genealogy.map((n) => n.id).sort()).toEqual(expected.map((m) => m.id).sort());
    expect(res.body.data.genealogy.every((n) => n.level === 4)).toBe(true);
  });

  it('a level deeper than the tree is an empty list; a level that is no number is refused', async () => {
    const empty = await get<TableViewSingle>(server, token, '/api/network/table_view_single?level=999');
    expect(empty.status).toBe(200);
    expect(empty.body.data.genealogy).toEqual([]);
    expect(empty.body.data.next_page_url).toBeNull();
    for (const bad of ['0', '-1', 'abc', '1.5']) {
      const res = await get(server, token, `/api/network/table_view_single?level=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.errors?.level).toBeDefined();
    }
  });
});

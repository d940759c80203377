/**
 * Reading the placement and sponsor trees for the network views: genealogy (nested or flat), tabular
 * tree, one level as a list, the height of a subtree, and the downline report.
 *
 * Access: a member only ever sees their own downline. A node is in it when its path starts with the
 * member's path — one comparison, no walk. Anything else (a stranger, a sibling, an upline, an id that
 * does not exist, text that is no id) is refused with the same 403 `not_in_network`.
 *
 * Scale (a million members): the tree queries are index range scans the size of the answer, not of the tree:
 *  - a subtree's levels d..d+k: one range of (depth, path text_pattern_ops) per level, `path ~>=~ '<path>' AND
 *    path ~<~ prefixEnd('<path>')` at each depth, bound as parameters (one kept plan for every member);
 *  - one level as a list: the same range of that level, in its order, continued after the last node of the page before;
 *  - the height of a subtree: a binary search over depth with one-row probes of the same ranges;
 *  - counts (downline, left/right, children) are maintained columns, never recounted here;
 *  - the downline report (by join date): see downlineReport — page size for the top of the tree, the
 *    downline's size for anyone else, continued after the last row of the page before.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { MemberRow } from '../db/schema';
import { forbidden } from './errors';
import { isoUtcText } from './ledger';
import { jsonString } from './response-serializer';
import { trimDecimal, type SettingsService } from './settings';
import { packageRows, rankRows } from './company-data';
import { keptOr } from './kept-answers';
import { matrixWidth } from './tree';
import type { Plan } from '../../src/schemas/common.schema';
import { isYmd } from '../../src/schemas/list-query.schema';
import type {
  DownlineCategory,
  NestedTableNode,
  SortOrder,
  TableNode,
  TreeNode,
} from '../../src/schemas/network.schema';

/** Levels below the root one genealogy answer carries, per plan. */
export const GENEALOGY_LEVELS: Record<Plan, number> = { binary: 4, matrix: 3, unilevel: 3 };
/** Levels below the root one table view answer carries. */
export const TABLE_VIEW_LEVELS = 2;
/** Upper bound of nodes in one tree answer (a unilevel member may have any number of children). */
export const MAX_TREE_NODES = 500;
export const TABLE_LEVEL_PAGE_SIZE = 50;
export const REPORT_PAGE_SIZE = 20;

export const notInNetwork = () => forbidden('not_in_network', 'This member is not in your network.');

/** The tree fields of a member the network views start from. */
export interface TreeAnchor {
  id: number;
  parentId: number | null;
  path: string;
  depth: number;
  childCount: number;
  downlineCount: number;
  /** The placement parent's username and path when read with the anchor (null: none); not there when not read. */
  parent?: { username: string; path: string } | null;
}

const anchorOf = (m: Pick<MemberRow, 'id' | 'parentId' | 'path' | 'depth' | 'childCount' | 'downlineCount'>): TreeAnchor => ({
  id: m.id,
  parentId: m.parentId,
  path: m.path,
  depth: m.depth,
  childCount: m.childCount,
  downlineCount: m.downlineCount,
});

/** Is `path` the member `ancestorPath` names or somewhere below it? An unplaced member (no path) has no downline. */
export function inDownline(ancestorPath: string, path: string): boolean {
  return ancestorPath !== '' && path.startsWith(ancestorPath);
}

/**
 * `column` (a path of the tree: placement or sponsor) starts with `prefix`, written as the range of the
 * column's text_pattern_ops index ([prefix, prefixEnd(prefix))). A `LIKE` pattern bound as a parameter
 * bounds nothing in a kept (generic) plan of a prepared statement: PostgreSQL then either re-plans the
 * statement on every call or scans. An empty prefix (an unplaced member) has no downline: nothing matches.
 */
export function pathStartsWith(column: SQL, prefix: string): SQL {
  return prefix === '' ? sql`false` : sql`(${column} ~>=~ ${prefix} AND ${column} ~<~ ${prefixEnd(prefix)})`;
}

const ID_TEXT = /^[1-9]\d{0,9}$/;
const MAX_ID = 2_147_483_647;

interface AnchorRow {
  id: number;
  parent_id: number | null;
  path: string;
  depth: number;
  child_count: number;
  downline_count: number;
  username: string;
  parent_username: string | null;
  parent_path: string | null;
}

/** An anchor's columns, its member `m` read with its placement parent. */
const ANCHOR_COLUMNS = sql.raw(`m.id, m.parent_id, m.path, m.depth, m.child_count, m.downline_count, m.username,
  pm.username AS parent_username, pm.path AS parent_path`);
const ANCHOR_FROM = sql.raw(`members m LEFT JOIN members pm ON pm.id = m.parent_id`);

async function anchorById(database: Database, id: number): Promise<(TreeAnchor & { username: string }) | null> {
  const [row] = await database.rows<AnchorRow>(sql`SELECT ${ANCHOR_COLUMNS} FROM ${ANCHOR_FROM} WHERE m.id = ${id}`);
  return row ? toAnchor(row) : null;
}

function toAnchor(row: AnchorRow): TreeAnchor & { username: string } {
  return {
    id: Number(row.id),
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    path: row.path,
    depth: Number(row.depth),
    childCount: Number(row.child_count),
    downlineCount: Number(row.downline_count),
    username: row.username,
    parent: row.parent_username === null || row.parent_path === null ? null : { username: row.parent_username, path: row.parent_path },
  };
}

/**
 * The root an answer is drawn from: the member, or the downline node named by `id` (path parameter),
 * then moved to the node named by `username` when that member is in the caller's downline.
 * An id outside the downline, or text that is no id, is refused; a username outside it (or unknown) only
 * leaves search_valid false.
 */
export async function resolveRoot(
  database: Database,
  caller: MemberRow,
  opts: { id?: string; username?: string },
): Promise<{ root: TreeAnchor; searchValid: boolean }> {
  let root: TreeAnchor = anchorOf(caller);
  if (opts.id !== undefined) {
    const text = opts.id.trim();
    if (!ID_TEXT.test(text) || Number(text) > MAX_ID) throw notInNetwork();
    const id = Number(text);
    if (id !== caller.id) {
      const found = await anchorById(database, id);
      if (!found || !inDownline(caller.path, found.path)) throw notInNetwork();
      root = found;
    }
  }
  let searchValid = false;
  if (opts.username !== undefined && opts.username !== '' && caller.path !== '') {
    const [row] = await database.rows<AnchorRow>(
      sql`SELECT ${ANCHOR_COLUMNS} FROM ${ANCHOR_FROM}
          WHERE lower(m.username) = ${opts.username.toLowerCase()} AND ${pathStartsWith(sql`m.path`, caller.path)}`,
    );
    if (row && inDownline(caller.path, row.path)) {
      root = toAnchor(row);
      searchValid = true;
    }
  }
  return { root, searchValid };
}

/**
 * Username of the root's placement parent — only while that parent is still in the caller's downline. Read
 * with the root when resolveRoot read it (no statement of its own).
 */
export async function parentUsername(database: Database, caller: MemberRow, root: TreeAnchor): Promise<string | null> {
  if (root.id === caller.id || root.parentId === null) return null;
  const parent = root.parent !== undefined ? root.parent : await anchorById(database, root.parentId);
  return parent && inDownline(caller.path, parent.path) ? parent.username : null;
}

/* ---------- node rows ---------- */

interface NodeRow {
  id: number;
  total_earnings: string | null;
  parent_id: number | null;
  position: string | null;
  slot: number | null;
  status: number;
  username: string;
  email: string | null;
  avatar: string | null;
  pv: string;
  tv: string;
  cv: string;
  created_at: string;
  rank_id: number | null;
  rank_name: string | null;
  rank_icon: string | null;
  package_id: number | null;
  package_name: string | null;
  first_name: string;
  last_name: string | null;
  depth: number;
  sponsor_depth: number;
  downline_count: number;
  total_left: string;
  total_right: string;
  carry_left: string;
  carry_right: string;
  left_count: number;
  right_count: number;
  child_count: number;
}

/** A statement's columns by name, in order: the select list and their names (where each comes in a row read as an array). */
function columnsOf<K extends string>(columns: Record<K, string>): { list: string; names: K[] } {
  const names = Object.keys(columns) as K[];
  return { list: names.map((n) => `${columns[n]} AS ${n}`).join(', '), names };
}

/** A row read as an array, as the object of its columns' names. */
function objectOf<R>(names: readonly string[], row: unknown[]): R {
  const o: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) o[names[i]] = row[i];
  return o as R;
}

/**
 * Columns of a node; `m` is the member, `r` its rank, `p` its package, `g` its gross earnings (NODE_JOINS). Decimals
 * come as the database writes them (text, never a float).
 */
const NODE_EXPRESSIONS: Record<keyof NodeRow, string> = {
  id: 'm.id',
  parent_id: 'm.parent_id',
  position: 'm.position',
  slot: 'm.slot',
  status: 'm.status',
  username: 'm.username',
  email: 'm.email',
  avatar: 'm.avatar',
  pv: 'm.pv',
  tv: 'm.tv',
  cv: 'm.cv',
  created_at: isoUtcText('m.created_at'),
  rank_id: 'm.rank_id',
  rank_name: 'r.name',
  rank_icon: 'r.icon',
  package_id: 'm.package_id',
  package_name: 'p.name',
  first_name: 'm.first_name',
  last_name: 'm.last_name',
  depth: 'm.depth',
  sponsor_depth: 'm.sponsor_depth',
  downline_count: 'm.downline_count',
  total_left: 'm.total_left',
  total_right: 'm.total_right',
  carry_left: 'm.carry_left',
  carry_right: 'm.carry_right',
  left_count: 'm.left_count',
  right_count: 'm.right_count',
  child_count: 'm.child_count',
  total_earnings: 'g.total',
};
const NODE = columnsOf(NODE_EXPRESSIONS);
const NODE_COLUMNS = sql.raw(NODE.list);
const NODE_JOINS_TEXT = `LEFT JOIN ranks r ON r.id = m.rank_id LEFT JOIN packages p ON p.id = m.package_id LEFT JOIN member_gross_earnings g ON g.member_id = m.id`;
const NODE_JOINS = sql.raw(NODE_JOINS_TEXT);
const NODE_STATEMENTS = subtreeStatements(NODE.list, NODE_JOINS_TEXT);

const int = (v: unknown) => Number(v);
const intOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const dec = (v: unknown) => (v === null || v === undefined ? '0' : trimDecimal(String(v)));

/** Gross earnings of each member of the rows (maintained, migration 0034). */
function totalEarnings(rows: Array<{ id: number; total_earnings?: string | null }>): Map<number, string> {
  return new Map(rows.map((r) => [int(r.id), dec(r.total_earnings ?? null)]));
}

function toTreeNode(row: NodeRow, callerDepth: number, plan: Plan, earnings: Map<number, string>): TreeNode {
  const binary = plan === 'binary';
  const position = row.position === 'L' || row.position === 'R' ? row.position : null;
  return {
    id: int(row.id),
    parent_id: intOrNull(row.parent_id),
    position: binary ? position : null,
    slot: intOrNull(row.slot),
    status: int(row.status) === 1 ? 1 : 0,
    username: row.username,
    avatar: row.avatar,
    pv: dec(row.pv),
    tv: dec(row.tv),
    cv: dec(row.cv),
    created_at: row.created_at,
    rank_id: intOrNull(row.rank_id),
    rank_name: row.rank_name,
    rank_icon: row.rank_icon,
    package_name: row.package_name,
    first_name: row.first_name,
    last_name: row.last_name,
    level: int(row.depth) - callerDepth,
    total_earnings: earnings.get(int(row.id)) ?? '0',
    downlines_count: int(row.downline_count),
    total_left: dec(row.total_left),
    total_right: dec(row.total_right),
    carry_left: dec(row.carry_left),
    carry_right: dec(row.carry_right),
    left_downline_count: int(row.left_count),
    right_downline_count: int(row.right_count),
    child_count: int(row.child_count),
  };
}

/** First and last name with one space between them, leaving out an empty one (the last name trimmed). */
export function fullName(first: string, last: string | null): string {
  const l = (last ?? '').trim();
  return first === '' ? l : l === '' ? first : `${first} ${l}`;
}

/** The end of the `~<~` range of the paths starting with `prefix` ('1.2.' → '1.2/'): its last character, one up. */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** The statements of subtreeRows for some columns of a member `m` and the joins after it. */
interface SubtreeStatements {
  /** $1 the depths (int[] text), $2 … $3 the range of paths, $4 the most rows. */
  levels: string;
  /** $1 the member's id. */
  self: string;
}

function subtreeStatements(columns: string, joins: string): SubtreeStatements {
  return {
    levels: `SELECT ${columns} FROM (
      SELECT m.* FROM unnest($1::int[]) AS l(depth)
      CROSS JOIN LATERAL (
        SELECT * FROM members m WHERE m.depth = l.depth AND m.path ~>=~ $2 AND m.path ~<~ $3
        ORDER BY m.path USING ~<~ LIMIT $4) m
      ORDER BY m.depth, m.path USING ~<~ LIMIT $4) m ${joins}
    ORDER BY m.depth, m.path USING ~<~`,
    self: `SELECT ${columns} FROM members m ${joins} WHERE m.id = $1`,
  };
}

/**
 * The root and `levels` levels below it, parents before children (by level, then in path order),
 * at most `limit` rows, each read from the array of the columns `statements` were written with by `read` (`idOf`: its id).
 *
 * One range of the (depth, path) index per level, its bounds bound as parameters: the statement is the same for
 * every member, so the database keeps one plan for all, and that plan can only be those ranges (a `LIKE` pattern
 * that is a parameter is no index bound: the kept plan read every member of the levels and kept the subtree's).
 * The levels come as one array, estimated at a few rows, so the joins look their rows up by key whatever the
 * tables' sizes; they join the rows of the answer only, after the limit. The statements' text is written once.
 */
async function subtreeRows<R>(
  database: Database,
  root: TreeAnchor,
  levels: number,
  limit: number,
  statements: SubtreeStatements,
  read: (row: unknown[]) => R,
  idOf: (row: R) => number,
): Promise<R[]> {
  const deepest = root.downlineCount > 0 && root.path !== '' ? levels : 0;
  let depths = `{${root.depth}`;
  for (let i = 1; i <= deepest; i++) depths += `,${root.depth + i}`;
  const rows = root.path === '' ? [] : (await database.arrays(statements.levels, [`${depths}}`, root.path, prefixEnd(root.path), limit])).map(read);
  // An unplaced root (no path) has no range: answer it alone.
  if (!rows.length || idOf(rows[0]) !== root.id) return (await database.arrays(statements.self, [root.id])).map(read);
  return rows;
}

function nest<T extends { id: number; parent_id: number | null }, N extends T & { children: N[] }>(
  flat: T[],
  rootId: number,
  make: (t: T) => N,
  order: (a: T, b: T) => number,
): N {
  const byId = new Map<number, N>();
  for (const t of flat) byId.set(t.id, make(t));
  for (const t of [...flat].sort(order)) {
    if (t.id === rootId || t.parent_id === null) continue;
    byId.get(t.parent_id)?.children.push(byId.get(t.id)!);
  }
  return byId.get(rootId)!;
}

const bySlot = (a: TreeNode, b: TreeNode) => (a.slot ?? Number.MAX_SAFE_INTEGER) - (b.slot ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;

export interface PlanInfo {
  plan: Plan;
  maxWidth: number | null;
}

/** The company's compensation plan, the widest a level can be, and whether members sign others up from the tree. */
export async function companyPlan(settings: SettingsService): Promise<PlanInfo & { signupFromTree: boolean }> {
  const all = await settings.all();
  const plan = all.modules?.compensation_plan ?? 'binary';
  return {
    plan,
    maxWidth: plan === 'binary' ? 2 : plan === 'matrix' ? await matrixWidth(settings) : null,
    signupFromTree: plan !== 'unilevel' && (all.signup?.show_signup_page ?? true),
  };
}

/**
 * A node of a genealogy answer as its row comes: the member's own columns as stored and its gross earnings, read
 * by key — a node row without the names joined to it, as an array (T: where each column is). Its JSON is written
 * here (`nodeHead`); the names of its rank and package come from the company data every process keeps
 * (`companyNames`), so the statement joins no other table.
 */
type TreeRow = Array<string | null>;
const JOINED_NAMES: ReadonlySet<string> = new Set<keyof NodeRow>(['email', 'rank_name', 'rank_icon', 'package_name', 'sponsor_depth']);
/** The tree row's text columns, each a column of its own. */
const TREE_TEXT: ReadonlyArray<keyof NodeRow> = ['username', 'avatar', 'first_name', 'last_name'];
/**
 * Its other columns — numbers, decimals, the join time, the leg: none has a comma — come as one text, comma-separated
 * (`concat`: a null is empty): a row is five values to read, not twenty-five.
 */
const TREE_PACKED = (Object.keys(NODE_EXPRESSIONS) as Array<keyof NodeRow>).filter((n) => !JOINED_NAMES.has(n) && !TREE_TEXT.includes(n));
const TREE_NULLABLE: ReadonlyArray<keyof NodeRow> = ['parent_id', 'position', 'slot', 'rank_id', 'package_id', 'total_earnings'];
/** Where each column is in a TreeRow. */
const T = Object.fromEntries([...TREE_PACKED, ...TREE_TEXT].map((n, i) => [n, i])) as Record<keyof NodeRow, number>;
const TREE_LIST = `concat(${TREE_PACKED.map((n) => NODE_EXPRESSIONS[n]).join(`, ',', `)}), ${TREE_TEXT.map((n) => NODE_EXPRESSIONS[n]).join(', ')}`;

const PACKED_COUNT = TREE_PACKED.length;
/** Per packed column: is it one of TREE_NULLABLE (empty text there is a null)? */
const PACKED_NULLABLE = TREE_PACKED.map((n) => TREE_NULLABLE.includes(n));

/**
 * The values of a row's packed text (`concat(a, ',', b, …)`, none of which holds a comma), cut in one pass: one per
 * entry of `nullable`, an empty one read as null where `nullable` says so. `room` more places are left at the end.
 */
function cutPacked(packed: string, nullable: readonly boolean[], room = 0): Array<string | null> {
  const n = nullable.length;
  const out: Array<string | null> = new Array(n + room);
  let from = 0;
  for (let k = 0; k < n; k++) {
    let to = k === n - 1 ? -1 : packed.indexOf(',', from);
    if (to < 0) to = packed.length;
    out[k] = to === from && nullable[k] ? null : packed.slice(from, to);
    from = to + 1;
  }
  return out;
}

/**
 * A TreeRow of the row the database sent (its first TREE_TEXT.length + 1 columns): the packed text cut at its
 * commas in one pass (no column holds one), an empty nullable column read as null, then the text columns.
 */
function treeRow(row: unknown[]): TreeRow {
  const r: TreeRow = cutPacked(row[0] as string, PACKED_NULLABLE, TREE_TEXT.length);
  for (let i = 1; i <= TREE_TEXT.length; i++) r[PACKED_COUNT + i - 1] = row[i] as string | null;
  return r;
}
const treeId = (r: TreeRow) => int(r[T.id]);

const TREE_JOINS = `LEFT JOIN member_gross_earnings g ON g.member_id = m.id`;
const TREE_STATEMENTS = subtreeStatements(TREE_LIST, TREE_JOINS);
/** The root ($1), then its children from place $2 on, at most $3 of them; after the row's columns `k`, 0 for the root, and the place. */
const TREE_CHILDREN_FROM = `SELECT * FROM (
    (SELECT ${TREE_LIST}, 0 AS k, m.slot FROM members m ${TREE_JOINS} WHERE m.id = $1)
    UNION ALL
    (SELECT ${TREE_LIST}, 1 AS k, m.slot FROM members m ${TREE_JOINS} WHERE m.parent_id = $1 AND m.slot >= $2 ORDER BY m.slot LIMIT $3)
  ) u ORDER BY k, slot`;
/** The first $2 children of member $1 by place. */
const TREE_FIRST_CHILDREN = `SELECT ${TREE_LIST} FROM members m ${TREE_JOINS} WHERE m.parent_id = $1 ORDER BY m.slot LIMIT $2`;

const jsonText = (v: string | null) => (v === null ? 'null' : jsonString(v));

/** Names of ranks (with their icons) and of packages by id, each already written as JSON text. */
interface CompanyNames {
  ranks: Map<number, { name: string; icon: string }>;
  packages: Map<number, string>;
}

const namesOf = (ranks: Array<{ id: number; name: string; icon: string | null }>, packages: Array<{ id: number; name: string }>): CompanyNames => ({
  ranks: new Map(ranks.map((r) => [int(r.id), { name: jsonText(r.name), icon: jsonText(r.icon) }])),
  packages: new Map(packages.map((p) => [int(p.id), jsonText(p.name)])),
});

/**
 * The names the rows' ranks and packages have: from the company data each process keeps (until ranks or packages
 * change); read afresh when a row names one that data does not know yet (added a moment ago, the change not heard).
 */
async function companyNames(database: Database, settings: SettingsService, rows: TreeRow[]): Promise<CompanyNames> {
  const kept = await settings.cached('genealogy:names', async () =>
    namesOf(await rankRows(database.db, settings), await packageRows(database.db, settings)),
  );
  const known = (id: unknown, names: Map<number, unknown>) => id === null || names.has(int(id));
  if (rows.every((r) => known(r[T.rank_id], kept.ranks) && known(r[T.package_id], kept.packages))) return kept;
  const [ranks, packages] = await Promise.all([
    database.rows<{ id: number; name: string; icon: string | null }>(sql`SELECT id, name, icon FROM ranks`),
    database.rows<{ id: number; name: string }>(sql`SELECT id, name FROM packages`),
  ]);
  return namesOf(ranks, packages);
}

/**
 * Members within `levels` of the answer whose children it carries only in part: every child placed before
 * `from` is in the rows (the rows of a partly carried member's children are the first by place).
 */
function moreChildren(rows: TreeRow[], root: TreeAnchor, levels: number): Array<{ id: number; from: number }> {
  const carried = new Map<number, { n: number; last: number }>();
  for (const r of rows) {
    if (int(r[T.id]) === root.id || r[T.parent_id] === null) continue;
    const c = carried.get(int(r[T.parent_id])) ?? { n: 0, last: -1 };
    carried.set(int(r[T.parent_id]), { n: c.n + 1, last: Math.max(c.last, int(r[T.slot] ?? 0)) });
  }
  const out: Array<{ id: number; from: number }> = [];
  for (const r of rows) {
    if (int(r[T.depth]) - root.depth >= levels || int(r[T.child_count]) === 0) continue;
    const c = carried.get(int(r[T.id]));
    if (!c || c.n < int(r[T.child_count])) out.push({ id: int(r[T.id]), from: c ? c.last + 1 : 0 });
  }
  return out;
}

/**
 * The rows of a genealogy answer. Whole levels below the root while they fit (MAX_TREE_NODES); where the
 * limit cuts a level, the one member whose children it cuts keeps its first children by place, so the rest
 * continue from a place. With `childrenFrom`: the root and its next children by place from there.
 */
async function genealogyRows(
  database: Database,
  root: TreeAnchor,
  levels: number,
  childrenFrom: number | undefined,
): Promise<{ rows: TreeRow[]; levels: number; more?: Array<{ id: number; from: number }> }> {
  if (childrenFrom !== undefined) {
    const size = MAX_TREE_NODES - 1;
    // The root, then (the (parent_id, slot) index: one range from the place on) its children from the place.
    const answer = await database.arrays(TREE_CHILDREN_FROM, [root.id, childrenFrom, size + 1]);
    if (!answer.length || int(answer[0][TREE_TEXT.length + 1]) !== 0) return { rows: [], levels: 1, more: [] };
    const found = answer.map(treeRow);
    const rows = found.slice(1, size + 1);
    const more = found.length > size + 1 ? [{ id: root.id, from: int(rows[size - 1][T.slot]) + 1 }] : [];
    return { rows: [found[0], ...rows], levels: 1, more };
  }
  let rows = await subtreeRows(database, root, levels, MAX_TREE_NODES, TREE_STATEMENTS, treeRow, treeId);
  const last = rows.at(-1);
  if (rows.length >= MAX_TREE_NODES && last && last[T.parent_id] !== null) {
    // Rows of one level come in path order, grouped by parent: only the parent of the last row is cut.
    const parentId = int(last[T.parent_id]);
    const parent = rows.find((r) => int(r[T.id]) === parentId);
    const carried = rows.filter((r) => r[T.parent_id] !== null && int(r[T.parent_id]) === parentId);
    if (parent && carried.length < int(parent[T.child_count])) {
      const first = (await database.arrays(TREE_FIRST_CHILDREN, [parentId, carried.length])).map(treeRow);
      rows = [...rows.filter((r) => r[T.parent_id] === null || int(r[T.parent_id]) !== parentId), ...first];
    }
  }
  return { rows, levels };
}

/**
 * A node's TreeNode fields as JSON text, in the schema's order, as its serialiser writes them (without the closing
 * brace): decimals without trailing zeros (trimDecimal), `level` counted from `callerDepth`, `position` only on the
 * binary plan.
 */
function nodeHead(r: TreeRow, callerDepth: number, binary: boolean, names: CompanyNames): string {
  // Numbers come as the database writes them (the same text JSON has); a null one is written null.
  const rank = r[T.rank_id] === null ? undefined : names.ranks.get(int(r[T.rank_id]));
  const packageName = r[T.package_id] === null ? undefined : names.packages.get(int(r[T.package_id]));
  const position = r[T.position];
  return (
    `{"id":${r[T.id]},"parent_id":${r[T.parent_id] ?? 'null'},"position":${binary && (position === 'L' || position === 'R') ? `"${position}"` : 'null'}` +
    `,"slot":${r[T.slot] ?? 'null'},"status":${r[T.status] === '1' ? 1 : 0},"username":${jsonString(r[T.username] as string)},"avatar":${jsonText(r[T.avatar])}` +
    `,"pv":"${dec(r[T.pv])}","tv":"${dec(r[T.tv])}","cv":"${dec(r[T.cv])}","created_at":"${r[T.created_at]}","rank_id":${r[T.rank_id] ?? 'null'}` +
    `,"rank_name":${rank?.name ?? 'null'},"rank_icon":${rank?.icon ?? 'null'},"package_name":${packageName ?? 'null'}` +
    `,"first_name":${jsonString(r[T.first_name] as string)},"last_name":${jsonText(r[T.last_name])},"level":${int(r[T.depth]) - callerDepth}` +
    `,"total_earnings":"${dec(r[T.total_earnings])}","downlines_count":${r[T.downline_count]}` +
    `,"total_left":"${dec(r[T.total_left])}","total_right":"${dec(r[T.total_right])}","carry_left":"${dec(r[T.carry_left])}","carry_right":"${dec(r[T.carry_right])}"` +
    `,"left_downline_count":${r[T.left_count]},"right_downline_count":${r[T.right_count]},"child_count":${r[T.child_count]}`
  );
}

/**
 * The nested form's JSON text: each node's fields, then `name`, `package_id` and its `children` by place (slot, a
 * node without one last, then id). Ids, parents and places are read once per row; the text is written in one pass.
 */
function nestedJson(rows: TreeRow[], heads: string[], rootId: number): string | null {
  const n = rows.length;
  const at = new Map<number, number>();
  let rootAt = -1;
  for (let i = 0; i < n; i++) {
    const id = int(rows[i][T.id]);
    at.set(id, i);
    if (id === rootId) rootAt = i;
  }
  if (rootAt < 0) return null;
  // Each row's children (row numbers), in the order the rows came.
  const children: Array<number[] | undefined> = new Array(n);
  for (let i = 0; i < n; i++) {
    const parent = rows[i][T.parent_id];
    if (i === rootAt || parent === null) continue;
    const p = at.get(int(parent));
    if (p === undefined) continue;
    const siblings = children[p];
    if (siblings) siblings.push(i);
    else children[p] = [i];
  }
  const place = (i: number) => (rows[i][T.slot] === null ? Number.MAX_SAFE_INTEGER : int(rows[i][T.slot]));
  const byPlace = (a: number, b: number) => place(a) - place(b) || int(rows[a][T.id]) - int(rows[b][T.id]);
  let out = '';
  const write = (i: number) => {
    const r = rows[i];
    out += `${heads[i]},"name":${jsonString(fullName(r[T.first_name] as string, r[T.last_name]))},"package_id":${r[T.package_id] ?? 'null'},"children":[`;
    const below = children[i];
    if (below) {
      if (below.length > 1) below.sort(byPlace);
      for (let k = 0; k < below.length; k++) {
        if (k) out += ',';
        write(below[k]);
      }
    }
    out += ']}';
  };
  write(rootAt);
  return out;
}

/** A kept network answer `a|b|rest` as its three fields (the first two hold no `|`; the rest is JSON text). */
function keptFields(answer: string): [string, string, string] {
  const first = answer.indexOf('|');
  const second = answer.indexOf('|', first + 1);
  return [answer.slice(0, first), answer.slice(first + 1, second), answer.slice(second + 1)];
}

/** The tree of a genealogy answer: `affiliates` and `genealogy` as JSON text, the levels it carries, where more children continue. */
export interface GenealogyTree {
  affiliatesJson: string;
  genealogyJson: string;
  maxLevels: number;
  moreChildren: Array<{ id: number; from: number }>;
}

/**
 * The genealogy a member opens on — their own tree, neither a search nor a page of more children — kept (migration
 * 0048) until something it shows changes, as `maxLevels|moreChildren|tree` (the first two hold no `|`). Computed
 * from the member's place as read after the kept answer's marks, not from the session's copy of the member row,
 * which may be a moment older than them.
 */
export async function ownGenealogyTree(
  database: Database,
  settings: SettingsService,
  caller: MemberRow,
  plan: PlanInfo,
  nested: boolean,
): Promise<GenealogyTree & { kept: boolean }> {
  const { answer, kept } = await keptOr(database.db, caller.id, 'genealogy', `${plan.plan} ${nested ? 'nested' : 'flat'}`, async () => {
    const self = (await anchorById(database, caller.id)) ?? anchorOf(caller);
    const tree = await genealogyTree(database, settings, self.depth, self, plan, nested);
    return `${tree.maxLevels}|${JSON.stringify(tree.moreChildren)}|${nested ? tree.genealogyJson : tree.affiliatesJson}`;
  });
  const [levels, more, treeJson] = keptFields(answer);
  return {
    maxLevels: Number(levels),
    moreChildren: JSON.parse(more) as GenealogyTree['moreChildren'],
    affiliatesJson: nested ? '[]' : treeJson,
    genealogyJson: nested ? treeJson : 'null',
    kept,
  };
}

/**
 * The tree of a genealogy answer as JSON text: `affiliates`, the flat list (parents before children), or,
 * when asked, `genealogy`, the nested form. The database answers each node's columns; the JSON is written here.
 */
export async function genealogyTree(
  database: Database,
  settings: SettingsService,
  callerDepth: number,
  root: TreeAnchor,
  plan: PlanInfo,
  nested: boolean,
  childrenFrom?: number,
): Promise<GenealogyTree> {
  const { rows, levels: maxLevels, more: pageMore } = await genealogyRows(database, root, GENEALOGY_LEVELS[plan.plan], childrenFrom);
  const names = await companyNames(database, settings, rows);
  const binary = plan.plan === 'binary';
  const heads = rows.map((r) => nodeHead(r, callerDepth, binary, names));
  const more = pageMore ?? moreChildren(rows, root, maxLevels);
  if (!nested) return { affiliatesJson: `[${heads.map((h) => `${h}}`).join(',')}]`, genealogyJson: 'null', maxLevels, moreChildren: more };
  return { affiliatesJson: '[]', genealogyJson: nestedJson(rows, heads, root.id) ?? 'null', maxLevels, moreChildren: more };
}

/** The table view shows these columns of a tree node. */
export function toTableNode(n: TreeNode): TableNode {
  return {
    id: n.id,
    parent_id: n.parent_id,
    status: n.status,
    username: n.username,
    avatar: n.avatar,
    created_at: n.created_at,
    first_name: n.first_name,
    last_name: n.last_name,
    level: n.level,
    total_earnings: n.total_earnings,
    downlines_count: n.downlines_count,
    child_count: n.child_count,
  };
}

/** The tabular tree: the root and TABLE_VIEW_LEVELS levels below it, nested. */
export async function tableTree(database: Database, caller: MemberRow, root: TreeAnchor, plan: Plan): Promise<NestedTableNode> {
  const rows = await subtreeRows(
    database,
    root,
    TABLE_VIEW_LEVELS,
    MAX_TREE_NODES,
    NODE_STATEMENTS,
    (r) => objectOf<NodeRow>(NODE.names, r),
    (r) => int(r.id),
  );
  const earnings = totalEarnings(rows);
  const flat = rows.map((r) => toTreeNode(r, caller.depth, plan, earnings));
  const order = new Map(flat.map((n) => [n.id, n]));
  return nest<TableNode, NestedTableNode>(
    flat.map(toTableNode),
    root.id,
    (n) => ({ ...n, children: [] }),
    (a, b) => bySlot(order.get(a.id)!, order.get(b.id)!),
  );
}

/**
 * One level below the root (1 = its children) as a list, page by page, in path order. `afterId` (the
 * last node of the previous page, from next_page_url) continues right after it; it must be a node of
 * that level, else null is answered. Without it, `page` alone picks the rows.
 */
export async function tableLevel(
  database: Database,
  caller: MemberRow,
  root: TreeAnchor,
  level: number,
  page: number,
  afterId?: number,
): Promise<{ nodes: TableNode[]; hasMore: boolean } | null> {
  let afterPath: string | null = null;
  if (afterId !== undefined) {
    const [row] = await database.rows<{ path: string; depth: number }>(sql`SELECT path, depth FROM members WHERE id = ${afterId}`);
    if (!row || !inDownline(root.path, row.path) || int(row.depth) !== root.depth + level) return null;
    afterPath = row.path;
  }
  if (root.path === '' || root.downlineCount === 0) return { nodes: [], hasMore: false };
  const size = TABLE_LEVEL_PAGE_SIZE;
  const rows = await database.rows<NodeRow>(sql`
    SELECT ${NODE_COLUMNS} FROM members m ${NODE_JOINS}
    WHERE m.depth = ${root.depth + level} AND ${pathStartsWith(sql`m.path`, root.path)}
      ${afterPath === null ? sql`` : sql`AND m.path ~>~ ${afterPath}`}
    ORDER BY m.path USING ~<~
    LIMIT ${size + 1} OFFSET ${afterPath === null ? (page - 1) * size : 0}`);
  const hasMore = rows.length > size;
  const pageRows = rows.slice(0, size);
  const earnings = totalEarnings(pageRows);
  return { nodes: pageRows.map((r) => toTableNode(toTreeNode(r, caller.depth, 'unilevel', earnings))), hasMore };
}

/**
 * Levels that exist below `root`: the distance to its deepest member. Existence at a depth is
 * monotone (a member at depth d has an ancestor at every depth above), so a binary search with
 * one-row index probes finds it in O(log height) probes.
 */
export async function subtreeHeight(database: Database, root: TreeAnchor): Promise<number> {
  if (root.path === '' || root.downlineCount === 0) return 0;
  if (root.downlineCount === root.childCount) return 1;
  const [top] = await database.rows<{ d: number | null }>(sql`SELECT max(depth) AS d FROM members`);
  const exists = async (k: number) =>
    (
      await database.rows(
        // Ordered like the (depth, path) index: a deep level holds most members, and without the order the
        // planner may expect to meet one sooner in a sequential scan than it really does. The subtree is the
        // index range of its paths (pathStartsWith).
        sql`SELECT 1 FROM members WHERE depth = ${root.depth + k} AND ${pathStartsWith(sql`path`, root.path)} ORDER BY depth, path USING ~<~ LIMIT 1`,
      )
    ).length > 0;
  let lo = 2; // members at 2 levels below exist: more downline than children
  let hi = Math.max(lo, int(top?.d ?? 0) - root.depth);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await exists(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* ---------- downline report ---------- */

export interface ReportQuery {
  category: DownlineCategory;
  page: number;
  level?: number;
  username?: string;
  sort: SortOrder;
  /** Continue after this row (from next_page_url) instead of skipping (page - 1) pages. */
  after?: ReportCursor;
}

/** Where a report page ended: join time (microseconds, UTC) and id of its last row. */
export interface ReportCursor {
  createdAt: string;
  id: number;
}

const CURSOR_TEXT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|([1-9]\d{0,9})$/;

export function encodeCursor(c: ReportCursor): string {
  return Buffer.from(`${c.createdAt}|${c.id}`, 'utf8').toString('base64url');
}

/** The cursor of an `after` parameter, or null when it is not one. */
export function decodeCursor(text: string): ReportCursor | null {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(text)) return null;
  const m = CURSOR_TEXT.exec(Buffer.from(text, 'base64url').toString('utf8'));
  // A real instant of the years 1900 … 2999 (Date.parse alone reads 2023-02-30 as 2 March).
  if (!m || Number(m[2]) > MAX_ID || !isYmd(m[1].slice(0, 10)) || Number.isNaN(Date.parse(m[1])) || new Date(Date.parse(m[1])).toISOString().slice(0, 19) !== m[1].slice(0, 19)) return null;
  return { createdAt: m[1], id: Number(m[2]) };
}

/**
 * A report row as read, an array: first its numbers, decimals and join time as one comma-separated text (`concat`: a
 * null is empty; none of them holds a comma), then its text columns, each a column of its own — ten values to read
 * per row, not twenty-three. The join time comes once, to the microsecond (the cursor; the answer shows milliseconds).
 */
const REPORT_PACKED = [
  'm.id',
  'm.parent_id',
  'm.status',
  'm.pv',
  'm.tv',
  'm.cv',
  `to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  'm.rank_id',
  'page.level',
  'g.total',
  'm.total_left',
  'm.total_right',
  'm.carry_left',
  'm.carry_right',
] as const;
/** Where each packed value is. */
const P = { id: 0, parent_id: 1, status: 2, pv: 3, tv: 4, cv: 5, cursor_at: 6, rank_id: 7, level: 8, total_earnings: 9, total_left: 10, total_right: 11, carry_left: 12, carry_right: 13 };
/** Where each text column is in the row (the packed text is column 0). */
const R = { email: 1, username: 2, avatar: 3, rank_name: 4, rank_icon: 5, first_name: 6, last_name: 7, sponsor_username: 8, placement_username: 9 };
/** The packed values that may be null (empty text). */
const REPORT_NULLABLE = REPORT_PACKED.map((_, i) => i === P.parent_id || i === P.rank_id || i === P.level || i === P.total_earnings);


/**
 * The page's statement, the same text for every call (prepared once per connection): $1 the member, $2 sponsor
 * downline, $3 level, $4 username (lower case), $5 newest first, $6 … $7 the cursor, $8 rows to skip, $9 rows to take.
 */
const REPORT_PAGE = `SELECT concat(${REPORT_PACKED.join(", ',', ")}),
         m.email, m.username, m.avatar, r.name, r.icon, m.first_name, m.last_name, s.username, pp.username
  FROM downline_report_page($1::int, $2::boolean, $3::int, $4::text, $5::boolean, $6::timestamptz, $7::int, $8::int, $9::int)
         WITH ORDINALITY AS page(id, level, n)
  JOIN members m ON m.id = page.id
  LEFT JOIN ranks r ON r.id = m.rank_id
  LEFT JOIN members s ON s.id = m.sponsor_id
  LEFT JOIN members pp ON pp.id = m.parent_id
  LEFT JOIN member_gross_earnings g ON g.member_id = m.id
  ORDER BY page.n`;

const jsonInt = (v: unknown) => (v === null || v === undefined ? 'null' : String(Number(v)));

/**
 * A report row's JSON text: the fields of reportMemberSchema in its order, as its serialiser writes them
 * (checked against it outside production, see sendJsonText). Decimals lose their trailing zeros (trimDecimal)
 * and need no escaping; the join time is shown to the millisecond, cut as to_char's MS cuts it.
 */
function reportRowJson(p: Array<string | null>, t: unknown[]): string {
  const text = (i: number) => jsonText(t[i] as string | null);
  return (
    `{"id":${jsonInt(p[P.id])},"parent_id":${jsonInt(p[P.parent_id])},"sponsor_username":${text(R.sponsor_username)},` +
    `"placement_username":${text(R.placement_username)},"status":${int(p[P.status]) === 1 ? 1 : 0},"email":${text(R.email)},` +
    `"username":${jsonString(t[R.username] as string)},"avatar":${text(R.avatar)},"pv":"${dec(p[P.pv])}","tv":"${dec(p[P.tv])}","cv":"${dec(p[P.cv])}",` +
    `"created_at":"${(p[P.cursor_at] as string).slice(0, 23)}Z","rank_id":${jsonInt(p[P.rank_id])},"rank_name":${text(R.rank_name)},` +
    `"rank_icon":${text(R.rank_icon)},"first_name":${jsonString(t[R.first_name] as string)},"last_name":${text(R.last_name)},` +
    `"level":${jsonInt(p[P.level])},"total_earnings":"${dec(p[P.total_earnings])}","total_left":"${dec(p[P.total_left])}",` +
    `"total_right":"${dec(p[P.total_right])}","carry_left":"${dec(p[P.carry_left])}","carry_right":"${dec(p[P.carry_right])}"}`
  );
}

/**
 * A page of the member's downline, newest (desc) or oldest (asc) first: the placement downline at every
 * depth, or the sponsor downline (everyone the member brought in, and everyone they brought in, …).
 *
 * One statement, the same for every member (prepared once per connection): the database function
 * downline_report_page (migrations 0033, 0038) picks the page's ids — walking the join-date index for a
 * downline that is most of the tree, reading and sorting the downline's path range for any other — and the
 * statement joins them to the members' fields (gross earnings by key: a join, which the planner reads by key
 * however small that table is, where a subquery per row scanned a small one whole). With `after` (from
 * next_page_url) a page starts where the last one ended instead of skipping rows.
 *
 * The rows come as the JSON text of the answer's `data` (reportRowJson), written straight from the rows. The page the
 * report opens on (placement downline, newest first, no filter) is kept until something it shows changes.
 */
export async function downlineReport(
  database: Database,
  caller: MemberRow,
  q: ReportQuery,
): Promise<ReportPage & { kept: boolean }> {
  if (caller.path === '') return { rowsJson: '[]', hasMore: false, last: null, kept: false };
  const opening = q.category === 'placement' && q.page === 1 && q.level === undefined && !q.username && q.sort === 'desc' && q.after === undefined;
  if (!opening) return { ...(await reportPage(database, caller.id, q)), kept: false };
  // The page the report opens on, kept (migration 0048) as `hasMore|cursor|rows` (a cursor's text holds no `|`).
  const { answer, kept } = await keptOr(database.db, caller.id, 'downline_report', 'placement newest', async () => {
    const page = await reportPage(database, caller.id, q);
    return `${page.hasMore ? 1 : 0}|${page.last ? encodeCursor(page.last) : ''}|${page.rowsJson}`;
  });
  const [more, cursor, rowsJson] = keptFields(answer);
  return { hasMore: more === '1', last: cursor ? decodeCursor(cursor) : null, rowsJson, kept };
}

interface ReportPage {
  rowsJson: string;
  hasMore: boolean;
  last: ReportCursor | null;
}

/** A page of the report as read: REPORT_PAGE's rows, each written as JSON. */
async function reportPage(database: Database, memberId: number, q: ReportQuery): Promise<ReportPage> {
  const size = REPORT_PAGE_SIZE;
  const rows = await database.arrays(REPORT_PAGE, [
    memberId,
    q.category === 'sponsor',
    q.level ?? null,
    q.username?.toLowerCase() ?? null,
    q.sort !== 'asc',
    q.after?.createdAt ?? null,
    q.after?.id ?? null,
    q.after ? 0 : (q.page - 1) * size,
    size + 1,
  ]);
  const hasMore = rows.length > size;
  const count = Math.min(rows.length, size);
  let rowsJson = '[';
  let last: ReportCursor | null = null;
  for (let i = 0; i < count; i++) {
    const packed = cutPacked(rows[i][0] as string, REPORT_NULLABLE);
    rowsJson += (i ? ',' : '') + reportRowJson(packed, rows[i]);
    if (i === count - 1) last = { createdAt: packed[P.cursor_at] as string, id: int(packed[P.id]) };
  }
  return {
    hasMore,
    last,
    rowsJson: `${rowsJson}]`,
  };
}

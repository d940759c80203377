/**
 * The free places of a member's own tree a recruit may be signed up into (GET /api/network/free_places):
 *
 * - binary: every empty left or right slot below the member (the member included), upper levels first, in
 *   the (depth, path) index order; one range of that index, continued after the last place of a page;
 * - matrix: every free place in spill-over order — breadth first, siblings by their place, the first free
 *   place first (the place automatic placement takes) — under members within the matrix's depth below the
 *   member (the recruit's level at most `matrix_depth`) and the width's places each;
 * - unilevel: none; a recruit goes directly under their sponsor.
 *
 * Only verified members take recruits under them (signup refuses an unverified placement). `placement`
 * narrows the list to places under that member, who must be in the caller's tree, else 422 with the field.
 * The signup checks the place chosen again under the tree lock (signup.ts), so of two signups into one
 * place exactly one gets it.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { FreePlace, FreePlaces } from '../../src/schemas/network.schema';
import type { AppContext } from './app-context';
import { compensationSettings } from './compensation';
import { fieldError } from './errors';
import { fullName, pathStartsWith } from './genealogy';
import { findByUsername } from './members';
import { legSlot, matrixWidth, type Leg } from './tree';

export const FREE_PLACES_PAGE = 20;
export const FREE_PLACES_MAX = 50;

interface PlaceNode {
  id: number;
  username: string;
  first_name: string;
  last_name: string | null;
  depth: number;
  path: string;
  child_count: number;
  verified: boolean;
  parent_id: number | null;
  slot: number | null;
}

/** A place's cursor text: '<parent id>.<0-based slot>'. */
const cursorOf = (parentId: number, slot: number) => `${parentId}.${slot}`;
function parseCursor(text: string | undefined): { parentId: number; slot: number } | null {
  if (!text) return null;
  const [a, b] = text.split('.');
  return { parentId: Number(a), slot: Number(b) };
}

const notInTeam = () => fieldError('placement', 'validation:placementNotInTeam');

/** The member the list starts from: the caller, or `placement` when it is in the caller's tree. */
async function rootOf(database: Database, caller: MemberRow, placement: string | undefined): Promise<MemberRow> {
  if (!placement || placement.toLowerCase() === caller.username.toLowerCase()) return caller;
  const m = await findByUsername(database.db, placement);
  if (!m || !caller.path || !m.path || !m.path.startsWith(caller.path)) throw notInTeam();
  return m;
}

const COLUMNS = sql`m.id, m.username, m.first_name, m.last_name, m.depth, m.path, m.child_count, m.verified, m.parent_id, m.slot`;
const int = (v: unknown) => Number(v);

function place(caller: MemberRow, node: PlaceNode, position: Leg | null, slot: number): FreePlace {
  return {
    placement: node.username,
    placement_name: fullName(node.first_name, node.last_name),
    position,
    slot: slot + 1,
    level: int(node.depth) + 1 - caller.depth,
  };
}

export async function freePlaces(
  ctx: Pick<AppContext, 'database' | 'settings'>,
  caller: MemberRow,
  q: { placement?: string; after?: string; limit?: number },
): Promise<FreePlaces> {
  const plan = (await ctx.settings.get('modules')).compensation_plan;
  const limit = Math.min(q.limit ?? FREE_PLACES_PAGE, FREE_PLACES_MAX);
  const root = await rootOf(ctx.database, caller, q.placement);
  const after = parseCursor(q.after);
  if (plan === 'unilevel' || !caller.path) {
    return { compensation_plan: plan, places: [], max_depth: null, max_width: null, next_after: null };
  }
  const found = plan === 'binary' ? await binaryPlaces(ctx.database, caller, root, after, limit + 1) : await matrixPlaces(ctx, caller, root, after, limit + 1);
  const page = found.places.slice(0, limit);
  const last = found.cursors[page.length - 1];
  return {
    compensation_plan: plan,
    places: page,
    max_depth: plan === 'matrix' ? found.depth : null,
    max_width: plan === 'binary' ? 2 : found.width,
    next_after: found.places.length > limit && last ? last : null,
  };
}

interface Found {
  places: FreePlace[];
  cursors: string[];
  depth: number | null;
  width: number | null;
}

/** Binary: nodes with fewer than two children, in (depth, path) order from the cursor's node on. */
async function binaryPlaces(database: Database, caller: MemberRow, root: MemberRow, after: { parentId: number; slot: number } | null, want: number): Promise<Found> {
  let from = sql`m.depth >= ${root.depth}`;
  if (after) {
    const [c] = await database.rows<{ depth: number; path: string }>(sql`SELECT depth, path FROM members WHERE id = ${after.parentId}`);
    if (!c || !c.path.startsWith(root.path)) throw fieldError('after', 'validation:invalidFormat');
    from = sql`(m.depth > ${int(c.depth)} OR (m.depth = ${int(c.depth)} AND m.path ~>=~ ${c.path}))`;
  }
  const places: FreePlace[] = [];
  const cursors: string[] = [];
  const rows = await database.rows<PlaceNode & { taken: string | null }>(sql`
    SELECT ${COLUMNS}, (SELECT string_agg(c.position, '') FROM members c WHERE c.parent_id = m.id) AS taken
    FROM members m
    WHERE ${pathStartsWith(sql`m.path`, root.path)} AND ${from} AND m.child_count < 2 AND m.verified
    ORDER BY m.depth, m.path USING ~<~
    LIMIT ${want}`);
  for (const n of rows) {
    for (const leg of ['L', 'R'] as Leg[]) {
      const slot = legSlot(leg);
      if ((n.taken ?? '').includes(leg)) continue;
      if (after && int(n.id) === after.parentId && slot <= after.slot) continue;
      places.push(place(caller, n, leg, slot));
      cursors.push(cursorOf(int(n.id), slot));
    }
  }
  return { places: places.slice(0, want), cursors: cursors.slice(0, want), depth: null, width: 2 };
}

/**
 * Matrix: breadth first from `root`, one level of its subtree per query (the (depth, path) index), each
 * level ordered as spill-over walks it (by the parent's order, then the place under it).
 */
async function matrixPlaces(
  ctx: Pick<AppContext, 'database' | 'settings'>,
  caller: MemberRow,
  root: MemberRow,
  after: { parentId: number; slot: number } | null,
  want: number,
): Promise<Found> {
  const width = await matrixWidth(ctx.settings);
  const depth = (await compensationSettings(ctx.settings)).matrix_depth;
  const places: FreePlace[] = [];
  const cursors: string[] = [];
  let passed = after === null;
  const [self] = await ctx.database.rows<PlaceNode>(sql`SELECT ${COLUMNS} FROM members m WHERE m.id = ${root.id}`);
  let frontier: PlaceNode[] = [self];
  // A parent's level below the caller: its recruits land one level deeper, at most `depth`.
  for (let d = int(self.depth); frontier.length && d - caller.depth < depth && places.length < want; d++) {
    const children = await ctx.database.rows<PlaceNode>(sql`
      SELECT ${COLUMNS} FROM members m WHERE m.depth = ${d + 1} AND ${pathStartsWith(sql`m.path`, root.path)}`);
    const taken = new Map<number, Set<number>>();
    for (const c of children) {
      const set = taken.get(int(c.parent_id)) ?? new Set<number>();
      set.add(int(c.slot));
      taken.set(int(c.parent_id), set);
    }
    for (const node of frontier) {
      const id = int(node.id);
      const isCursor = after !== null && id === after.parentId;
      if (node.verified && int(node.child_count) < width) {
        for (let s = 0; s < width && places.length < want; s++) {
          if (taken.get(id)?.has(s)) continue;
          if (!passed && !(isCursor && s > after!.slot)) continue;
          places.push(place(caller, node, null, s));
          cursors.push(cursorOf(id, s));
        }
      }
      if (isCursor) passed = true;
      if (places.length >= want) break;
    }
    const order = new Map(frontier.map((n, i) => [int(n.id), i]));
    frontier = children
      .filter((c) => order.has(int(c.parent_id)))
      .sort((a, b) => order.get(int(a.parent_id))! - order.get(int(b.parent_id))! || int(a.slot) - int(b.slot));
  }
  if (after && !passed) throw fieldError('after', 'validation:invalidFormat');
  return { places, cursors, depth, width };
}

/**
 * The placement tree (binary, matrix or unilevel). Each member row holds its parent, position ('L'/'R'
 * in a binary tree), slot (0-based index under the parent), a materialised path ('1.2.5.') and depth, and
 * the counters the genealogy shows: child_count, downline_count and, for binary trees, left_count /
 * right_count. Placing a member updates all of them in the caller's transaction.
 *
 * Callers run placements inside `withTreeLock` so two signups never race for the same slot
 * (the unique index on (parent_id, slot) backs this up).
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { members } from '../db/schema';
import type { Plan } from '../../src/schemas/common.schema';
import type { SettingsService } from './settings';

export type Leg = 'L' | 'R';
export const DEFAULT_MATRIX_WIDTH = 3;
const TREE_LOCK_KEY = 7_345_001;

export interface Slot {
  parentId: number;
  /** 'L' / 'R' in a binary tree, null otherwise. */
  position: Leg | null;
  /** 0-based index under the parent (binary: L = 0, R = 1). */
  slot: number;
}

/** Children per member in a matrix plan: the company's `matrix_width` setting (2 to 20), else DEFAULT_MATRIX_WIDTH. */
export async function matrixWidth(settings: SettingsService): Promise<number> {
  const w = Number(((await settings.all()) as unknown as Record<string, unknown>).matrix_width);
  return Number.isInteger(w) && w >= 2 && w <= 20 ? w : DEFAULT_MATRIX_WIDTH;
}

export const legSlot = (leg: Leg) => (leg === 'L' ? 0 : 1);

/** Ids of the members on a path, root first: '1.2.5.' → [1, 2, 5]. */
export function pathIds(path: string): number[] {
  return path
    .split('.')
    .filter(Boolean)
    .map((p) => Number(p));
}

/** Run `fn` in a transaction that holds the tree lock (placements are serialised). */
export async function withTreeLock<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${TREE_LOCK_KEY})`);
    return fn(tx as unknown as Db);
  });
}

/** Is `id` the member `ancestorPath` names or in its placement downline? */
export function isInSubtree(memberPath: string, ancestorPath: string): boolean {
  return memberPath.startsWith(ancestorPath);
}

/** The outermost free slot on `leg` below `fromId`: follow the leg's child until there is none. */
export async function outermostBinarySlot(db: Db, fromId: number, leg: Leg): Promise<Slot> {
  const rows = (await db.execute(sql`
    WITH RECURSIVE chain AS (
      SELECT id, 0 AS n FROM members WHERE id = ${fromId}
      UNION ALL
      SELECT m.id, c.n + 1 FROM members m JOIN chain c ON m.parent_id = c.id AND m.position = ${leg}
    )
    SELECT id FROM chain ORDER BY n DESC LIMIT 1`)) as unknown as { rows: { id: number }[] };
  const last = rows.rows[0];
  return { parentId: Number(last.id), position: leg, slot: legSlot(leg) };
}

/** Is this binary slot under `parentId` free? */
export async function binarySlotFree(db: Db, parentId: number, leg: Leg): Promise<boolean> {
  return matrixSlotFree(db, parentId, legSlot(leg));
}

/** Is place `slot` (0-based) under a parent free (binary: L = 0, R = 1)? */
export async function matrixSlotFree(db: Db, parentId: number, slot: number): Promise<boolean> {
  const rows = await db
    .select({ id: members.id })
    .from(members)
    .where(sql`${members.parentId} = ${parentId} AND ${members.slot} = ${slot}`)
    .limit(1);
  return rows.length === 0;
}

/** Lowest free slot index directly under `parentId` with at most `width` children, or null when full. */
export async function freeSlotUnder(db: Db, parentId: number, width: number): Promise<number | null> {
  const rows = await db.select({ slot: members.slot }).from(members).where(eq(members.parentId, parentId));
  const taken = new Set(rows.map((r) => r.slot));
  for (let s = 0; s < width; s++) if (!taken.has(s)) return s;
  return null;
}

/** First free slot breadth-first below `rootId` in a tree of the given width (matrix placement). */
export async function firstFreeSlotBreadthFirst(db: Db, rootId: number, width: number): Promise<Slot> {
  let frontier: { id: number; childCount: number }[] = await db
    .select({ id: members.id, childCount: members.childCount })
    .from(members)
    .where(eq(members.id, rootId));
  while (frontier.length) {
    for (const node of frontier) {
      if (node.childCount < width) {
        const slot = await freeSlotUnder(db, node.id, width);
        if (slot !== null) return { parentId: node.id, position: null, slot };
      }
    }
    const order = new Map(frontier.map((n, i) => [n.id, i]));
    const children = await db
      .select({ id: members.id, childCount: members.childCount, parentId: members.parentId, slot: members.slot })
      .from(members)
      .where(inArray(members.parentId, frontier.map((n) => n.id)));
    children.sort((a, b) => order.get(a.parentId!)! - order.get(b.parentId!)! || (a.slot ?? 0) - (b.slot ?? 0));
    frontier = children;
  }
  throw new Error(`no free slot below member ${rootId}`);
}

/** Next slot index under a unilevel parent (no width limit). */
export async function nextUnilevelSlot(db: Db, parentId: number): Promise<Slot> {
  const [row] = await db
    .select({ next: sql<number>`coalesce(max(${members.slot}) + 1, 0)` })
    .from(members)
    .where(eq(members.parentId, parentId));
  return { parentId, position: null, slot: Number(row?.next ?? 0) };
}

/** Where a new member goes when the signup names no placement (spec §5, plan-specific). */
export async function autoSlot(db: Db, plan: Plan, sponsorId: number, opts: { leg?: Leg | null; width?: number } = {}): Promise<Slot> {
  if (plan === 'binary') return outermostBinarySlot(db, sponsorId, opts.leg ?? 'L');
  if (plan === 'matrix') return firstFreeSlotBreadthFirst(db, sponsorId, opts.width ?? DEFAULT_MATRIX_WIDTH);
  return nextUnilevelSlot(db, sponsorId);
}

/**
 * Put an existing (unplaced) member into `slot`: sets its parent, position, slot, path and depth, adds one
 * to the parent's child_count and to every ancestor's downline_count, and (binary) to left_count or
 * right_count of each ancestor on the side the new member sits under. Run inside `withTreeLock`.
 */
export async function placeMember(db: Db, memberId: number, slot: Slot): Promise<{ path: string; depth: number }> {
  const [parent] = await db
    .select({ id: members.id, path: members.path, depth: members.depth })
    .from(members)
    .where(eq(members.id, slot.parentId))
    .limit(1);
  if (!parent) throw new Error(`placement parent ${slot.parentId} does not exist`);
  const path = `${parent.path}${memberId}.`;
  const depth = parent.depth + 1;
  await db
    .update(members)
    .set({ parentId: parent.id, position: slot.position, slot: slot.slot, path, depth })
    .where(eq(members.id, memberId));
  await db
    .update(members)
    .set({ childCount: sql`${members.childCount} + 1` })
    .where(eq(members.id, parent.id));

  const ancestors = pathIds(parent.path);
  // The side each ancestor sees the new member on is the position of its child on the way down.
  const below = [...ancestors.slice(1), memberId];
  const positions = new Map<number, string | null>();
  const rows = await db.select({ id: members.id, position: members.position }).from(members).where(inArray(members.id, below));
  for (const r of rows) positions.set(r.id, r.position);
  positions.set(memberId, slot.position);
  const left: number[] = [];
  const right: number[] = [];
  ancestors.forEach((a, i) => {
    const side = positions.get(below[i]);
    if (side === 'L') left.push(a);
    else if (side === 'R') right.push(a);
  });
  const list = (ids: number[]) => (ids.length ? sql.raw(ids.map((n) => String(Math.trunc(n))).join(',')) : sql.raw('NULL'));
  await db
    .update(members)
    .set({
      downlineCount: sql`${members.downlineCount} + 1`,
      leftCount: sql`${members.leftCount} + CASE WHEN ${members.id} IN (${list(left)}) THEN 1 ELSE 0 END`,
      rightCount: sql`${members.rightCount} + CASE WHEN ${members.id} IN (${list(right)}) THEN 1 ELSE 0 END`,
    })
    .where(inArray(members.id, ancestors));
  return { path, depth };
}

/**
 * The genealogy as data and as a drawing plan.
 *
 * `TreeData` is the loaded part of the placement tree (flat, JSON-serialisable: node records keyed by id,
 * ordered child ids, which nodes' children are known, which the member collapsed). `mergeAnswer` folds a
 * genealogy answer into it. `layoutTree` turns it into positions with d3-hierarchy's tidy tree
 * (Reingold–Tilford, O(n)), computed once per change of the data, never per frame:
 *  - binary: every member whose children are known shows both slots, L then R; a missing one is an
 *    empty slot (where a new member may be signed up);
 *  - matrix: slots 0 … max_width - 1, the missing ones empty;
 *  - unilevel: the children there are, no empty slots.
 */
import { hierarchy, tree as tidyTree } from 'd3-hierarchy';
import type { Plan } from '../schemas/common.schema';
import type { Leg, TreeNode } from '../schemas/network.schema';

export interface TreeData {
  nodes: Record<number, TreeNode>;
  /** Child ids in slot order, for nodes whose children are known. */
  children: Record<number, number[]>;
  /** Nodes whose children are all loaded (true), so their empty slots are real. */
  known: Record<number, true>;
  /** Nodes the member folded away. */
  collapsed: Record<number, true>;
}

export const emptyTreeData = (): TreeData => ({ nodes: {}, children: {}, known: {}, collapsed: {} });

const bySlot = (a: TreeNode, b: TreeNode) =>
  (a.slot ?? Number.MAX_SAFE_INTEGER) - (b.slot ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;

/**
 * Folds the nodes of a genealogy answer (root `rootId` and `maxLevels` levels below it, parents before
 * children) into `data`. Nodes above the answer's last level have all their children in it; so do
 * nodes without children. Returns a new object (the old one is not changed).
 */
export function mergeAnswer(data: TreeData, affiliates: TreeNode[], rootId: number, maxLevels: number): TreeData {
  const nodes = { ...data.nodes };
  const children = { ...data.children };
  const known = { ...data.known };
  const root = affiliates.find((n) => n.id === rootId);
  const rootLevel = root?.level ?? 0;
  const fresh: Record<number, TreeNode[]> = {};
  for (const n of affiliates) {
    nodes[n.id] = n;
    if (n.id !== rootId && n.parent_id !== null) (fresh[n.parent_id] ??= []).push(n);
  }
  for (const n of affiliates) {
    if (n.level - rootLevel < maxLevels || n.child_count === 0) {
      known[n.id] = true;
      children[n.id] = (fresh[n.id] ?? []).sort(bySlot).map((c) => c.id);
    } else if (fresh[n.id]) {
      children[n.id] = fresh[n.id].sort(bySlot).map((c) => c.id);
    }
  }
  return { nodes, children, known, collapsed: data.collapsed };
}

/** Every loaded node below `id` (not `id` itself). */
export function descendantIds(data: TreeData, id: number): number[] {
  const out: number[] = [];
  const stack = [...(data.children[id] ?? [])];
  while (stack.length) {
    const next = stack.pop()!;
    out.push(next);
    const kids = data.children[next];
    if (kids) for (const k of kids) stack.push(k);
  }
  return out;
}

export type LayoutKind = 'member' | 'empty';

export interface LayoutItem {
  /** 'm<id>' for a member, 'e<parentId>.<slot>' for an empty slot. */
  key: string;
  kind: LayoutKind;
  /** The member (kind 'member'). */
  node: TreeNode | null;
  /** Parent member id (null for the root). */
  parentId: number | null;
  /** Slot under the parent (binary: 0 = L, 1 = R). */
  slot: number | null;
  /** Binary leg of an empty slot or member. */
  position: Leg | null;
  depth: number;
  /** Centre of the item in layout units. */
  x: number;
  y: number;
  /** Has children not drawn now (not loaded yet, or folded away). */
  expandable: boolean;
  /** Its children are drawn. */
  expanded: boolean;
  parentKey: string | null;
  childKeys: string[];
}

export interface LayoutLink {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface TreeLayout {
  items: LayoutItem[];
  byKey: Map<string, LayoutItem>;
  links: LayoutLink[];
  bounds: { minX: number; maxX: number; minY: number; maxY: number };
  rootKey: string | null;
}

export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 92;
export const EMPTY_WIDTH = 120;
export const GAP_X = 20;
export const GAP_Y = 64;

export interface LayoutOptions {
  plan: Plan;
  /** Children a member can have: 2 (binary), the matrix width, null (unilevel). */
  maxWidth: number | null;
}

interface Draft {
  key: string;
  kind: LayoutKind;
  node: TreeNode | null;
  parentId: number | null;
  slot: number | null;
  position: Leg | null;
  expandable: boolean;
  expanded: boolean;
  children: Draft[];
}

export const memberKey = (id: number) => `m${id}`;
export const emptyKey = (parentId: number, slot: number) => `e${parentId}.${slot}`;
const LEGS: Leg[] = ['L', 'R'];

function slotCount(opts: LayoutOptions): number {
  if (opts.plan === 'binary') return 2;
  if (opts.plan === 'matrix') return opts.maxWidth ?? 0;
  return 0;
}

/** Positions of the loaded tree below `rootId` (children of collapsed nodes left out). */
export function layoutTree(data: TreeData, rootId: number | null, opts: LayoutOptions): TreeLayout {
  const empty: TreeLayout = { items: [], byKey: new Map(), links: [], bounds: { minX: 0, maxX: 0, minY: 0, maxY: 0 }, rootKey: null };
  if (rootId === null || !data.nodes[rootId]) return empty;
  const slots = slotCount(opts);

  const build = (id: number): Draft => {
    const node = data.nodes[id];
    const known = !!data.known[id];
    const kids = data.children[id] ?? [];
    const collapsed = !!data.collapsed[id];
    const open = !collapsed && (known || kids.length > 0);
    const draft: Draft = {
      key: memberKey(id),
      kind: 'member',
      node,
      parentId: node.parent_id,
      slot: node.slot,
      position: node.position,
      expandable: node.child_count > 0 && (!known || collapsed),
      expanded: open && (kids.length > 0 || (known && slots > 0)),
      children: [],
    };
    if (!open) return draft;
    if (slots > 0 && known) {
      const inSlot = new Map<number, number>();
      kids.forEach((k, i) => inSlot.set(data.nodes[k]?.slot ?? i, k));
      for (let s = 0; s < slots; s++) {
        const child = inSlot.get(s);
        if (child !== undefined && data.nodes[child]) draft.children.push(build(child));
        else
          draft.children.push({
            key: emptyKey(id, s),
            kind: 'empty',
            node: null,
            parentId: id,
            slot: s,
            position: opts.plan === 'binary' ? LEGS[s] : null,
            expandable: false,
            expanded: false,
            children: [],
          });
      }
      // Children outside the slot range (data from another plan setting) are still shown.
      for (const k of kids) {
        const s = data.nodes[k]?.slot;
        if ((s === null || s === undefined || s >= slots) && data.nodes[k]) draft.children.push(build(k));
      }
    } else {
      for (const k of kids) if (data.nodes[k]) draft.children.push(build(k));
    }
    return draft;
  };

  const rootDraft = build(rootId);
  const h = hierarchy<Draft>(rootDraft, (d) => d.children);
  tidyTree<Draft>()
    .nodeSize([NODE_WIDTH + GAP_X, NODE_HEIGHT + GAP_Y])
    .separation((a, b) => {
      const narrow = a.data.kind === 'empty' && b.data.kind === 'empty' ? 0.75 : 1;
      return (a.parent === b.parent ? 1 : 1.15) * narrow;
    })(h);

  const items: LayoutItem[] = [];
  const byKey = new Map<string, LayoutItem>();
  const links: LayoutLink[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  h.each((p) => {
    const d = p.data;
    const item: LayoutItem = {
      key: d.key,
      kind: d.kind,
      node: d.node,
      parentId: d.parentId,
      slot: d.slot,
      position: d.position,
      depth: p.depth,
      x: p.x ?? 0,
      y: p.y ?? 0,
      expandable: d.expandable,
      expanded: d.expanded,
      parentKey: p.parent ? p.parent.data.key : null,
      childKeys: d.children.map((c) => c.key),
    };
    items.push(item);
    byKey.set(item.key, item);
    if (p.parent) links.push({ x1: p.parent.x ?? 0, y1: p.parent.y ?? 0, x2: item.x, y2: item.y });
    minX = Math.min(minX, item.x - NODE_WIDTH / 2);
    maxX = Math.max(maxX, item.x + NODE_WIDTH / 2);
    minY = Math.min(minY, item.y - NODE_HEIGHT / 2);
    maxY = Math.max(maxY, item.y + NODE_HEIGHT / 2);
  });
  return { items, byKey, links, bounds: { minX, maxX, minY, maxY }, rootKey: rootDraft.key };
}

/** The item under a layout point, or null. */
export function hitTest(layout: TreeLayout, x: number, y: number): LayoutItem | null {
  for (let i = layout.items.length - 1; i >= 0; i--) {
    const it = layout.items[i];
    const w = (it.kind === 'empty' ? EMPTY_WIDTH : NODE_WIDTH) / 2;
    if (Math.abs(x - it.x) <= w && Math.abs(y - it.y) <= NODE_HEIGHT / 2 + (it.expandable || it.expanded ? 14 : 0)) return it;
  }
  return null;
}

/**
 * Keyboard neighbours of an item: parent (up), first child (down), previous / next item on the same
 * row (left / right).
 */
export function neighbour(layout: TreeLayout, key: string, direction: 'up' | 'down' | 'left' | 'right'): string | null {
  const it = layout.byKey.get(key);
  if (!it) return null;
  if (direction === 'up') return it.parentKey;
  if (direction === 'down') return it.childKeys[Math.floor((it.childKeys.length - 1) / 2)] ?? null;
  let best: LayoutItem | null = null;
  for (const o of layout.items) {
    if (o.depth !== it.depth || o.key === key) continue;
    const dx = o.x - it.x;
    if (direction === 'left' ? dx >= 0 : dx <= 0) continue;
    if (!best || Math.abs(dx) < Math.abs(best.x - it.x)) best = o;
  }
  return best ? best.key : null;
}

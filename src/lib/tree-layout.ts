/**
 * The genealogy as data and as a drawing plan.
 *
 * `TreeData` is the loaded part of the placement tree (flat, JSON-serialisable: node records keyed by id,
 * ordered child ids, which nodes' children are known, which the member collapsed). `mergeAnswer` folds a
 * genealogy answer into it. `layoutTree` turns it into positions with the tidy tree of d3-hierarchy
 * (Reingold–Tilford as improved by Buchheim et al., O(n); the same algorithm and positions, written
 * over one working object per node), computed once per change of the data, never per frame:
 *  - binary: every member whose children are known shows both slots, L then R; a missing one is an
 *    empty slot (where a new member may be signed up);
 *  - matrix: slots 0 … max_width - 1, the missing ones empty;
 *  - unilevel: the children there are, no empty slots.
 */
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

export const memberKey = (id: number) => `m${id}`;
export const emptyKey = (parentId: number, slot: number) => `e${parentId}.${slot}`;
const LEGS: Leg[] = ['L', 'R'];

function slotCount(opts: LayoutOptions): number {
  if (opts.plan === 'binary') return 2;
  if (opts.plan === 'matrix') return opts.maxWidth ?? 0;
  return 0;
}

/**
 * A node while it is laid out: what the item will show, and the working fields of the tidy tree
 * (Buchheim, Jünger and Leipert's linear-time Walker — the algorithm of d3-hierarchy's `tree()`, with
 * the same fields: A default ancestor, a ancestor, z prelim, m mod, c change, s shift, t thread, i index
 * among siblings). Keeping both on one object (instead of data → hierarchy node → tree node → item) is
 * what makes ten thousand nodes lay out in a few milliseconds with little garbage.
 */
class Work {
  parent: Work | null = null;
  children: Work[] | null = null;
  A: Work | null = null;
  a: Work = this;
  z = 0;
  m = 0;
  c = 0;
  s = 0;
  t: Work | null = null;
  /** The finished item (set in the last pass, for its children's links). */
  item: LayoutItem | null = null;
  constructor(
    readonly key: string,
    readonly kind: LayoutKind,
    readonly node: TreeNode | null,
    readonly parentId: number | null,
    readonly slot: number | null,
    readonly position: Leg | null,
    readonly expandable: boolean,
    readonly expanded: boolean,
    readonly i: number,
    readonly depth: number,
  ) {}
}

const nextLeft = (v: Work) => (v.children ? v.children[0] : v.t);
const nextRight = (v: Work) => (v.children ? v.children[v.children.length - 1] : v.t);

/** Gap between neighbours in node widths: more between cousins, less between two empty slots. */
const separation = (a: Work, b: Work) => (a.parent === b.parent ? 1 : 1.15) * (a.kind === 'empty' && b.kind === 'empty' ? 0.75 : 1);

function moveSubtree(wm: Work, wp: Work, shift: number) {
  const change = shift / (wp.i - wm.i);
  wp.c -= change;
  wp.s += shift;
  wm.c += change;
  wp.z += shift;
  wp.m += shift;
}

function executeShifts(v: Work) {
  let shift = 0;
  let change = 0;
  const children = v.children!;
  for (let i = children.length - 1; i >= 0; i--) {
    const w = children[i];
    w.z += shift;
    w.m += shift;
    shift += w.s + (change += w.c);
  }
}

function apportion(v: Work, w: Work | null, ancestor: Work): Work {
  if (!w) return ancestor;
  let vip: Work | null = v;
  let vop = v;
  let vim: Work | null = w;
  // (d3: `while (vim = nextRight(vim), vip = nextLeft(vip), vim && vip)`)
  let vom = v.parent!.children![0];
  let sip = vip.m;
  let sop = vop.m;
  let sim = vim.m;
  let som = vom.m;
  for (;;) {
    vim = nextRight(vim);
    vip = nextLeft(vip);
    if (!vim || !vip) break;
    vom = nextLeft(vom)!;
    vop = nextRight(vop)!;
    vop.a = v;
    const shift = vim.z + sim - vip.z - sip + separation(vim, vip);
    if (shift > 0) {
      moveSubtree(vim.a.parent === v.parent ? vim.a : ancestor, v, shift);
      sip += shift;
      sop += shift;
    }
    sim += vim.m;
    sip += vip.m;
    som += vom.m;
    sop += vop.m;
  }
  if (vim && !nextRight(vop)) {
    vop.t = vim;
    vop.m += sim - sop;
  }
  if (vip && !nextLeft(vom)) {
    vom.t = vip;
    vom.m += sip - som;
    ancestor = v;
  }
  return ancestor;
}

function firstWalk(v: Work) {
  const children = v.children;
  const siblings = v.parent!.children!;
  const w = v.i ? siblings[v.i - 1] : null;
  if (children) {
    executeShifts(v);
    const midpoint = (children[0].z + children[children.length - 1].z) / 2;
    if (w) {
      v.z = w.z + separation(v, w);
      v.m = v.z - midpoint;
    } else v.z = midpoint;
  } else if (w) v.z = w.z + separation(v, w);
  v.parent!.A = apportion(v, w, v.parent!.A ?? siblings[0]);
}

/**
 * Positions of the loaded tree below `rootId` (children of collapsed nodes left out): Reingold–Tilford
 * tidy tree in O(n), the same positions d3-hierarchy's `tree().nodeSize([NODE_WIDTH + GAP_X, NODE_HEIGHT
 * + GAP_Y])` gives. Items come breadth first (parents before children, each row left to right).
 */
export function layoutTree(data: TreeData, rootId: number | null, opts: LayoutOptions): TreeLayout {
  const empty: TreeLayout = { items: [], byKey: new Map(), links: [], bounds: { minX: 0, maxX: 0, minY: 0, maxY: 0 }, rootKey: null };
  if (rootId === null || !data.nodes[rootId]) return empty;
  const slots = slotCount(opts);

  const member = (id: number, i: number, depth: number): Work => {
    const node = data.nodes[id];
    const known = !!data.known[id];
    const kids = data.children[id];
    const collapsed = !!data.collapsed[id];
    const open = !collapsed && (known || (kids !== undefined && kids.length > 0));
    return new Work(
      memberKey(id),
      'member',
      node,
      node.parent_id,
      node.slot,
      node.position,
      node.child_count > 0 && (!known || collapsed),
      open && ((kids !== undefined && kids.length > 0) || (known && slots > 0)),
      i,
      depth,
    );
  };

  /** Scratch: child id per slot of the member being built (cleared after each use). */
  const inSlot: Array<number | undefined> = new Array(slots).fill(undefined);

  /** The children drawn under an open member: its slots (members or empty) or the members there are. */
  const childrenOf = (w: Work): Work[] | null => {
    const id = w.node!.id;
    const known = !!data.known[id];
    const kids = data.children[id] ?? [];
    if (data.collapsed[id] || !(known || kids.length > 0)) return null;
    const out: Work[] = [];
    const depth = w.depth + 1;
    if (slots > 0 && known) {
      for (let i = 0; i < kids.length; i++) {
        const s = data.nodes[kids[i]]?.slot ?? i;
        if (s < slots) inSlot[s] = kids[i];
      }
      for (let s = 0; s < slots; s++) {
        const child = inSlot[s];
        inSlot[s] = undefined;
        if (child !== undefined && data.nodes[child]) out.push(member(child, out.length, depth));
        else
          out.push(
            new Work(emptyKey(id, s), 'empty', null, id, s, opts.plan === 'binary' ? LEGS[s] : null, false, false, out.length, depth),
          );
      }
      // Children outside the slot range (data from another plan setting) are still shown.
      for (const k of kids) {
        const s = data.nodes[k]?.slot;
        if ((s === null || s === undefined || s >= slots) && data.nodes[k]) out.push(member(k, out.length, depth));
      }
    } else {
      for (const k of kids) if (data.nodes[k]) out.push(member(k, out.length, depth));
    }
    return out.length ? out : null;
  };

  // Build breadth first: `order` is the drawing order (parents before children, rows left to right).
  const root = member(rootId, 0, 0);
  const top = new Work('', 'member', null, null, null, null, false, false, 0, -1);
  top.children = [root];
  root.parent = top;
  const order: Work[] = [root];
  for (let q = 0; q < order.length; q++) {
    const w = order[q];
    if (w.kind !== 'member') continue;
    const kids = childrenOf(w);
    if (!kids) continue;
    w.children = kids;
    for (const k of kids) {
      k.parent = w;
      order.push(k);
    }
  }

  // First walk: the rows from the deepest up, each left to right. A node's walk reads and writes only
  // the subtree of its parent, so this gives the same result as d3's post-order walk (children before
  // their parent, left siblings before right ones) without a recursion as deep as the tree.
  for (let end = order.length; end > 0; ) {
    const depth = order[end - 1].depth;
    let start = end - 1;
    while (start > 0 && order[start - 1].depth === depth) start--;
    for (let q = start; q < end; q++) firstWalk(order[q]);
    end = start;
  }
  top.m = -root.z;

  const dx = NODE_WIDTH + GAP_X;
  const dy = NODE_HEIGHT + GAP_Y;
  const items: LayoutItem[] = new Array(order.length);
  const byKey = new Map<string, LayoutItem>();
  const links: LayoutLink[] = [];
  let minX = Infinity;
  let maxX = -Infinity;
  for (let q = 0; q < order.length; q++) {
    const w = order[q];
    const p = w.parent!;
    const x = (w.z + p.m) * dx;
    w.m += p.m;
    const y = w.depth * dy;
    const parentItem = p.item;
    const item: LayoutItem = {
      key: w.key,
      kind: w.kind,
      node: w.node,
      parentId: w.parentId,
      slot: w.slot,
      position: w.position,
      depth: w.depth,
      x,
      y,
      expandable: w.expandable,
      expanded: w.expanded,
      parentKey: parentItem ? parentItem.key : null,
      childKeys: w.children ? w.children.map((c) => c.key) : [],
    };
    items[q] = item;
    byKey.set(item.key, item);
    w.item = item;
    if (parentItem) links.push({ x1: parentItem.x, y1: parentItem.y, x2: x, y2: y });
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
  }
  const deepest = order[order.length - 1].depth;
  return {
    items,
    byKey,
    links,
    bounds: { minX: minX - NODE_WIDTH / 2, maxX: maxX + NODE_WIDTH / 2, minY: -NODE_HEIGHT / 2, maxY: deepest * dy + NODE_HEIGHT / 2 },
    rootKey: root.key,
  };
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

/**
 * The genealogy as data and as a drawing plan.
 *
 * `TreeData` is the loaded part of the placement tree (flat, JSON-serialisable: node records keyed by id,
 * ordered child ids, which nodes' children are known, which the member collapsed). `mergeAnswer` folds a
 * genealogy answer into it. `layoutTree` turns it into positions with the tidy tree of d3-hierarchy
 * (Reingold–Tilford as improved by Buchheim et al., O(n); the same algorithm and positions, computed
 * over flat typed arrays), once per change of the data, never per frame:
 *  - binary: every member whose children are known shows both slots, L then R; a missing one is an
 *    empty slot (where a new member may be signed up);
 *  - matrix: slots 0 … max_width - 1, the missing ones empty;
 *  - unilevel: the children there are, no empty slots.
 */
import type { Plan } from '../schemas/common.schema';
import type { Leg, TreeNode } from '../schemas/network.schema';
import type { MemberTable } from '../api/network-members';

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
 * children; a list, or the MemberTable of the fast path) into `data`. Nodes above the answer's last level
 * have all their children in it; so do nodes without children. Returns a new object (the old one is not
 * changed).
 */
export function mergeAnswer(data: TreeData, affiliates: readonly TreeNode[] | MemberTable<TreeNode>, rootId: number, maxLevels: number): TreeData {
  const list: readonly TreeNode[] = Array.isArray(affiliates) ? affiliates : membersOf(affiliates as MemberTable<TreeNode>);
  const nodes = { ...data.nodes };
  const children = { ...data.children };
  const known = { ...data.known };
  const root = list.find((n) => n.id === rootId);
  const rootLevel = root?.level ?? 0;
  const fresh: Record<number, TreeNode[]> = {};
  for (const n of list) {
    nodes[n.id] = n;
    if (n.id !== rootId && n.parent_id !== null) (fresh[n.parent_id] ??= []).push(n);
  }
  for (const n of list) {
    if (n.level - rootLevel < maxLevels || n.child_count === 0) {
      known[n.id] = true;
      children[n.id] = (fresh[n.id] ?? []).sort(bySlot).map((c) => c.id);
    } else if (fresh[n.id]) {
      children[n.id] = fresh[n.id].sort(bySlot).map((c) => c.id);
    }
  }
  return { nodes, children, known, collapsed: data.collapsed };
}

/** The members of a table, in order (their texts are read when asked for). */
function membersOf(table: MemberTable<TreeNode>): TreeNode[] {
  const out: TreeNode[] = new Array(table.count);
  for (let i = 0; i < table.count; i++) out[i] = table.node(i);
  return out;
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

/** Item kinds in TreeLayout.kind. */
export const MEMBER = 0;
export const EMPTY = 1;
/** Bits of TreeLayout.flags. */
export const EXPANDABLE = 1;
export const EXPANDED = 2;

function slotCount(opts: LayoutOptions): number {
  if (opts.plan === 'binary') return 2;
  if (opts.plan === 'matrix') return opts.maxWidth ?? 0;
  return 0;
}

/**
 * The positions of the drawn tree, item by item in typed arrays (items breadth first: parents before
 * children, each row left to right, a member's children next to each other). Painting, hit testing and
 * keyboard moves read the arrays; an item's object (LayoutItem) and its key are built only when asked for
 * (the focused, hovered or tapped one).
 */
export class TreeLayout {
  /** The last key looked up and its index (the focused or hovered item, asked for on every paint). */
  private lastKey: string | null = null;
  private lastIndex = -1;
  private built: Array<LayoutItem | undefined>;
  private all: LayoutItem[] | null = null;

  constructor(
    private readonly data: TreeData,
    readonly size: number,
    /** MEMBER or EMPTY. */
    readonly kind: Uint8Array,
    /** Member id (member) or its parent member's id (empty slot). */
    readonly ids: Float64Array,
    /** Slot under the parent, -1 for none. */
    readonly slots: Int32Array,
    /** Binary leg: 0 none, 1 L, 2 R. */
    readonly legs: Uint8Array,
    readonly depth: Int32Array,
    /** Parent item, -1 for the root. */
    readonly parent: Int32Array,
    /** Children: items childStart[i] … childStart[i] + childCount[i] - 1. */
    readonly childStart: Int32Array,
    readonly childCount: Int32Array,
    /** EXPANDABLE | EXPANDED. */
    readonly flags: Uint8Array,
    /** Centre of each item in layout units. */
    readonly x: Float64Array,
    readonly y: Float64Array,
    readonly bounds: { minX: number; maxX: number; minY: number; maxY: number },
  ) {
    this.built = new Array(size);
  }

  /** The root's key, null for an empty layout. */
  get rootKey(): string | null {
    return this.size ? this.key(0) : null;
  }

  key(i: number): string {
    return this.kind[i] === MEMBER ? memberKey(this.ids[i]) : emptyKey(this.ids[i], this.slots[i]);
  }

  /** The member of item i (null for an empty slot). */
  node(i: number): TreeNode | null {
    return this.kind[i] === MEMBER ? (this.data.nodes[this.ids[i]] ?? null) : null;
  }

  /** Index of the member item with this id, -1 when it is not drawn (a scan of the ids: no index to build). */
  private memberIndex(id: number): number {
    const { ids, kind } = this;
    for (let i = 0; i < this.size; i++) if (ids[i] === id && kind[i] === MEMBER) return i;
    return -1;
  }

  /** Index of the item with this key, -1 when it is not drawn. */
  indexOf(key: string): number {
    if (key === this.lastKey) return this.lastIndex;
    let found = -1;
    if (key.startsWith('m')) found = this.memberIndex(Number(key.slice(1)));
    else if (key.startsWith('e')) {
      const dot = key.indexOf('.');
      const at = dot > 0 ? this.memberIndex(Number(key.slice(1, dot))) : -1;
      const slot = Number(key.slice(dot + 1));
      if (at >= 0)
        for (let c = this.childStart[at]; c < this.childStart[at] + this.childCount[at]; c++)
          if (this.kind[c] === EMPTY && this.slots[c] === slot) found = c;
    }
    if (found >= 0 && this.key(found) !== key) found = -1;
    this.lastKey = key;
    this.lastIndex = found;
    return found;
  }

  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  /** The item with this key, if drawn. */
  get(key: string): LayoutItem | undefined {
    const i = this.indexOf(key);
    return i >= 0 ? this.item(i) : undefined;
  }

  /** Item i as an object (built once). */
  item(i: number): LayoutItem {
    let it = this.built[i];
    if (it) return it;
    const p = this.parent[i];
    const childKeys: string[] = [];
    for (let c = this.childStart[i]; c < this.childStart[i] + this.childCount[i]; c++) childKeys.push(this.key(c));
    const member = this.kind[i] === MEMBER;
    it = {
      key: this.key(i),
      kind: member ? 'member' : 'empty',
      node: this.node(i),
      parentId: member ? (this.node(i)?.parent_id ?? null) : this.ids[i],
      slot: this.slots[i] < 0 ? null : this.slots[i],
      position: this.legs[i] ? LEGS[this.legs[i] - 1] : null,
      depth: this.depth[i],
      x: this.x[i],
      y: this.y[i],
      expandable: (this.flags[i] & EXPANDABLE) !== 0,
      expanded: (this.flags[i] & EXPANDED) !== 0,
      parentKey: p >= 0 ? this.key(p) : null,
      childKeys,
    };
    this.built[i] = it;
    return it;
  }

  /** Every item as an object (breadth first). */
  get items(): readonly LayoutItem[] {
    if (!this.all) {
      const all: LayoutItem[] = new Array(this.size);
      for (let i = 0; i < this.size; i++) all[i] = this.item(i);
      this.all = all;
    }
    return this.all;
  }

  /** Every item by key. */
  get byKey(): ReadonlyMap<string, LayoutItem> {
    const map = new Map<string, LayoutItem>();
    for (let i = 0; i < this.size; i++) map.set(this.key(i), this.item(i));
    return map;
  }
}

const EMPTY_LAYOUT_DATA: TreeData = emptyTreeData();

/**
 * Positions of the loaded tree below `rootId` (children of collapsed nodes left out): Reingold–Tilford
 * tidy tree in O(n) as improved by Buchheim, Jünger and Leipert — the algorithm of d3-hierarchy's
 * `tree()` (same working fields: A default ancestor, a ancestor, z prelim, m mod, c change, s shift,
 * t thread, i index among siblings), giving the positions of `tree().nodeSize([NODE_WIDTH + GAP_X,
 * NODE_HEIGHT + GAP_Y])`, computed over flat typed arrays: ten thousand nodes lay out in a few
 * milliseconds without an object per node.
 */
/** A copy of `a` with room for `cap` items. */
function widened<A extends Uint8Array | Int32Array | Float64Array>(a: A, cap: number): A {
  const b = new (a.constructor as new (n: number) => A)(cap);
  b.set(a);
  return b;
}

export function layoutTree(data: TreeData, rootId: number | null, opts: LayoutOptions): TreeLayout {
  const none = () =>
    new TreeLayout(EMPTY_LAYOUT_DATA, 0, new Uint8Array(0), new Float64Array(0), new Int32Array(0), new Uint8Array(0), new Int32Array(0),
      new Int32Array(0), new Int32Array(0), new Int32Array(0), new Uint8Array(0), new Float64Array(0), new Float64Array(0),
      { minX: 0, maxX: 0, minY: 0, maxY: 0 });
  if (rootId === null || !data.nodes[rootId]) return none();
  const slotsPerMember = slotCount(opts);
  const binary = opts.plan === 'binary';

  // Items, breadth first. Room grows by doubling; the extra slot at the end of the working arrays is the
  // virtual top above the root (d3's own root of the walk).
  let cap = 64;
  let kind = new Uint8Array(cap);
  let ids = new Float64Array(cap);
  let slots = new Int32Array(cap);
  let legs = new Uint8Array(cap);
  let depth = new Int32Array(cap);
  let parent = new Int32Array(cap);
  let childStart = new Int32Array(cap);
  let childCount = new Int32Array(cap);
  let flags = new Uint8Array(cap);
  let sib = new Int32Array(cap);
  let n = 0;
  const grow = () => {
    cap *= 2;
    kind = widened(kind, cap);
    ids = widened(ids, cap);
    slots = widened(slots, cap);
    legs = widened(legs, cap);
    depth = widened(depth, cap);
    parent = widened(parent, cap);
    childStart = widened(childStart, cap);
    childCount = widened(childCount, cap);
    flags = widened(flags, cap);
    sib = widened(sib, cap);
  };
  const add = (k: number, id: number, slot: number | null, leg: Leg | null, d: number, p: number, i: number, f: number) => {
    if (n === cap) grow();
    kind[n] = k;
    ids[n] = id;
    slots[n] = slot ?? -1;
    legs[n] = leg === 'L' ? 1 : leg === 'R' ? 2 : 0;
    depth[n] = d;
    parent[n] = p;
    childStart[n] = 0;
    childCount[n] = 0;
    flags[n] = f;
    sib[n] = i;
    return n++;
  };
  const addMember = (id: number, p: number, i: number, d: number) => {
    const node = data.nodes[id];
    const known = !!data.known[id];
    const kids = data.children[id];
    const collapsed = !!data.collapsed[id];
    const open = !collapsed && (known || (kids !== undefined && kids.length > 0));
    const expandable = node.child_count > 0 && (!known || collapsed);
    const expanded = open && ((kids !== undefined && kids.length > 0) || (known && slotsPerMember > 0));
    return add(MEMBER, id, node.slot, node.position, d, p, i, (expandable ? EXPANDABLE : 0) | (expanded ? EXPANDED : 0));
  };

  /** Scratch: child id per slot of the member being built (cleared after each use). */
  const inSlot: Array<number | undefined> = new Array(slotsPerMember).fill(undefined);

  addMember(rootId, -1, 0, 0);
  for (let q = 0; q < n; q++) {
    if (kind[q] !== MEMBER) continue;
    const id = ids[q];
    const known = !!data.known[id];
    const kids = data.children[id] ?? [];
    if (data.collapsed[id] || !(known || kids.length > 0)) continue;
    const first = n;
    const d = depth[q] + 1;
    if (slotsPerMember > 0 && known) {
      // Its slots: the member in each, or an empty slot.
      for (let i = 0; i < kids.length; i++) {
        const s = data.nodes[kids[i]]?.slot ?? i;
        if (s < slotsPerMember) inSlot[s] = kids[i];
      }
      for (let s = 0; s < slotsPerMember; s++) {
        const child = inSlot[s];
        inSlot[s] = undefined;
        if (child !== undefined && data.nodes[child]) addMember(child, q, n - first, d);
        else add(EMPTY, id, s, binary ? LEGS[s] : null, d, q, n - first, 0);
      }
      // Children outside the slot range (data from another plan setting) are still shown.
      for (const k of kids) {
        const s = data.nodes[k]?.slot;
        if ((s === null || s === undefined || s >= slotsPerMember) && data.nodes[k]) addMember(k, q, n - first, d);
      }
    } else {
      for (const k of kids) if (data.nodes[k]) addMember(k, q, n - first, d);
    }
    childStart[q] = first;
    childCount[q] = n - first;
  }

  // The walk's working fields, one slot per item plus the virtual top (index n).
  const top = n;
  const A = new Int32Array(n + 1).fill(-1);
  const a = new Int32Array(n + 1);
  for (let v = 0; v <= n; v++) a[v] = v;
  const z = new Float64Array(n + 1);
  const m = new Float64Array(n + 1);
  const c = new Float64Array(n + 1);
  const sh = new Float64Array(n + 1);
  const t = new Int32Array(n + 1).fill(-1);
  const up = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) up[v] = parent[v] < 0 ? top : parent[v];
  up[top] = -1;
  const kidsAt = (v: number) => (v === top ? 0 : childStart[v]);
  const kidsOf = (v: number) => (v === top ? 1 : childCount[v]);

  const nextLeft = (v: number) => (kidsOf(v) ? kidsAt(v) : t[v]);
  const nextRight = (v: number) => (kidsOf(v) ? kidsAt(v) + kidsOf(v) - 1 : t[v]);
  /** Gap between neighbours in node widths: more between cousins, less between two empty slots. */
  const separation = (p: number, q: number) => (up[p] === up[q] ? 1 : 1.15) * (kind[p] === EMPTY && kind[q] === EMPTY ? 0.75 : 1);

  const moveSubtree = (wm: number, wp: number, shift: number) => {
    const change = shift / (sib[wp] - sib[wm]);
    c[wp] -= change;
    sh[wp] += shift;
    c[wm] += change;
    z[wp] += shift;
    m[wp] += shift;
  };

  const executeShifts = (v: number) => {
    let shift = 0;
    let change = 0;
    for (let w = kidsAt(v) + kidsOf(v) - 1; w >= kidsAt(v); w--) {
      z[w] += shift;
      m[w] += shift;
      shift += sh[w] + (change += c[w]);
    }
  };

  const apportion = (v: number, w: number, ancestor: number): number => {
    if (w < 0) return ancestor;
    let vip = v;
    let vop = v;
    let vim = w;
    // (d3: `while (vim = nextRight(vim), vip = nextLeft(vip), vim && vip)`)
    let vom = kidsAt(up[v]);
    let sip = m[vip];
    let sop = m[vop];
    let sim = m[vim];
    let som = m[vom];
    for (;;) {
      vim = nextRight(vim);
      vip = nextLeft(vip);
      if (vim < 0 || vip < 0) break;
      vom = nextLeft(vom);
      vop = nextRight(vop);
      a[vop] = v;
      const shift = z[vim] + sim - z[vip] - sip + separation(vim, vip);
      if (shift > 0) {
        moveSubtree(up[a[vim]] === up[v] ? a[vim] : ancestor, v, shift);
        sip += shift;
        sop += shift;
      }
      sim += m[vim];
      sip += m[vip];
      som += m[vom];
      sop += m[vop];
    }
    if (vim >= 0 && nextRight(vop) < 0) {
      t[vop] = vim;
      m[vop] += sim - sop;
    }
    if (vip >= 0 && nextLeft(vom) < 0) {
      t[vom] = vip;
      m[vom] += sip - som;
      ancestor = v;
    }
    return ancestor;
  };

  const firstWalk = (v: number) => {
    const p = up[v];
    // Siblings sit next to each other: the one before v is v - 1.
    const w = sib[v] ? v - 1 : -1;
    if (kidsOf(v)) {
      executeShifts(v);
      const midpoint = (z[kidsAt(v)] + z[kidsAt(v) + kidsOf(v) - 1]) / 2;
      if (w >= 0) {
        z[v] = z[w] + separation(v, w);
        m[v] = z[v] - midpoint;
      } else z[v] = midpoint;
    } else if (w >= 0) z[v] = z[w] + separation(v, w);
    A[p] = apportion(v, w, A[p] >= 0 ? A[p] : kidsAt(p));
  };

  // First walk: the rows from the deepest up, each left to right. A node's walk reads and writes only
  // the subtree of its parent, so this gives the same result as d3's post-order walk (children before
  // their parent, left siblings before right ones) without a recursion as deep as the tree.
  for (let end = n; end > 0; ) {
    const d = depth[end - 1];
    let start = end - 1;
    while (start > 0 && depth[start - 1] === d) start--;
    for (let q = start; q < end; q++) firstWalk(q);
    end = start;
  }
  m[top] = -z[0];

  const dx = NODE_WIDTH + GAP_X;
  const dy = NODE_HEIGHT + GAP_Y;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  let minX = Infinity;
  let maxX = -Infinity;
  for (let q = 0; q < n; q++) {
    const p = up[q];
    const xq = (z[q] + m[p]) * dx;
    m[q] += m[p];
    x[q] = xq;
    y[q] = depth[q] * dy;
    if (xq < minX) minX = xq;
    if (xq > maxX) maxX = xq;
  }
  const deepest = depth[n - 1];
  return new TreeLayout(
    data,
    n,
    kind.slice(0, n),
    ids.slice(0, n),
    slots.slice(0, n),
    legs.slice(0, n),
    depth.slice(0, n),
    parent.slice(0, n),
    childStart.slice(0, n),
    childCount.slice(0, n),
    flags.slice(0, n),
    x,
    y,
    { minX: minX - NODE_WIDTH / 2, maxX: maxX + NODE_WIDTH / 2, minY: -NODE_HEIGHT / 2, maxY: deepest * dy + NODE_HEIGHT / 2 },
  );
}

/** Half the height of an item's hit box (members with a badge below reach a little further). */
const hitHalfHeight = (layout: TreeLayout, i: number) => NODE_HEIGHT / 2 + (layout.flags[i] & (EXPANDABLE | EXPANDED) ? 14 : 0);

/** The item under a layout point, or null. */
export function hitTest(layout: TreeLayout, px: number, py: number): LayoutItem | null {
  const { x, y, kind } = layout;
  for (let i = layout.size - 1; i >= 0; i--) {
    const w = (kind[i] === EMPTY ? EMPTY_WIDTH : NODE_WIDTH) / 2;
    if (Math.abs(px - x[i]) <= w && Math.abs(py - y[i]) <= hitHalfHeight(layout, i)) return layout.item(i);
  }
  return null;
}

/**
 * Keyboard neighbours of an item: parent (up), first child (down), previous / next item on the same
 * row (left / right).
 */
export function neighbour(layout: TreeLayout, key: string, direction: 'up' | 'down' | 'left' | 'right'): string | null {
  const i = layout.indexOf(key);
  if (i < 0) return null;
  if (direction === 'up') return layout.parent[i] >= 0 ? layout.key(layout.parent[i]) : null;
  if (direction === 'down') {
    const count = layout.childCount[i];
    return count ? layout.key(layout.childStart[i] + Math.floor((count - 1) / 2)) : null;
  }
  const { x, depth } = layout;
  let best = -1;
  for (let o = 0; o < layout.size; o++) {
    if (depth[o] !== depth[i] || o === i) continue;
    const dx = x[o] - x[i];
    if (direction === 'left' ? dx >= 0 : dx <= 0) continue;
    if (best < 0 || Math.abs(dx) < Math.abs(x[best] - x[i])) best = o;
  }
  return best >= 0 ? layout.key(best) : null;
}

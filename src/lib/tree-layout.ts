/**
 * The genealogy as data and as a drawing plan.
 *
 * `TreeData` is the loaded part of the placement tree (flat, JSON-serialisable: node records keyed by id,
 * ordered child ids, which nodes' children are known, which the member collapsed). `mergeAnswer` folds a
 * genealogy answer into it. `layoutTree` turns it into positions with d3-hierarchy's tidy tree, once per
 * change of the data, never per frame, and keeps them in typed arrays for painting and hit testing:
 *  - binary: every member whose children are known shows both slots, L then R; a missing one is an
 *    empty slot (where a new member may be signed up);
 *  - matrix: slots 0 … max_width - 1, the missing ones empty;
 *  - unilevel: the children there are, no empty slots; a wide level (more than GROUP_SIZE children of one
 *    member) shows the first GROUP_SIZE (or as many as the member asked for) and then one "+ N more"
 *    item, and, once more are shown, a "show fewer" item after it.
 */
import type { Plan } from '../schemas/common.schema';
import type { Leg, TreeNode } from '../schemas/network.schema';
import { hierarchy, tree, type HierarchyNode } from 'd3-hierarchy';

export interface TreeData {
  nodes: Record<number, TreeNode>;
  /** Child ids in slot order, for nodes whose children are known. */
  children: Record<number, number[]>;
  /** Nodes whose children are all loaded (true), so their empty slots are real. */
  known: Record<number, true>;
  /** Nodes the member folded away. */
  collapsed: Record<number, true>;
  /** Nodes whose children are loaded only in part (a wide level the server answers page by page): the place the next page starts from. */
  more?: Record<number, number>;
}

export const emptyTreeData = (): TreeData => ({ nodes: {}, children: {}, known: {}, collapsed: {}, more: {} });

const bySlot = (a: TreeNode, b: TreeNode) =>
  (a.slot ?? Number.MAX_SAFE_INTEGER) - (b.slot ?? Number.MAX_SAFE_INTEGER) || a.id - b.id;

/**
 * Folds the nodes of a genealogy answer (root `rootId` and `maxLevels` levels below it, parents before
 * children) into `data`. Nodes above the answer's last level have all their children in it — unless the
 * answer names them in `moreChildren` (a wide level cut by the server: the children placed before `from`
 * are in it, the rest come page by page); so do nodes without children. A page of one member's children
 * (`page`) adds to those loaded before, each child once. Returns a new object (the old one is not changed).
 */
export function mergeAnswer(
  data: TreeData,
  list: readonly TreeNode[],
  rootId: number,
  maxLevels: number,
  moreChildren: ReadonlyArray<{ id: number; from: number }> = [],
  page = false,
): TreeData {
  const nodes = { ...data.nodes };
  const children = { ...data.children };
  const known = { ...data.known };
  const more = { ...(data.more ?? {}) };
  const cut = new Map(moreChildren.map((m) => [m.id, m.from]));
  const root = list.find((n) => n.id === rootId);
  const rootLevel = root?.level ?? 0;
  const fresh: Record<number, TreeNode[]> = {};
  for (const n of list) {
    nodes[n.id] = n;
    if (n.id !== rootId && n.parent_id !== null) (fresh[n.parent_id] ??= []).push(n);
  }
  if (page) {
    const before = (children[rootId] ?? []).filter((id) => !fresh[rootId]?.some((c) => c.id === id)).map((id) => nodes[id]);
    fresh[rootId] = [...before, ...(fresh[rootId] ?? [])];
  }
  for (const n of list) {
    const ids = () => (fresh[n.id] ?? []).sort(bySlot).map((c) => c.id);
    if (cut.has(n.id)) {
      delete known[n.id];
      children[n.id] = ids();
      more[n.id] = cut.get(n.id)!;
    } else if (n.level - rootLevel < maxLevels || n.child_count === 0) {
      known[n.id] = true;
      children[n.id] = ids();
      delete more[n.id];
    } else if (fresh[n.id]) {
      children[n.id] = ids();
    }
  }
  return { nodes, children, known, collapsed: data.collapsed, more };
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

export type LayoutKind = 'member' | 'empty' | 'more' | 'fewer';

export interface LayoutItem {
  /** 'm<id>' for a member, 'e<parentId>.<slot>' for an empty slot, 'g<parentId>' / 'f<parentId>' for "more" / "fewer". */
  key: string;
  kind: LayoutKind;
  /** The member (kind 'member'). */
  node: TreeNode | null;
  /** Parent member id (null for the root). */
  parentId: number | null;
  /** Slot under the parent (binary: 0 = L, 1 = R); for a "more" item, how many children it stands for. */
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
  /** Children shown of a wide member (member id → count; GROUP_SIZE when not set). */
  shown?: Readonly<Record<number, number>>;
}

export const memberKey = (id: number) => `m${id}`;
export const emptyKey = (parentId: number, slot: number) => `e${parentId}.${slot}`;
export const moreKey = (parentId: number) => `g${parentId}`;
export const fewerKey = (parentId: number) => `f${parentId}`;
/**
 * Children of one member shown at a time on a wide level: ten cards side by side still read at the
 * names zoom (12 px text) on a desktop, instead of dozens shrunk to coloured boxes.
 */
export const GROUP_SIZE = 10;
const LEGS: Leg[] = ['L', 'R'];

/** Item kinds in TreeLayout.kind. */
export const MEMBER = 0;
export const EMPTY = 1;
/** "+ N more" children of the parent (slots[i] = N) and "show fewer". */
export const MORE = 2;
export const FEWER = 3;
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
    const k = this.kind[i];
    if (k === MEMBER) return memberKey(this.ids[i]);
    if (k === MORE) return moreKey(this.ids[i]);
    if (k === FEWER) return fewerKey(this.ids[i]);
    return emptyKey(this.ids[i], this.slots[i]);
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
    else if (key.startsWith('g') || key.startsWith('f')) {
      const at = this.memberIndex(Number(key.slice(1)));
      const want = key.startsWith('g') ? MORE : FEWER;
      if (at >= 0)
        for (let c = this.childStart[at]; c < this.childStart[at] + this.childCount[at]; c++) if (this.kind[c] === want) found = c;
    } else if (key.startsWith('e')) {
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
      kind: KIND_NAMES[this.kind[i]],
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

const KIND_NAMES: LayoutKind[] = ['member', 'empty', 'more', 'fewer'];

const EMPTY_LAYOUT_DATA: TreeData = emptyTreeData();

/** One item of the drawn tree while it is laid out. */
interface Item {
  kind: number;
  /** Member id (member) or its parent member's id (empty slot). */
  id: number;
  slot: number | null;
  leg: Leg | null;
  flags: number;
}

/** Gap between neighbours in node widths: more between cousins, less between two empty slots. */
const separation = (a: HierarchyNode<Item>, b: HierarchyNode<Item>) =>
  (a.parent === b.parent ? 1 : 1.15) * (a.data.kind !== MEMBER && b.data.kind !== MEMBER ? 0.75 : 1);

/**
 * Positions of the loaded tree below `rootId` (children of collapsed nodes left out), with d3-hierarchy's
 * tidy tree (`tree().nodeSize([NODE_WIDTH + GAP_X, NODE_HEIGHT + GAP_Y])`: Reingold–Tilford in O(n) as
 * improved by Buchheim, Jünger and Leipert; neither it nor `hierarchy` recurses, so a deep tree is fine).
 * The result is kept in the typed arrays of TreeLayout, items breadth first.
 */
export function layoutTree(data: TreeData, rootId: number | null, opts: LayoutOptions): TreeLayout {
  if (rootId === null || !data.nodes[rootId]) {
    const none = new Int32Array(0);
    return new TreeLayout(EMPTY_LAYOUT_DATA, 0, new Uint8Array(0), new Float64Array(0), none, new Uint8Array(0), none, none, none, none,
      new Uint8Array(0), new Float64Array(0), new Float64Array(0), { minX: 0, maxX: 0, minY: 0, maxY: 0 });
  }
  const slotsPerMember = slotCount(opts);
  const binary = opts.plan === 'binary';

  const member = (id: number): Item => {
    const node = data.nodes[id];
    const known = !!data.known[id];
    const kids = data.children[id];
    const collapsed = !!data.collapsed[id];
    const open = !collapsed && (known || (kids !== undefined && kids.length > 0));
    const expandable = node.child_count > 0 && (!known || collapsed);
    const expanded = open && ((kids !== undefined && kids.length > 0) || (known && slotsPerMember > 0));
    return { kind: MEMBER, id, slot: node.slot, leg: node.position, flags: (expandable ? EXPANDABLE : 0) | (expanded ? EXPANDED : 0) };
  };
  /** The items drawn below a member: its slots (the member in each, or an empty slot), or its children. */
  const itemsBelow = (it: Item): Item[] | undefined => {
    if (it.kind !== MEMBER) return undefined;
    const id = it.id;
    const known = !!data.known[id];
    const kids = data.children[id] ?? [];
    if (data.collapsed[id] || !(known || kids.length > 0)) return undefined;
    if (!(slotsPerMember > 0 && known)) {
      const all = kids.filter((k) => data.nodes[k]);
      const total = known ? all.length : Math.max(all.length, data.nodes[id].child_count);
      if (slotsPerMember > 0 || total <= GROUP_SIZE) return all.map(member);
      // A wide level: a group of children, then "+ N more" and, when more than a group is shown, "fewer".
      const asked = Math.max(GROUP_SIZE, opts.shown?.[id] ?? GROUP_SIZE);
      const out = all.slice(0, asked).map(member);
      const hidden = total - out.length;
      if (hidden > 0) out.push({ kind: MORE, id, slot: hidden, leg: null, flags: 0 });
      if (out.length > GROUP_SIZE + (hidden > 0 ? 1 : 0)) out.push({ kind: FEWER, id, slot: null, leg: null, flags: 0 });
      return out;
    }
    const inSlot: Array<number | undefined> = new Array(slotsPerMember);
    kids.forEach((k, i) => {
      const s = data.nodes[k]?.slot ?? i;
      if (s < slotsPerMember) inSlot[s] = k;
    });
    const out: Item[] = [];
    for (let s = 0; s < slotsPerMember; s++) {
      const child = inSlot[s];
      out.push(child !== undefined && data.nodes[child] ? member(child) : { kind: EMPTY, id, slot: s, leg: binary ? LEGS[s] : null, flags: 0 });
    }
    // Children outside the slot range (data from another plan setting) are still shown.
    for (const k of kids) {
      const s = data.nodes[k]?.slot;
      if ((s === null || s === undefined || s >= slotsPerMember) && data.nodes[k]) out.push(member(k));
    }
    return out;
  };

  const root = hierarchy(member(rootId), itemsBelow);
  tree<Item>().nodeSize([NODE_WIDTH + GAP_X, NODE_HEIGHT + GAP_Y]).separation(separation)(root);

  // Breadth first (d3's `each`), so parents come before children and a member's children sit together.
  const n = root.descendants().length;
  const kind = new Uint8Array(n);
  const ids = new Float64Array(n);
  const slots = new Int32Array(n);
  const legs = new Uint8Array(n);
  const depth = new Int32Array(n);
  const parent = new Int32Array(n);
  const childStart = new Int32Array(n);
  const childCount = new Int32Array(n);
  const flags = new Uint8Array(n);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const index = new Map<HierarchyNode<Item>, number>();
  let minX = Infinity;
  let maxX = -Infinity;
  let next = 1;
  root.each((node) => {
    const i = index.get(node) ?? 0;
    const it = node.data;
    kind[i] = it.kind;
    ids[i] = it.id;
    slots[i] = it.slot ?? -1;
    legs[i] = it.leg === 'L' ? 1 : it.leg === 'R' ? 2 : 0;
    depth[i] = node.depth;
    parent[i] = node.parent ? index.get(node.parent)! : -1;
    flags[i] = it.flags;
    x[i] = node.x!;
    y[i] = node.y!;
    if (x[i] < minX) minX = x[i];
    if (x[i] > maxX) maxX = x[i];
    const kids = node.children ?? [];
    childStart[i] = kids.length ? next : 0;
    childCount[i] = kids.length;
    for (const k of kids) index.set(k, next++);
  });
  return new TreeLayout(data, n, kind, ids, slots, legs, depth, parent, childStart, childCount, flags, x, y, {
    minX: minX - NODE_WIDTH / 2,
    maxX: maxX + NODE_WIDTH / 2,
    minY: -NODE_HEIGHT / 2,
    maxY: y[n - 1] + NODE_HEIGHT / 2,
  });
}

/** Half the height of an item's hit box (members with a badge below reach a little further). */
const hitHalfHeight = (layout: TreeLayout, i: number) => NODE_HEIGHT / 2 + (layout.flags[i] & (EXPANDABLE | EXPANDED) ? 14 : 0);

/** The item under a layout point, or null. */
export function hitTest(layout: TreeLayout, px: number, py: number): LayoutItem | null {
  const { x, y, kind } = layout;
  for (let i = layout.size - 1; i >= 0; i--) {
    const w = (kind[i] === MEMBER ? NODE_WIDTH : EMPTY_WIDTH) / 2;
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

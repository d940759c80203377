import { describe, expect, it } from 'vitest';
import { hierarchy, tree as d3Tree } from 'd3-hierarchy';
import {
  emptyTreeData,
  GAP_X,
  GAP_Y,
  hitTest,
  layoutTree,
  mergeAnswer,
  neighbour,
  NODE_HEIGHT,
  NODE_WIDTH,
  type TreeData,
  type TreeLayout,
} from '../../src/lib/tree-layout';
import { fullTree, treeNode } from '../support/network-fixtures';
import { MemberTable } from '../../src/api/network-members';
import { scanAnswer } from '../../src/api/network-scan';
import type { TreeNode } from '../../src/schemas/network.schema';

const keys = (layout: ReturnType<typeof layoutTree>) => layout.items.map((i) => i.key);
const childrenOf = (layout: ReturnType<typeof layoutTree>, key: string) => layout.byKey.get(key)!.childKeys;

describe('mergeAnswer', () => {
  it('knows the children of nodes above the last level and of leaves, not of the last level', () => {
    const nodes = fullTree(1, 2, 2, 'binary'); // 1 → 2,3 → 4..7 (each with 2 children not loaded)
    const data = mergeAnswer(emptyTreeData(), nodes, 1, 2);
    expect(data.children[1]).toEqual([2, 3]);
    expect(data.children[2]).toEqual([4, 5]);
    expect(data.known[1] && data.known[2] && data.known[3]).toBe(true);
    expect(data.known[4]).toBeUndefined();
  });

  it('adds a branch without losing the rest of the tree', () => {
    let data = mergeAnswer(emptyTreeData(), fullTree(1, 1, 2, 'binary'), 1, 1);
    expect(data.known[2]).toBeUndefined();
    const branch = fullTree(2, 1, 2, 'binary', 1).map((n, i) => (i === 0 ? { ...n, parent_id: 1, slot: 0, position: 'L' as const } : n));
    // ids of the branch's children collide with 3 in fullTree numbering: renumber them
    const kids = branch.slice(1).map((n, i) => ({ ...n, id: 100 + i, username: `b${i}` }));
    data = mergeAnswer(data, [branch[0], ...kids], 2, 1);
    expect(data.children[1]).toEqual([2, 3]);
    expect(data.children[2]).toEqual([100, 101]);
    expect(data.known[2]).toBe(true);
  });
});

describe('layoutTree', () => {
  it('binary: shows both slots of every member whose children are known, the missing ones empty', () => {
    const root = treeNode(1, null, { child_count: 1 });
    const left = treeNode(2, 1, { slot: 0, position: 'L', level: 1 });
    const data = mergeAnswer(emptyTreeData(), [root, left], 1, 2);
    const layout = layoutTree(data, 1, { plan: 'binary', maxWidth: 2 });
    expect(childrenOf(layout, 'm1')).toEqual(['m2', 'e1.1']);
    const slot = layout.byKey.get('e1.1')!;
    expect(slot.kind).toBe('empty');
    expect(slot.position).toBe('R');
    // a leaf of a binary tree offers two empty slots
    expect(childrenOf(layout, 'm2')).toEqual(['e2.0', 'e2.1']);
    // left slot is left of the right slot
    expect(layout.byKey.get('m2')!.x).toBeLessThan(slot.x);
  });

  it('binary: a right-only child still sits in the right slot', () => {
    const data = mergeAnswer(emptyTreeData(), [treeNode(1, null, { child_count: 1 }), treeNode(9, 1, { slot: 1, position: 'R', level: 1 })], 1, 2);
    const layout = layoutTree(data, 1, { plan: 'binary', maxWidth: 2 });
    expect(childrenOf(layout, 'm1')).toEqual(['e1.0', 'm9']);
  });

  it('matrix: up to max_width slots per member', () => {
    const nodes = [treeNode(1, null, { child_count: 2 }), treeNode(2, 1, { slot: 0, level: 1 }), treeNode(3, 1, { slot: 2, level: 1 })];
    const layout = layoutTree(mergeAnswer(emptyTreeData(), nodes, 1, 1), 1, { plan: 'matrix', maxWidth: 4 });
    expect(childrenOf(layout, 'm1')).toEqual(['m2', 'e1.1', 'm3', 'e1.3']);
    // a member without children offers every slot
    expect(childrenOf(layout, 'm2')).toEqual(['e2.0', 'e2.1', 'e2.2', 'e2.3']);
  });

  it('unilevel: any number of children, no empty slots', () => {
    const kids = Array.from({ length: 7 }, (_, i) => treeNode(10 + i, 1, { slot: i, level: 1 }));
    const layout = layoutTree(mergeAnswer(emptyTreeData(), [treeNode(1, null, { child_count: 7 }), ...kids], 1, 2), 1, {
      plan: 'unilevel',
      maxWidth: null,
    });
    expect(childrenOf(layout, 'm1')).toHaveLength(7);
    expect(layout.items.some((i) => i.kind === 'empty')).toBe(false);
    // siblings do not overlap
    const xs = childrenOf(layout, 'm1').map((k) => layout.byKey.get(k)!.x);
    for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(NODE_WIDTH);
  });

  it('marks unloaded and folded members expandable and leaves their children out', () => {
    const data: TreeData = mergeAnswer(emptyTreeData(), fullTree(1, 2, 2, 'binary'), 1, 2);
    let layout = layoutTree(data, 1, { plan: 'binary', maxWidth: 2 });
    expect(layout.byKey.get('m4')!.expandable).toBe(true);
    expect(layout.byKey.get('m4')!.childKeys).toEqual([]);
    expect(layout.byKey.get('m2')!.expanded).toBe(true);
    layout = layoutTree({ ...data, collapsed: { 2: true } }, 1, { plan: 'binary', maxWidth: 2 });
    expect(keys(layout)).not.toContain('m4');
    expect(layout.byKey.get('m2')!.expandable).toBe(true);
  });

  it('draws from any loaded node as root, and nothing for an unknown root', () => {
    const data = mergeAnswer(emptyTreeData(), fullTree(1, 2, 2, 'binary'), 1, 2);
    expect(layoutTree(data, 3, { plan: 'binary', maxWidth: 2 }).items.map((i) => i.key)).toEqual(['m3', 'm6', 'm7']);
    expect(layoutTree(data, 999, { plan: 'binary', maxWidth: 2 }).items).toEqual([]);
  });

  it('lays out ten thousand nodes without overlaps on a row', () => {
    const nodes = fullTree(1, 12, 2, 'binary'); // 8191 nodes
    const data = mergeAnswer(emptyTreeData(), nodes, 1, 12);
    const layout = layoutTree(data, 1, { plan: 'binary', maxWidth: 2 });
    expect(layout.items.filter((i) => i.kind === 'member')).toHaveLength(nodes.length);
    const rows = new Map<number, number[]>();
    for (const it of layout.items) (rows.get(it.depth) ?? rows.set(it.depth, []).get(it.depth)!).push(it.x);
    for (const xs of rows.values()) {
      xs.sort((a, b) => a - b);
      for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThan(100);
    }
  });
});

/** d3-hierarchy's tidy tree over the same items and separation: the reference positions. */
function d3Positions(layout: TreeLayout): Map<string, { x: number; y: number }> {
  const h = hierarchy(layout.byKey.get(layout.rootKey!)!, (it) => it.childKeys.map((k) => layout.byKey.get(k)!));
  d3Tree<(typeof layout.items)[number]>()
    .nodeSize([NODE_WIDTH + GAP_X, NODE_HEIGHT + GAP_Y])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.15) * (a.data.kind === 'empty' && b.data.kind === 'empty' ? 0.75 : 1))(h);
  const out = new Map<string, { x: number; y: number }>();
  h.each((n) => out.set(n.data.key, { x: n.x!, y: n.y! }));
  return out;
}

/** An irregular tree: each member has 0 … width children (seeded pseudo-random), some levels deep. */
function ragged(seed: number, count: number, width: number, plan: 'binary' | 'matrix' | 'unilevel') {
  let r = seed;
  const rand = () => ((r = (r * 1103515245 + 12345) % 2147483648) / 2147483648);
  const nodes = [treeNode(1, null, { level: 0 })];
  const kids = new Map<number, number>();
  for (let id = 2; id <= count; id++) {
    const parent = nodes[Math.floor(Math.pow(rand(), 0.6) * nodes.length)];
    const used = kids.get(parent.id) ?? 0;
    if (used >= width) continue;
    kids.set(parent.id, used + 1);
    const slot = plan === 'unilevel' ? null : used;
    nodes.push(treeNode(id, parent.id, { level: parent.level + 1, slot, position: plan === 'binary' ? (used ? 'R' : 'L') : null }));
  }
  for (const n of nodes) n.child_count = kids.get(n.id) ?? 0;
  return nodes;
}

describe('layoutTree positions', () => {
  for (const [plan, width] of [
    ['binary', 2],
    ['matrix', 3],
    ['unilevel', 6],
  ] as const) {
    it(`match d3-hierarchy's tidy tree on irregular ${plan} trees`, () => {
      for (const seed of [1, 7, 42]) {
        const nodes = ragged(seed, 400, width, plan);
        const data = mergeAnswer(emptyTreeData(), nodes, 1, 50);
        const layout = layoutTree(data, 1, { plan, maxWidth: plan === 'unilevel' ? null : width });
        const ref = d3Positions(layout);
        expect(layout.items.length).toBe(ref.size);
        for (const it of layout.items) {
          expect(it.x).toBeCloseTo(ref.get(it.key)!.x, 6);
          expect(it.y).toBeCloseTo(ref.get(it.key)!.y, 6);
        }
      }
    });
  }
});

describe('hitTest and neighbour', () => {
  const data = mergeAnswer(emptyTreeData(), fullTree(1, 2, 2, 'binary'), 1, 2);
  const layout = layoutTree(data, 1, { plan: 'binary', maxWidth: 2 });
  it('finds the item under a point', () => {
    const m5 = layout.byKey.get('m5')!;
    expect(hitTest(layout, m5.x + 10, m5.y - 10)?.key).toBe('m5');
    expect(hitTest(layout, m5.x, m5.y - 500)).toBeNull();
  });
  it('moves up to the parent, down to a child and sideways on a row', () => {
    expect(neighbour(layout, 'm5', 'up')).toBe('m2');
    expect(neighbour(layout, 'm1', 'down')).toMatch(/^m[23]$/);
    expect(neighbour(layout, 'm5', 'left')).toBe('m4');
    expect(neighbour(layout, 'm5', 'right')).toBe('m6');
    expect(neighbour(layout, 'm4', 'left')).toBeNull();
    expect(neighbour(layout, 'm1', 'up')).toBeNull();
  });
});

describe('TreeLayout', () => {
  it('finds items by key, members and empty slots, and nothing for unknown keys', () => {
    const root = treeNode(1, null, { child_count: 1 });
    const left = treeNode(2, 1, { slot: 0, position: 'L', level: 1 });
    const layout = layoutTree(mergeAnswer(emptyTreeData(), [root, left], 1, 2), 1, { plan: 'binary', maxWidth: 2 });
    for (const key of ['m1', 'm2', 'e1.1', 'e2.0', 'e2.1']) expect(layout.get(key)?.key).toBe(key);
    for (const key of ['m3', 'e1.0', 'e2.2', 'e9.0', 'x1', 'm', 'm01', '']) expect(layout.has(key)).toBe(false);
    expect(layout.get('e1.1')).toMatchObject({ kind: 'empty', parentId: 1, slot: 1, position: 'R', parentKey: 'm1', node: null });
    expect(layout.get('m2')).toMatchObject({ kind: 'member', parentId: 1, slot: 0, position: 'L', parentKey: 'm1', node: left });
    expect(layout.get('m2')).toBe(layout.item(layout.indexOf('m2')));
  });

  it('lays out members read from an answer\'s bytes exactly as the same members read the usual way', () => {
    const nodes = fullTree(1, 4, 2, 'binary');
    const scanned = scanAnswer(new TextEncoder().encode(JSON.stringify({ data: { affiliates: nodes, genealogy: null } })), 'tree')!;
    const fromBytes = mergeAnswer(emptyTreeData(), MemberTable.fromColumns<TreeNode>(scanned.members), 1, 4);
    const usual = mergeAnswer(emptyTreeData(), nodes, 1, 4);
    expect(fromBytes.children).toEqual(usual.children);
    expect(fromBytes.known).toEqual(usual.known);
    const a = layoutTree(fromBytes, 1, { plan: 'binary', maxWidth: 2 });
    const b = layoutTree(usual, 1, { plan: 'binary', maxWidth: 2 });
    expect(a.items.map((i) => [i.key, i.x, i.y, i.expandable, i.expanded])).toEqual(b.items.map((i) => [i.key, i.x, i.y, i.expandable, i.expanded]));
    for (const n of nodes) expect(Object.fromEntries(Object.keys(n).map((k) => [k, (fromBytes.nodes[n.id] as Record<string, unknown>)[k]]))).toEqual(n);
    // Still plain data: as JSON, every member is all its fields.
    expect(JSON.parse(JSON.stringify(fromBytes.nodes))).toEqual(usual.nodes);
  });

  it('hit tests and moves on a layout of thousands', () => {
    const big = layoutTree(mergeAnswer(emptyTreeData(), fullTree(1, 11, 2, 'binary'), 1, 11), 1, { plan: 'binary', maxWidth: 2 });
    const i = big.indexOf('m2000');
    expect(hitTest(big, big.x[i] + 5, big.y[i])?.key).toBe('m2000');
    expect(neighbour(big, 'm2000', 'up')).toBe('m1000');
    expect(neighbour(big, 'm2000', 'right')).toBe('m2001');
  });
});

import { describe, expect, it } from 'vitest';
import {
  emptyTreeData,
  EMPTY_WIDTH,
  GAP_Y,
  hitTest,
  layoutTree,
  mergeAnswer,
  neighbour,
  NODE_HEIGHT,
  NODE_WIDTH,
  GROUP_SIZE,
  type TreeData,
} from '../../src/lib/tree-layout';
import { fullTree, treeNode } from '../support/network-fixtures';

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

  describe('a wide unilevel level', () => {
    const wide = (count: number, loaded = count) => {
      const kids = Array.from({ length: loaded }, (_, i) => treeNode(10 + i, 1, { level: 1, username: `kid${i}` }));
      return [treeNode(1, null, { child_count: count }), ...kids];
    };
    const rowWithoutOverlaps = (layout: ReturnType<typeof layoutTree>, key: string) => {
      const row = childrenOf(layout, key).map((k) => layout.byKey.get(k)!);
      const half = (it: { kind: string }) => (it.kind === 'member' ? NODE_WIDTH : EMPTY_WIDTH) / 2;
      for (let i = 1; i < row.length; i++) expect(row[i].x - row[i - 1].x).toBeGreaterThanOrEqual(half(row[i]) + half(row[i - 1]));
      return row;
    };

    it('shows the first group of 40 children and one "+ 30 more" item, without overlaps', () => {
      const layout = layoutTree(mergeAnswer(emptyTreeData(), wide(40), 1, 2), 1, { plan: 'unilevel', maxWidth: null });
      const row = rowWithoutOverlaps(layout, 'm1');
      expect(GROUP_SIZE).toBeGreaterThanOrEqual(8);
      expect(GROUP_SIZE).toBeLessThanOrEqual(12);
      expect(row.map((i) => i.key)).toEqual([...Array.from({ length: GROUP_SIZE }, (_, i) => `m${10 + i}`), 'g1']);
      expect(layout.get('g1')).toMatchObject({ kind: 'more', slot: 40 - GROUP_SIZE, parentId: 1, parentKey: 'm1', depth: 1 });
      // The root stays centred over what is drawn below it; the "more" item is reachable by keyboard and pointer.
      expect(layout.get('m1')!.x).toBeCloseTo((row[0].x + row[row.length - 1].x) / 2, 6);
      expect(neighbour(layout, `m${10 + GROUP_SIZE - 1}`, 'right')).toBe('g1');
      expect(neighbour(layout, 'g1', 'up')).toBe('m1');
      const more = layout.get('g1')!;
      expect(hitTest(layout, more.x, more.y)?.key).toBe('g1');
    });

    it('shows the next group when asked, then all with a way back to fewer', () => {
      const data = mergeAnswer(emptyTreeData(), wide(25), 1, 2);
      let layout = layoutTree(data, 1, { plan: 'unilevel', maxWidth: null, shown: { 1: 2 * GROUP_SIZE } });
      let row = rowWithoutOverlaps(layout, 'm1');
      expect(row.filter((i) => i.kind === 'member')).toHaveLength(2 * GROUP_SIZE);
      expect(row.slice(-2).map((i) => i.key)).toEqual(['g1', 'f1']);
      expect(layout.get('g1')!.slot).toBe(25 - 2 * GROUP_SIZE);
      layout = layoutTree(data, 1, { plan: 'unilevel', maxWidth: null, shown: { 1: 3 * GROUP_SIZE } });
      row = rowWithoutOverlaps(layout, 'm1');
      expect(row.filter((i) => i.kind === 'member').map((i) => i.node!.username)).toEqual(Array.from({ length: 25 }, (_, i) => `kid${i}`));
      expect(row.map((i) => i.kind).slice(-1)).toEqual(['fewer']);
      expect(layout.has('g1')).toBe(false);
      expect(layout.get('f1')).toMatchObject({ kind: 'fewer', parentId: 1 });
    });

    it('counts children not loaded yet in "more"', () => {
      const nodes = wide(60, 12);
      // Only 12 of 60 children came with the answer (the member's level was the last one loaded).
      const data = mergeAnswer(emptyTreeData(), nodes, 1, 0);
      expect(data.known[1]).toBeUndefined();
      const layout = layoutTree(data, 1, { plan: 'unilevel', maxWidth: null, shown: { 1: 2 * GROUP_SIZE } });
      expect(childrenOf(layout, 'm1').filter((k) => k.startsWith('m'))).toHaveLength(12);
      expect(layout.get('g1')!.slot).toBe(60 - 12);
    });

    it('leaves a level of a group or less, and binary and matrix slots, as they were', () => {
      const layout = layoutTree(mergeAnswer(emptyTreeData(), wide(GROUP_SIZE), 1, 2), 1, { plan: 'unilevel', maxWidth: null });
      expect(childrenOf(layout, 'm1')).toHaveLength(GROUP_SIZE);
      expect(layout.items.some((i) => i.kind === 'more' || i.kind === 'fewer')).toBe(false);
      const matrix = [treeNode(1, null, { child_count: 1 }), treeNode(2, 1, { slot: 0, level: 1 })];
      const m = layoutTree(mergeAnswer(emptyTreeData(), matrix, 1, 1), 1, { plan: 'matrix', maxWidth: 14, shown: {} });
      expect(childrenOf(m, 'm1')).toEqual(['m2', ...Array.from({ length: 13 }, (_, i) => `e1.${i + 1}`)]);
    });
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
    it(`places every member and its slots in order, without overlaps, on irregular ${plan} trees`, () => {
      for (const seed of [1, 7, 42]) {
        const nodes = ragged(seed, 400, width, plan);
        const layout = layoutTree(mergeAnswer(emptyTreeData(), nodes, 1, 50), 1, { plan, maxWidth: plan === 'unilevel' ? null : width });
        expect(layout.items.filter((i) => i.kind === 'member')).toHaveLength(nodes.length);
        const byKey = layout.byKey;
        const half = (key: string) => (byKey.get(key)!.kind === 'empty' ? EMPTY_WIDTH : NODE_WIDTH) / 2;
        // One row per level, the member at the top; no two boxes of a row overlap.
        const rows = new Map<number, Array<{ key: string; x: number }>>();
        for (const it of layout.items) {
          expect(it.y).toBe(it.depth * (NODE_HEIGHT + GAP_Y));
          (rows.get(it.depth) ?? rows.set(it.depth, []).get(it.depth)!).push(it);
        }
        expect(byKey.get('m1')).toMatchObject({ depth: 0, x: 0, y: 0 });
        for (const row of rows.values()) {
          row.sort((a, b) => a.x - b.x);
          for (let i = 1; i < row.length; i++) expect(row[i].x - row[i - 1].x).toBeGreaterThanOrEqual(half(row[i].key) + half(row[i - 1].key));
        }
        for (const it of layout.items) {
          if (!it.childKeys.length) continue;
          const kids = it.childKeys.map((k) => byKey.get(k)!);
          // Children left to right in slot order (binary: L then R), the parent centred above them.
          for (let i = 1; i < kids.length; i++) {
            expect(kids[i].x).toBeGreaterThan(kids[i - 1].x);
            if (plan !== 'unilevel') expect(kids[i].slot!).toBeGreaterThan(kids[i - 1].slot!);
          }
          if (plan === 'binary') expect(kids.map((k) => k.position)).toEqual(['L', 'R']);
          expect(it.x).toBeCloseTo((kids[0].x + kids[kids.length - 1].x) / 2, 6);
        }
      }
    });
  }

  it('lays out a chain thousands of levels deep', () => {
    const chain = Array.from({ length: 5000 }, (_, i) => treeNode(i + 1, i ? i : null, { level: i, slot: i ? 0 : null, position: i ? 'L' : null, child_count: i < 4999 ? 1 : 0 }));
    const layout = layoutTree(mergeAnswer(emptyTreeData(), chain, 1, 5000), 1, { plan: 'unilevel', maxWidth: null });
    expect(layout.size).toBe(5000);
    expect(layout.bounds.maxY).toBe(4999 * (NODE_HEIGHT + GAP_Y) + NODE_HEIGHT / 2);
  });
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

  it('hit tests and moves on a layout of thousands', () => {
    const big = layoutTree(mergeAnswer(emptyTreeData(), fullTree(1, 11, 2, 'binary'), 1, 11), 1, { plan: 'binary', maxWidth: 2 });
    const i = big.indexOf('m2000');
    expect(hitTest(big, big.x[i] + 5, big.y[i])?.key).toBe('m2000');
    expect(neighbour(big, 'm2000', 'up')).toBe('m1000');
    expect(neighbour(big, 'm2000', 'right')).toBe('m2001');
  });
});

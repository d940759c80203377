/** Tree nodes and genealogy answers for the network client tests. */
import type { Genealogy, TableNode, TreeNode } from '../../src/schemas/network.schema';
import type { Plan } from '../../src/schemas/common.schema';

export function treeNode(id: number, parent: number | null, over: Partial<TreeNode> = {}): TreeNode {
  return {
    id,
    parent_id: parent,
    position: null,
    slot: null,
    status: 1,
    username: `m${id}`,
    avatar: null,
    pv: '10',
    tv: '20',
    cv: '5',
    created_at: '2026-01-10T09:00:00.000Z',
    rank_id: null,
    rank_name: 'Gold',
    rank_icon: null,
    package_name: 'Starter',
    first_name: `First${id}`,
    last_name: `Last${id}`,
    level: 0,
    total_earnings: '12.5',
    downlines_count: 0,
    total_left: '100',
    total_right: '80',
    carry_left: '20',
    carry_right: '0',
    left_downline_count: 0,
    right_downline_count: 0,
    child_count: 0,
    ...over,
  };
}

/**
 * A full tree of `levels` levels below `rootId` with `width` children each (ids allocated breadth
 * first from rootId), with child_count of the deepest level set to `width` (more below, not loaded).
 */
export function fullTree(rootId: number, levels: number, width: number, plan: Plan, rootLevel = 0, deeper = true): TreeNode[] {
  const out: TreeNode[] = [treeNode(rootId, null, { level: rootLevel, child_count: levels > 0 ? width : deeper ? width : 0 })];
  let frontier = [out[0]];
  let next = rootId + 1;
  for (let d = 1; d <= levels; d++) {
    const nf: TreeNode[] = [];
    for (const p of frontier) {
      for (let s = 0; s < width; s++) {
        const n = treeNode(next++, p.id, {
          level: rootLevel + d,
          slot: s,
          position: plan === 'binary' ? (s === 0 ? 'L' : 'R') : null,
          child_count: d < levels || deeper ? width : 0,
        });
        out.push(n);
        nf.push(n);
      }
    }
    frontier = nf;
  }
  return out;
}

export function genealogyAnswer(affiliates: TreeNode[], over: Partial<Genealogy> = {}): Genealogy {
  return {
    affiliates,
    genealogy: null,
    search_valid: false,
    signup_from_tree: true,
    parent_username: null,
    max_levels: 2,
    max_width: 2,
    root_affiliate_id: affiliates[0].id,
    compensation_plan: 'binary',
    more_children: [],
    ...over,
  };
}

export function tableNode(id: number, parent: number | null, over: Partial<TableNode> = {}): TableNode {
  return {
    id,
    parent_id: parent,
    status: 1,
    username: `t${id}`,
    avatar: null,
    created_at: '2026-01-10T09:00:00.000Z',
    first_name: `First${id}`,
    last_name: null,
    level: 0,
    total_earnings: '0',
    downlines_count: 0,
    child_count: 0,
    ...over,
  };
}

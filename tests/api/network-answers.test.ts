import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { genealogyAnswerSchema, memberChecks, tableNodeIssue, tableViewAnswerSchema, treeNodeIssue } from '../../src/api/network-answers';
import { genealogySchema, tableNodeSchema, tableViewSchema, treeNodeSchema } from '../../src/schemas/network.schema';
import { fullTree, treeNode } from '../support/network-fixtures';
import { toTableNode } from '../../server/lib/genealogy';

/** Values to try in every field: each is valid for some fields and invalid for others. */
const PROBES: unknown[] = [
  undefined,
  null,
  0,
  1,
  2,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  '',
  'x',
  '12',
  '-3.25',
  '1.',
  '.5',
  'L',
  'R',
  'M',
  true,
  [],
  {},
];

const tableNode = (id: number, parent: number | null) => toTableNode(treeNode(id, parent));

describe('member checks agree with the schemas', () => {
  it('tree node: every field with every probe value is accepted or refused exactly as treeNodeSchema does', () => {
    const base = treeNode(5, 1, { position: 'L', slot: 0, rank_id: 3 });
    let refused = 0;
    for (const field of Object.keys(treeNodeSchema.shape)) {
      for (const value of PROBES) {
        const node = { ...base, [field]: value } as Record<string, unknown>;
        if (value === undefined) delete node[field];
        const bySchema = z.safeParse(treeNodeSchema, node).success;
        expect([field, value, treeNodeIssue(node) === '', memberChecks.isTreeNode(node)]).toEqual([field, value, bySchema, bySchema]);
        if (!bySchema) refused++;
      }
    }
    expect(refused).toBeGreaterThan(300);
    for (const v of [null, 'x', [], 3]) {
      expect(treeNodeIssue(v)).not.toBe('');
      expect(memberChecks.isTreeNode(v) || memberChecks.isTableNode(v)).toBe(false);
    }
  });

  it('table node: every field with every probe value is accepted or refused exactly as tableNodeSchema does', () => {
    const base = tableNode(5, 1);
    for (const field of Object.keys(tableNodeSchema.shape)) {
      for (const value of PROBES) {
        const node = { ...base, [field]: value } as Record<string, unknown>;
        if (value === undefined) delete node[field];
        const bySchema = z.safeParse(tableNodeSchema, node).success;
        expect([field, value, tableNodeIssue(node) === '', memberChecks.isTableNode(node)]).toEqual([field, value, bySchema, bySchema]);
      }
    }
  });
});

describe('answer schemas', () => {
  const genealogy = {
    affiliates: fullTree(1, 3, 2, 'binary'),
    genealogy: null,
    search_valid: false,
    signup_from_tree: true,
    parent_username: null,
    max_levels: 3,
    max_width: 2,
    root_affiliate_id: 1,
    compensation_plan: 'binary',
    more_children: [{ id: 1, from: 1 }],
  };

  it('genealogy: accepts what genealogySchema accepts and refuses a bad member anywhere in the list', () => {
    expect(z.safeParse(genealogySchema, genealogy).success).toBe(true);
    const ok = z.safeParse(genealogyAnswerSchema, genealogy);
    expect(ok.success && ok.data.affiliates).toEqual(genealogy.affiliates);
    const bad = structuredClone(genealogy);
    (bad.affiliates[11] as Record<string, unknown>).pv = 'lots';
    expect(z.safeParse(genealogySchema, bad).success).toBe(false);
    expect(z.safeParse(genealogyAnswerSchema, bad).success).toBe(false);
    expect(z.safeParse(genealogyAnswerSchema, { ...genealogy, affiliates: {} }).success).toBe(false);
    expect(z.safeParse(genealogyAnswerSchema, { ...genealogy, max_levels: 0 }).success).toBe(false);
    expect(z.safeParse(genealogyAnswerSchema, { ...genealogy, more_children: [{ id: 1, from: -1 }] }).success).toBe(false);
  });

  it('table view: checks members at every depth of the nesting', () => {
    const deep = (id: number, depth: number): Record<string, unknown> => ({
      ...tableNode(id, id > 1 ? id - 1 : null),
      children: depth ? [deep(id + 1, depth - 1)] : [],
    });
    const answer = { genealogy: deep(1, 40), search_valid: false, max_levels: 40, levels_loaded: 41 };
    expect(z.safeParse(tableViewSchema, answer).success).toBe(true);
    expect(z.safeParse(tableViewAnswerSchema, answer).success).toBe(true);
    const bad = structuredClone(answer);
    let n = bad.genealogy as Record<string, unknown>;
    for (let i = 0; i < 30; i++) n = (n.children as Record<string, unknown>[])[0];
    n.status = 2;
    expect(z.safeParse(tableViewSchema, bad).success).toBe(false);
    expect(z.safeParse(tableViewAnswerSchema, bad).success).toBe(false);
    delete n.children;
    n.status = 1;
    expect(z.safeParse(tableViewSchema, bad).success).toBe(false);
    expect(z.safeParse(tableViewAnswerSchema, bad).success).toBe(false);
  });
});

// @vitest-environment node
/**
 * The member scan of src/api/network-scan.ts: the same members as the schemas accept, and nothing they
 * refuse.
 */
import * as z from 'zod/mini';
import { MemberTable } from '../../src/api/network-members';
import { scanAnswer, warmUpSteps, type ScannedAnswer } from '../../src/api/network-scan';
import { tableNodeSchema, treeNodeSchema } from '../../src/schemas/network.schema';
import { tableNode, treeNode } from '../support/network-fixtures';

const encode = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

/** A scanned answer as plain data: its members (schema fields), their nesting and the rest of the answer. */
function plain(a: ScannedAnswer | null) {
  if (!a) return null;
  const table = MemberTable.fromColumns(a.members);
  const fields = Object.keys((a.members.kind === 'tree' ? treeNodeSchema : tableNodeSchema).shape);
  return {
    envelope: a.envelope,
    members: Array.from({ length: table.count }, (_, i) => ({
      ...Object.fromEntries(fields.map((f) => [f, (table.node(i) as unknown as Record<string, unknown>)[f]])),
      kids: Array.from(table.kidList.subarray(table.kidStart[i], table.kidStart[i + 1])),
      found: table.indexOf(table.id(i)),
    })),
  };
}

const PROBES: unknown[] = [undefined, null, 0, 1, 2, -1, 1.5, Number.NaN, 2 ** 53, '', 'x', '12', '-3.25', '1.', '.5', 'L', 'R', 'M', true, [], {}];

describe('member checks', () => {
  it('a tree member is taken exactly when treeNodeSchema accepts it, field by field and value by value', () => {
    const base = treeNode(5, 1, { position: 'L', slot: 0, rank_id: 3, avatar: '/a.png' });
    let refused = 0;
    for (const field of Object.keys(treeNodeSchema.shape)) {
      for (const value of PROBES) {
        const node = { ...base, [field]: value } as Record<string, unknown>;
        if (value === undefined) delete node[field];
        const json = JSON.parse(JSON.stringify(node)) as Record<string, unknown>;
        const ok = z.safeParse(treeNodeSchema, json).success;
        const read = plain(scanAnswer(encode({ data: { affiliates: [json], genealogy: null } }), 'tree'));
        expect([field, value, read !== null]).toEqual([field, value, ok]);
        if (read) expect(read.members[0]).toMatchObject(json);
        else refused++;
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it('a table member is taken exactly when tableNodeSchema accepts it (with its children list)', () => {
    const base = tableNode(5, 1);
    for (const field of [...Object.keys(tableNodeSchema.shape), 'children']) {
      for (const value of PROBES) {
        const node = { ...base, children: [], [field]: value } as Record<string, unknown>;
        if (value === undefined) delete node[field];
        const json = JSON.parse(JSON.stringify(node)) as Record<string, unknown>;
        const ok = z.safeParse(tableNodeSchema, json).success && Array.isArray(json.children) && (json.children as unknown[]).length === 0;
        const read = scanAnswer(encode({ data: { genealogy: json } }), 'table');
        expect([field, value, read !== null]).toEqual([field, value, ok]);
      }
    }
  });

  it('the made-up answers of the warm-up are read on the fast path', () => {
    for (const step of [...warmUpSteps('table', 60, 1), ...warmUpSteps('tree', 60, 1)]) expect(step).not.toThrow();
  });
});

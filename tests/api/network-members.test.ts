// @vitest-environment node
/**
 * The tabular tree's member table written as JSON (a support snapshot of a network page) and revived by the
 * replay: the same members, ids, child counts and nesting.
 */
import { MemberTable } from '../../src/api/network-members';
import { reviveState } from '../../src/replay/sandbox';
import { tableNode } from '../support/network-fixtures';
import type { NestedTableNode } from '../../src/schemas/network.schema';

const nested = (id: number, parent: number | null, children: NestedTableNode[] = [], childCount = children.length): NestedTableNode => ({
  ...tableNode(id, parent, { child_count: childCount }),
  children,
});

/** Members of a table as plain records, each with the ids of the children it carries. */
const members = (table: MemberTable) =>
  Array.from({ length: table.count }, (_, i) => ({
    ...table.node(i),
    kids: Array.from(table.kidList.subarray(table.kidStart[i], table.kidStart[i + 1]), (k) => table.id(k)),
  }));

describe('member table in a support snapshot', () => {
  const table = MemberTable.fromNested(nested(1, null, [nested(2, 1, [nested(4, 2, [], 3)]), nested(3, 1)]));

  it('written as JSON and revived by the replay, is the same table', () => {
    const state = JSON.parse(JSON.stringify({ context: { data: { table, expanded: { 1: true } } } })) as { context: { data: { table: unknown } } };
    expect(state.context.data.table).not.toBeInstanceOf(MemberTable);
    const revived = (reviveState(state) as { context: { data: { table: MemberTable; expanded: unknown } } }).context.data;
    expect(revived.table).toBeInstanceOf(MemberTable);
    expect(members(revived.table)).toEqual(members(table));
    expect(revived.table.indexOf(4)).toBe(table.indexOf(4));
    expect(revived.table.childCount(revived.table.indexOf(4))).toBe(3);
    expect(revived.table.kidsOf(0)).toBe(2);
    expect(revived.expanded).toEqual({ 1: true });
  });

  it('is not taken for anything else written as JSON', () => {
    expect(MemberTable.isJSON({ members: [] })).toBe(false);
    expect(MemberTable.isJSON(null)).toBe(false);
  });
});

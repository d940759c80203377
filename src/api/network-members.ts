/**
 * The members of a table view answer as the tabular tree keeps them: ids, child counts and the nesting in
 * typed arrays (a row's place is an index; the rows list is built from them without an object per row),
 * each member kept as the object the answer gave.
 */
import type { NestedTableNode, TableNode } from '../schemas/network.schema';

/** The mark of a MemberTable written as JSON. */
const MEMBER_TABLE_JSON = '$memberTable';

export interface MemberTableJson<N extends TableNode = TableNode> {
  [MEMBER_TABLE_JSON]: 1;
  members: N[];
  kidStart: number[];
  kidList: number[];
}

/** Member positions, ids and nesting. */
export class MemberTable<N extends TableNode = TableNode> {
  private constructor(
    readonly count: number,
    /** Each member's id. */
    readonly ids: Float64Array,
    private readonly counts: Float64Array,
    /** The members carried below member i are kidList[kidStart[i] … kidStart[i + 1]), in order. */
    readonly kidStart: Int32Array,
    readonly kidList: Int32Array,
    /** Member index by id (a repeated id: its last member). */
    private readonly byId: Map<number, number>,
    private readonly members: readonly N[],
  ) {}

  /** From member objects; `parent` (member indices, -1 for none, parents listed first) nests them. */
  static fromObjects<M extends TableNode>(members: M[], parent: Int32Array | null = null): MemberTable<M> {
    const n = members.length;
    const ids = new Float64Array(n);
    const counts = new Float64Array(n);
    const byId = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      ids[i] = members[i].id;
      counts[i] = members[i].child_count;
      byId.set(members[i].id, i);
    }
    // Children lists from the parent indices, in member order.
    const kidStart = new Int32Array(n + 1);
    if (parent) for (let i = 0; i < n; i++) if (parent[i] >= 0) kidStart[parent[i] + 1]++;
    for (let i = 0; i < n; i++) kidStart[i + 1] += kidStart[i];
    const kidList = new Int32Array(kidStart[n]);
    if (parent) {
      const fill = kidStart.slice(0, n);
      for (let i = 0; i < n; i++) if (parent[i] >= 0) kidList[fill[parent[i]]++] = i;
    }
    return new MemberTable<M>(n, ids, counts, kidStart, kidList, byId, members.slice());
  }

  /** A nested table view member and everything below it, depth first (iterative: a tree may be deep). */
  static fromNested(root: NestedTableNode): MemberTable<TableNode> {
    const members: NestedTableNode[] = [];
    const parents: number[] = [];
    const stack: Array<[NestedTableNode, number]> = [[root, -1]];
    while (stack.length) {
      const [m, p] = stack.pop()!;
      const i = members.length;
      members.push(m);
      parents.push(p);
      for (let k = m.children.length - 1; k >= 0; k--) stack.push([m.children[k], i]);
    }
    return MemberTable.fromObjects<TableNode>(members, Int32Array.from(parents));
  }

  /**
   * As JSON (a support snapshot of a network page): every member as its object, and the nesting as it is —
   * `MemberTable.fromJSON` makes the same table again.
   */
  toJSON(): MemberTableJson<N> {
    return { [MEMBER_TABLE_JSON]: 1, members: this.members.slice(), kidStart: Array.from(this.kidStart), kidList: Array.from(this.kidList) };
  }

  /** The table `toJSON` wrote. */
  static fromJSON<M extends TableNode>(json: MemberTableJson<M>): MemberTable<M> {
    const n = json.members.length;
    const ids = new Float64Array(n);
    const counts = new Float64Array(n);
    const byId = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      ids[i] = json.members[i].id;
      counts[i] = json.members[i].child_count;
      byId.set(json.members[i].id, i);
    }
    return new MemberTable<M>(n, ids, counts, Int32Array.from(json.kidStart), Int32Array.from(json.kidList), byId, json.members.slice());
  }

  /** Whether `v` is what `toJSON` wrote. */
  static isJSON(v: unknown): v is MemberTableJson<TableNode> {
    return !!v && typeof v === 'object' && (v as Record<string, unknown>)[MEMBER_TABLE_JSON] === 1 && Array.isArray((v as { members?: unknown }).members);
  }

  /** The member at index i. */
  node(i: number): N {
    return this.members[i];
  }

  /** Id of member i. */
  id(i: number): number {
    return this.ids[i];
  }

  /** child_count of member i. */
  childCount(i: number): number {
    return this.counts[i];
  }

  /** Index of the member with this id (the last one if repeated), -1 when it is not in the table. */
  indexOf(id: number): number {
    return this.byId.get(id) ?? -1;
  }

  /** How many members the answer carries below member i. */
  kidsOf(i: number): number {
    return this.kidStart[i + 1] - this.kidStart[i];
  }
}

/**
 * The members of a big network answer as the app keeps them: ids, child counts and the nesting in typed
 * arrays, each member's object built only when something asks for it (a row on screen, a tapped node).
 *
 * A MemberTable comes either from scanned columns (src/api/network-scan.ts) or from member objects read
 * the usual way (kept as they are). A member built from columns has its numbers at once and each text read
 * from the answer's bytes the first time it is asked for (so the ten thousand members of a genealogy cost
 * next to nothing until drawn); either way it has the fields of its schema, with the same values.
 */
import { findId, indexIds, layoutOf, nestByParent, TABLE_MEMBERS, TREE_MEMBERS, type MemberColumns } from './network-scan';
import type { NestedTableNode, TableNode } from '../schemas/network.schema';

const utf8 = new TextDecoder();

/** Reads text `col` of member i from the answer's bytes. */
interface Texts {
  read(i: number, col: number): string | null;
}

/** A member built from columns knows its index and where its texts are (symbols: not among its fields). */
const MEMBER = Symbol('member');
const TEXTS = Symbol('texts');

const orNull = (v: number) => (v !== v ? null : v);
const columns = (names: readonly string[]) => Object.fromEntries(names.map((n, i) => [n, i])) as Record<string, number>;
const T = columns(TABLE_MEMBERS.numeric);
const R = columns(TREE_MEMBERS.numeric);

/**
 * Texts of members built from columns: getters on the class's prototype that read the text from the
 * answer's bytes and keep it on the member (an own field from then on). As JSON, a member is all its
 * fields, texts read or not.
 */
function textGetters(proto: object, names: readonly string[], all: readonly string[]) {
  Object.defineProperty(proto, 'toJSON', {
    value(this: Record<string, unknown>) {
      return Object.fromEntries(all.map((name) => [name, this[name]]));
    },
  });
  names.forEach((name, col) =>
    Object.defineProperty(proto, name, {
      enumerable: true,
      configurable: true,
      get(this: { [MEMBER]: number; [TEXTS]: Texts }) {
        const value = this[TEXTS].read(this[MEMBER], col);
        Object.defineProperty(this, name, { value, enumerable: true, writable: true, configurable: true });
        return value;
      },
    }),
  );
}

/** A table view member built from columns: its numbers set at once (one shape for all, quick to make). */
class TableMember {
  declare [MEMBER]: number;
  declare [TEXTS]: Texts;
  declare id: number;
  declare parent_id: number | null;
  declare status: number;
  declare level: number;
  declare downlines_count: number;
  declare child_count: number;
  constructor(num: Float64Array, i: number, texts: Texts) {
    const at = i * TABLE_MEMBERS.numeric.length;
    this[MEMBER] = i;
    this[TEXTS] = texts;
    this.id = num[at + T.id];
    this.parent_id = orNull(num[at + T.parent_id]);
    this.status = num[at + T.status];
    this.level = num[at + T.level];
    this.downlines_count = num[at + T.downlines_count];
    this.child_count = num[at + T.child_count];
  }
}
textGetters(TableMember.prototype, TABLE_MEMBERS.texts, TABLE_MEMBERS.names.filter((n) => n !== 'children'));

/** A genealogy member built from columns (see TableMember). */
class TreeMember {
  declare [MEMBER]: number;
  declare [TEXTS]: Texts;
  declare id: number;
  declare parent_id: number | null;
  declare position: 'L' | 'R' | null;
  declare slot: number | null;
  declare status: number;
  declare rank_id: number | null;
  declare level: number;
  declare downlines_count: number;
  declare left_downline_count: number;
  declare right_downline_count: number;
  declare child_count: number;
  constructor(num: Float64Array, i: number, texts: Texts) {
    const at = i * TREE_MEMBERS.numeric.length;
    this[MEMBER] = i;
    this[TEXTS] = texts;
    this.id = num[at + R.id];
    this.parent_id = orNull(num[at + R.parent_id]);
    const leg = num[at + R.position];
    this.position = leg !== leg ? null : leg === 0 ? 'L' : 'R';
    this.slot = orNull(num[at + R.slot]);
    this.status = num[at + R.status];
    this.rank_id = orNull(num[at + R.rank_id]);
    this.level = num[at + R.level];
    this.downlines_count = num[at + R.downlines_count];
    this.left_downline_count = num[at + R.left_downline_count];
    this.right_downline_count = num[at + R.right_downline_count];
    this.child_count = num[at + R.child_count];
  }
}
textGetters(TreeMember.prototype, TREE_MEMBERS.texts, TREE_MEMBERS.names);

/** The mark of a MemberTable written as JSON. */
const MEMBER_TABLE_JSON = '$memberTable';

export interface MemberTableJson<N extends TableNode = TableNode> {
  [MEMBER_TABLE_JSON]: 1;
  members: N[];
  kidStart: number[];
  kidList: number[];
}

/** Member positions, ids and nesting; member objects on demand. */
export class MemberTable<N extends TableNode = TableNode> {
  private readonly objects: Array<N | undefined>;

  private constructor(
    readonly count: number,
    /** Each member's id. */
    readonly ids: Float64Array,
    /** Numbers by member (`stride` per member): child_count at countAt. */
    private readonly num: Float64Array,
    private readonly stride: number,
    private readonly countAt: number,
    /** Nested form: the members carried below member i are kidList[kidStart[i] … kidStart[i + 1]), in order. */
    readonly kidStart: Int32Array,
    readonly kidList: Int32Array,
    private readonly slots: Int32Array,
    objects: Array<N | undefined>,
    private readonly make: ((i: number) => N) | null,
  ) {
    this.objects = objects;
  }

  /** From scanned columns: texts decoded from the answer's bytes when a member's text is first asked for. */
  static fromColumns<M extends TableNode = TableNode>(c: MemberColumns): MemberTable<M> {
    const layout = layoutOf(c.kind);
    const nNum = layout.numeric.length;
    const nText = layout.texts.length;
    const { num, text, bytes, escaped } = c;
    const texts: Texts = {
      read(i, col) {
        const at = (i * nText + col) * 2;
        const s = text[at];
        if (s < 0) return null;
        return escaped.get(i * nText + col) ?? utf8.decode(bytes.subarray(s, text[at + 1]));
      },
    };
    const make = (c.kind === 'tree' ? (i: number) => new TreeMember(num, i, texts) : (i: number) => new TableMember(num, i, texts)) as unknown as (
      i: number,
    ) => M;
    const countAt = layout.numeric.indexOf('child_count');
    return new MemberTable<M>(c.count, c.ids, num, nNum, countAt, c.kidStart, c.kidList, c.slots, new Array(c.count), make);
  }

  /** From member objects read the usual way; `parent` (member indices, -1 for none) nests them. */
  static fromObjects<M extends TableNode>(members: M[], parent: Int32Array | null = null): MemberTable<M> {
    const n = members.length;
    const ids = new Float64Array(n);
    const counts = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      ids[i] = members[i].id;
      counts[i] = members[i].child_count;
    }
    const { kidStart, kidList } = nestByParent(parent, n);
    return new MemberTable<M>(n, ids, counts, 1, 0, kidStart, kidList, indexIds(ids), members.slice(), null);
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
    const members: N[] = [];
    for (let i = 0; i < this.count; i++) members.push(this.node(i));
    return { [MEMBER_TABLE_JSON]: 1, members, kidStart: Array.from(this.kidStart), kidList: Array.from(this.kidList) };
  }

  /** The table `toJSON` wrote. */
  static fromJSON<M extends TableNode>(json: MemberTableJson<M>): MemberTable<M> {
    const n = json.members.length;
    const ids = new Float64Array(n);
    const counts = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      ids[i] = json.members[i].id;
      counts[i] = json.members[i].child_count;
    }
    return new MemberTable<M>(n, ids, counts, 1, 0, Int32Array.from(json.kidStart), Int32Array.from(json.kidList), indexIds(ids), json.members.slice(), null);
  }

  /** Whether `v` is what `toJSON` wrote. */
  static isJSON(v: unknown): v is MemberTableJson<TableNode> {
    return !!v && typeof v === 'object' && (v as Record<string, unknown>)[MEMBER_TABLE_JSON] === 1 && Array.isArray((v as { members?: unknown }).members);
  }

  /** The member at index i as an object (built once, then kept). */
  node(i: number): N {
    let o = this.objects[i];
    if (o === undefined) {
      o = this.make!(i);
      this.objects[i] = o;
    }
    return o;
  }

  /** Id of member i. */
  id(i: number): number {
    return this.ids[i];
  }

  /** child_count of member i. */
  childCount(i: number): number {
    return this.num[i * this.stride + this.countAt];
  }

  /** Index of the member with this id (the last one if repeated), -1 when it is not in the table. */
  indexOf(id: number): number {
    return this.count ? findId(this.slots, this.ids, id) : -1;
  }

  /** How many members the answer carries below member i. */
  kidsOf(i: number): number {
    return this.kidStart[i + 1] - this.kidStart[i];
  }
}

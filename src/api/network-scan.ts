/**
 * Reading the members of the two big network answers (the nested table view, the flat genealogy) straight
 * from the answer's bytes into columns, without building a JavaScript object per member.
 *
 * A 50 000 member table view is about 12 MB of JSON. Decoding it to text, JSON.parse and checking each
 * member object costs several times what one pass over the bytes does, and leaves 50 000 objects (and
 * their strings) to the garbage collector. The scanner reads the bytes once, checks every member field
 * by the same rules as src/api/network-answers.ts (so the same rules as the schemas) and writes:
 *  - numbers into a Float64Array, one row per member (null → NaN, position L/R → 0/1);
 *  - texts as byte ranges of the answer (start -1 for null), decoded only when a member is shown;
 *  - ids apart, the nesting as lists of children (member indices) and an id → member index hash table.
 * The rest of the answer (everything but the member list) is parsed by JSON.parse as usual.
 *
 * It is deliberately strict: it takes only what it fully understands and answers null for anything else
 * (an escaped or duplicated key, an unusual number form such as 1.0 or 1e3, a byte order mark, a member
 * that breaks a rule, a syntax error anywhere). The caller then reads the answer the usual way (text,
 * JSON.parse, the member checks), which accepts exactly what it accepted before and refuses the rest with
 * the same errors. So the fast path never changes what is accepted, only how fast.
 *
 * No DOM here (plain bytes in, typed arrays out).
 */

/** What a member field must hold (the rules of network-answers.ts). */
const INT = 0; // non-negative safe integer
const INT_OR_NULL = 1;
const STATUS = 2; // 0 or 1
const TEXT = 3;
const TEXT_OR_NULL = 4;
const DECIMAL = 5; // /^-?\d+(\.\d+)?$/
const POSITION = 6; // null, 'L' or 'R'
const CHILDREN = 7; // nested members

type FieldSpec = readonly [name: string, rule: number];

const TABLE_FIELDS: readonly FieldSpec[] = [
  ['id', INT],
  ['parent_id', INT_OR_NULL],
  ['status', STATUS],
  ['username', TEXT],
  ['avatar', TEXT_OR_NULL],
  ['created_at', TEXT],
  ['first_name', TEXT],
  ['last_name', TEXT_OR_NULL],
  ['level', INT],
  ['total_earnings', DECIMAL],
  ['downlines_count', INT],
  ['child_count', INT],
];

/** In treeNodeSchema's order (the order answers come in: the scanner tries the next field first). */
const TREE_FIELDS: readonly FieldSpec[] = [
  ['id', INT],
  ['parent_id', INT_OR_NULL],
  ['position', POSITION],
  ['slot', INT_OR_NULL],
  ['status', STATUS],
  ['username', TEXT],
  ['avatar', TEXT_OR_NULL],
  ['pv', DECIMAL],
  ['tv', DECIMAL],
  ['cv', DECIMAL],
  ['created_at', TEXT],
  ['rank_id', INT_OR_NULL],
  ['rank_name', TEXT_OR_NULL],
  ['rank_icon', TEXT_OR_NULL],
  ['package_name', TEXT_OR_NULL],
  ['first_name', TEXT],
  ['last_name', TEXT_OR_NULL],
  ['level', INT],
  ['total_earnings', DECIMAL],
  ['downlines_count', INT],
  ['total_left', DECIMAL],
  ['total_right', DECIMAL],
  ['carry_left', DECIMAL],
  ['carry_right', DECIMAL],
  ['left_downline_count', INT],
  ['right_downline_count', INT],
  ['child_count', INT],
];

/** The member fields of one answer, with where each lands in the columns. */
export interface MemberLayout {
  /** Field names, in schema order (children last for the nested form). */
  readonly names: readonly string[];
  readonly rules: readonly number[];
  /** Column of each field: in `num` for numbers, status and position; in `text` for texts. */
  readonly column: readonly number[];
  readonly numeric: readonly string[];
  readonly texts: readonly string[];
  readonly nested: boolean;
}

function memberLayout(fields: readonly FieldSpec[], nested: boolean): MemberLayout {
  const all: FieldSpec[] = nested ? [...fields, ['children', CHILDREN]] : [...fields];
  const numeric: string[] = [];
  const texts: string[] = [];
  const column = all.map(([name, rule]) => {
    if (rule === CHILDREN) return -1;
    const list = rule === TEXT || rule === TEXT_OR_NULL || rule === DECIMAL ? texts : numeric;
    list.push(name);
    return list.length - 1;
  });
  return { names: all.map((f) => f[0]), rules: all.map((f) => f[1]), column, numeric, texts, nested };
}

/** table_view: `data.genealogy` is one member with its `children`, nested. */
export const TABLE_MEMBERS = memberLayout(TABLE_FIELDS, true);
/** genealogy (flat): `data.affiliates` is a list of members. */
export const TREE_MEMBERS = memberLayout(TREE_FIELDS, false);

export type MemberKind = 'table' | 'tree';
export const layoutOf = (kind: MemberKind) => (kind === 'table' ? TABLE_MEMBERS : TREE_MEMBERS);

/** The members of an answer in columns (see the top of this file). */
export interface MemberColumns {
  kind: MemberKind;
  count: number;
  /** count × numeric fields (or more: room left over), row by row; NaN for null. Position: 0 = L, 1 = R. */
  num: Float64Array;
  /** count × texts × 2 (or more): [start, end) byte offsets into `bytes`; start -1 for null. */
  text: Int32Array;
  /** Texts written with escapes, already decoded, by cell (member × texts + column). */
  escaped: Map<number, string>;
  /** Each member's id. */
  ids: Float64Array;
  /** Nested form: the members the answer carries below member i are kidList[kidStart[i] … kidStart[i + 1]). */
  kidStart: Int32Array;
  kidList: Int32Array;
  /** Hash table of the ids (see indexIds). */
  slots: Int32Array;
  /** The answer's bytes (the texts point into them). */
  bytes: Uint8Array;
}

/** A scanned answer: its members in columns, the rest parsed as usual (the member list left as null). */
export interface ScannedAnswer {
  /** The whole answer (`{ data, loaded_modules? }`) with the member list replaced by null. */
  envelope: Record<string, unknown>;
  members: MemberColumns;
}

/** Where the member list sits in the answer. */
const MEMBER_KEY: Record<MemberKind, string> = { table: 'genealogy', tree: 'affiliates' };

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const Q = 34; // "
const BS = 92; // \

class Bail extends Error {}
const BAIL = new Bail('not on the fast path');

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

const utf8 = new TextDecoder();

/**
 * Children lists from each member's parent index (-1: none), members listed parents first: the members
 * below member i are list[start[i] … start[i + 1]), in member order.
 */
export function nestByParent(parent: Int32Array | null, count: number): { kidStart: Int32Array; kidList: Int32Array } {
  const start = new Int32Array(count + 1);
  if (!parent) return { kidStart: start, kidList: new Int32Array(0) };
  for (let i = 0; i < count; i++) if (parent[i] >= 0) start[parent[i] + 1]++;
  for (let i = 0; i < count; i++) start[i + 1] += start[i];
  const list = new Int32Array(start[count]);
  const fill = start.slice(0, count);
  for (let i = 0; i < count; i++) if (parent[i] >= 0) list[fill[parent[i]]++] = i;
  return { kidStart: start, kidList: list };
}

/** Hash slot of an id (a non-negative safe integer) in a table of mask + 1 slots. */
function slotOf(id: number, mask: number): number {
  let h = Math.imul((id >>> 0) ^ Math.imul(Math.floor(id / 4294967296), 0x9e3779b9), 0x85ebca6b);
  h ^= h >>> 13;
  return h & mask;
}

/**
 * An open-addressing hash table of ids: slot → member index + 1, 0 = free; a repeated id keeps its last
 * member. Typed arrays only: cheaper to build than a Map of tens of thousands of entries.
 */
export function indexIds(ids: Float64Array): Int32Array {
  let size = 16;
  while (size < ids.length * 2) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    let h = slotOf(id, mask);
    while (slots[h] !== 0 && ids[slots[h] - 1] !== id) h = (h + 1) & mask;
    slots[h] = i + 1;
  }
  return slots;
}

/** Member index of an id in a table from indexIds, -1 when absent. */
export function findId(slots: Int32Array, ids: Float64Array, id: number): number {
  const mask = slots.length - 1;
  let h = slotOf(id, mask);
  for (;;) {
    const at = slots[h];
    if (at === 0) return -1;
    if (ids[at - 1] === id) return at - 1;
    h = (h + 1) & mask;
  }
}

/**
 * The members of `kind`'s answer read from its bytes, or null when the answer is not on the fast path
 * (then read it the usual way: that also gives the right error when it is malformed).
 */
export function scanAnswer(bytes: Uint8Array, kind: MemberKind): ScannedAnswer | null {
  return guard(() => new Scanner(bytes, layoutOf(kind)).answer(MEMBER_KEY[kind]));
}

const guard = <T>(read: () => T): T | null => {
  try {
    return read();
  } catch (e) {
    if (e instanceof Bail || e instanceof RangeError || e instanceof SyntaxError) return null;
    throw e;
  }
};

class Scanner {
  private p = 0;
  private readonly n: number;
  private count = 0;
  private num: Float64Array;
  private text: Int32Array;
  private parent: Int32Array | null;
  private readonly escaped = new Map<number, string>();
  private readonly nNum: number;
  private readonly nText: number;
  private readonly all: number;
  /** Key bytes of each field, for matching without decoding. */
  private readonly keys: Uint8Array[];
  /**
   * Each field's key as it usually comes, `name":` after the opening quote, in 4-byte words (the last
   * one overlapping): matched a word at a time.
   */
  private readonly keyWords: Int32Array[];
  private readonly view: DataView;
  private readonly keyLen: Int32Array;

  constructor(
    private readonly b: Uint8Array,
    private readonly layout: MemberLayout,
  ) {
    this.n = b.length;
    this.nNum = layout.numeric.length;
    this.nText = layout.texts.length;
    this.all = 2 ** layout.names.length - 1;
    this.keys = layout.names.map((k) => new TextEncoder().encode(k));
    this.keyWords = layout.names.map((k) => {
      const bytes = new TextEncoder().encode(`${k}":`);
      const view = new DataView(bytes.buffer);
      const words = new Int32Array(Math.ceil(bytes.length / 4));
      for (let w = 0; w < words.length; w++) words[w] = view.getInt32(Math.min(w * 4, bytes.length - 4), true);
      return words;
    });
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    this.keyLen = Int32Array.from(this.keys, (k) => k.length);
    // A first guess of the member count from the size (a member takes well over 160 bytes); grown if short.
    const guess = Math.max(16, Math.ceil(b.length / 160));
    this.num = new Float64Array(guess * this.nNum);
    this.text = new Int32Array(guess * this.nText * 2);
    this.parent = layout.nested ? new Int32Array(guess) : null;
  }

  /** Where the member list starts in the answer. */
  private listStart = -1;
  private memberKey = '';

  answer(memberKey: string): ScannedAnswer {
    this.head(memberKey);
    if (this.layout.nested) this.nestedMembers();
    else this.memberList();
    return this.finish();
  }

  /**
   * The answer up to its member list: the top object's keys up to "data" (an object), its keys up to the
   * member list; p is left at the list.
   */
  head(memberKey: string) {
    const b = this.b;
    this.memberKey = memberKey;
    if (this.n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) throw BAIL;
    this.ws();
    if (b[this.p] !== 123) throw BAIL;
    this.p++;
    this.untilKey('data');
    if (b[this.p] !== 123) throw BAIL;
    this.p++;
    this.untilKey(memberKey);
    this.listStart = this.p;
  }

  /** Skips the keys of the object p is in up to `wanted` (p is left at its value); none: off the path. */
  private untilKey(wanted: string) {
    const b = this.b;
    this.ws();
    if (b[this.p] === 125) throw BAIL;
    for (;;) {
      if (this.key() === wanted) return;
      this.skipValue();
      this.ws();
      if (b[this.p++] !== 44) throw BAIL;
      this.ws();
    }
  }

  /** Reads a key (without escapes) and its colon; p is left at the value. */
  private key(): string {
    const b = this.b;
    if (b[this.p] !== Q) throw BAIL;
    const ks = this.p + 1;
    const ke = this.plainString(ks);
    const key = utf8.decode(b.subarray(ks, ke));
    this.p = ke + 1;
    this.ws();
    if (b[this.p] !== 58) throw BAIL;
    this.p++;
    this.ws();
    return key;
  }

  /** The rest of the object p is in, after a value: its other keys must not be `unique`. */
  private restOf(unique: string) {
    while (!this.closed(125)) {
      if (this.key() === unique) throw BAIL;
      this.skipValue();
    }
  }

  /** The answer after its member list, and everything read. */
  finish(): ScannedAnswer {
    const b = this.b;
    const listEnd = this.p;
    this.restOf(this.memberKey);
    this.restOf('data');
    this.ws();
    if (this.p !== this.n) throw BAIL;
    // The rest of the answer: JSON.parse over the bytes around the member list (syntax checked above).
    // Keys the usual reading treats specially (prototype keys) or escaped text stay on the usual path.
    const rest = utf8.decode(b.subarray(0, this.listStart)) + 'null' + utf8.decode(b.subarray(listEnd));
    if (/__proto__|constructor|\\u/.test(rest)) throw BAIL;
    const envelope = JSON.parse(rest) as Record<string, unknown>;
    const count = this.count;
    const { kidStart, kidList } = nestByParent(this.parent, count);
    const ids = new Float64Array(count);
    const idCol = this.layout.numeric.indexOf('id');
    for (let i = 0; i < count; i++) ids[i] = this.num[i * this.nNum + idCol];
    return {
      envelope,
      members: {
        kind: this.layout.nested ? 'table' : 'tree',
        count,
        num: this.num,
        text: this.text,
        escaped: this.escaped,
        ids,
        kidStart,
        kidList,
        slots: indexIds(ids),
        bytes: b,
      },
    };
  }

  private ws() {
    const b = this.b;
    let p = this.p;
    while (p < this.n && isWs(b[p])) p++;
    this.p = p;
  }

  /** End of a string without escapes or control characters starting at s (after its quote). */
  private plainString(s: number): number {
    const b = this.b;
    let q = s;
    let c = 0;
    while (q < this.n && (c = b[q]) !== Q) {
      if (c === BS || c < 32) throw BAIL;
      q++;
    }
    if (q >= this.n) throw BAIL;
    return q;
  }

  /** Skips a string at p (quote), checking its escapes; answers whether it had any. */
  private string(): boolean {
    const b = this.b;
    const n = this.n;
    let q = this.p + 1;
    let esc = false;
    for (;;) {
      if (q >= n) throw BAIL;
      const c = b[q];
      if (c === Q) break;
      if (c < 32) throw BAIL;
      if (c === BS) {
        esc = true;
        const d = b[q + 1];
        if (d === 117) {
          if (!(isHex(b[q + 2]) && isHex(b[q + 3]) && isHex(b[q + 4]) && isHex(b[q + 5]))) throw BAIL;
          q += 6;
        } else if (d === Q || d === BS || d === 47 || d === 98 || d === 102 || d === 110 || d === 114 || d === 116) q += 2;
        else throw BAIL;
      } else q++;
    }
    this.p = q + 1;
    return esc;
  }

  /** At the '{' or '[' at p: steps in; true when the container ends at once with `close` (then passed). */
  private opened(close: number): boolean {
    this.p++;
    this.ws();
    if (this.b[this.p] !== close) return false;
    this.p++;
    return true;
  }

  /** After an item of a container: true at its `close` (passed), false at a comma (passed, and the spaces after it). */
  private closed(close: number): boolean {
    this.ws();
    const c = this.b[this.p++];
    if (c === close) return true;
    if (c !== 44) throw BAIL;
    this.ws();
    return false;
  }

  /** Skips any JSON value at p, checking its syntax. */
  private skipValue(depth = 0) {
    if (depth > 512) throw BAIL;
    const b = this.b;
    const c = b[this.p];
    if (c === Q) this.string();
    else if (c === 123) {
      if (this.opened(125)) return;
      do {
        if (b[this.p] !== Q) throw BAIL;
        this.string();
        this.ws();
        if (b[this.p] !== 58) throw BAIL;
        this.p++;
        this.ws();
        this.skipValue(depth + 1);
      } while (!this.closed(125));
    } else if (c === 91) {
      if (this.opened(93)) return;
      do this.skipValue(depth + 1);
      while (!this.closed(93));
    } else if (c === 116) this.word(116, 114, 117, 101, 4);
    else if (c === 102) {
      if (b[this.p + 4] !== 101) throw BAIL;
      this.word(102, 97, 108, 115, 5);
    } else if (c === 110) this.word(110, 117, 108, 108, 4);
    else this.number();
  }

  private word(a: number, b1: number, c: number, d: number, len: number) {
    const b = this.b;
    const p = this.p;
    if (b[p] !== a || b[p + 1] !== b1 || b[p + 2] !== c || b[p + 3] !== d) throw BAIL;
    this.p = p + len;
  }

  /** Any JSON number (skipped, syntax checked). */
  private number() {
    const b = this.b;
    let p = this.p;
    if (b[p] === 45) p++;
    if (b[p] === 48) p++;
    else if (b[p] >= 49 && b[p] <= 57) while (isDigit(b[p])) p++;
    else throw BAIL;
    if (b[p] === 46) {
      p++;
      if (!isDigit(b[p])) throw BAIL;
      while (isDigit(b[p])) p++;
    }
    if (b[p] === 101 || b[p] === 69) {
      p++;
      if (b[p] === 43 || b[p] === 45) p++;
      if (!isDigit(b[p])) throw BAIL;
      while (isDigit(b[p])) p++;
    }
    this.p = p;
  }

  private isNull(): boolean {
    const b = this.b;
    const p = this.p;
    if (b[p] === 110 && b[p + 1] === 117 && b[p + 2] === 108 && b[p + 3] === 108) {
      this.p = p + 4;
      return true;
    }
    return false;
  }

  /** Room for one more member. */
  private grow() {
    const cap = this.num.length / this.nNum;
    if (this.count < cap) return;
    const next = cap * 2;
    const num = new Float64Array(next * this.nNum);
    num.set(this.num);
    this.num = num;
    const text = new Int32Array(next * this.nText * 2);
    text.set(this.text);
    this.text = text;
    if (this.parent) {
      const parent = new Int32Array(next);
      parent.set(this.parent);
      this.parent = parent;
    }
  }

  /** The flat list: '[' members ']'. */
  private memberList() {
    const b = this.b;
    if (b[this.p] !== 91) throw BAIL;
    if (this.opened(93)) return;
    do {
      if (b[this.p] !== 123) throw BAIL;
      this.member(-1);
    } while (!this.closed(93));
  }

  /**
   * The nested form: a member whose `children` holds members, to any depth. Iterative (a tree may be
   * deep): `member` stops at a non-empty children list and leaves its member on the stack; the loop
   * reads the list's members and finishes the member once its list closes.
   */
  private nestedMembers() {
    const b = this.b;
    /** Open members (their children list being read) and how many children each has read so far. */
    const stack: number[] = [];
    const read: number[] = [];
    const open = (parent: number) => {
      const i = this.member(parent);
      if (i >= 0) {
        stack.push(i);
        read.push(0);
      }
    };
    if (b[this.p] !== 123) throw BAIL;
    open(-1);
    while (stack.length) {
      const top = stack.length - 1;
      const i = stack[top];
      // p is inside i's children list: at its first member, or after one.
      this.ws();
      const c = b[this.p];
      if (read[top] === 0) {
        if (c !== 123) throw BAIL;
      } else if (c === 44) {
        this.p++;
        this.ws();
        if (b[this.p] !== 123) throw BAIL;
      } else if (c === 93) {
        this.p++;
        stack.pop();
        read.pop();
        this.finishMember(i, this.pendingSeen.pop()!);
        continue;
      } else throw BAIL;
      read[top]++;
      open(i);
    }
  }

  /** Fields seen so far of the members waiting for their children to be read. */
  private pendingSeen: number[] = [];

  /**
   * Reads a member object at p ('{'). For the nested form, stops inside a non-empty children list and
   * answers the member's index (the caller reads the children, then finishMember); answers -1 when the
   * member is complete.
   */
  private member(parent: number): number {
    this.grow();
    const i = this.count++;
    if (this.parent) this.parent[i] = parent;
    this.p++;
    this.ws();
    if (this.b[this.p] === 125) throw BAIL;
    return this.fields(i, 0, -1);
  }

  /** Reads fields of member i from p (at a key) until the object closes or its children list opens. */
  private fields(i: number, seen: number, last: number): number {
    const b = this.b;
    const n = this.n;
    const rules = this.layout.rules;
    const column = this.layout.column;
    const keys = this.keys;
    const nf = keys.length;
    const num = this.num;
    const text = this.text;
    const numBase = i * this.nNum;
    const textBase = i * this.nText * 2;
    const keyWords = this.keyWords;
    const keyLen = this.keyLen;
    const view = this.view;
    let p = this.p;
    let c = 0;
    for (;;) {
      if (b[p] !== Q) throw BAIL;
      const ks = p + 1;
      // The field: answers keep the schema's order, so try the one after the last first, as it usually
      // comes (`name":`, read a word at a time).
      let f = -1;
      const guess = last + 1;
      if (guess < nf && ks + keyLen[guess] + 2 <= n) {
        const words = keyWords[guess];
        const len = keyLen[guess] + 2;
        let w = 0;
        const last4 = words.length - 1;
        while (w < last4 && view.getInt32(ks + w * 4, true) === words[w]) w++;
        if (w === last4 && view.getInt32(ks + len - 4, true) === words[w]) {
          f = guess;
          p = ks + len;
        }
      }
      if (f < 0) {
        const ke = this.plainString(ks);
        const len = ke - ks;
        for (let k = 0; k < nf; k++)
          if (this.keyIs(k, ks, len)) {
            f = k;
            break;
          }
        p = ke + 1;
        while (isWs((c = b[p]))) p++;
        if (c !== 58) throw BAIL;
        p++;
      }
      while (isWs((c = b[p]))) p++;
      if (f < 0) {
        this.p = p;
        this.skipValue();
        p = this.p;
      } else {
        const bit = 1 << f;
        if (seen & bit) throw BAIL;
        seen |= bit;
        last = f;
        const rule = rules[f];
        const col = column[f];
        if (rule === TEXT || rule === DECIMAL || (rule === TEXT_OR_NULL && c === Q)) {
          if (c !== Q) throw BAIL;
          const s = p + 1;
          let e = s;
          let d = 0;
          // Plain text (the usual case) ends at the next quote; an escape or a control character (or the
          // end of the answer) takes the careful way.
          while ((d = b[e]) !== Q) {
            if (!(d >= 32) || d === BS) break;
            e++;
          }
          if (d === Q) p = e + 1;
          else {
            this.p = p;
            const esc = this.string();
            p = this.p;
            e = p - 1;
            if (esc) this.escaped.set(i * this.nText + col, JSON.parse(utf8.decode(b.subarray(s - 1, p))) as string);
          }
          const at = textBase + col * 2;
          text[at] = s;
          text[at + 1] = e;
          if (rule === DECIMAL) this.checkDecimal(i * this.nText + col, s, e);
        } else if (rule === INT || rule === STATUS || (rule === INT_OR_NULL && c !== 110)) {
          let v = 0;
          if (c === 48) p++;
          else {
            if (c < 49 || c > 57) throw BAIL;
            const d0 = p;
            do {
              v = v * 10 + (c - 48);
              c = b[++p];
            } while (c >= 48 && c <= 57);
            if (p - d0 > 16 || v > MAX_SAFE) throw BAIL;
          }
          if (rule === STATUS && v > 1) throw BAIL;
          num[numBase + col] = v;
        } else if (rule === INT_OR_NULL || rule === TEXT_OR_NULL) {
          if (c !== 110 || b[p + 1] !== 117 || b[p + 2] !== 108 || b[p + 3] !== 108) throw BAIL;
          p += 4;
          if (rule === INT_OR_NULL) num[numBase + col] = NaN;
          else text[textBase + col * 2] = -1;
        } else if (rule === POSITION) {
          this.p = p;
          num[numBase + col] = this.position();
          p = this.p;
        } else {
          // children
          if (c !== 91) throw BAIL;
          p++;
          while (isWs((c = b[p]))) p++;
          if (c === 93) p++;
          else {
            this.p = p;
            this.pendingSeen.push(seen);
            this.pendingLast.push(last);
            return i;
          }
        }
      }
      while (isWs((c = b[p]))) p++;
      p++;
      if (c === 125) {
        if (seen !== this.all) throw BAIL;
        this.p = p;
        return -1;
      }
      if (c !== 44 || p >= n) throw BAIL;
      while (isWs((c = b[p]))) p++;
    }
  }

  private pendingLast: number[] = [];

  /** The rest of member i after its children list closed. */
  private finishMember(i: number, seen: number) {
    const last = this.pendingLast.pop()!;
    this.ws();
    const c = this.b[this.p++];
    if (c === 125) {
      if (seen !== this.all) throw BAIL;
      return;
    }
    if (c !== 44) throw BAIL;
    this.ws();
    // Fields after the children: read them; a second children list cannot follow (duplicate key).
    if (this.fields(i, seen, last) >= 0) throw BAIL;
  }

  private keyIs(f: number, ks: number, len: number): boolean {
    const k = this.keys[f];
    if (k.length !== len) return false;
    const b = this.b;
    for (let j = 0; j < len; j++) if (b[ks + j] !== k[j]) return false;
    return true;
  }

  /** A decimal text: optional minus, digits, optionally a point and digits (the text at [s, e)). */
  private checkDecimal(cell: number, s: number, e: number) {
    const decoded = this.escaped.get(cell);
    if (decoded !== undefined) {
      if (!/^-?\d+(\.\d+)?$/.test(decoded)) throw BAIL;
      return;
    }
    const b = this.b;
    let q = s;
    if (b[q] === 45) q++;
    const d0 = q;
    while (q < e && isDigit(b[q])) q++;
    if (q === d0) throw BAIL;
    if (q < e) {
      if (b[q] !== 46) throw BAIL;
      q++;
      const d1 = q;
      while (q < e && isDigit(b[q])) q++;
      if (q === d1 || q !== e) throw BAIL;
    }
  }

  /** null, "L" (0) or "R" (1). */
  private position(): number {
    if (this.isNull()) return NaN;
    const b = this.b;
    const p = this.p;
    if (b[p] === Q && b[p + 2] === Q && (b[p + 1] === 76 || b[p + 1] === 82)) {
      this.p = p + 3;
      return b[p + 1] === 76 ? 0 : 1;
    }
    throw BAIL;
  }
}

/** A made-up member of the table view (ids, texts and nulls shaped like real ones). */
const madeUpMember = (id: number, parent: number | null, level: number) => ({
  id,
  parent_id: parent,
  status: id % 5 ? 1 : 0,
  username: `member${id}`,
  avatar: id % 3 ? null : `/avatars/${id}.png`,
  created_at: '2026-01-10T09:00:00.000Z',
  first_name: `First${id}`,
  last_name: id % 4 ? `Last${id}` : null,
  level,
  total_earnings: id % 2 ? '1250.50' : '0',
  downlines_count: id,
  child_count: 0,
});

/** A made-up answer of `kind` with about `members` members. */
function madeUpAnswer(kind: MemberKind, members: number): unknown {
  if (kind === 'table') {
    const kids = Array.from({ length: members }, (_, i) => ({ ...madeUpMember(i + 2, 1, 1), children: [] as unknown[] }));
    for (let i = 0; i < 50; i++) kids[i].children = [{ ...madeUpMember(members + 10 + i, i + 2, 2), children: [] }];
    const genealogy = { ...madeUpMember(1, null, 0), child_count: members, children: kids };
    return { data: { genealogy, search_valid: false, max_levels: 2, levels_loaded: 2 } };
  }
  const affiliates = Array.from({ length: members }, (_, i) => {
    const m = madeUpMember(i + 1, i ? Math.floor((i - 1) / 2) + 1 : null, Math.floor(Math.log2(i + 1)));
    return {
      id: m.id,
      parent_id: m.parent_id,
      position: i ? (i % 2 ? 'L' : 'R') : null,
      slot: i ? (i - 1) % 2 : null,
      status: m.status,
      username: m.username,
      avatar: m.avatar,
      pv: '120',
      tv: '400.5',
      cv: '30',
      created_at: m.created_at,
      rank_id: i % 3 ? 1 : null,
      rank_name: i % 3 ? 'Gold' : null,
      rank_icon: null,
      package_name: 'Business',
      first_name: m.first_name,
      last_name: m.last_name,
      level: m.level,
      total_earnings: m.total_earnings,
      downlines_count: 0,
      total_left: '1000',
      total_right: '900',
      carry_left: '100',
      carry_right: '0',
      left_downline_count: 0,
      right_downline_count: 0,
      child_count: 2,
    };
  });
  return { data: { affiliates, genealogy: null, search_valid: false, root_affiliate_id: 1 } };
}

/**
 * Steps that read a made-up answer of `kind` a few times (each step: one reading), so that the JavaScript
 * engine has compiled the reader, with type feedback from answers shaped like the real ones, before a real
 * answer arrives: a first, cold reading of 50 000 members takes about twice as long as a compiled one.
 */
export function warmUpSteps(kind: MemberKind, members = 1500, rounds = 3): Array<() => void> {
  let bytes: Uint8Array | null = null;
  const read = () => {
    bytes ??= new TextEncoder().encode(JSON.stringify(madeUpAnswer(kind, members)));
    if (!scanAnswer(bytes, kind)) throw new Error('made-up answer off the fast path');
  };
  return Array.from({ length: rounds }, () => read);
}

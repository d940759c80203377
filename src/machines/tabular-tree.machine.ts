/**
 * The tabular tree (spec §2 Network › tabular): the member's downline as an indented list that loads one
 * level at a time. The first answer (table_view) carries the member and the first levels; expanding a row
 * whose children are not loaded asks table_view_single/{id} for its children, page by page (a "more" row
 * continues a long level with the next_page_url of the last page).
 *
 * loading → ready | connectionError | error | forceLogout. While ready, one request runs at a time
 * (fetching); rows asked for meanwhile wait in a queue. A failed row request marks only that row.
 */
import { assign, fromPromise, setup } from 'xstate';
import { networkApi, nextPageOf } from '../api/network';
import { errorInfo, type ErrorInfo } from '../api/errors';
import { MemberTable } from '../api/network-members';
import type { TableViewAnswer } from '../api/network-answers';
import type { TableNode, TableView, TableViewSingle } from '../schemas/network.schema';

export interface TableData {
  /**
   * The members of the first answer (table_view) with their nesting, in typed arrays: a row's object is
   * built only when it is shown. A row whose children the answer carries in full knows them from here.
   */
  table: MemberTable;
  /** Members loaded later (table_view_single), by id; they take the place of a table member with their id. */
  nodes: Record<number, TableNode>;
  /** Children lists (ids) loaded later; a row's list here replaces what the table carries for it. */
  children: Record<number, number[]>;
  /** Rows whose children were loaded later, completely or up to `next`. */
  known: Record<number, true>;
  /** Where the list of a row's children continues (null: complete). */
  next: Record<number, { page: number; after?: string } | null>;
  expanded: Record<number, true>;
}

export interface RowRequest {
  id: number;
  page?: { page: number; after?: string };
}

export interface TabularContext {
  data: TableData;
  rootId: number | null;
  maxLevels: number;
  fetching: RowRequest | null;
  queue: RowRequest[];
  rowErrors: Record<number, ErrorInfo>;
  error: ErrorInfo | null;
}

export type TabularEvent =
  | { type: 'table.expand'; id: number }
  | { type: 'table.collapse'; id: number }
  | { type: 'table.more'; id: number }
  | { type: 'table.retry' };

const NO_MEMBERS = MemberTable.fromObjects<TableNode>([]);

export const emptyTableData = (): TableData => ({ table: NO_MEMBERS, nodes: {}, children: {}, known: {}, next: {}, expanded: {} });

/** Table index of a row whose children the first answer carries in full (-1 otherwise). */
function knownInTable(data: TableData, id: number): number {
  const i = data.table.indexOf(id);
  return i >= 0 && data.table.kidsOf(i) >= data.table.childCount(i) ? i : -1;
}

/** The member of a row (a later answer's first). */
export function nodeOf(data: TableData, id: number): TableNode | undefined {
  const later = data.nodes[id];
  if (later) return later;
  const i = data.table.indexOf(id);
  return i >= 0 ? data.table.node(i) : undefined;
}

/** Whether all of a row's children are loaded (or loaded up to `next`). */
export function isKnownRow(data: TableData, id: number): boolean {
  return !!data.known[id] || (data.children[id] === undefined && knownInTable(data, id) >= 0);
}

/** A row's loaded children (ids), in order. */
export function childIdsOf(data: TableData, id: number): number[] {
  const later = data.children[id];
  if (later) return later;
  const i = knownInTable(data, id);
  if (i < 0) return [];
  const { kidStart, kidList } = data.table;
  const out: number[] = [];
  for (let k = kidStart[i]; k < kidStart[i + 1]; k++) out.push(data.table.id(kidList[k]));
  return out;
}

/** Folds a table_view answer into fresh data: the root expanded. */
export function fromTableView(answer: TableViewAnswer | TableView): TableData {
  const table = answer.genealogy instanceof MemberTable ? answer.genealogy : MemberTable.fromNested(answer.genealogy);
  return { ...emptyTableData(), table, expanded: table.count ? { [table.id(0)]: true } : {} };
}

/** Folds a page of a row's children into the data (a first page replaces what was there). */
export function withChildren(data: TableData, id: number, answer: TableViewSingle, continued: boolean): TableData {
  const nodes = { ...data.nodes };
  for (const n of answer.genealogy) nodes[n.id] = n;
  const before = continued ? childIdsOf(data, id) : [];
  const seen = new Set(before);
  const list = [...before, ...answer.genealogy.map((n) => n.id).filter((x) => !seen.has(x))];
  return {
    ...data,
    nodes,
    children: { ...data.children, [id]: list },
    known: { ...data.known, [id]: true },
    next: { ...data.next, [id]: nextPageOf(answer.next_page_url) },
    expanded: { ...data.expanded, [id]: true },
  };
}

export type TableRow =
  | { kind: 'node'; id: number; depth: number; node: TableNode; expanded: boolean; expandable: boolean }
  | { kind: 'more'; id: number; depth: number }
  | { kind: 'pending'; id: number; depth: number }
  | { kind: 'error'; id: number; depth: number; error: ErrorInfo };

export const ROW_KINDS: ReadonlyArray<TableRow['kind']> = ['node', 'more', 'pending', 'error'];
const NODE = 0;
const MORE = 1;
const PENDING = 2;
const ERROR = 3;
/** A run of table members (see RowList). */
const STRETCH = 4;

/**
 * The rows on screen as runs: a run is one row, or a stretch of table members next to each other (children
 * of one row that show nothing below them, so one row each). Listing costs a step per run, not per row: a
 * row expanded over 50 000 children is one stretch. Row i is found by a binary search over the runs.
 */
export interface RowList {
  length: number;
  /** Member rows among them. */
  members: number;
  /** First row of each run (ascending). */
  starts: number[];
  /** Kind of a one-row run (index in ROW_KINDS), or STRETCH. */
  kinds: number[];
  /** One-row run: the row's id. Stretch: where its members start in the table's kidList. */
  refs: number[];
  /** One-row member run: its table index (-1 for a member of a later answer, or a row that is no member). */
  ats: number[];
  depths: number[];
  /** Rows already built as objects (see rowAt). */
  built: Array<TableRow | undefined>;
}

type RowContext = Pick<TabularContext, 'data' | 'rootId' | 'fetching' | 'queue' | 'rowErrors'>;

/**
 * The rows on screen, depth first through expanded rows: each member, then its children, then its tail
 * row (error, loading or "more"). Iterative (trees may be deep); plain table rows go by the stretch.
 */
export function rowList(ctx: RowContext): RowList {
  const { data, rootId } = ctx;
  const { table } = data;
  const rows: RowList = { length: 0, members: 0, starts: [], kinds: [], refs: [], ats: [], depths: [], built: [] };
  if (rootId === null || !nodeOf(data, rootId)) return rows;
  const { starts, kinds, refs, ats, depths } = rows;
  const one = (k: number, id: number, depth: number, index: number) => {
    starts.push(rows.length);
    kinds.push(k);
    refs.push(id);
    ats.push(index);
    depths.push(depth);
    rows.length++;
    if (k === NODE) rows.members++;
  };
  const stretch = (from: number, count: number, depth: number) => {
    if (!count) return;
    starts.push(rows.length);
    kinds.push(STRETCH);
    refs.push(from);
    ats.push(-1);
    depths.push(depth);
    rows.length += count;
    rows.members += count;
  };

  const waiting = new Set<number>(ctx.queue.map((q) => q.id));
  if (ctx.fetching) waiting.add(ctx.fetching.id);
  // Table members that need more than a glance: expanded, waiting, failed, loaded later or with later children.
  const markedAt = new Uint8Array(table.count);
  const mark = (id: number) => {
    const i = table.indexOf(id);
    if (i >= 0) markedAt[i] = 1;
  };
  waiting.forEach(mark);
  for (const k of Object.keys(data.expanded)) mark(Number(k));
  for (const k of Object.keys(ctx.rowErrors)) mark(Number(k));
  for (const k of Object.keys(data.nodes)) mark(Number(k));
  for (const k of Object.keys(data.children)) mark(Number(k));

  // Open rows: their children still to list (table kidList offsets, or later ids) and the tail row after them.
  const fromTable: boolean[] = [];
  const lists: Array<ArrayLike<number>> = [];
  const pos: number[] = [];
  const ends: number[] = [];
  const levels: number[] = [];
  const tails: number[] = [];
  const tailIds: number[] = [];
  const { kidStart, kidList, ids: tableIds } = table;

  /** Lists a member row (index: its table member, -1 for a later one); opens it when it shows more. */
  const visit = (id: number, index: number, depth: number) => {
    one(NODE, id, depth, index);
    const expanded = !!data.expanded[id];
    const err = ctx.rowErrors[id];
    const isWaiting = waiting.has(id);
    if (!expanded && !isWaiting && !err) return;
    const tail = err ? ERROR : isWaiting ? PENDING : data.next[id] ? MORE : -1;
    const later = data.children[id];
    let kids: ArrayLike<number> = [];
    let start = 0;
    let end = 0;
    let inTable = false;
    if (expanded) {
      if (later) {
        kids = later;
        end = later.length;
      } else {
        const t = index >= 0 ? (table.kidsOf(index) >= table.childCount(index) ? index : -1) : knownInTable(data, id);
        if (t >= 0) {
          kids = kidList;
          start = kidStart[t];
          end = kidStart[t + 1];
          inTable = true;
        }
      }
    }
    fromTable.push(inTable);
    lists.push(kids);
    pos.push(start);
    ends.push(end);
    levels.push(depth + 1);
    tails.push(tail);
    tailIds.push(id);
  };

  /** A member of a later answer takes the place of a table member with its id. */
  const tableIndex = (id: number) => (data.nodes[id] ? -1 : table.indexOf(id));
  visit(rootId, tableIndex(rootId), 0);
  while (lists.length) {
    const top = lists.length - 1;
    let p = pos[top];
    const end = ends[top];
    const depth = levels[top];
    if (fromTable[top]) {
      // Plain table rows as one stretch, up to the next one that needs a closer look.
      const from = p;
      while (p < end && markedAt[kidList[p]] === 0) p++;
      stretch(from, p - from, depth);
      pos[top] = p;
      if (p < end) {
        pos[top] = p + 1;
        const index = kidList[p];
        const id = tableIds[index];
        visit(id, data.nodes[id] ? -1 : index, depth);
        continue;
      }
    } else if (p < end) {
      pos[top] = p + 1;
      const id = (lists[top] as number[])[p];
      const index = tableIndex(id);
      if (index >= 0 || data.nodes[id]) visit(id, index, depth);
      continue;
    }
    if (tails[top] >= 0) one(tails[top], tailIds[top], depth, -1);
    fromTable.pop();
    lists.pop();
    pos.pop();
    ends.pop();
    levels.pop();
    tails.pop();
    tailIds.pop();
  }
  return rows;
}

/** The run holding row i. */
function runOf(rows: RowList, i: number): number {
  const { starts } = rows;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A number unique to row i of the list (a member and its tail row share the id): its key on screen. */
export function rowKey(ctx: RowContext, rows: RowList, i: number): number {
  const r = runOf(rows, i);
  if (rows.kinds[r] === STRETCH) return ctx.data.table.ids[ctx.data.table.kidList[rows.refs[r] + i - rows.starts[r]]] * 4;
  return rows.refs[r] * 4 + rows.kinds[r];
}

/** Row i of a row list as an object (built once per list). */
export function rowAt(ctx: RowContext, rows: RowList, i: number): TableRow {
  const done = rows.built[i];
  if (done) return done;
  const r = runOf(rows, i);
  const { table } = ctx.data;
  const depth = rows.depths[r];
  let row: TableRow;
  if (rows.kinds[r] === STRETCH) {
    const index = table.kidList[rows.refs[r] + i - rows.starts[r]];
    const node = table.node(index);
    row = { kind: 'node', id: node.id, depth, node, expanded: false, expandable: node.child_count > 0 };
  } else {
    const id = rows.refs[r];
    const k = ROW_KINDS[rows.kinds[r]];
    if (k === 'node') {
      const index = rows.ats[r];
      const node = index >= 0 ? table.node(index) : nodeOf(ctx.data, id)!;
      row = { kind: 'node', id, depth, node, expanded: !!ctx.data.expanded[id], expandable: node.child_count > 0 };
    } else if (k === 'error') row = { kind: 'error', id, depth, error: ctx.rowErrors[id] };
    else row = { kind: k, id, depth };
  }
  rows.built[i] = row;
  return row;
}

/** The rows on screen as objects (see rowList). */
export function visibleRows(ctx: RowContext): TableRow[] {
  const rows = rowList(ctx);
  const out: TableRow[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = rowAt(ctx, rows, i);
  return out;
}

const errorOf = (event: unknown) => (event as { error: unknown }).error;

export const tabularTreeMachine = setup({
  types: {
    context: {} as TabularContext,
    events: {} as TabularEvent,
  },
  actors: {
    loadTable: fromPromise<TableViewAnswer | TableView>(() => networkApi.tableView()),
    loadRow: fromPromise<TableViewSingle, RowRequest>(({ input }) =>
      networkApi.tableViewSingle({ id: input.id, level: 1, page: input.page?.page, after: input.page?.after ? Number(input.page.after) : undefined }),
    ),
  },
  guards: {
    isKnown: ({ context, event }) => 'id' in event && (isKnownRow(context.data, event.id) || nodeOf(context.data, event.id)?.child_count === 0),
    isRow: ({ context, event }) => 'id' in event && !!nodeOf(context.data, event.id),
    hasMore: ({ context, event }) => 'id' in event && !!context.data.next[event.id],
    hasQueue: ({ context }) => context.queue.length > 0,
    isConnection: ({ event }) => errorInfo(errorOf(event)).kind === 'connection',
    isUnauthorized: ({ event }) => errorInfo(errorOf(event)).kind === 'unauthorized',
  },
  actions: {
    takeTable: assign(({ event }) => {
      const answer = (event as unknown as { output: TableViewAnswer | TableView }).output;
      const data = fromTableView(answer);
      return { data, rootId: data.table.count ? data.table.id(0) : null, maxLevels: answer.max_levels, error: null, rowErrors: {} };
    }),
    setError: assign({ error: ({ event }) => errorInfo(errorOf(event)) }),
    open: assign({
      data: ({ context, event }) => ('id' in event ? { ...context.data, expanded: { ...context.data.expanded, [event.id]: true as const } } : context.data),
    }),
    close: assign({
      data: ({ context, event }) => {
        if (!('id' in event)) return context.data;
        const expanded = { ...context.data.expanded };
        delete expanded[event.id];
        return { ...context.data, expanded };
      },
      queue: ({ context, event }) => ('id' in event ? context.queue.filter((q) => q.id !== event.id) : context.queue),
      rowErrors: ({ context, event }) => {
        if (!('id' in event)) return context.rowErrors;
        const next = { ...context.rowErrors };
        delete next[event.id];
        return next;
      },
    }),
    enqueue: assign({
      queue: ({ context, event }) => {
        if (!('id' in event)) return context.queue;
        if (context.fetching?.id === event.id || context.queue.some((q) => q.id === event.id)) return context.queue;
        const page = event.type === 'table.more' ? (context.data.next[event.id] ?? undefined) : undefined;
        return [...context.queue, { id: event.id, page }];
      },
      rowErrors: ({ context, event }) => {
        if (!('id' in event)) return context.rowErrors;
        const next = { ...context.rowErrors };
        delete next[event.id];
        return next;
      },
    }),
    takeNext: assign({ fetching: ({ context }) => context.queue[0] ?? null, queue: ({ context }) => context.queue.slice(1) }),
    mergeRow: assign(({ context, event }) => {
      const req = context.fetching!;
      const answer = (event as unknown as { output: TableViewSingle }).output;
      return { data: withChildren(context.data, req.id, answer, !!req.page), fetching: null };
    }),
    markRowError: assign({
      rowErrors: ({ context, event }) => ({ ...context.rowErrors, [context.fetching!.id]: errorInfo(errorOf(event)) }),
      fetching: null,
    }),
  },
}).createMachine({
  id: 'tabularTree',
  context: { data: emptyTableData(), rootId: null, maxLevels: 0, fetching: null, queue: [], rowErrors: {}, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadTable',
        src: 'loadTable',
        onDone: { target: 'ready', actions: 'takeTable' },
        onError: [
          { guard: 'isConnection', target: 'connectionError', actions: 'setError' },
          { guard: 'isUnauthorized', target: 'forceLogout', actions: 'setError' },
          { target: 'error', actions: 'setError' },
        ],
      },
    },
    connectionError: { tags: ['error'], on: { 'table.retry': 'loading' } },
    error: { tags: ['error'], on: { 'table.retry': 'loading' } },
    forceLogout: { tags: ['error'] },
    ready: {
      initial: 'idle',
      on: {
        'table.expand': [{ guard: 'isKnown', actions: 'open' }, { guard: 'isRow', target: '.queued', actions: 'enqueue' }],
        'table.more': { guard: 'hasMore', target: '.queued', actions: 'enqueue' },
        'table.collapse': { actions: 'close' },
      },
      states: {
        idle: {},
        /** A request waits in the queue: start it unless one runs. */
        queued: {
          always: [{ guard: 'hasQueue', target: 'fetching', actions: 'takeNext' }, { target: 'idle' }],
        },
        fetching: {
          tags: ['busy'],
          on: {
            'table.expand': [{ guard: 'isKnown', actions: 'open' }, { guard: 'isRow', actions: 'enqueue' }],
            'table.more': { guard: 'hasMore', actions: 'enqueue' },
          },
          invoke: {
            id: 'loadRow',
            src: 'loadRow',
            input: ({ context }) => context.fetching!,
            onDone: { target: 'queued', actions: 'mergeRow' },
            onError: [
              { guard: 'isUnauthorized', target: '#tabularTree.forceLogout', actions: 'setError' },
              { target: 'queued', actions: 'markRowError' },
            ],
          },
        },
      },
    },
  },
});

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
import type { NestedTableNode, TableNode, TableView, TableViewSingle } from '../schemas/network.schema';

export interface TableData {
  nodes: Record<number, TableNode>;
  children: Record<number, number[]>;
  /** Rows whose children are all loaded, or loaded up to `next`. */
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

/** The children list of every row without loaded children (shared; lists are replaced, never changed). */
const NO_CHILDREN: number[] = Object.freeze([]) as unknown as number[];

export const emptyTableData = (): TableData => ({ nodes: {}, children: {}, known: {}, next: {}, expanded: {} });

/** Folds a table_view answer (nested) into fresh data: the root expanded, rows with all children known. */
export function fromTableView(answer: TableView): TableData {
  const data = emptyTableData();
  // Iterative (a tree may be deep). The answer's node objects are kept as the rows (a row's nested
  // `children` is never read: children live in data.children), which spares a copy of every member.
  const stack: NestedTableNode[] = [answer.genealogy];
  while (stack.length) {
    const n = stack.pop()!;
    const children = n.children;
    data.nodes[n.id] = n;
    if (children.length >= n.child_count) {
      let ids = NO_CHILDREN;
      if (children.length) {
        ids = new Array<number>(children.length);
        for (let i = 0; i < children.length; i++) ids[i] = children[i].id;
      }
      data.children[n.id] = ids;
      data.known[n.id] = true;
      data.next[n.id] = null;
    } else data.children[n.id] = NO_CHILDREN;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  data.expanded[answer.genealogy.id] = true;
  return data;
}

/** Folds a page of a row's children into the data (a first page replaces what was there). */
export function withChildren(data: TableData, id: number, answer: TableViewSingle, continued: boolean): TableData {
  const nodes = { ...data.nodes };
  for (const n of answer.genealogy) nodes[n.id] = n;
  const before = continued ? (data.children[id] ?? []) : [];
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

/** The rows on screen, depth-first through expanded rows (iterative: trees may be deep). */
export function visibleRows(ctx: Pick<TabularContext, 'data' | 'rootId' | 'fetching' | 'queue' | 'rowErrors'>): TableRow[] {
  const { data, rootId } = ctx;
  if (rootId === null || !data.nodes[rootId]) return [];
  const waiting = new Set<number>(ctx.queue.map((q) => q.id));
  if (ctx.fetching) waiting.add(ctx.fetching.id);
  const rows: TableRow[] = [];
  type Frame = { id: number; depth: number } | { tail: TableRow };
  const stack: Frame[] = [{ id: rootId, depth: 0 }];
  while (stack.length) {
    const f = stack.pop()!;
    if ('tail' in f) {
      rows.push(f.tail);
      continue;
    }
    const node = data.nodes[f.id];
    if (!node) continue;
    const expanded = !!data.expanded[f.id];
    const kids = data.children[f.id] ?? [];
    rows.push({ kind: 'node', id: f.id, depth: f.depth, node, expanded, expandable: node.child_count > 0 });
    if (!expanded && !waiting.has(f.id) && !ctx.rowErrors[f.id]) continue;
    // Pushed in reverse: the tail row goes last.
    const err = ctx.rowErrors[f.id];
    if (err) stack.push({ tail: { kind: 'error', id: f.id, depth: f.depth + 1, error: err } });
    else if (waiting.has(f.id)) stack.push({ tail: { kind: 'pending', id: f.id, depth: f.depth + 1 } });
    else if (data.next[f.id]) stack.push({ tail: { kind: 'more', id: f.id, depth: f.depth + 1 } });
    if (expanded) for (let i = kids.length - 1; i >= 0; i--) stack.push({ id: kids[i], depth: f.depth + 1 });
  }
  return rows;
}

const errorOf = (event: unknown) => (event as { error: unknown }).error;

export const tabularTreeMachine = setup({
  types: {
    context: {} as TabularContext,
    events: {} as TabularEvent,
  },
  actors: {
    loadTable: fromPromise<TableView>(() => networkApi.tableView()),
    loadRow: fromPromise<TableViewSingle, RowRequest>(({ input }) =>
      networkApi.tableViewSingle({ id: input.id, level: 1, page: input.page?.page, after: input.page?.after ? Number(input.page.after) : undefined }),
    ),
  },
  guards: {
    isKnown: ({ context, event }) => 'id' in event && (!!context.data.known[event.id] || context.data.nodes[event.id]?.child_count === 0),
    isRow: ({ context, event }) => 'id' in event && !!context.data.nodes[event.id],
    hasMore: ({ context, event }) => 'id' in event && !!context.data.next[event.id],
    hasQueue: ({ context }) => context.queue.length > 0,
    isConnection: ({ event }) => errorInfo(errorOf(event)).kind === 'connection',
    isUnauthorized: ({ event }) => errorInfo(errorOf(event)).kind === 'unauthorized',
  },
  actions: {
    takeTable: assign(({ event }) => {
      const answer = (event as unknown as { output: TableView }).output;
      return { data: fromTableView(answer), rootId: answer.genealogy.id, maxLevels: answer.max_levels, error: null, rowErrors: {} };
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

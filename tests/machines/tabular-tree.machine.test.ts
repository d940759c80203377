import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  fromTableView,
  rowAt,
  rowList,
  tabularTreeMachine,
  visibleRows,
  withChildren,
  type RowRequest,
  type TableData,
  type TableRow,
} from '../../src/machines/tabular-tree.machine';
import { ApiError, ConnectionError, errorInfo, type ErrorInfo } from '../../src/api/errors';
import type { NestedTableNode, TableNode, TableView, TableViewSingle } from '../../src/schemas/network.schema';
import { tableNode } from '../support/network-fixtures';

/** Root 1 → 2, 3; 2 → 4; 3 → 5; 4 has 3 children not loaded (60, 61, 62; pages of 2); 5 has none. */
function tableView(): TableView {
  const n = (id: number, level: number, child_count: number, children: NestedTableNode[] = []): NestedTableNode => ({
    ...tableNode(id, null, { level, child_count }),
    children,
  });
  return {
    genealogy: n(1, 0, 2, [n(2, 1, 1, [n(4, 2, 3)]), n(3, 1, 1, [n(5, 2, 0)])]),
    search_valid: false,
    max_levels: 3,
    levels_loaded: 2,
  };
}

function rowsPage(id: number, req: RowRequest): TableViewSingle {
  const all = [60, 61, 62].map((x) => tableNode(x, id, { level: 3 }));
  const page = req.page?.page ?? 1;
  const slice = all.slice((page - 1) * 2, page * 2);
  return {
    genealogy: slice,
    search_valid: false,
    max_levels: 1,
    level: 1,
    root_affiliate_id: id,
    next_page_url: page * 2 < all.length ? `/api/network/table_view_single/${id}?level=1&page=${page + 1}&after=${slice.at(-1)!.id}` : null,
  };
}

function start(opts: { fail?: unknown; rowFail?: Map<number, unknown> } = {}) {
  const requests: RowRequest[] = [];
  const actor = createActor(
    tabularTreeMachine.provide({
      actors: {
        loadTable: fromPromise(() => (opts.fail ? Promise.reject(opts.fail) : Promise.resolve(tableView()))),
        loadRow: fromPromise(({ input }: { input: RowRequest }) => {
          requests.push(input);
          const f = opts.rowFail?.get(input.id);
          return f ? Promise.reject(f) : Promise.resolve(rowsPage(input.id, input));
        }),
      },
    }),
  ).start();
  return { actor, requests };
}
const idle = (a: ReturnType<typeof start>['actor']) => waitFor(a, (s) => s.matches({ ready: 'idle' }));
const shown = (a: ReturnType<typeof start>['actor']) =>
  visibleRows(a.getSnapshot().context).map((r) => (r.kind === 'node' ? r.node.username : `${r.kind}:${r.id}`));

describe('tabular tree machine', () => {
  it('shows the member and the first level; deeper loaded levels open on demand without a request', async () => {
    const { actor, requests } = start();
    await idle(actor);
    expect(shown(actor)).toEqual(['t1', 't2', 't3']);
    actor.send({ type: 'table.expand', id: 2 });
    expect(shown(actor)).toEqual(['t1', 't2', 't4', 't3']);
    expect(requests).toEqual([]);
    actor.send({ type: 'table.collapse', id: 2 });
    expect(shown(actor)).toEqual(['t1', 't2', 't3']);
  });

  it('loads a level page by page with next_page_url (page and after)', async () => {
    const { actor, requests } = start();
    await idle(actor);
    actor.send({ type: 'table.expand', id: 2 });
    actor.send({ type: 'table.expand', id: 4 });
    expect(shown(actor)).toEqual(['t1', 't2', 't4', 'pending:4', 't3']);
    await idle(actor);
    expect(shown(actor)).toEqual(['t1', 't2', 't4', 't60', 't61', 'more:4', 't3']);
    actor.send({ type: 'table.more', id: 4 });
    await idle(actor);
    expect(requests[1]).toEqual({ id: 4, page: { page: 2, after: '61' } });
    expect(shown(actor)).toEqual(['t1', 't2', 't4', 't60', 't61', 't62', 't3']);
    expect(visibleRows(actor.getSnapshot().context).find((r) => r.kind === 'node' && r.id === 62)?.depth).toBe(3);
  });

  it('a failed row shows an error row with retry; the rest stays', async () => {
    const rowFail = new Map<number, unknown>([[4, new ConnectionError()]]);
    const { actor } = start({ rowFail });
    await idle(actor);
    actor.send({ type: 'table.expand', id: 2 });
    actor.send({ type: 'table.expand', id: 4 });
    await idle(actor);
    expect(shown(actor)).toEqual(['t1', 't2', 't4', 'error:4', 't3']);
    rowFail.clear();
    actor.send({ type: 'table.expand', id: 4 });
    await idle(actor);
    expect(shown(actor)).toContain('t60');
  });

  it('first load failures and 401', async () => {
    const a = start({ fail: new ConnectionError() }).actor;
    await waitFor(a, (s) => s.matches('connectionError'));
    const b = start({ fail: new ApiError('server', 500, {}) }).actor;
    await waitFor(b, (s) => s.matches('error'));
    const c = start({ fail: new ApiError('unauthorized', 401, {}) }).actor;
    await waitFor(c, (s) => s.matches('forceLogout'));
    const d = start({ rowFail: new Map([[4, new ApiError('unauthorized', 401, {})]]) }).actor;
    await idle(d);
    d.send({ type: 'table.expand', id: 4 });
    await waitFor(d, (s) => s.matches('forceLogout'));
  });

  it('lists 50 000 loaded rows depth first, later pages and table members alike', () => {
    const data = fromTableView(tableView());
    // 1 → 2 → 500 children each with 100 children, all loaded later
    let next = 1000;
    data.children[2] = [];
    data.known[2] = true;
    data.expanded[2] = true;
    for (let i = 0; i < 500; i++) {
      const id = next++;
      data.nodes[id] = tableNode(id, 2, { child_count: 100 });
      data.children[2].push(id);
      data.children[id] = [];
      data.expanded[id] = true;
      for (let j = 0; j < 100; j++) {
        const c = next++;
        data.nodes[c] = tableNode(c, id);
        data.children[id].push(c);
      }
    }
    const rows = visibleRows({ data, rootId: 1, fetching: null, queue: [], rowErrors: {} });
    expect(rows.length).toBe(3 + 500 * 101);
    expect(rows[2]).toMatchObject({ kind: 'node', id: 1000, depth: 2 });
    expect(rows[3]).toMatchObject({ kind: 'node', id: 1001, depth: 3 });
    // A 50 000 member first answer: one stretch of rows below the member.
    const children = Array.from({ length: 50_000 }, (_, i) => ({ ...tableNode(10 + i, 1), children: [] }));
    const wide = fromTableView({ ...tableView(), genealogy: { ...tableNode(1, null, { child_count: 50_000 }), children } });
    const list = rowList({ data: wide, rootId: 1, fetching: null, queue: [], rowErrors: {} });
    expect([list.length, list.members, list.starts.length]).toEqual([50_001, 50_001, 2]);
    expect(rowAt({ data: wide, rootId: 1, fetching: null, queue: [], rowErrors: {} }, list, 40_000)).toMatchObject({ kind: 'node', id: 40_009, depth: 1 });
  });

  it('lists rows exactly as a plain walk of the loaded tree does, whatever is expanded, loading, failed or loaded later', () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let round = 0; round < 60; round++) {
      // A first answer: some members carry all their children, some only part, some none.
      let nextId = 2;
      const all: NestedTableNode[] = [];
      const grow = (id: number, level: number): NestedTableNode => {
        const count = level < 3 ? Math.floor(rand() * 5) : 0;
        const carried = rand() < 0.7 ? count : Math.floor(rand() * count);
        const node: NestedTableNode = { ...tableNode(id, null, { level, child_count: count + (level === 3 && rand() < 0.5 ? 2 : 0) }), children: [] };
        all.push(node);
        for (let k = 0; k < carried; k++) node.children.push(grow(nextId++, level + 1));
        return node;
      };
      const answer: TableView = { genealogy: grow(1, 0), search_valid: false, max_levels: 4, levels_loaded: 3 };
      let data = fromTableView(answer);
      // Later pages for some members, first pages or continued.
      const ids = all.map((n) => n.id);
      for (const id of ids) {
        if (rand() < 0.15) {
          const page: TableViewSingle = {
            genealogy: Array.from({ length: 1 + Math.floor(rand() * 3) }, () => tableNode(nextId++, id, { child_count: rand() < 0.3 ? 1 : 0 })),
            search_valid: false,
            max_levels: 1,
            level: 1,
            root_affiliate_id: id,
            next_page_url: rand() < 0.5 ? `/api/network/table_view_single/${id}?level=1&page=2&after=1` : null,
          };
          data = withChildren(data, id, page, rand() < 0.5);
        }
      }
      const every = [...ids, ...Object.keys(data.nodes).map(Number)];
      for (const id of every) if (rand() < 0.5) data.expanded[id] = true;
      for (const id of every) if (rand() < 0.2) delete data.expanded[id];
      const rowErrors: Record<number, ErrorInfo> = {};
      for (const id of every) if (rand() < 0.05) rowErrors[id] = errorInfo(new ConnectionError());
      const waiting = every.filter(() => rand() < 0.05);
      const ctx = { data, rootId: 1, fetching: waiting.length ? { id: waiting[0] } : null, queue: waiting.slice(1).map((id) => ({ id })), rowErrors };
      expect(visibleRows(ctx).map(show)).toEqual(plainWalk(answer, data, ctx).map(show));
    }
  });
});

const show = (r: TableRow) => (r.kind === 'node' ? [r.id, r.depth, r.node.username, r.expanded, r.expandable] : [r.kind, r.id, r.depth]);

/**
 * The rows of a walk over member records keyed by id: the first answer's members, each with its carried
 * children when complete, with the later pages over them.
 */
type Waiting = { fetching: RowRequest | null; queue: RowRequest[]; rowErrors: Record<number, ErrorInfo> };

function plainWalk(answer: TableView, data: TableData, ctx: Waiting): TableRow[] {
  const nodes: Record<number, TableNode> = {};
  const children: Record<number, number[]> = {};
  const stack: NestedTableNode[] = [answer.genealogy];
  while (stack.length) {
    const n = stack.pop()!;
    nodes[n.id] = n;
    children[n.id] = n.children.length >= n.child_count ? n.children.map((c) => c.id) : [];
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  Object.assign(nodes, data.nodes);
  Object.assign(children, data.children);
  const waiting = new Set([...ctx.queue.map((q) => q.id), ...(ctx.fetching ? [ctx.fetching.id] : [])]);
  const rows: TableRow[] = [];
  const walk = (id: number, depth: number) => {
    const node = nodes[id];
    if (!node) return;
    const expanded = !!data.expanded[id];
    rows.push({ kind: 'node', id, depth, node, expanded, expandable: node.child_count > 0 });
    if (expanded) for (const k of children[id] ?? []) walk(k, depth + 1);
    const err = ctx.rowErrors[id];
    if (err) rows.push({ kind: 'error', id, depth: depth + 1, error: err });
    else if (waiting.has(id)) rows.push({ kind: 'pending', id, depth: depth + 1 });
    else if (expanded && data.next[id]) rows.push({ kind: 'more', id, depth: depth + 1 });
  };
  walk(answer.genealogy.id, 0);
  return rows;
}

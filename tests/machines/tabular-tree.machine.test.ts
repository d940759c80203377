import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { tabularTreeMachine, visibleRows, fromTableView, type RowRequest } from '../../src/machines/tabular-tree.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import type { NestedTableNode, TableView, TableViewSingle } from '../../src/schemas/network.schema';
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

  it('lists 50 000 loaded rows depth first quickly', () => {
    const data = fromTableView(tableView());
    // 1 → 2 → 500 children each with 100 children
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
    const t0 = performance.now();
    const rows = visibleRows({ data, rootId: 1, fetching: null, queue: [], rowErrors: {} });
    const ms = performance.now() - t0;
    expect(rows.length).toBeGreaterThan(50_000);
    expect(rows[2]).toMatchObject({ kind: 'node', id: 1000, depth: 2 });
    expect(rows[3]).toMatchObject({ kind: 'node', id: 1001, depth: 3 });
    expect(ms).toBeLessThan(500);
  });
});

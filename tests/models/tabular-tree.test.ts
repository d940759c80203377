import { tabularTreeMachine } from '../../src/machines/tabular-tree.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import type { NestedTableNode, TableView, TableViewSingle } from '../../src/schemas/network.schema';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';
import { tableNode } from '../support/network-fixtures';

const n = (id: number, child_count: number, children: NestedTableNode[] = []): NestedTableNode => ({ ...tableNode(id, null, { child_count }), children });
const view: TableView = { genealogy: n(1, 1, [n(2, 2)]), search_valid: false, max_levels: 2, levels_loaded: 1 };
const page = (next: string | null): TableViewSingle => ({
  genealogy: [tableNode(3, 2, { level: 2, child_count: 1 })],
  search_valid: false,
  max_levels: 1,
  level: 1,
  root_affiliate_id: 2,
  next_page_url: next,
});

describePaths('tabular tree machine paths', {
  machine: stubActors(tabularTreeMachine),
  events: [
    doneEvent('loadTable', view),
    errorEvent('loadTable', new ConnectionError()),
    errorEvent('loadTable', new ApiError('server', 500, {})),
    errorEvent('loadTable', new ApiError('unauthorized', 401, {})),
    { type: 'table.retry' },
    { type: 'table.expand', id: 1 },
    { type: 'table.expand', id: 2 },
    { type: 'table.collapse', id: 2 },
    { type: 'table.more', id: 2 },
    { type: 'table.expand', id: 3 },
    doneEvent('loadRow', page('/api/network/table_view_single/2?level=1&page=2&after=3')),
    errorEvent('loadRow', new ConnectionError()),
    errorEvent('loadRow', new ApiError('unauthorized', 401, {})),
  ],
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.fetching,
      s.context.queue,
      Object.keys(s.context.rowErrors),
      Object.keys(s.context.data.expanded),
      Object.keys(s.context.data.known),
      s.context.data.next[2] ?? null,
    ]),
});

import { ApiError, ConnectionError } from '../../src/api/errors';
import { createPagedListMachine } from '../../src/machines/paged-list.machine';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

const machine = createPagedListMachine<{ id: number }, { sort: string }>('pagedList', () => new Promise(() => {}));

describePaths('paged list machine', {
  machine: stubActors(machine),
  inputs: [{ filters: { sort: 'desc' } }],
  // Identify states by status, whether rows are shown (none, one page, more) and a next page exists.
  serializeState: (s) => {
    const c = s.context as { items: unknown[]; next: unknown; filters: unknown };
    return JSON.stringify([s.value, Math.min(c.items.length, 2), c.next !== null, c.filters]);
  },
  events: [
    doneEvent('fetchPage', { items: [{ id: 1 }], next: { cursor: 'c2' } }),
    doneEvent('fetchPage', { items: [{ id: 2 }], next: null }),
    doneEvent('fetchPage', { items: [], next: null }),
    errorEvent('fetchPage', new ConnectionError()),
    errorEvent('fetchPage', new ApiError('server', 500, {})),
    errorEvent('fetchPage', new ApiError('unauthorized', 401, {})),
    { type: 'list.setFilters', filters: { sort: 'asc' } },
  ],
  limit: 5000,
});

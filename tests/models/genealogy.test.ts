import { genealogyMachine } from '../../src/machines/genealogy.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';
import { fullTree, genealogyAnswer } from '../support/network-fixtures';

const tree = genealogyAnswer(fullTree(1, 2, 2, 'binary'), { max_levels: 2 });
const found = genealogyAnswer(fullTree(5, 2, 2, 'binary', 2).map((n, i) => (i === 0 ? { ...n, parent_id: 2 } : n)), {
  search_valid: true,
  parent_username: 'm2',
  root_affiliate_id: 5,
});
const branch = genealogyAnswer(fullTree(4, 2, 2, 'binary', 2).map((n, i) => (i === 0 ? { ...n, parent_id: 2 } : { ...n, id: n.id + 100 })), {
  root_affiliate_id: 4,
});

describePaths('genealogy machine paths', {
  machine: stubActors(genealogyMachine),
  inputs: [undefined, { username: 'm5' }],
  events: [
    doneEvent('loadRoot', tree),
    doneEvent('loadRoot', found),
    errorEvent('loadRoot', new ConnectionError()),
    errorEvent('loadRoot', new ApiError('server', 500, {})),
    errorEvent('loadRoot', new ApiError('unauthorized', 401, {})),
    { type: 'tree.retry' },
    { type: 'tree.expand', id: 4 },
    { type: 'tree.expand', id: 2 },
    { type: 'tree.expand', id: 5 },
    { type: 'tree.collapse', id: 2 },
    { type: 'tree.search', username: 'm5' },
    { type: 'tree.search', username: '  ' },
    { type: 'tree.up' },
    { type: 'tree.top' },
    { type: 'tree.open', id: 3 },
    { type: 'tree.dismiss' },
    doneEvent('loadBranch', branch),
    errorEvent('loadBranch', new ConnectionError()),
    errorEvent('loadBranch', new ApiError('unauthorized', 401, {})),
    doneEvent('search', found),
    doneEvent('search', tree),
    errorEvent('search', new ApiError('forbidden', 403, { error_code: 'not_in_network' })),
    errorEvent('search', new ConnectionError()),
    errorEvent('search', new ApiError('unauthorized', 401, {})),
    doneEvent('reroot', tree),
    doneEvent('reroot', found),
    errorEvent('reroot', new ApiError('forbidden', 403, { error_code: 'not_in_network' })),
    errorEvent('reroot', new ConnectionError()),
    errorEvent('reroot', new ApiError('unauthorized', 401, {})),
  ],
  // What the paths are about: the state, where the drawing starts, what is queued, failed or refused.
  serializeState: (s) =>
    JSON.stringify([
      s.value,
      s.context.rootId,
      s.context.topId,
      s.context.expanding,
      s.context.queue,
      Object.keys(s.context.nodeErrors),
      s.context.notInNetwork !== null,
      !!s.context.actionError,
      Object.keys(s.context.data.collapsed),
      s.context.query,
    ]),
  limit: 50000,
});

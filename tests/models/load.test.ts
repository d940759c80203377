import { createLoadMachine } from '../../src/machines/load.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

const machine = stubActors(createLoadMachine('summary', (_: { month: string }) => Promise.resolve({ total: '1' })));

describePaths('load machine paths', {
  machine,
  inputs: [{ params: { month: '2026-01' } }, { params: { month: '2026-01' }, autoStart: false }],
  events: [
    { type: 'load.start', params: { month: '2026-02' } },
    { type: 'load.refresh', params: { month: '2026-03' } },
    { type: 'load.retry' },
    doneEvent('load', { total: '12.50' }),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    errorEvent('load', new ApiError('server', 500, {})),
  ],
  // Data and params change with every sample; the status is what the paths are about.
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.kind ?? null, s.context.autoStart]),
});

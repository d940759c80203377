import { createRequestMachine } from '../../src/machines/request.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

const machine = stubActors(createRequestMachine('passwordChange', (_: { password: string }) => Promise.resolve({ message: 'ok' })));

describePaths('request machine paths', {
  machine,
  events: [
    { type: 'request.submit', values: { password: 'x' } },
    { type: 'request.retry' },
    { type: 'request.reset' },
    doneEvent('submit', { message: 'ok' }),
    errorEvent('submit', new ConnectionError()),
    errorEvent('submit', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:required'] } })),
    errorEvent('submit', new ApiError('server', 500, {})),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.kind ?? null, s.context.data !== null]),
});

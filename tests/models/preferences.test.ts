import { ApiError, ConnectionError } from '../../src/api/errors';
import { preferencesMachine } from '../../src/machines/preferences.machine';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

describePaths('preferences paths', {
  machine: stubActors(preferencesMachine),
  events: [
    { type: 'preferences.save', values: { currency: 'EUR' } },
    { type: 'preferences.save', values: { currency: '' } },
    { type: 'preferences.change', field: 'currency', value: 'USD' },
    doneEvent('request', { id: 1 }),
    errorEvent('request', new ConnectionError()),
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { currency: ['validation:invalidChoice'] } })),
    errorEvent('request', new ApiError('server', 500, {})),
    errorEvent('request', new ApiError('forbidden', 403, { error_code: 'demo_blocked' })),
    errorEvent('request', new ApiError('unauthorized', 401, {})),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.values]),
});

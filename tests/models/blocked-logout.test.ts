import { blockedLogoutMachine } from '../../src/machines/blocked-logout.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

describePaths('blockedLogout machine paths', {
  machine: stubActors(blockedLogoutMachine),
  inputs: [{ search: '' }],
  events: [
    doneEvent('logout'),
    errorEvent('logout', new ConnectionError()),
    errorEvent('logout', new ApiError('server', 500, {})),
    errorEvent('logout', new ApiError('unauthorized', 401, {})),
  ],
});

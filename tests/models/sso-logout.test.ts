import { ssoLogoutMachine } from '../../src/machines/sso-logout.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

describePaths('ssoLogout machine paths', {
  machine: stubActors(ssoLogoutMachine),
  inputs: [
    { search: '?token=abcdefabcdefabcdef', authenticated: true },
    { search: '?token=abcdefabcdefabcdef', authenticated: false },
    { search: '', authenticated: true },
  ],
  events: [
    doneEvent('call'),
    errorEvent('call', new ConnectionError()),
    errorEvent('call', new ApiError('server', 500, { error_code: 'server_error' })),
    errorEvent('call', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { sso_token: ['validation:invalidToken'] } })),
    { type: 'sso.retry' },
  ],
});

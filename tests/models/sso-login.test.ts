import { ssoLoginMachine } from '../../src/machines/sso-login.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';
import { loginResponse } from '../support/session-fixtures';

const invokeId = 'call';

describePaths('ssoLogin machine paths', {
  machine: stubActors(ssoLoginMachine),
  inputs: [{ search: '?token=abcdefabcdefabcdef&redirect=%2Fmember%2Fwallet' }, { search: '' }],
  events: [
    doneEvent(invokeId, loginResponse()),
    errorEvent(invokeId, new ConnectionError()),
    errorEvent(invokeId, new ApiError('server', 500, { error_code: 'server_error' })),
    errorEvent(invokeId, new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { sso_token: ['validation:invalidToken'] } })),
    { type: 'sso.retry' },
    { type: 'route.changed', path: '/sso_login', search: '' },
  ],
});

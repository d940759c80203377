/**
 * Generated paths of the account hub's own flows: the account deletion (load who the member is, the
 * typed username, the password, DELETE /api/users and every way it can fail) and the personal data export
 * (a request without fields: the file, or a connection, server, throttled or session failure).
 */
import { ApiError, ConnectionError } from '../../src/api/errors';
import { accountDeletionMachine } from '../../src/machines/account/account-deletion.machine';
import { dataExportMachine } from '../../src/machines/account/account-hub.machine';
import { ACCOUNT_MEMBER as MEMBER } from '../support/account-fixtures';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';


describePaths('account deletion machine', {
  machine: stubActors(accountDeletionMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.loaded !== null, s.context.values.confirmation, s.context.password !== '', s.context.saved, s.context.failure]),
  events: [
    doneEvent('load', MEMBER),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('server', 500, {})),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    { type: 'accountDeletion.change', field: 'confirmation', value: 'someone-else' },
    { type: 'accountDeletion.change', field: 'confirmation', value: 'lucia41' },
    { type: 'accountDeletion.change', field: 'password', value: 'Demo-pass-2026' },
    doneEvent('request', { message: 'Your account was removed.' }),
    ...memberCallFailures('request'),
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } })),
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { store_token: ['validation:required'] } })),
  ],
});

describePaths('personal data export machine', {
  machine: stubActors(dataExportMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.saved, s.context.failure]),
  // The export has no fields: its check can never find one invalid.
  unreachable: ['dataExport.checking always #0'],
  events: [
    doneEvent('request', 'upline-personal-data-demo-2026-11-25.json'),
    ...memberCallFailures('request'),
    errorEvent('request', new ApiError('badRequest', 429, { error_code: 'rate_limited' })),
  ],
});

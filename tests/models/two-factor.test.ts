import { ApiError, ConnectionError } from '../../src/api/errors';
import { twoFactorSettingsMachine } from '../../src/machines/account/two-factor.machine';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

const OFF = { enabled: false, enabled_at: null, recovery_codes_left: 0 };
const ON = { enabled: true, enabled_at: '2026-11-25T10:00:00.000Z', recovery_codes_left: 10 };
const SETUP = { secret: 'ABCD EFGH', otpauth_uri: 'otpauth://totp/Upline:jdoe?secret=ABCDEFGH', qr_code: 'data:image/png;base64,AAAA' };
const CODES = { recovery_codes: ['AAAAA-BBBBB'] };

describePaths('two-factor settings machine', {
  machine: stubActors(twoFactorSettingsMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.status?.enabled ?? null, !!s.context.setup, !!s.context.recoveryCodes]),
  events: [
    doneEvent('loadStatus', OFF),
    doneEvent('loadStatus', ON),
    errorEvent('loadStatus', new ConnectionError()),
    errorEvent('loadStatus', new ApiError('server', 500, {})),
    errorEvent('loadStatus', new ApiError('unauthorized', 401, {})),
    { type: 'twoFactor.retry' },
    { type: 'twoFactor.start' },
    { type: 'twoFactor.disable' },
    { type: 'twoFactor.renew' },
    { type: 'twoFactor.cancel' },
    { type: 'twoFactor.done' },
    { type: 'twoFactor.formDone', step: 'setup', result: SETUP },
    { type: 'twoFactor.formDone', step: 'confirm', result: CODES },
    { type: 'twoFactor.formDone', step: 'disable', result: { message: 'off' } },
    { type: 'twoFactor.formDone', step: 'renew', result: CODES },
    { type: 'twoFactor.notify', params: { kind: 'success', key: 'account:twoFactor.enabledToast' } },
    { type: 'twoFactor.sessionEnded' },
  ],
});

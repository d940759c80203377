/**
 * Generated paths of the account forms declared on the form factory without a model of their own: the
 * password change (policy loaded, current and new password, confirmation) and the four two-factor forms
 * (set up with the password, confirm with the first code, turn off with a code or a recovery code,
 * renew the recovery codes). Each path checks the call made with what was typed, the toast, the values
 * handed on, the field errors and the forced logout (tests/support/form-paths.ts).
 */
import { ApiError } from '../../src/api/errors';
import { passwordChangeMachine } from '../../src/machines/account/password-change.machine';
import { twoFactorForms } from '../../src/machines/account/two-factor.machine';
import { formPathModel } from '../support/form-paths';
import { describePaths, doneEvent, errorEvent, memberCallFailures } from '../support/paths';

const POLICY = { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false };
const refused = (field: string, key: string) => errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { [field]: [key] } }));
const loadFailures = [
  errorEvent('load', new ApiError('server', 500, {})),
  errorEvent('load', new ApiError('unauthorized', 401, {})),
  ...memberCallFailures('load').slice(0, 1),
];

describePaths('password change form', {
  ...formPathModel(passwordChangeMachine, {
    successKey: 'account:password.changed',
    events: [
      doneEvent('load', { password_policy: POLICY }),
      ...loadFailures,
      { type: 'passwordChange.save', values: { current_password: 'Old-pass-2026', password: 'short', password_confirmation: 'short' } },
      { type: 'passwordChange.save', values: { current_password: 'Old-pass-2026', password: 'New-pass-2026', password_confirmation: 'New-pass-2026' } },
      { type: 'passwordChange.change', field: 'password', value: 'New-pass-2027' },
      doneEvent('request', { message: 'Password changed' }),
      ...memberCallFailures('request'),
      refused('current_password', 'validation:invalidPassword'),
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.loaded !== null, s.context.values.password, s.context.saved, s.context.failure]),
  }),
});

describePaths('two-factor set-up form', {
  ...formPathModel(twoFactorForms.setup, {
    events: [
      { type: 'twoFactorSetup.change', field: 'password', value: 'Demo-pass-2026' },
      { type: 'twoFactorSetup.submit' },
      doneEvent('request', { secret: 'ABCD EFGH', otpauth_uri: 'otpauth://totp/Upline:demo?secret=ABCDEFGH', qr_code: 'data:image/png;base64,AAAA' }),
      ...memberCallFailures('request'),
      refused('password', 'validation:invalidPassword'),
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.password !== '', s.context.saved, s.context.failure]),
  }),
});

describePaths('two-factor confirm form', {
  ...formPathModel(twoFactorForms.confirm, {
    events: [
      { type: 'twoFactorConfirm.save', values: { code: '12' } },
      { type: 'twoFactorConfirm.save', values: { code: '123 456' } },
      { type: 'twoFactorConfirm.change', field: 'code', value: '654321' },
      doneEvent('request', { recovery_codes: ['AAAAA-BBBBB'] }),
      ...memberCallFailures('request'),
      refused('code', 'validation:twoFactorCodeInvalid'),
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.values.code, s.context.saved, s.context.failure]),
  }),
});

describePaths('two-factor turn-off form', {
  ...formPathModel(twoFactorForms.disable, {
    events: [
      { type: 'twoFactorDisable.change', field: 'password', value: 'Demo-pass-2026' },
      { type: 'twoFactorDisable.save', values: { method: 'code', code: '', recovery_code: '' } },
      { type: 'twoFactorDisable.save', values: { method: 'recovery', code: '', recovery_code: 'AAAAA-BBBBB' } },
      { type: 'twoFactorDisable.change', field: 'code', value: '123456' },
      doneEvent('request', { message: 'Two-factor sign-in is off' }),
      ...memberCallFailures('request'),
      refused('code', 'validation:twoFactorCodeInvalid'),
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.values, s.context.password !== '', s.context.saved, s.context.failure]),
  }),
});

describePaths('two-factor recovery codes renewal form', {
  ...formPathModel(twoFactorForms.renew, {
    events: [
      { type: 'twoFactorRenew.change', field: 'password', value: 'Demo-pass-2026' },
      { type: 'twoFactorRenew.submit' },
      doneEvent('request', { recovery_codes: ['CCCCC-DDDDD'] }),
      ...memberCallFailures('request'),
      refused('password', 'validation:invalidPassword'),
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.password !== '', s.context.saved, s.context.failure]),
  }),
});

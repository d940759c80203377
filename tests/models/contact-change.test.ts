/**
 * Path tests of the contact and wallet password forms (src/machines/account/contact-change.machine.ts,
 * wallet-password.machine.ts): every state and transition reached with the answers their calls can give.
 */
import { ApiError, ConnectionError } from '../../src/api/errors';
import { emailChangeMachine, phoneChangeMachine } from '../../src/machines/account/contact-change.machine';
import { walletPasswordMachine, walletPasswordPageMachine, walletPasswordResetMachine } from '../../src/machines/account/wallet-password.machine';
import { codeStepAnswers, refusal } from '../support/form-samples';
const failures = memberCallFailures;
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

const DETAILS = { email: 'new@example.com', mobile_code: '+1', mobile: '5550100' };
const POLICY = { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false };
const loads = (loaded: unknown) => [
  doneEvent('load', loaded),
  errorEvent('load', new ConnectionError()),
  errorEvent('load', new ApiError('server', 500, {})),
  errorEvent('load', new ApiError('unauthorized', 401, {})),
];

describePaths('e-mail change machine', {
  machine: stubActors(emailChangeMachine),
  events: [
    ...loads({ email: 'old@example.com' }),
    { type: 'emailChange.change', field: 'password', value: 'secret' },
    { type: 'emailChange.change', field: 'otp', value: '123456' },
    { type: 'emailChange.save', values: { email: 'not-an-email' } },
    { type: 'emailChange.save', values: { email: 'new@example.com' } },
    ...codeStepAnswers('email', 'validation:emailTaken', DETAILS),
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.password !== '', s.context.values.otp !== '', s.context.values.email, s.context.resendIn]),
});

describePaths('mobile change machine', {
  machine: stubActors(phoneChangeMachine),
  events: [
    ...loads({ mobile_code: '+1', mobile: '5550100', countries: [] }),
    { type: 'phoneChange.change', field: 'password', value: 'secret' },
    { type: 'phoneChange.change', field: 'otp', value: '123456' },
    { type: 'phoneChange.save', values: { mobile_code: '+1', mobile: '12' } },
    { type: 'phoneChange.save', values: { mobile_code: '+44', mobile: '700900123' } },
    ...codeStepAnswers('mobile', 'validation:phoneTaken', DETAILS),
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.password !== '', s.context.values.otp !== '', s.context.values.mobile, s.context.resendIn]),
});

const STATUS = { is_set: false, password_policy: POLICY, reset_destination: 'd***@example.com' };

describePaths('wallet password machine', {
  machine: stubActors(walletPasswordMachine),
  events: [
    ...loads(STATUS),
    doneEvent('load', { ...STATUS, is_set: true }),
    { type: 'walletPassword.change', field: 'password', value: 'Account-pass-1' },
    { type: 'walletPassword.save', values: { wallet_password: 'weak', wallet_password_confirmation: 'weak' } },
    { type: 'walletPassword.save', values: { current_wallet_password: 'Wallet-pass-1', wallet_password: 'Wallet-pass-2', wallet_password_confirmation: 'Wallet-pass-2' } },
    doneEvent('request', { ...STATUS, is_set: true }),
    ...failures('request'),
    errorEvent('request', refusal('current_wallet_password', 'validation:invalidPassword')),
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.loaded?.is_set ?? null, s.context.password !== '', s.context.values.wallet_password]),
});

describePaths('wallet password reset machine', {
  machine: stubActors(walletPasswordResetMachine),
  events: [
    ...loads({ ...STATUS, is_set: true }),
    { type: 'walletPasswordReset.change', field: 'otp', value: '123456' },
    { type: 'walletPasswordReset.save', values: { wallet_password: 'weak', wallet_password_confirmation: 'weak' } },
    { type: 'walletPasswordReset.save', values: { wallet_password: 'Wallet-pass-2', wallet_password_confirmation: 'Wallet-pass-2' } },
    ...codeStepAnswers('otp', 'account:walletPassword.errors.notSet', STATUS),
  ],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.values.otp !== '', s.context.values.wallet_password, s.context.resendIn]),
});

describePaths('wallet password page machine', {
  machine: stubActors(walletPasswordPageMachine),
  events: [{ type: 'walletPassword.forgot' }, { type: 'walletPassword.back' }, { type: 'walletPassword.saved' }, { type: 'page.notify', params: { kind: 'success', key: 'x' } }, { type: 'page.forceLogout' }],
});

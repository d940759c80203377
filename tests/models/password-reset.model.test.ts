import type { EventFromLogic, SnapshotFrom } from 'xstate';
import { newPasswordErrors, passwordResetMachine } from '../../src/machines/password-reset.machine';
import { identifierErrors } from '../../src/lib/validation';
import { otpError } from '../../src/lib/code-and-password';
import { apiError, describeGeneratedPaths, otpSent, resetFields } from '../support/auth-flows';

type Snap = SnapshotFrom<typeof passwordResetMachine>;
type Ev = EventFromLogic<typeof passwordResetMachine>;

const FAILURES = [apiError.rateLimited(30), apiError.connection(), apiError.server()];
const route = (path: string): Ev => ({ type: 'route.changed', path, search: '' });

function events(): Ev[] {
  const ev = (e: object) => e as Ev;
  return [
    ev({ type: 'xstate.done.actor.loadFields', output: { fields: resetFields(), phoneCode: '34' } }),
    ev({ type: 'xstate.error.actor.loadFields', error: apiError.connection() }),
    ev({ type: 'xstate.error.actor.loadFields', error: apiError.server() }),
    { type: 'load.retry' },
    { type: 'reset.use', using: 'mobile_code' },
    { type: 'reset.change', field: 'email', value: 'jane@example.com' },
    { type: 'reset.change', field: 'otp', value: '123456' },
    { type: 'reset.change', field: 'otp', value: '' },
    { type: 'reset.change', field: 'password', value: 'Better-pass1' },
    { type: 'reset.change', field: 'password_confirmation', value: 'Better-pass1' },
    { type: 'reset.send' },
    { type: 'reset.verify' },
    { type: 'reset.submit' },
    { type: 'reset.back' },
    { type: 'reset.signIn' },
    { type: 'otp.resend' },
    { type: 'otp.tick' },
    route('/password/forgot'),
    route('/password/forgot/otp'),
    route('/password/reset'),
    route('/password/reset/success'),
    ev({ type: 'xstate.done.actor.send', output: otpSent({ resend_in: 1 }) }),
    ...[apiError.validation({ email: 'validation:invalidEmail' }), ...FAILURES].map((error) => ev({ type: 'xstate.error.actor.send', error })),
    ev({ type: 'xstate.done.actor.resend', output: otpSent({ resend_in: 1 }) }),
    ...FAILURES.map((error) => ev({ type: 'xstate.error.actor.resend', error })),
    ev({ type: 'xstate.done.actor.check', output: { valid: true } }),
    ev({ type: 'xstate.done.actor.check', output: { valid: false } }),
    ...[
      apiError.validation({ otp: 'validation:otpTooManyAttempts' }),
      apiError.validation({ otp: 'validation:otpExpired' }),
      apiError.validation({ otp: 'validation:otpInvalid' }),
      ...FAILURES,
    ].map((error) => ev({ type: 'xstate.error.actor.check', error })),
    ev({ type: 'xstate.done.actor.reset', output: { message: 'ok' } }),
    ...[
      apiError.validation({ otp: 'validation:otpTooManyAttempts' }),
      apiError.validation({ otp: 'validation:otpExpired' }),
      apiError.validation({ otp: 'validation:otpInvalid' }),
      apiError.validation({ password: 'validation:passwordSpecial' }),
      ...FAILURES,
    ].map((error) => ev({ type: 'xstate.error.actor.reset', error })),
  ];
}

/** Only what the guards of the current step read, so the graph stays small. */
const serialize = (s: Snap) => {
  const c = s.context;
  const at = (...states: string[]) => states.some((st) => s.matches(st as never));
  if (at('loading')) return JSON.stringify({ value: s.value, path: c.path });
  if (at('request', 'sending'))
    return JSON.stringify({
      value: s.value,
      using: c.resetUsing,
      identifier: Object.keys(identifierErrors(c.resetUsing, c.values)).length === 0,
      sent: c.sent,
    });
  if (at('code', 'checking', 'resending'))
    return JSON.stringify({ value: s.value, otp: otpError(c.values.otp) === null, counting: c.resendIn > 0, checked: c.codeChecked });
  if (at('choose', 'resetting'))
    return JSON.stringify({
      value: s.value,
      otp: otpError(c.values.otp) === null,
      passwords: Object.keys(newPasswordErrors(c)).length === 0,
      password: c.values.password !== '',
      confirmation: c.values.password_confirmation !== '',
    });
  return JSON.stringify({ value: s.value });
};

describeGeneratedPaths('password reset machine — generated paths', passwordResetMachine, {
  events,
  serialize,
  expectedStates: ['passwordReset.choose.invalid', 'passwordReset.success'],
  sources: ['loadResetFields', 'sendResetOtp', 'checkResetOtp', 'resetPassword'],
  silentTicker: true,
});

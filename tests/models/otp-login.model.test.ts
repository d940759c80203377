import type { EventFromLogic, SnapshotFrom } from 'xstate';
import { otpLoginMachine } from '../../src/machines/otp-login.machine';
import { identifierErrors } from '../../src/lib/validation';
import { otpError } from '../../src/lib/code-and-password';
import { apiError, describeGeneratedPaths, loginFields, otpSent } from '../support/auth-flows';
import { loginResponse } from '../support/session-fixtures';

type Snap = SnapshotFrom<typeof otpLoginMachine>;
type Ev = EventFromLogic<typeof otpLoginMachine>;

const FAILURES = [apiError.rateLimited(30), apiError.connection(), apiError.server()];

function events(): Ev[] {
  const ev = (e: object) => e as Ev;
  return [
    ev({ type: 'xstate.done.actor.loadFields', output: { fields: loginFields(), phoneCode: '34' } }),
    ev({ type: 'xstate.done.actor.loadFields', output: { fields: loginFields({ login_with_otp: false }), phoneCode: '34' } }),
    ev({ type: 'xstate.error.actor.loadFields', error: apiError.connection() }),
    ev({ type: 'xstate.error.actor.loadFields', error: apiError.server() }),
    { type: 'load.retry' },
    { type: 'auth.use', using: 'mobile_code' },
    { type: 'otp.change', field: 'email', value: 'jane@example.com' },
    { type: 'otp.change', field: 'otp', value: '123456' },
    { type: 'otp.send' },
    { type: 'otp.verify' },
    { type: 'otp.resend' },
    { type: 'otp.tick' },
    { type: 'otp.back' },
    ev({ type: 'xstate.done.actor.send', output: otpSent({ resend_in: 1 }) }),
    ...[apiError.validation({ email: 'validation:invalidEmail' }), ...FAILURES].map((error) => ev({ type: 'xstate.error.actor.send', error })),
    ev({ type: 'xstate.done.actor.resend', output: otpSent({ resend_in: 1 }) }),
    ...FAILURES.map((error) => ev({ type: 'xstate.error.actor.resend', error })),
    ev({ type: 'xstate.done.actor.verify', output: loginResponse() }),
    ...[
      apiError.validation({ otp: 'validation:otpTooManyAttempts' }),
      apiError.validation({ otp: 'validation:otpExpired' }),
      apiError.validation({ otp: 'validation:otpInvalid' }),
      ...FAILURES,
    ].map((error) => ev({ type: 'xstate.error.actor.verify', error })),
  ];
}

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    using: s.context.loginUsing,
    identifier: Object.keys(identifierErrors(s.context.loginUsing, s.context.values)).length === 0,
    otp: otpError(s.context.values.otp) === null,
    counting: s.context.resendIn > 0,
    status: s.status,
  });

describeGeneratedPaths('OTP login machine — generated paths', otpLoginMachine, {
  events,
  serialize,
  expectedStates: ['otpLogin.code.expired', 'otpLogin.identify.tooManyAttempts'],
  sources: ['loadLoginFields', 'sendOtp', 'loginWithOtp'],
  silentTicker: true,
});

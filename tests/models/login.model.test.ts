import type { EventFromLogic, SnapshotFrom } from 'xstate';
import { loginMachine } from '../../src/machines/login.machine';
import { identifierErrors } from '../../src/lib/validation';
import { apiError, describeGeneratedPaths, loginFields } from '../support/auth-flows';
import { loginResponse } from '../support/session-fixtures';

type Snap = SnapshotFrom<typeof loginMachine>;
type Ev = EventFromLogic<typeof loginMachine>;

const SUBMIT_ERRORS = [
  apiError.validation({ password: 'validation:invalidCredentials' }),
  apiError.rateLimited(30),
  apiError.connection(),
  apiError.server(),
];

const TWO_FACTOR_ERRORS = [
  apiError.validation({ code: 'validation:twoFactorCodeInvalid' }),
  apiError.validation({ challenge: 'validation:twoFactorChallengeExpired' }),
  apiError.rateLimited(60),
  apiError.connection(),
  apiError.server(),
];

function events(): Ev[] {
  return [
    { type: 'xstate.done.actor.loadFields', output: { fields: loginFields({ phone_unique: false }), phoneCode: '34' } } as never,
    { type: 'xstate.error.actor.loadFields', error: apiError.connection() } as never,
    { type: 'xstate.error.actor.loadFields', error: apiError.server() } as never,
    { type: 'load.retry' },
    { type: 'auth.use', using: 'email' },
    { type: 'auth.use', using: 'mobile_code' },
    { type: 'auth.change', field: 'email', value: 'jane@example.com' },
    { type: 'auth.change', field: 'password', value: 'Secret-1' },
    { type: 'auth.continue' },
    { type: 'auth.back' },
    { type: 'auth.submit' },
    { type: 'route.changed', path: '/login', search: '' },
    { type: 'route.changed', path: '/login/continue', search: '' },
    { type: 'xstate.done.actor.login', output: loginResponse() } as never,
    ...SUBMIT_ERRORS.map((error) => ({ type: 'xstate.error.actor.login', error }) as never),
    // Two-factor sign-in: the password answers a challenge, the code step completes it.
    { type: 'xstate.done.actor.login', output: { two_factor_required: true, challenge: 'challenge-1', expires_in: 300 } } as never,
    { type: 'route.changed', path: '/login/two-factor', search: '' },
    { type: 'auth.change', field: 'totp', value: '123456' },
    { type: 'auth.useRecovery', recovery: true },
    { type: 'auth.useRecovery', recovery: false },
    { type: 'auth.verify' },
    { type: 'xstate.done.actor.loginTwoFactor', output: loginResponse() } as never,
    ...TWO_FACTOR_ERRORS.map((error) => ({ type: 'xstate.error.actor.loginTwoFactor', error }) as never),
  ];
}

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    using: s.context.loginUsing,
    identifier: Object.keys(identifierErrors(s.context.loginUsing, s.context.values)).length === 0,
    password: s.context.values.password !== '',
    challenge: !!s.context.challenge,
    secondFactor: s.context.secondFactor,
    totp: s.context.values.totp !== '',
    path: s.context.path,
    status: s.status,
  });

describeGeneratedPaths('login machine — generated paths', loginMachine, {
  events,
  serialize,
  expectedStates: ['login.credentials.rateLimited', 'login.twoFactor.invalid', 'login.twoFactor.rateLimited', 'login.verifying', 'login.loggedIn'],
  sources: ['loadLoginFields', 'login', 'loginTwoFactor'],
});

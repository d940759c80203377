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
  ];
}

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    using: s.context.loginUsing,
    identifier: Object.keys(identifierErrors(s.context.loginUsing, s.context.values)).length === 0,
    password: s.context.values.password !== '',
    path: s.context.path,
    status: s.status,
  });

describeGeneratedPaths('login machine — generated paths', loginMachine, {
  events,
  serialize,
  expectedStates: ['login.credentials.rateLimited', 'login.loggedIn'],
  sources: ['loadLoginFields', 'login'],
});

import { createActor, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { loginMachine } from '../../src/machines/login.machine';
import { identifierErrors } from '../../src/lib/validation';
import { ControlledActors, apiError, loginFields, loginResponse, planPaths, replayPath } from '../support/auth-flows';

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

describe('login machine — generated paths', () => {
  const plan = planPaths(loginMachine, { input: { search: '' }, events: () => events(), serialize });

  it('reach every state and take every transition', () => {
    expect(plan.stateIds).toEqual(expect.arrayContaining(['login.credentials.rateLimited', 'login.loggedIn']));
    expect(plan.visitedStateIds).toEqual(plan.stateIds);
    expect(plan.takenTransitions).toEqual(plan.transitions);
  });

  it.each(plan.paths.map((p, i) => [i, p.steps.map((s) => s.event.type).join(' → '), p] as const))(
    'path %i: %s',
    async (_i, _label, path) => {
      const ctl = new ControlledActors();
      const navigations: unknown[] = [];
      const actor = createActor(
        loginMachine.provide({
          actors: ctl.actors('loadLoginFields', 'login') as never,
          actions: { navigate: (_, params) => void navigations.push(params) },
        }),
        { input: { search: '' } },
      ).start();
      await replayPath(path, { actor, ctl, navigations });
      actor.stop();
    },
  );
});

import { createActor, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { requestDemoErrors, requestDemoMachine } from '../../src/machines/request-demo.machine';
import { ControlledActors, DEMO_OPTIONS, apiError, planPaths, replayPath } from '../support/auth-flows';

type Snap = SnapshotFrom<typeof requestDemoMachine>;
type Ev = EventFromLogic<typeof requestDemoMachine>;

function events(): Ev[] {
  const ev = (e: object) => e as Ev;
  return [
    ev({ type: 'xstate.done.actor.loadOptions', output: DEMO_OPTIONS }),
    ev({ type: 'xstate.error.actor.loadOptions', error: apiError.connection() }),
    ev({ type: 'xstate.error.actor.loadOptions', error: apiError.server() }),
    { type: 'load.retry' },
    { type: 'demo.change', field: 'name', value: 'Ann' },
    { type: 'demo.change', field: 'email', value: 'ann@example.com' },
    { type: 'demo.change', field: 'mobile', value: '600123456' },
    { type: 'demo.submit' },
    { type: 'route.changed', path: '/request-demo', search: '' },
    { type: 'route.changed', path: '/request-demo/success', search: '' },
    ev({ type: 'xstate.done.actor.send', output: { message: 'ok' } }),
    ...[apiError.validation({ email: 'validation:invalidEmail' }), apiError.rateLimited(5), apiError.connection(), apiError.server()].map(
      (error) => ev({ type: 'xstate.error.actor.send', error }),
    ),
  ];
}

const serialize = (s: Snap) =>
  JSON.stringify({
    value: s.value,
    filled: (['name', 'email', 'mobile'] as const).map((f) => s.context.values[f] !== ''),
    valid: Object.keys(requestDemoErrors(s.context.values)).length === 0,
    path: s.matches('loading') ? s.context.path : undefined,
  });

describe('request demo machine — generated paths', () => {
  const plan = planPaths(requestDemoMachine, { input: { search: '' }, events: () => events(), serialize });

  it('reach every state and take every transition', () => {
    expect(plan.stateIds).toEqual(expect.arrayContaining(['requestDemo.form.rateLimited', 'requestDemo.success']));
    expect(plan.visitedStateIds).toEqual(plan.stateIds);
    expect(plan.takenTransitions).toEqual(plan.transitions);
  });

  it.each(plan.paths.map((p, i) => [i, p.steps.map((s) => s.event.type).join(' → '), p] as const))(
    'path %i: %s',
    async (_i, _label, path) => {
      const ctl = new ControlledActors();
      const navigations: unknown[] = [];
      const actor = createActor(
        requestDemoMachine.provide({
          actors: ctl.actors('loadOptions', 'requestDemo') as never,
          actions: { navigate: (_, params) => void navigations.push(params) },
        }),
        { input: { search: '' } },
      ).start();
      await replayPath(path, { actor, ctl, navigations });
      actor.stop();
    },
  );
});

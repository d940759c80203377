import type { EventFromLogic, SnapshotFrom } from 'xstate';
import { requestDemoErrors, requestDemoMachine } from '../../src/machines/request-demo.machine';
import { DEMO_OPTIONS, apiError, describeGeneratedPaths } from '../support/auth-flows';

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

describeGeneratedPaths('request demo machine — generated paths', requestDemoMachine, {
  events,
  serialize,
  expectedStates: ['requestDemo.form.rateLimited', 'requestDemo.success'],
  sources: ['loadOptions', 'requestDemo'],
});

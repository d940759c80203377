/**
 * Generated paths of two small hand-written machines: the earning page (its overview and chart loads as
 * children: a refresh reloads both, a new range reloads the chart with it) and the promise toast (one
 * toast that starts as loading and becomes the success or the error of its task).
 */
import { ApiError } from '../../src/api/errors';
import { earningPageMachine } from '../../src/machines/earning-page.machine';
import { promiseToastMachine } from '../../src/machines/promise-toast.machine';
import { describePaths, doneEvent, errorEvent, spyCall, spyEffect, spyReceiver } from '../support/paths';

const RANGE = { from: '2026-10-01', to: '2026-10-31' };

describePaths('earning page', {
  machine: earningPageMachine.provide({ actors: { overview: spyReceiver('overview'), range: spyReceiver('range') } as never }),
  inputs: [{ range: { from: '2026-11-01', to: '2026-11-25' } }],
  events: [{ type: 'load.refresh' }, { type: 'range.set', range: RANGE }],
  serializeState: (s) => JSON.stringify([s.value, s.context.range]),
  check: ({ effects, final }, path) => {
    const names = effects.map((e) => e.effect);
    // Opening the page starts both loads, the chart with the page's range.
    expect(names.slice(0, 2).sort()).toEqual(['overview:start', 'range:start']);
    expect(effects.find((e) => e.effect === 'range:start')?.params).toEqual({ params: { from: '2026-11-01', to: '2026-11-25' } });
    const last = path.events.at(-1);
    if (last?.type === 'load.refresh') {
      expect(names.slice(-2).sort()).toEqual(['overview:load.refresh', 'range:load.refresh']);
      expect(effects.at(-1)?.params ?? effects.at(-2)?.params).toBeTruthy();
      expect(effects.filter((e) => e.effect === 'range:load.refresh').at(-1)?.params).toEqual({ type: 'load.refresh', params: final.context.range });
    }
    if (last?.type === 'range.set') {
      // Only the chart loads again, for the new range; the overview is left as it is.
      expect(effects.at(-1)).toEqual({ effect: 'range:load.refresh', params: { type: 'load.refresh', params: RANGE } });
      expect(final.context.range).toEqual(RANGE);
    }
  },
});

const KEYS = { loading: 'wallet:export.preparing', success: 'wallet:export.ready', error: 'wallet:export.failed' };

describePaths('promise toast', {
  machine: promiseToastMachine.provide({ actors: { task: spyCall('task') }, actions: { notify: spyEffect('notify') } } as never),
  inputs: [{ id: 'export-1', keys: KEYS, payload: { format: 'csv' } }],
  events: [doneEvent('task', { file: 'statement.csv' }), errorEvent('task', new ApiError('server', 500, {}))],
  check: ({ effects, final }) => {
    // One toast, the same id at every stage: loading first, then what the task came to.
    expect(effects.slice(0, 2)).toEqual(
      expect.arrayContaining([
        { effect: 'notify', params: { id: 'export-1', kind: 'loading', key: KEYS.loading, values: undefined } },
        { effect: 'task', params: { format: 'csv' } },
      ]),
    );
    const toasts = effects.filter((e) => e.effect === 'notify').map((e) => e.params as { id: string; kind: string; key: string });
    expect(new Set(toasts.map((t) => t.id))).toEqual(new Set(['export-1']));
    if (final.value === 'success') {
      expect(toasts.at(-1)).toMatchObject({ kind: 'success', key: KEYS.success });
      expect(final.output).toEqual({ ok: true, result: { file: 'statement.csv' }, error: null });
    }
    if (final.value === 'error') {
      expect(toasts.at(-1)).toMatchObject({ kind: 'error', key: KEYS.error });
      expect(final.output).toMatchObject({ ok: false, error: { kind: 'server', status: 500 } });
    }
  },
});

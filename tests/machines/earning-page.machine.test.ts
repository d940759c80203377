/** Wallet › earning: one page actor holding the overview and the chart range as its two loads. */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { earningPageMachine } from '../../src/machines/earning-page.machine';
import { earningsOverviewMachine, earningsRangeMachine, type EarningsRange } from '../../src/machines/wallet-pages.machine';

function page(range?: EarningsRange) {
  const overviewCalls: number[] = [];
  const rangeCalls: Array<EarningsRange | undefined> = [];
  const machine = earningPageMachine.provide({
    actors: {
      overview: earningsOverviewMachine.provide({ actors: { load: fromPromise<unknown, unknown>(async () => (overviewCalls.push(1), { total: '1' })) } }),
      range: earningsRangeMachine.provide({
        actors: { load: fromPromise<unknown, unknown>(async ({ input }) => (rangeCalls.push(input as EarningsRange | undefined), { points: [] })) },
      }),
    },
  });
  const actor = createActor(machine, { input: { range } }).start();
  const loaded = (name: 'overview' | 'range') => waitFor(actor.getSnapshot().children[name]!, (s) => s.value === 'loaded');
  return { actor, machine, overviewCalls, rangeCalls, loaded };
}

describe('earning page machine', () => {
  it('loads the overview and the chart for the range it opens with', async () => {
    const p = page({ from: '2026-01-01', to: '2026-01-31' });
    await Promise.all([p.loaded('overview'), p.loaded('range')]);
    expect(p.overviewCalls).toHaveLength(1);
    expect(p.rangeCalls).toEqual([{ from: '2026-01-01', to: '2026-01-31' }]);
  });

  it('range.set loads the chart for the new range only; load.refresh fetches both again for the current range', async () => {
    const p = page();
    await Promise.all([p.loaded('overview'), p.loaded('range')]);
    p.actor.send({ type: 'range.set', range: { from: '2026-02-01', to: '2026-02-10' } });
    await p.loaded('range');
    expect(p.overviewCalls).toHaveLength(1);
    expect(p.actor.getSnapshot().context.range).toEqual({ from: '2026-02-01', to: '2026-02-10' });
    p.actor.send({ type: 'load.refresh' });
    await Promise.all([p.loaded('overview'), p.loaded('range')]);
    expect(p.overviewCalls).toHaveLength(2);
    expect(p.rangeCalls).toEqual([{}, { from: '2026-02-01', to: '2026-02-10' }, { from: '2026-02-01', to: '2026-02-10' }]);
  });

  it('a saved page comes back with both loads as they were', async () => {
    const p = page({ from: '2026-03-01', to: '2026-03-05' });
    await Promise.all([p.loaded('overview'), p.loaded('range')]);
    const saved = JSON.parse(JSON.stringify(p.actor.getPersistedSnapshot()));
    p.actor.stop();
    const again = createActor(p.machine, { snapshot: saved, input: {} }).start();
    const { overview, range } = again.getSnapshot().children;
    expect(overview?.getSnapshot().value).toBe('loaded');
    expect(range?.getSnapshot().value).toBe('loaded');
    expect(again.getSnapshot().context.range).toEqual({ from: '2026-03-01', to: '2026-03-05' });
  });
});

import { createActor, fromPromise, waitFor } from 'xstate';
import { earningsRangeMachine, type EarningsRange } from '../../src/machines/wallet-pages.machine';
import { walletApi } from '../../src/api/wallet';
import type { EarningsTotalDatewise } from '../../src/schemas/wallet.schema';

const answer = (from: string, to: string): EarningsTotalDatewise => ({ start_date: from, end_date: to, earnings_datewise: [], earnings_datewise_grouped: [] });

describe('earnings range load', () => {
  it('asks the server for the chosen days, and for its default range without them', async () => {
    const spy = vi.spyOn(walletApi, 'earningsTotalDatewise').mockImplementation(async (a, b) => answer(a || '2026-10-23', b || '2026-11-21'));
    const actor = createActor(earningsRangeMachine, { input: { params: { from: '2026-09-01', to: '2026-09-30' } } }).start();
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(spy).toHaveBeenLastCalledWith('2026-09-01', '2026-09-30');
    expect(actor.getSnapshot().context.data?.start_date).toBe('2026-09-01');

    actor.send({ type: 'load.refresh', params: {} });
    await waitFor(actor, (s) => s.matches('loaded') && s.context.data?.start_date === '2026-10-23');
    expect(spy).toHaveBeenLastCalledWith('', '');
    spy.mockRestore();
  });

  it('a new range while one is loading replaces it; the older answer is not shown', async () => {
    const resolvers: Array<() => void> = [];
    const machine = earningsRangeMachine.provide({
      actors: {
        load: fromPromise<unknown, unknown>(({ input }) => {
          const r = input as EarningsRange;
          return new Promise((resolve) => resolvers.push(() => resolve(answer(r.from!, r.to!))));
        }),
      },
    });
    const actor = createActor(machine, { input: { params: { from: '2026-01-01', to: '2026-01-31' } } }).start();
    actor.send({ type: 'load.refresh', params: { from: '2026-02-01', to: '2026-02-28' } });
    resolvers[0]();
    resolvers[1]();
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.data?.start_date).toBe('2026-02-01');
    expect(actor.getSnapshot().context.params).toEqual({ from: '2026-02-01', to: '2026-02-28' });
  });
});

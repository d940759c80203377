/**
 * Wallet › earning (spec §2): the earnings overview and the date-wise chart of a chosen range, one page
 * actor holding both loads as children (`overview`, `range`) so the page saves, restores and refreshes
 * as one. `range.set` loads the chart for another range (the page's URL from/to); `load.refresh`
 * fetches both again.
 */
import { assign, sendTo, setup } from 'xstate';
import { earningsOverviewMachine, earningsRangeMachine, type EarningsRange } from './wallet-pages.machine';

export interface EarningPageInput {
  range?: EarningsRange;
}

export type EarningPageEvent = { type: 'load.refresh' } | { type: 'range.set'; range: EarningsRange };

export const earningPageMachine = setup({
  types: {
    input: {} as EarningPageInput | undefined,
    context: {} as { range: EarningsRange },
    events: {} as EarningPageEvent,
    children: {} as { overview: 'overview'; range: 'range' },
  },
  actors: { overview: earningsOverviewMachine, range: earningsRangeMachine },
}).createMachine({
  id: 'earningPage',
  context: ({ input }) => ({ range: input?.range ?? {} }),
  initial: 'open',
  states: {
    // The page is open: both loads run as its children.
    open: {
      invoke: [
        { id: 'overview', src: 'overview', input: {} },
        { id: 'range', src: 'range', input: ({ context }) => ({ params: context.range }) },
      ],
      on: {
        'load.refresh': {
          actions: [sendTo('overview', { type: 'load.refresh' }), sendTo('range', ({ context }) => ({ type: 'load.refresh', params: context.range }))],
        },
        'range.set': {
          actions: [assign({ range: ({ event }) => event.range }), sendTo('range', ({ event }) => ({ type: 'load.refresh', params: event.range }))],
        },
      },
    },
  },
});

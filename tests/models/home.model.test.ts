import { ApiError, ConnectionError } from '../../src/api/errors';
import { homeBinaryMachine, homeDashboardMachine, homeDashboardMoreMachine, homePackageMachine, homeRankMachine, notificationCountMachine } from '../../src/machines/home.machine';
import { notificationsMachine } from '../../src/machines/notifications.machine';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

const loadEvents = [
  { type: 'load.refresh' },
  { type: 'load.retry' },
  doneEvent('load', { ok: true }),
  errorEvent('load', new ConnectionError()),
  errorEvent('load', new ApiError('unauthorized', 401, {})),
  errorEvent('load', new ApiError('server', 500, {})),
];
const byStatus = (s: { value: unknown; context: { error?: { kind: string } | null; autoStart?: boolean } }) =>
  JSON.stringify([s.value, s.context.error?.kind ?? null, s.context.autoStart]);

for (const machine of [homeDashboardMachine, homeDashboardMoreMachine, homeBinaryMachine, homePackageMachine, homeRankMachine, notificationCountMachine]) {
  describePaths(`${machine.id} paths`, { machine: stubActors(machine), inputs: [{}, { autoStart: false }], events: [...loadEvents, { type: 'load.start' }], serializeState: byStatus as never });
}

const counts = { order_count: 1, payout_count: 0, message_count: 0, total_count: 1 };
describePaths('notifications paths', {
  machine: stubActors(notificationsMachine),
  events: [
    { type: 'load.refresh' },
    { type: 'load.retry' },
    { type: 'notifications.markRead', request: { kind: 'order', ids: [1] } },
    { type: 'notifications.dismissError' },
    { type: 'notifications.show', show: 'all' },
    doneEvent('load', { lists: { orders: [], payouts: [], messages: [] }, counts }),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    errorEvent('load', new ApiError('server', 500, {})),
    doneEvent('markRead', { ...counts, order_count: 0, total_count: 0 }),
    errorEvent('markRead', new ApiError('server', 500, {})),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.error?.kind ?? null, s.context.markError?.kind ?? null, s.context.show]),
});

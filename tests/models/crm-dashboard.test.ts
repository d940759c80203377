/**
 * Path tests of the CRM's dashboard, analytics and hub loads: every status of the load (loaded, connection
 * error, server error, the forced logout of a 401, retry), and for the analytics the period each call asks
 * for — the page's URL period first, then the one a `load.refresh` (a new period in the URL) carries.
 */
import { ApiError, ConnectionError } from '../../src/api/errors';
import { crmAnalyticsMachine, crmCountsMachine, crmDashboardMachine } from '../../src/machines/crm/dashboard.machine';
import { describePaths, doneEvent, errorEvent, spyCall } from '../support/paths';

const failures = [errorEvent('load', new ConnectionError()), errorEvent('load', new ApiError('unauthorized', 401, {})), errorEvent('load', new ApiError('server', 500, {}))];
const byStatus = (s: { value: unknown; context: { error?: { kind: string } | null; params?: unknown } }) => JSON.stringify([s.value, s.context.error?.kind ?? null, s.context.params ?? null]);

for (const machine of [crmDashboardMachine, crmCountsMachine])
  describePaths(`${machine.id} paths`, {
    machine: machine.provide({ actors: { load: spyCall('load') } as never }),
    inputs: [{}, { autoStart: false }],
    events: [{ type: 'load.start' }, { type: 'load.refresh' }, { type: 'load.retry' }, doneEvent('load', { ok: true }), ...failures],
    serializeState: byStatus as never,
    check: ({ effects, final }) => {
      // Every load asks once per attempt; a 401 leaves the page to the forced logout.
      expect(effects.every((e) => e.effect === 'load')).toBe(true);
      if (final.value !== 'initial') expect(effects.length).toBeGreaterThanOrEqual(1);
      if (final.value === 'forceLogout') expect(final.context.error).toMatchObject({ status: 401 });
    },
  });

describePaths('crm analytics paths', {
  machine: crmAnalyticsMachine.provide({ actors: { load: spyCall('load') } as never }),
  inputs: [{ params: { period: '6m' } }, { params: {} }, { params: { period: '3m' }, autoStart: false }],
  events: [{ type: 'load.start' }, { type: 'load.refresh', params: { period: '24m' } }, { type: 'load.retry' }, doneEvent('load', { ok: true }), ...failures],
  serializeState: byStatus as never,
  check: ({ effects, final }, path) => {
    // The first call asks for the URL's period; every later one for the period last set.
    if (effects.length) expect(effects[0].params).toEqual(path.events[0]?.type === 'load.refresh' && (path.input as { autoStart?: boolean }).autoStart === false ? { period: '24m' } : (path.input as { params: unknown }).params);
    else expect(final.value).toBe('initial');
    const refreshed = path.events.some((e) => e.type === 'load.refresh');
    if (refreshed) expect(effects.at(-1)?.params).toEqual({ period: '24m' });
    expect(final.context.params).toEqual(refreshed ? { period: '24m' } : (path.input as { params: unknown }).params);
  },
});

/**
 * Generated paths of "Send to support": the snapshot sent, its reference shown; no connection, a server
 * error, a refusal (too many, too large) and an ended session — each path checks the call made and what
 * the member is shown (tests/support/form-paths.ts).
 */
import { ApiError } from '../../src/api/errors';
import { supportSnapshotMachine } from '../../src/machines/support-snapshot.machine';
import { formPathModel } from '../support/form-paths';
import { describePaths, doneEvent, errorEvent, memberCallFailures } from '../support/paths';

describePaths('send to support', {
  ...formPathModel(supportSnapshotMachine, {
    // The snapshot has no fields to check: the check never finds one invalid.
    unreachable: ['supportSnapshot.checking always #0'],
    events: [
      doneEvent('request', { snapshot: { id: 'Zx81kQ2mP0aL', reason: 'member', route: '/member/account', size_bytes: 5120, created_at: '2026-11-25T12:00:00.000Z' } }),
      ...memberCallFailures('request'),
      errorEvent('request', new ApiError('badRequest', 429, { error_code: 'rate_limited' })),
    ],
    serializeState: (s) => JSON.stringify([s.value, s.context.saved, s.context.failure]),
  }),
});

/**
 * "Send to support": the app's diagnostic snapshot (src/lib/support-snapshot.ts, redacted before it leaves
 * the browser) sent to POST /api/support/snapshots; the answer's id is the reference the member gives
 * support. A form without fields on the form factory: sending, sent, the failures with retry, a 401 ends
 * the session. Input `params`: why it is sent ('member', or 'error' when offered on an unexpected error).
 */
import { supportApi } from '../api/support-snapshot';
import { browserSnapshotEnv, captureSupportSnapshot } from '../lib/support-snapshot';
import { createFormMachine } from './form.machine';

export const supportSnapshotMachine = createFormMachine({
  id: 'supportSnapshot',
  domain: 'supportSnapshot',
  initialValues: {},
  submit: ({ params }) => supportApi.sendSnapshot(captureSupportSnapshot(browserSnapshotEnv(), { reason: params === 'error' ? 'error' : 'member' })),
});

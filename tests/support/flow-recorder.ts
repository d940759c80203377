/** Records what a flow machine asks of the app: the navigations and the notices, in order. */
import type { NavigateParams, NotifyParams } from '../../src/lib/flow';

export function flowRecorder() {
  const navigations: NavigateParams[] = [];
  const notes: NotifyParams[] = [];
  return {
    navigations,
    notes,
    actions: {
      navigate: (_: unknown, p: NavigateParams) => void navigations.push(p),
      notify: (_: unknown, p: NotifyParams) => void notes.push(p),
    },
  };
}

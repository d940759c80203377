/**
 * Route changes reach the session only once the flow of the new area can run: a deferred flow
 * (src/machines/deferred-flows.ts) is loaded first. When that load fails (offline, or the files of
 * a newer version replaced this one's), the page shows the connection error with a retry.
 */
import { useSyncExternalStore } from 'react';
import { areaOf, normalisePath } from '../lib/paths';
import { isFlowLoaded, loadFlow } from '../machines/deferred-flows';

interface Failure {
  area: string;
  retry: () => void;
}

let failure: Failure | null = null;
const listeners = new Set<() => void>();

function setFailure(next: Failure | null) {
  if (failure === next) return;
  failure = next;
  listeners.forEach((l) => l());
}

export interface FlowLoader {
  isFlowLoaded(area: string | null): boolean;
  loadFlow(area: string | null): Promise<void>;
}

const deferredFlowLoader: FlowLoader = { isFlowLoaded, loadFlow };

/**
 * Sends `route.changed` for the location once its flow is loaded; the returned function cancels. A location the
 * session is already at (the page it was started on, once the app has hydrated; the echo of a navigation the
 * session made itself, which moved its location first) is not sent: the session and its flow have seen it.
 */
export function followRoute(
  actor: {
    send(event: { type: 'route.changed'; path: string; search: string }): void;
    getSnapshot?(): { context: { path: string; search: string } };
  },
  path: string,
  search: string,
  { isFlowLoaded, loadFlow }: FlowLoader = deferredFlowLoader,
) {
  let live = true;
  const send = () => {
    if (live) actor.send({ type: 'route.changed', path, search });
  };
  const area = areaOf(path);
  setFailure(null);
  const at = actor.getSnapshot?.().context;
  if (at && at.path === normalisePath(path) && at.search === search) return () => undefined;
  if (isFlowLoaded(area)) send();
  else {
    const attempt = () => {
      setFailure(null);
      loadFlow(area).then(send, () => {
        if (live) setFailure({ area: area!, retry: attempt });
      });
    };
    attempt();
  }
  return () => {
    live = false;
  };
}

/** The retry of a failed load of `area`'s flow, or null. */
export function useFlowLoadRetry(area: string): (() => void) | null {
  const f = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => failure,
    () => null,
  );
  return f && f.area === area ? f.retry : null;
}

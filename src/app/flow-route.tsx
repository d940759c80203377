/**
 * Mounts a flow view on the flow actor the session invoked for the current area:
 *   <FlowRoute flow="login" render={(actor) => <LoginView actor={actor} />} />
 * Shows the page loader until the session has started the flow (e.g. while it boots or while the
 * flow's code loads), and the connection error with a retry when that code could not be loaded.
 */
import type { ReactNode } from 'react';
import { useSessionSelector, type SessionSnapshot } from './session-context';
import { ErrorView } from '../views/components/error-view';
import { PageLoader } from '../views/components/page-loader';
import { useFlowLoadRetry } from './flow-loading';

type Children = SessionSnapshot['children'];
export type FlowKey = keyof Children & string;
export type FlowActor<K extends FlowKey> = NonNullable<Children[K]>;

export function FlowRoute<K extends FlowKey>({ flow, render }: { flow: K; render: (actor: FlowActor<K>) => ReactNode }) {
  const child = useSessionSelector((s) => s.children[flow]) as FlowActor<K> | undefined;
  const retryLoad = useFlowLoadRetry(flow);
  if (!child) return retryLoad ? <ErrorView kind="connection" onRetry={retryLoad} /> : <PageLoader />;
  return <>{render(child)}</>;
}

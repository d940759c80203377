/**
 * Mounts a flow view on the flow actor the session invoked for the current area:
 *   <FlowRoute flow="login" render={(actor) => <LoginView actor={actor} />} />
 * Shows the page loader until the session has started the flow (e.g. while it boots).
 */
import type { ReactNode } from 'react';
import { useSessionSelector, type SessionSnapshot } from './session-context';
import { PageLoader } from '../views/components/page-loader';

type Children = SessionSnapshot['children'];
export type FlowKey = keyof Children & string;
export type FlowActor<K extends FlowKey> = NonNullable<Children[K]>;

export function FlowRoute<K extends FlowKey>({ flow, render }: { flow: K; render: (actor: FlowActor<K>) => ReactNode }) {
  const child = useSessionSelector((s) => s.children[flow]) as FlowActor<K> | undefined;
  if (!child) return <PageLoader />;
  return <>{render(child)}</>;
}

/** The root actor in React: a provider and selector hooks (views read, send events; nothing else). */
import { createContext, useContext, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { SessionActor } from './session-actor';

const SessionActorContext = createContext<SessionActor | null>(null);

export function SessionProvider({ actor, children }: { actor: SessionActor; children: ReactNode }) {
  return <SessionActorContext.Provider value={actor}>{children}</SessionActorContext.Provider>;
}

export function useSessionActor(): SessionActor {
  const actor = useContext(SessionActorContext);
  if (!actor) throw new Error('useSessionActor must be used inside <SessionProvider>');
  return actor;
}

export type SessionSnapshot = SnapshotFrom<SessionActor>;

export function useSessionSelector<T>(selector: (snapshot: SessionSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useSessionActor(), selector, compare);
}

export type SessionStatus =
  | 'booting'
  | 'bootConnectionError'
  | 'bootServerError'
  | 'unauthenticated'
  | 'authenticated'
  | 'accountBlocked'
  | 'demoBlocked';

/** The top-level session state. */
export function sessionStatus(snapshot: SessionSnapshot): SessionStatus {
  return (typeof snapshot.value === 'string' ? snapshot.value : Object.keys(snapshot.value)[0]) as SessionStatus;
}

/** What most screens need from the session. */
export function useSession() {
  const actor = useSessionActor();
  const status = useSelector(actor, sessionStatus);
  const moduleData = useSelector(actor, (s) => s.context.moduleData);
  const user = useSelector(actor, (s) => s.context.user);
  const authenticated = useSelector(actor, (s) => s.context.authenticated);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  return {
    actor,
    send: actor.send,
    status,
    moduleData,
    company: moduleData?.company ?? null,
    user,
    authenticated,
    /** A logout (or boot) is in flight. */
    busy,
  };
}

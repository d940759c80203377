/**
 * Member pages own their flows as actors created here (not in views): `usePageActor(key, logic, input)`.
 * Each page actor's persisted snapshot is saved to sessionStorage under `upline.page.<key>` (secrets dropped,
 * as for the root actor) and restored when the page is opened again in this tab, so a reload lands in the
 * same page state, and support can read a member's exact page state next to the root flow state.
 * Logout clears them (storage.clearSession).
 */
import { useEffect, useMemo } from 'react';
import { createActor, type ActorRefFrom, type AnyActorLogic, type AnyActorRef, type InputFrom } from 'xstate';
import { useActorRef } from '@xstate/react';
import { sanitizeSnapshot } from '../persistence';

export const PAGE_SNAPSHOT_PREFIX = 'upline.page.';
const VERSION = 1;

function store(): Storage | null {
  try {
    return typeof sessionStorage !== 'undefined' ? sessionStorage : null;
  } catch {
    return null;
  }
}

export function loadPageSnapshot(key: string): unknown {
  const raw = store()?.getItem(PAGE_SNAPSHOT_PREFIX + key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { v?: number; snapshot?: unknown };
    return parsed.v === VERSION ? (parsed.snapshot ?? null) : null;
  } catch {
    return null;
  }
}

export function savePageSnapshot(key: string, snapshot: unknown): void {
  try {
    store()?.setItem(PAGE_SNAPSHOT_PREFIX + key, JSON.stringify({ v: VERSION, snapshot: sanitizeSnapshot(snapshot) }));
  } catch {
    /* storage full or unavailable: pages work without it */
  }
}

export function clearPageSnapshots(): void {
  const s = store();
  if (!s) return;
  for (const k of Object.keys(s)) if (k.startsWith(PAGE_SNAPSHOT_PREFIX)) s.removeItem(k);
}

/** A saved snapshot is used only if the logic accepts it (an incompatible one is dropped). */
function usableSnapshot(key: string, logic: AnyActorLogic, input: unknown): unknown {
  const saved = loadPageSnapshot(key);
  if (!saved) return undefined;
  try {
    const probe = createActor(logic, { snapshot: saved as never, input });
    const ok = probe.getSnapshot().status === 'active';
    return ok ? saved : undefined;
  } catch {
    store()?.removeItem(PAGE_SNAPSHOT_PREFIX + key);
    return undefined;
  }
}

export function usePageActor<T extends AnyActorLogic>(key: string, logic: T, input?: InputFrom<T>): ActorRefFrom<T> {
  const snapshot = useMemo(() => usableSnapshot(key, logic, input), [key, logic]);
  const actor = useActorRef(logic, { input, snapshot: snapshot as never } as never) as ActorRefFrom<T>;
  useEffect(() => {
    const ref = actor as unknown as AnyActorRef;
    const sub = ref.subscribe(() => savePageSnapshot(key, ref.getPersistedSnapshot()));
    return () => sub.unsubscribe();
  }, [actor, key]);
  return actor;
}

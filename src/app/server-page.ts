/**
 * The sign-in page rendered by the server (src/entry-server.tsx) and taken over by the app in the browser.
 *
 * The server runs the same session machine to the point where nothing is pending any more (boot answered,
 * sign-in fields loaded), renders that state, and marks the page with the state's key. The app boots as
 * always and, once it has settled too, hydrates the server's markup when it reached the same key, or
 * renders afresh over it when it did not (another language, a saved flow state, a stored token, a failed
 * call): the server's page is only ever a head start, never a different answer.
 */
import type { AnyActorRef } from 'xstate';

/** The one route the server renders. */
export const SERVER_RENDERED_PATH = '/login';

/** Attribute on #root holding the key of the state the server rendered. */
export const SERVER_KEY_ATTRIBUTE = 'data-server-key';

interface SnapshotLike {
  status?: string;
  value?: unknown;
  children?: Record<string, AnyActorRef | undefined>;
}

/** A flow's state tree: its value and, for each child machine, its state tree (promises and callbacks are left out). */
function stateTree(snapshot: SnapshotLike): unknown {
  const children: Record<string, unknown> = {};
  for (const [id, child] of Object.entries(snapshot.children ?? {})) {
    const s = child?.getSnapshot() as SnapshotLike | undefined;
    if (s && s.value !== undefined) children[id] = stateTree(s);
  }
  return Object.keys(children).length ? { value: snapshot.value, children } : { value: snapshot.value };
}

/**
 * True while some actor below is still working: a running promise or callback actor (a call in flight, a
 * timer), or a machine with one. A settled tree only changes on an event from outside (the member, a route
 * change).
 */
export function isPending(snapshot: SnapshotLike): boolean {
  for (const child of Object.values(snapshot.children ?? {})) {
    const s = child?.getSnapshot() as SnapshotLike | undefined;
    if (!s || s.status !== 'active') continue;
    if (s.value === undefined) return true;
    if (isPending(s)) return true;
  }
  return false;
}

/** What a rendered page depends on besides the data: the session's state tree, the language, the colour scheme. */
export function pageKey(snapshot: SnapshotLike, language: string, colourScheme: string): string {
  return JSON.stringify({ state: stateTree(snapshot), language, colourScheme });
}

/** Resolves once the actor's tree is settled (see isPending), or after `timeoutMs`. */
export function whenSettled(actor: AnyActorRef, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    let sub: { unsubscribe(): void } | null = null;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      sub?.unsubscribe();
      resolve();
    };
    const timer = setTimeout(finish, timeoutMs);
    const check = () => {
      if (!isPending(actor.getSnapshot() as SnapshotLike)) finish();
    };
    // Children start and settle without the root emitting: look again on every snapshot of any actor.
    const root = actor.subscribe(check);
    const all = actor.system.inspect((e) => {
      if (e.type === '@xstate.snapshot') queueMicrotask(check);
    });
    sub = {
      unsubscribe() {
        root.unsubscribe();
        all.unsubscribe();
      },
    };
    if (done) sub.unsubscribe();
    else check();
  });
}

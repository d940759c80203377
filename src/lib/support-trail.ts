/**
 * What a support snapshot is made of, recorded as the member uses the app: the root actor, every open
 * member page's actor (registered by MemberPage with its saved-state key), the last 200 events those
 * actors took with their times and the state they led to (an inspector on the actors), and the last
 * answers of the API's GET calls (recorded by the client). Nothing here leaves the browser by itself:
 * `captureSupportSnapshot` (support-snapshot.ts) reads it and redacts it.
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';

export const TRAIL_LIMIT = 200;
export const ANSWER_LIMIT = 100;
/** Pages the member left in this tab, kept (their last state) for a snapshot: the newest ones. */
export const LEFT_PAGE_LIMIT = 30;
/** A page state larger than this (tens of thousands of tree members) is not kept per event. */
const STEP_SNAPSHOT_MAX_CHARS = 20000;

export interface TrailEvent {
  /** ISO time the actor took the event. */
  at: string;
  /** `root`, a page's saved-state key, or the id of a child actor. */
  actor: string;
  type: string;
  event: unknown;
  /** The state value the event led to. */
  value: unknown;
  /** The page actor's persisted snapshot after the event (pages only, when small enough). */
  snapshot?: unknown;
}

export interface RecordedAnswer {
  at: string;
  path: string;
  /** The query string sent (without the leading '?'), as the client built it. */
  query: string;
  data: unknown;
}

export interface OpenPage {
  key: string;
  id: string;
  path: string;
  /** Id of the page's machine (its diagram on the flow site). */
  machine?: string;
  /** Where the page was open (path under the app and query string, `/member/orders/381?tab=x`), read when it is left. */
  url?: () => string;
  /**
   * Whether the trail keeps the page's state after each of its events (default true). A page kept in memory
   * because its state is too big to write on every change (a tree of tens of thousands of members) says
   * false: its events keep only the state value, the snapshot its state when taken.
   */
  steps?: boolean;
  actor: AnyActorRef;
}

/** A page the member left: its last persisted snapshot, taken when it closed, whatever its own persistence. */
export interface LeftPage {
  key: string;
  id: string;
  path: string;
  machine?: string;
  url?: string;
  snapshot: unknown;
}

const events: TrailEvent[] = [];
const answers: RecordedAnswer[] = [];
const pages = new Map<string, OpenPage>();
const left = new Map<string, LeftPage>();
const listeners = new Set<() => void>();
let root: AnyActorRef | null = null;
let now = () => new Date();

/** A JSON copy (errors keep their name and message). */
export const toPlain = (v: unknown): unknown => {
  try {
    return JSON.parse(JSON.stringify(v, (_k, x) => (x instanceof Error ? { name: x.name, message: x.message, ...(x as object) } : x)));
  } catch {
    return null;
  }
};

function labelOf(ref: AnyActorRef): string {
  if (ref === root) return 'root';
  for (const p of pages.values()) if (p.actor === ref) return p.key;
  return ref.id;
}

function pageOf(ref: AnyActorRef): OpenPage | undefined {
  for (const p of pages.values()) if (p.actor === ref) return p;
  return undefined;
}

const changed = () => listeners.forEach((l) => l());

export const supportTrail = {
  /** The inspector given to the root actor and to every page actor. */
  inspect(ev: InspectionEvent): void {
    if (ev.type !== '@xstate.snapshot') return;
    const event = (ev as unknown as { event: { type: string } }).event;
    if (!event || event.type === 'xstate.init') return;
    const snapshot = ev.snapshot as { value?: unknown };
    const ref = ev.actorRef as AnyActorRef;
    const entry: TrailEvent = { at: now().toISOString(), actor: labelOf(ref), type: event.type, event: toPlain(event), value: toPlain(snapshot.value ?? null) };
    const page = pageOf(ref);
    if (page && page.steps !== false) {
      const persisted = toPlain(ref.getPersistedSnapshot());
      if (JSON.stringify(persisted).length <= STEP_SNAPSHOT_MAX_CHARS) entry.snapshot = persisted;
    }
    events.push(entry);
    if (events.length > TRAIL_LIMIT) events.splice(0, events.length - TRAIL_LIMIT);
    changed();
  },
  setRoot(actor: AnyActorRef | null): void {
    root = actor;
  },
  root(): AnyActorRef | null {
    return root;
  },
  /**
   * A page opened (any page, memory-kept ones too); the answer closes it, keeping its last persisted
   * snapshot (in memory only, never written anywhere) so that a snapshot taken later, on the account hub,
   * still holds the page the member came from.
   */
  openPage(page: OpenPage): () => void {
    pages.set(page.key, page);
    left.delete(page.key);
    changed();
    return () => {
      if (pages.get(page.key) !== page) return;
      pages.delete(page.key);
      let snapshot: unknown = null;
      try {
        snapshot = page.actor.getPersistedSnapshot();
      } catch {
        /* a page whose state cannot be read is simply not kept */
      }
      if (snapshot) {
        left.set(page.key, { key: page.key, id: page.id, path: page.path, machine: page.machine, url: page.url?.(), snapshot });
        for (const k of [...left.keys()].slice(0, Math.max(0, left.size - LEFT_PAGE_LIMIT))) left.delete(k);
      }
      changed();
    };
  },
  pages(): OpenPage[] {
    return [...pages.values()];
  },
  /** The pages left in this tab, oldest first (see openPage). */
  leftPages(): LeftPage[] {
    return [...left.values()];
  },
  /** Told whenever a page opens or closes or an actor takes an event (the replay's panel). */
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  recordAnswer(answer: Omit<RecordedAnswer, 'at'>): void {
    const i = answers.findIndex((a) => a.path === answer.path && a.query === answer.query);
    if (i >= 0) answers.splice(i, 1);
    answers.push({ at: now().toISOString(), ...answer, data: toPlain(answer.data) });
    if (answers.length > ANSWER_LIMIT) answers.splice(0, answers.length - ANSWER_LIMIT);
  },
  events(): TrailEvent[] {
    return events.slice();
  },
  answers(): RecordedAnswer[] {
    return answers.slice();
  },
  /** Logout: nothing of the signed-out member stays. */
  clear(): void {
    events.length = 0;
    answers.length = 0;
    left.clear();
  },
  /** Tests: a fixed clock. */
  setClock(clock: () => Date): void {
    now = clock;
  },
};

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
  actor: AnyActorRef;
}

const events: TrailEvent[] = [];
const answers: RecordedAnswer[] = [];
const pages = new Map<string, OpenPage>();
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

export const supportTrail = {
  /** The inspector given to the root actor and to every page actor. */
  inspect(ev: InspectionEvent): void {
    if (ev.type !== '@xstate.snapshot') return;
    const event = (ev as unknown as { event: { type: string } }).event;
    if (!event || event.type === 'xstate.init') return;
    const snapshot = ev.snapshot as { value?: unknown };
    const ref = ev.actorRef as AnyActorRef;
    const entry: TrailEvent = { at: now().toISOString(), actor: labelOf(ref), type: event.type, event: toPlain(event), value: toPlain(snapshot.value ?? null) };
    if (pageOf(ref)) {
      const persisted = toPlain(ref.getPersistedSnapshot());
      if (JSON.stringify(persisted).length <= STEP_SNAPSHOT_MAX_CHARS) entry.snapshot = persisted;
    }
    events.push(entry);
    if (events.length > TRAIL_LIMIT) events.splice(0, events.length - TRAIL_LIMIT);
  },
  setRoot(actor: AnyActorRef | null): void {
    root = actor;
  },
  root(): AnyActorRef | null {
    return root;
  },
  openPage(page: OpenPage): () => void {
    pages.set(page.key, page);
    return () => {
      if (pages.get(page.key) === page) pages.delete(page.key);
    };
  },
  pages(): OpenPage[] {
    return [...pages.values()];
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
  },
  /** Tests: a fixed clock. */
  setClock(clock: () => Date): void {
    now = clock;
  },
};

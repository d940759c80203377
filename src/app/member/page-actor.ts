/**
 * Saved page state: the member page component (src/app/member/member-page.tsx) saves a page actor's
 * persisted snapshot to sessionStorage under `upline.page.<key>` (secrets dropped, as for the root
 * actor) and restores it when the page is opened again in this tab, so a reload lands in the same page
 * state, and support can read a member's exact page state next to the root flow state. Logout clears
 * them (storage.clearSession → clearPageSnapshots in src/lib/storage.ts).
 */
import { createActor, type AnyActorLogic, type Snapshot } from 'xstate';
import { PAGE_SNAPSHOT_PREFIX } from '../../lib/storage';
import { sanitizeSnapshot } from '../persistence';

const VERSION = 1;

/**
 * The support replay (src/replay) opens pages on a member's recorded snapshots instead of this tab's saved
 * state, for every page (memory-kept ones too), and saves nothing.
 */
let replayed: ReadonlyMap<string, unknown> | null = null;
export function setReplayedPageSnapshots(snapshots: ReadonlyMap<string, unknown> | null): void {
  replayed = snapshots;
}
export const isReplaying = (): boolean => replayed !== null;

function store(): Storage | null {
  try {
    return typeof sessionStorage !== 'undefined' ? sessionStorage : null;
  } catch {
    return null;
  }
}

export function loadPageSnapshot(key: string): unknown {
  if (replayed) return replayed.get(key) ?? null;
  const raw = store()?.getItem(PAGE_SNAPSHOT_PREFIX + key);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { v?: number; snapshot?: unknown };
    return parsed.v === VERSION ? (parsed.snapshot ?? null) : null;
  } catch {
    return null;
  }
}

/** `about`: the page's route-table path, machine id and URL, read by a support snapshot of pages no longer open. */
export function savePageSnapshot(key: string, snapshot: unknown, about: { path?: string; machine?: string; url?: string } = {}): void {
  if (replayed) return;
  try {
    store()?.setItem(PAGE_SNAPSHOT_PREFIX + key, JSON.stringify({ v: VERSION, snapshot: sanitizeSnapshot(snapshot), ...about }));
  } catch {
    /* storage full or unavailable: pages work without it */
  }
}

/** The saved snapshot of `key`, if the logic accepts it (an incompatible one is dropped). */
export function restoredPageSnapshot(key: string, logic: AnyActorLogic, input: unknown): Snapshot<unknown> | undefined {
  const saved = loadPageSnapshot(key);
  if (!saved) return undefined;
  try {
    const probe = createActor(logic, { snapshot: saved as Snapshot<unknown>, input });
    if (probe.getSnapshot().status === 'active') return saved as Snapshot<unknown>;
  } catch {
    /* dropped below */
  }
  if (replayed) return undefined;
  store()?.removeItem(PAGE_SNAPSHOT_PREFIX + key);
  return undefined;
}


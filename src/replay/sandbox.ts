/**
 * The replay's sandbox: a stand-in for the API client's network (client.ts `setTransport`) that answers a
 * GET from the answers recorded in the snapshot and refuses every other call — nothing is sent anywhere.
 * And the page states at a point of the event trail: each page's snapshot after the last event it took
 * up to that point (the snapshot's own page state at the end of the trail).
 */
import { ConnectionError } from '../api/errors';
import { MemberTable } from '../api/network-members';
import type { Transport } from '../api/client';
import type { SupportSnapshot } from '../lib/support-snapshot';

/** The calls the sandbox refused, for the screen beside the replay. */
export interface Refusal {
  method: string;
  path: string;
  query: string;
}

export function sandboxTransport(snapshot: Pick<SupportSnapshot, 'answers'>, onRefused: (r: Refusal) => void = () => {}): Transport {
  const answers = new Map(snapshot.answers.map((a) => [`${a.path}?${a.query}`, a.data]));
  return async ({ method, path, query }) => {
    const recorded = method === 'GET' ? answers.get(`${path}?${query}`) : undefined;
    if (recorded !== undefined) return { status: 200, data: structuredClone(recorded) };
    onRefused({ method, path, query });
    throw new ConnectionError('Not in the recorded snapshot: the replay sends nothing');
  };
}

/** Page key → its snapshot after event `step` of the trail (`step` = trail length: the captured end). */
export function pageSnapshotsAt(snapshot: Pick<SupportSnapshot, 'pages' | 'events'>, step: number): Map<string, unknown> {
  const out = new Map(snapshot.pages.map((p) => [p.key, p.snapshot]));
  if (step >= snapshot.events.length) return out;
  for (const page of snapshot.pages) {
    const taken = snapshot.events.slice(0, step).filter((e) => e.actor === page.key && e.snapshot !== undefined);
    const later = snapshot.events.slice(step).some((e) => e.actor === page.key);
    if (!later) continue;
    const last = taken.at(-1);
    // Before its first recorded event the page is shown as it was then, if known; else as captured.
    if (last) out.set(page.key, last.snapshot);
  }
  return out;
}

/** The state paths (`a`, `a.b`) a state value names: what the diagram highlights. */
export function statePaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix ? `${prefix}.${value}` : value];
  if (value && typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
      const here = prefix ? `${prefix}.${k}` : k;
      return [here, ...statePaths(v, here)];
    });
  return [];
}

/** The state value of a page at `step`: the last event it took up to there, else its captured snapshot. */
export function pageValueAt(snapshot: Pick<SupportSnapshot, 'pages' | 'events'>, key: string, step: number): unknown {
  const s = pageSnapshotsAt(snapshot, step).get(key) as { value?: unknown } | undefined;
  return s?.value ?? null;
}

/**
 * A recorded state as the machines hold it: the values written as JSON by a class of the app come back as
 * that class (a network page's MemberTable). Everything else is plain data already.
 */
export function reviveState(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reviveState);
  if (!value || typeof value !== 'object') return value;
  if (MemberTable.isJSON(value)) return MemberTable.fromJSON(value);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reviveState(v)]));
}

/** The page states the replayed app opens its pages on at `step`, revived (see reviveState). */
export function replayedPages(snapshot: Pick<SupportSnapshot, 'pages' | 'events'>, step: number): Map<string, unknown> {
  return new Map([...pageSnapshotsAt(snapshot, step)].map(([k, v]) => [k, reviveState(v)]));
}

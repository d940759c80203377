/**
 * The support snapshot (what a member sends to support or downloads as a diagnostic): the persisted
 * snapshots of the root actor and of every open page actor, the last 200 events with their times, the
 * API answers the app holds, the route, language, currency, colour scheme, viewport and app version —
 * redacted (support-redaction.ts) before anything leaves the browser. The replay (/support/replay)
 * restores the app from it.
 */
import { redact } from './support-redaction';
import { PAGE_SNAPSHOT_PREFIX } from './storage';
import { supportTrail, toPlain, type RecordedAnswer, type TrailEvent } from './support-trail';

import { SNAPSHOT_FORMAT, SNAPSHOT_KIND } from '../schemas/support-snapshot.schema';

export { SNAPSHOT_FORMAT, SNAPSHOT_KIND };

export interface SnapshotEnv {
  /** Path under the app (e.g. /member/wallet/transactions) and query string. */
  route: { path: string; search: string };
  language: string;
  currency: string | null;
  colourScheme: 'light' | 'dark';
  viewport: { width: number; height: number };
  appVersion: string;
}

export interface SnapshotPage {
  key: string;
  id: string;
  /** The route-table path of the page (`/wallet/transactions`). */
  path: string;
  /** Where the page was open: path under the app and query string (`/member/orders/381`, `/member/wallet/transactions?type=x`). */
  url?: string | null;
  machine?: string | null;
  snapshot: unknown;
}

export interface SupportSnapshot {
  kind: typeof SNAPSHOT_KIND;
  format: typeof SNAPSHOT_FORMAT;
  taken_at: string;
  reason: 'member' | 'error';
  error: { message: string } | null;
  app_version: string;
  route: { path: string; search: string };
  language: string;
  currency: string | null;
  colour_scheme: 'light' | 'dark';
  viewport: { width: number; height: number };
  root: unknown;
  pages: SnapshotPage[];
  events: TrailEvent[];
  answers: RecordedAnswer[];
  /** Where secrets were removed (dotted paths). */
  redacted: string[];
}

/** The page states saved in this tab (src/app/member/page-actor.ts) of pages no longer open. */
function savedPageSnapshots(): SnapshotPage[] {
  const out: SnapshotPage[] = [];
  try {
    for (const k of Object.keys(sessionStorage)) {
      if (!k.startsWith(PAGE_SNAPSHOT_PREFIX)) continue;
      const saved = JSON.parse(sessionStorage.getItem(k) ?? '') as { snapshot?: unknown; path?: string; machine?: string; url?: string };
      const key = k.slice(PAGE_SNAPSHOT_PREFIX.length);
      if (saved.snapshot) out.push({ key, id: key.split(':')[0], path: saved.path ?? '', url: saved.url ?? null, machine: saved.machine ?? null, snapshot: saved.snapshot });
    }
  } catch {
    /* storage unavailable or not ours */
  }
  return out;
}

/**
 * The pages of the snapshot: every open page's actor, whatever its own persistence (a memory-kept tree is
 * support's business as much as a saved form), then the pages left in this tab as they were when left (held
 * in memory by the trail), then the pages saved earlier in the tab (sessionStorage) — the newest state of
 * each key only.
 */
function snapshotPages(): SnapshotPage[] {
  const open: SnapshotPage[] = supportTrail.pages().map((p) => ({ key: p.key, id: p.id, path: p.path, url: p.url?.() ?? null, machine: p.machine ?? null, snapshot: p.actor.getPersistedSnapshot() }));
  const left: SnapshotPage[] = supportTrail
    .leftPages()
    .reverse()
    .map((p) => ({ key: p.key, id: p.id, path: p.path, url: p.url ?? null, machine: p.machine ?? null, snapshot: p.snapshot }));
  const out: SnapshotPage[] = [];
  for (const p of [...open, ...left, ...savedPageSnapshots()]) if (!out.some((o) => o.key === p.key)) out.push(p);
  return out.slice(0, MAX_PAGES);
}

/** At most this many pages (the envelope's limit, supportSnapshotSchema). */
const MAX_PAGES = 50;

/** Takes the snapshot from what the app holds now, redacted. */
export function captureSupportSnapshot(env: SnapshotEnv, options: { reason?: 'member' | 'error'; error?: unknown; now?: Date } = {}): SupportSnapshot {
  const root = supportTrail.root();
  const raw = {
    kind: SNAPSHOT_KIND,
    format: SNAPSHOT_FORMAT,
    taken_at: (options.now ?? new Date()).toISOString(),
    reason: options.reason ?? 'member',
    error: options.error === undefined ? null : { message: options.error instanceof Error ? options.error.message : String(options.error) },
    app_version: env.appVersion,
    route: env.route,
    language: env.language,
    currency: env.currency,
    colour_scheme: env.colourScheme,
    viewport: env.viewport,
    root: root && root.getSnapshot().status === 'active' ? root.getPersistedSnapshot() : null,
    pages: snapshotPages(),
    events: supportTrail.events(),
    answers: supportTrail.answers(),
    redacted: [] as string[],
  };
  const { value, removed } = redact(toPlain(raw) as SupportSnapshot);
  return { ...value, redacted: removed };
}

/** The file name of a downloaded snapshot. */
export const snapshotFileName = (s: Pick<SupportSnapshot, 'taken_at'>) => `upline-support-${s.taken_at.replace(/[:.]/g, '-')}.json`;

/** The app version the build carries (package.json, through VITE_APP_VERSION). */
export const APP_VERSION: string = (import.meta.env?.VITE_APP_VERSION as string | undefined) ?? 'dev';

/** What the browser says now: route, language, currency, colour scheme, viewport (outside React). */
export function browserSnapshotEnv(): SnapshotEnv {
  const doc = typeof document !== 'undefined' ? document.documentElement : null;
  const modules = (() => {
    try {
      return JSON.parse(localStorage.getItem('module_data') ?? 'null') as { default_currency?: { code?: string } } | null;
    } catch {
      return null;
    }
  })();
  return {
    route: typeof location !== 'undefined' ? { path: location.pathname, search: location.search } : { path: '/', search: '' },
    language: doc?.lang || (typeof navigator !== 'undefined' ? navigator.language : 'en'),
    currency: modules?.default_currency?.code ?? null,
    colourScheme: doc?.getAttribute('data-mantine-color-scheme') === 'dark' ? 'dark' : 'light',
    viewport: typeof window !== 'undefined' ? { width: window.innerWidth, height: window.innerHeight } : { width: 0, height: 0 },
    appVersion: APP_VERSION,
  };
}

/**
 * The support snapshot (what a member sends to support or downloads as a diagnostic): the persisted
 * snapshots of the root actor and of every open page actor, the last 200 events with their times, the
 * API answers the app holds, the route, language, currency, colour scheme, viewport and app version —
 * redacted (support-redaction.ts) before anything leaves the browser. The replay (/support/replay)
 * restores the app from it.
 */
import * as z from 'zod/mini';
import { redact } from './support-redaction';
import { supportTrail, toPlain, type RecordedAnswer, type TrailEvent } from './support-trail';

export const SNAPSHOT_KIND = 'upline.support-snapshot';
export const SNAPSHOT_FORMAT = 1;

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

/** The shape the server and the replay accept (the contents of the actors' snapshots are the app's own). */
export const supportSnapshotSchema = z.object({
  kind: z.literal(SNAPSHOT_KIND),
  format: z.literal(SNAPSHOT_FORMAT),
  taken_at: z.string().check(z.maxLength(40)),
  reason: z.enum(['member', 'error']),
  error: z.nullable(z.object({ message: z.string().check(z.maxLength(2000)) })),
  app_version: z.string().check(z.maxLength(40)),
  route: z.object({ path: z.string().check(z.maxLength(2000)), search: z.string().check(z.maxLength(2000)) }),
  language: z.string().check(z.maxLength(20)),
  currency: z.nullable(z.string().check(z.maxLength(10))),
  colour_scheme: z.enum(['light', 'dark']),
  viewport: z.object({ width: z.number().check(z.int(), z.gte(0), z.lte(100000)), height: z.number().check(z.int(), z.gte(0), z.lte(100000)) }),
  root: z.unknown(),
  pages: z.array(z.object({ key: z.string().check(z.maxLength(200)), id: z.string().check(z.maxLength(200)), path: z.string().check(z.maxLength(500)), snapshot: z.unknown() })).check(z.maxLength(50)),
  events: z
    .array(z.object({ at: z.string().check(z.maxLength(40)), actor: z.string().check(z.maxLength(200)), type: z.string().check(z.maxLength(300)), event: z.unknown(), value: z.unknown(), snapshot: z.optional(z.unknown()) }))
    .check(z.maxLength(200)),
  answers: z.array(z.object({ at: z.string().check(z.maxLength(40)), path: z.string().check(z.maxLength(2000)), query: z.string().check(z.maxLength(4000)), data: z.unknown() })).check(z.maxLength(100)),
  redacted: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(10000)),
});

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
    pages: supportTrail.pages().map((p) => ({ key: p.key, id: p.id, path: p.path, snapshot: p.actor.getPersistedSnapshot() })),
    events: supportTrail.events(),
    answers: supportTrail.answers(),
    redacted: [] as string[],
  };
  const { value, removed } = redact(toPlain(raw) as SupportSnapshot);
  return { ...value, redacted: removed };
}

/** The file name of a downloaded snapshot. */
export const snapshotFileName = (s: Pick<SupportSnapshot, 'taken_at'>) => `upline-support-${s.taken_at.replace(/[:.]/g, '-')}.json`;

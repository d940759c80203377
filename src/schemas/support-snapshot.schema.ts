/**
 * Support snapshots as the API takes them (POST /api/support/snapshots) and the replay reads them: the
 * envelope is checked here; the actors' snapshots inside are the app's own state, read by its machines.
 */
import * as z from 'zod/mini';

export const SNAPSHOT_KIND = 'upline.support-snapshot';
export const SNAPSHOT_FORMAT = 1;

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
  pages: z.array(z.object({ key: z.string().check(z.maxLength(200)), id: z.string().check(z.maxLength(200)), path: z.string().check(z.maxLength(500)), url: z.optional(z.nullable(z.string().check(z.maxLength(4000)))), machine: z.optional(z.nullable(z.string().check(z.maxLength(200)))), snapshot: z.unknown() })).check(z.maxLength(50)),
  events: z
    .array(z.object({ at: z.string().check(z.maxLength(40)), actor: z.string().check(z.maxLength(200)), type: z.string().check(z.maxLength(300)), event: z.unknown(), value: z.unknown(), snapshot: z.optional(z.unknown()) }))
    .check(z.maxLength(200)),
  answers: z.array(z.object({ at: z.string().check(z.maxLength(40)), path: z.string().check(z.maxLength(2000)), query: z.string().check(z.maxLength(4000)), data: z.unknown() })).check(z.maxLength(100)),
  redacted: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(10000)),
});


/** What the server keeps of a snapshot, as listed to its member. */
export const storedSnapshotSchema = z.object({
  id: z.string(),
  reason: z.string(),
  route: z.string(),
  size_bytes: z.number(),
  created_at: z.string(),
});
export type StoredSnapshotInfo = z.infer<typeof storedSnapshotSchema>;
export type SupportSnapshotBody = z.infer<typeof supportSnapshotSchema>;

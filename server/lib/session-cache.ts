/**
 * Verified sessions kept briefly in memory, so that a signed-in call does not look its token up in the
 * database every time. Whatever could make a kept session wrong drops them all:
 * - any change of a session or of a member row, by any process on the database: the tables announce it on
 *   SESSIONS_CHANNEL (migration 0027), which every server process follows (a lost listening connection
 *   drops them too, since notices may have been missed);
 * - any statement of this process that may have changed rows, as soon as it is done (Database.onWrite), and
 *   any call of this process that may write (every method but GET, HEAD and OPTIONS), the moment it answers,
 *   before its caller can make the next call.
 * A lookup that was under way while they were dropped is not kept. An entry lives at most `ttlMs` (the
 * longest a change that was not announced — none should be — goes unseen) and never past its session's end.
 */
import type { Database } from '../db/client';

export const SESSIONS_CHANNEL = 'upline_sessions';

/** Default time a verified session is kept (SESSION_CACHE_MS; 0 looks every token up). */
export const SESSION_CACHE_MS = 5_000;

interface Entry<T> {
  found: T;
  until: number;
}

export class SessionCache<T extends { session: { expiresAt: Date } }> {
  private readonly entries = new Map<string, Entry<T>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The session kept under `key` while it is fresh, else undefined (then `find` looks it up). */
  fresh(key: string): T | undefined {
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    if (Date.now() < kept.until) return kept.found;
    this.entries.delete(key);
    return undefined;
  }

  /** The session under `key` (a token's hash), from memory while it is fresh, else from `load` (kept when found). */
  async find(key: string, load: () => Promise<T | null>): Promise<T | null> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const kept = this.fresh(key);
    if (kept) return kept;
    const generation = this.generation;
    const found = await load();
    if (found && generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { found, until: Math.min(now + this.ttlMs, found.session.expiresAt.getTime()) });
    }
    return found;
  }

  /** Forget every kept session (and any lookup under way). */
  clear() {
    this.generation++;
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }

  /** Drop everything whenever any process changes sessions or members; returns the way to stop listening. */
  follow(database: Pick<Database, 'listen'>): Promise<() => Promise<void>> {
    return database.listen(SESSIONS_CHANNEL, () => this.clear());
  }
}

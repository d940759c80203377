/** Bearer-token sessions: random tokens stored hashed, revocable, checked on every protected call. */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { members, sessions, type MemberRow } from '../db/schema';
import { newToken, tokenHash } from './crypto';
import { demoBlocked, unauthorized, userBlocked } from './errors';
import { SessionCache } from './session-cache';

export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    member: MemberRow | null;
    sessionId: number | null;
  }
}

export async function createSession(db: Db, memberId: number, kind = 'access', ttlMs = SESSION_TTL_MS, parentSessionId: number | null = null) {
  const token = newToken();
  const [row] = await db
    .insert(sessions)
    .values({
      memberId,
      tokenHash: tokenHash(token),
      kind,
      expiresAt: new Date(Date.now() + ttlMs),
      parentSessionId,
    })
    .returning({ id: sessions.id });
  return { token, id: row.id };
}

/**
 * A session and those opened with it (`children`, e.g. the SSO and storefront sessions of a sign-in), in one
 * statement: the children name the first as their parent. Tokens in the same order as asked.
 */
export async function createSessionTree(
  db: Db,
  memberId: number,
  first: { kind: string; ttlMs: number },
  children: Array<{ kind: string; ttlMs: number }>,
): Promise<{ id: number; token: string; children: string[] }> {
  const token = newToken();
  const expires = (ttlMs: number) => new Date(Date.now() + ttlMs).toISOString();
  if (!children.length) return { ...(await createSession(db, memberId, first.kind, first.ttlMs)), children: [] };
  const tokens = children.map(() => newToken());
  const rows = children.map((c, i) => sql`(${i}, ${tokenHash(tokens[i])}, ${c.kind}, ${expires(c.ttlMs)}::timestamptz)`);
  const result = (await db.execute(sql`
    WITH parent AS (
      INSERT INTO sessions (member_id, token_hash, kind, expires_at) VALUES (${memberId}, ${tokenHash(token)}, ${first.kind}, ${expires(first.ttlMs)}::timestamptz)
      RETURNING id
    )
    INSERT INTO sessions (member_id, token_hash, kind, expires_at, parent_session_id)
    SELECT ${memberId}, c.token_hash, c.kind, c.expires_at, parent.id
    FROM parent, (VALUES ${sql.join(rows, sql`, `)}) AS c(n, token_hash, kind, expires_at)
    ORDER BY c.n
    RETURNING parent_session_id AS parent`)) as unknown as { rows: Array<{ parent: number }> };
  return { id: Number(result.rows[0].parent), token, children: tokens };
}

export async function revokeSession(db: Db, id: number) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: Db, memberId: number) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.memberId, memberId), isNull(sessions.revokedAt)));
}

const liveSession = (db: Db) =>
  db
    .select({ session: sessions, member: members })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('hash')),
        eq(sessions.kind, sql.placeholder('kind')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1)
    .prepare('live_session');

export type FoundSession = Awaited<ReturnType<ReturnType<typeof liveSession>['execute']>>[number];

/** The live session a token names, with its member, or null. */
export async function findSession(db: Db, token: string, kind = 'access'): Promise<FoundSession | null> {
  const [row] = await liveSession(db).execute({ hash: tokenHash(token), kind });
  return row ?? null;
}

export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h || !h.startsWith('Bearer ')) return null;
  const t = h.slice(7).trim();
  return t.length >= 16 && t.length <= 256 ? t : null;
}

/**
 * Resolve the caller (if any) without failing: used by public routes that behave differently when signed in.
 * The lookup is prepared once; verified sessions are kept briefly in `cache` (server/lib/session-cache.ts).
 * A caller whose session is kept is known at once (nothing to wait for); otherwise the promise of the lookup.
 */
export function identify(db: Db, cache: SessionCache<FoundSession> = new SessionCache(0)) {
  const lookup = liveSession(db);
  const known = (req: FastifyRequest, found: FoundSession | null): undefined => {
    if (found) {
      // A copy: the kept row is shared by every call of the session.
      req.member = { ...found.member };
      req.sessionId = found.session.id;
    }
    return undefined;
  };
  return (req: FastifyRequest): Promise<void> | undefined => {
    req.member = null;
    req.sessionId = null;
    const t = bearer(req);
    if (!t) return;
    const hash = tokenHash(t);
    const kept = cache.fresh(hash);
    if (kept) return known(req, kept);
    return cache.find(hash, async () => (await lookup.execute({ hash, kind: 'access' }))[0] ?? null).then((found) => known(req, found));
  };
}

/** preHandler: the call needs a signed-in, active member (answered at once: nothing to wait for). */
export function requireAuth(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
  if (!req.member) done(unauthorized());
  else if (req.member.status !== 1) done(userBlocked());
  else done();
}

/** preHandler factory: a protected action refused in demo mode (spec §6). */
export function protectedAction(isDemo: () => boolean) {
  return async (req: FastifyRequest) => {
    if (!req.member) throw unauthorized();
    if (isDemo()) throw demoBlocked();
  };
}

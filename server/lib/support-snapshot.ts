/**
 * Support: the snapshots members send (stored for the member, read back only by them or by staff with an
 * operator token), and the operator tokens themselves — random, stored as their SHA-256 hash, expiring,
 * revocable, never written to a log.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { operatorTokens, supportSnapshots, type OperatorTokenRow } from '../db/schema-support';
import { newToken, tokenHash } from './crypto';
import { notFound, unauthorized } from './errors';
import type { SupportSnapshotBody } from '../../src/schemas/support-snapshot.schema';

/** How many snapshots a member keeps: older ones go when a new one comes. */
export const SNAPSHOTS_KEPT = 20;
export const OPERATOR_TOKEN_PREFIX = 'upl_op_';
export const DEFAULT_TOKEN_HOURS = 8;
export const MAX_TOKEN_HOURS = 24 * 30;

export interface StoredSnapshot {
  id: string;
  reason: string;
  route: string;
  size_bytes: number;
  created_at: string;
}

const summary = (r: { publicId: string; reason: string; route: string; sizeBytes: number; createdAt: Date }): StoredSnapshot => ({
  id: r.publicId,
  reason: r.reason,
  route: r.route,
  size_bytes: r.sizeBytes,
  created_at: r.createdAt.toISOString(),
});

export async function storeSnapshot(db: Db, memberId: number, snapshot: SupportSnapshotBody): Promise<StoredSnapshot> {
  const body = JSON.stringify(snapshot);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(supportSnapshots)
      .values({ publicId: randomBytes(12).toString('base64url'), memberId, reason: snapshot.reason, route: `${snapshot.route.path}${snapshot.route.search}`.slice(0, 2000), sizeBytes: Buffer.byteLength(body), body: snapshot })
      .returning();
    await tx.execute(sql`
      DELETE FROM support_snapshots WHERE member_id = ${memberId} AND id NOT IN (
        SELECT id FROM support_snapshots WHERE member_id = ${memberId} ORDER BY created_at DESC, id DESC LIMIT ${SNAPSHOTS_KEPT})`);
    return summary(row);
  });
}

export async function memberSnapshots(db: Db, memberId: number): Promise<StoredSnapshot[]> {
  const rows = await db.select().from(supportSnapshots).where(eq(supportSnapshots.memberId, memberId)).orderBy(desc(supportSnapshots.createdAt), desc(supportSnapshots.id));
  return rows.map(summary);
}

/** A snapshot by its id: the member's own (`memberId`), or any one for staff (`memberId` null). 404 otherwise. */
export async function snapshotBody(db: Db, id: string, memberId: number | null): Promise<unknown> {
  const where = memberId === null ? eq(supportSnapshots.publicId, id) : and(eq(supportSnapshots.publicId, id), eq(supportSnapshots.memberId, memberId));
  const [row] = await db.select({ body: supportSnapshots.body }).from(supportSnapshots).where(where).limit(1);
  if (!row) throw notFound('No such snapshot');
  return row.body;
}

// ── Operator tokens ───────────────────────────────────────────────────────────────────────────────

export async function createOperatorToken(db: Db, label: string, hours = DEFAULT_TOKEN_HOURS, now = new Date()): Promise<{ id: number; token: string; expiresAt: Date }> {
  const token = `${OPERATOR_TOKEN_PREFIX}${newToken()}`;
  const expiresAt = new Date(now.getTime() + Math.min(Math.max(hours, 1 / 60), MAX_TOKEN_HOURS) * 3600_000);
  const [row] = await db.insert(operatorTokens).values({ label, tokenHash: tokenHash(token), expiresAt }).returning({ id: operatorTokens.id });
  return { id: row.id, token, expiresAt };
}

export async function listOperatorTokens(db: Db): Promise<OperatorTokenRow[]> {
  return db.select().from(operatorTokens).orderBy(desc(operatorTokens.createdAt), desc(operatorTokens.id));
}

/** Revokes a token at once; false when there is no such token or it was revoked already. */
export async function revokeOperatorToken(db: Db, id: number): Promise<boolean> {
  const rows = await db.update(operatorTokens).set({ revokedAt: new Date() }).where(and(eq(operatorTokens.id, id), isNull(operatorTokens.revokedAt))).returning({ id: operatorTokens.id });
  return rows.length > 0;
}

/** The staff member behind a token, or 401 (unknown, expired or revoked — the same answer for all three). */
export async function verifyOperatorToken(db: Db, token: string | undefined): Promise<{ id: number; label: string }> {
  if (!token || !token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 200) throw unauthorized('A valid operator token is needed');
  const [row] = await db
    .update(operatorTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(operatorTokens.tokenHash, tokenHash(token)), isNull(operatorTokens.revokedAt), gt(operatorTokens.expiresAt, sql`now()`)))
    .returning({ id: operatorTokens.id, label: operatorTokens.label });
  if (!row) throw unauthorized('A valid operator token is needed');
  return row;
}

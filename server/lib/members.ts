/** Member lookups by identifier, destinations for one-time codes, and blocking. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { members, type MemberRow } from '../db/schema';
import { revokeAllSessions } from './auth';

export type Identifier =
  | { kind: 'username'; username: string }
  | { kind: 'email'; email: string }
  | { kind: 'mobile'; mobileCode: string; mobile: string };

/** '+1', '1', ' +44 ' → '+1', '+44'. */
export function normalizePhoneCode(code: string): string {
  return '+' + code.replace(/\D/g, '');
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Where a one-time code for this identifier goes: a lower-cased e-mail or '+<code><number>'. */
export function destinationOf(id: Identifier): { channel: 'email' | 'sms'; destination: string } {
  if (id.kind === 'email') return { channel: 'email', destination: normalizeEmail(id.email) };
  if (id.kind === 'mobile') return { channel: 'sms', destination: normalizePhoneCode(id.mobileCode) + id.mobile };
  return { channel: 'email', destination: id.username.toLowerCase() };
}

/** j***@example.com, ***0100 — enough for the member to recognise, useless to anyone else. */
export function maskDestination(channel: 'email' | 'sms', destination: string): string {
  if (channel === 'email') {
    const at = destination.lastIndexOf('@');
    if (at < 1) return '***';
    return `${destination[0]}***${destination.slice(at)}`;
  }
  return `***${destination.slice(-4)}`;
}

/** The masked form of an identifier: j***@example.com, or +1 ***0100 with the phone code kept. */
export function maskIdentifier(id: Identifier): string {
  if (id.kind === 'mobile') return maskMobile(id.mobileCode, id.mobile);
  const { channel, destination } = destinationOf(id);
  return maskDestination(channel, destination);
}

export function maskMobile(mobileCode: string, mobile: string): string {
  return `${normalizePhoneCode(mobileCode)} ***${mobile.slice(-4)}`;
}

/**
 * Members an identifier may name, oldest first. Usernames are unique; e-mail and mobile are unique only
 * when the company says so, so several members can share one (each is tried in turn at sign-in).
 */
export async function findByIdentifier(db: Db, id: Identifier, limit = 5): Promise<MemberRow[]> {
  if (id.kind === 'username') {
    return db.select().from(members).where(sql`lower(${members.username}) = ${id.username.toLowerCase()}`).limit(1);
  }
  if (id.kind === 'email') {
    return db
      .select()
      .from(members)
      .where(sql`lower(${members.email}) = ${normalizeEmail(id.email)}`)
      .orderBy(asc(members.id))
      .limit(limit);
  }
  return db
    .select()
    .from(members)
    .where(and(eq(members.mobileCode, normalizePhoneCode(id.mobileCode)), eq(members.mobile, id.mobile)))
    .orderBy(asc(members.id))
    .limit(limit);
}

/** The member a one-time code for this identifier is meant for (the oldest one), or null. */
export async function findOneByIdentifier(db: Db, id: Identifier): Promise<MemberRow | null> {
  const rows = await findByIdentifier(db, id, 1);
  return rows[0] ?? null;
}

export async function findByUsername(db: Db, username: string): Promise<MemberRow | null> {
  const [row] = await db.select().from(members).where(sql`lower(${members.username}) = ${username.toLowerCase()}`).limit(1);
  return row ?? null;
}

export async function findById(db: Db, id: number): Promise<MemberRow | null> {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return row ?? null;
}

/** A member who may sponsor or receive signups: exists, active and verified. */
export function canSponsor(m: MemberRow | null): m is MemberRow {
  return !!m && m.status === 1 && m.verified;
}

/** Block a member: status 0 and every session (access, SSO, store) revoked at once. */
export async function blockMember(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(members).set({ status: 0 }).where(eq(members.id, id));
    await revokeAllSessions(tx as unknown as Db, id);
  });
}

export async function unblockMember(db: Db, id: number): Promise<void> {
  await db.update(members).set({ status: 1 }).where(eq(members.id, id));
}

/**
 * The company's administrator (the first member with role 1), or null. The role is written into the statement
 * (not bound as a parameter) so that every plan of it reads the company's own index (migration 0046).
 */
export async function companyAdmin(db: Db): Promise<MemberRow | null> {
  const [admin] = await db.select().from(members).where(sql`${members.roleId} = 1`).orderBy(members.id).limit(1);
  return admin ?? null;
}

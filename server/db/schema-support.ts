/**
 * Drizzle description of the support tables created by migrations/0021_support_snapshots.sql.
 * Imported directly where used.
 */
import { bigserial, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

export const supportSnapshots = pgTable('support_snapshots', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  publicId: text('public_id').notNull(),
  memberId: integer('member_id').notNull(),
  reason: text('reason').notNull(),
  route: text('route').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  body: jsonb('body').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const operatorTokens = pgTable('operator_tokens', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  label: text('label').notNull(),
  tokenHash: text('token_hash').notNull(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  lastUsedAt: ts('last_used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
export type OperatorTokenRow = typeof operatorTokens.$inferSelect;

/**
 * Drizzle description of the two-factor sign-in tables created by migrations/0013_two_factor.sql.
 * Imported directly where used.
 */
import { bigint, bigserial, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

export const memberTwoFactor = pgTable('member_two_factor', {
  memberId: integer('member_id').primaryKey(),
  secretEnc: text('secret_enc').notNull(),
  enabledAt: ts('enabled_at'),
  lastStep: bigint('last_step', { mode: 'number' }),
  failedCount: integer('failed_count').notNull().default(0),
  failedSince: ts('failed_since'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
export type MemberTwoFactorRow = typeof memberTwoFactor.$inferSelect;

export const twoFactorRecoveryCodes = pgTable('two_factor_recovery_codes', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  codeHash: text('code_hash').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const twoFactorChallenges = pgTable('two_factor_challenges', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Drizzle description of the tables created by migrations/0010_contact_wallet_password.sql: pending
 * e-mail and mobile changes (applied once the code sent to the new one is entered) and the members'
 * wallet passwords. Imported directly where used.
 */
import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

export const contactChanges = pgTable('contact_changes', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  kind: text('kind').$type<'email' | 'phone'>().notNull(),
  email: text('email'),
  mobileCode: text('mobile_code'),
  mobile: text('mobile'),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  appliedAt: ts('applied_at'),
  supersededAt: ts('superseded_at'),
});
export type ContactChangeRow = typeof contactChanges.$inferSelect;

export const walletPasswords = pgTable('wallet_passwords', {
  memberId: integer('member_id').primaryKey(),
  passwordHash: text('password_hash').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  lockedUntil: ts('locked_until'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

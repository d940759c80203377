/**
 * Drizzle descriptions of the Home tables created by migrations/0006_home.sql: stories, events,
 * messages, notification read state, rank achievements, recruitment targets, special members.
 * Imported directly where used.
 */
import { bigint, bigserial, boolean, date, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
const id64 = (name: string) => bigint(name, { mode: 'number' });

export const stories = pgTable('stories', {
  id: serial('id').primaryKey(),
  kind: text('kind').$type<'article' | 'video'>().notNull(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  content: text('content').notNull().default(''),
  url: text('url'),
  imagePreview: text('image_preview'),
  published: boolean('published').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type StoryRow = typeof stories.$inferSelect;

export const events = pgTable('events', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  venue: text('venue').notNull(),
  about: text('about').notNull().default(''),
  imagePreview: text('image_preview'),
  tag: text('tag'),
  startDate: ts('start_date').notNull(),
  endDate: ts('end_date').notNull(),
  published: boolean('published').notNull().default(true),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
export type EventRow = typeof events.$inferSelect;

export const messageThreads = pgTable('message_threads', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  subject: text('subject').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const messages = pgTable('messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  threadId: id64('thread_id').notNull(),
  senderId: integer('sender_id').notNull(),
  recipientId: integer('recipient_id').notNull(),
  body: text('body').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  readAt: ts('read_at'),
  /** Each side bins a message for itself only (migration 0015, server/lib/mail.ts). */
  senderBinnedAt: ts('sender_binned_at'),
  recipientBinnedAt: ts('recipient_binned_at'),
});

export const notificationMarks = pgTable(
  'notification_marks',
  {
    memberId: integer('member_id').notNull(),
    kind: text('kind').$type<'order' | 'payout'>().notNull(),
    readBefore: ts('read_before').notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.kind] })],
);

export const notificationReads = pgTable(
  'notification_reads',
  {
    memberId: integer('member_id').notNull(),
    kind: text('kind').$type<'order' | 'payout'>().notNull(),
    refId: id64('ref_id').notNull(),
    readAt: ts('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.kind, t.refId] })],
);

export const rankAchievements = pgTable(
  'rank_achievements',
  {
    memberId: integer('member_id').notNull(),
    rankId: integer('rank_id').notNull(),
    achievedAt: timestamp('achieved_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.rankId] })],
);

export const recruitmentTargets = pgTable('recruitment_targets', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id'),
  /** First day of the month (yyyy-MM-01). */
  month: date('month', { mode: 'string' }).notNull(),
  requiredCount: integer('required_count').notNull(),
});

export const specialMembers = pgTable('special_members', {
  memberId: integer('member_id').primaryKey(),
  since: timestamp('since', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Mail (migration 0015): who takes part in a thread, and the files attached to a message. The threads and
 * messages themselves are `message_threads` and `messages` of schema-home.ts (the dashboard and the
 * notifications read them too).
 */
import { bigint, integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';

export const messageParticipants = pgTable(
  'message_participants',
  {
    threadId: bigint('thread_id', { mode: 'number' }).notNull(),
    memberId: integer('member_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.memberId] })],
);

export const messageAttachments = pgTable(
  'message_attachments',
  {
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    uploadId: bigint('upload_id', { mode: 'number' }).notNull(),
    position: smallint('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.uploadId] })],
);

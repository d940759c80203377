/**
 * Drizzle description of the CRM tables created by migrations/0017_crm.sql and 0025: the member's leads,
 * contacts, the timeline's notes, calls, meetings and their invitees. Imported directly where used.
 */
import { date, integer, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

export const crmLeads = pgTable('crm_leads', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  name: text('name').notNull(),
  company: text('company').notNull().default(''),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  source: text('source').notNull(),
  status: text('status').notNull(),
  estimatedValue: numeric('estimated_value', { precision: 20, scale: 4 }).notNull().default('0'),
  nextFollowUp: date('next_follow_up', { mode: 'string' }),
  lostReason: text('lost_reason').notNull().default(''),
  /** customer | recruit (migration 0025). */
  interest: text('interest').notNull().default('customer'),
  /** When it was won or lost; kept by a trigger (migration 0025). */
  closedAt: ts('closed_at'),
  contactId: integer('contact_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type LeadRow = typeof crmLeads.$inferSelect;

export const crmContacts = pgTable('crm_contacts', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  name: text('name').notNull(),
  company: text('company').notNull().default(''),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  city: text('city').notNull().default(''),
  leadId: integer('lead_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type ContactRow = typeof crmContacts.$inferSelect;

export const crmNotes = pgTable('crm_notes', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  leadId: integer('lead_id'),
  contactId: integer('contact_id'),
  body: text('body').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const crmCalls = pgTable('crm_calls', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  leadId: integer('lead_id'),
  contactId: integer('contact_id'),
  who: text('who').notNull().default(''),
  direction: text('direction').notNull(),
  outcome: text('outcome').notNull(),
  durationSeconds: integer('duration_seconds').notNull().default(0),
  notes: text('notes').notNull().default(''),
  calledAt: ts('called_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type CallRow = typeof crmCalls.$inferSelect;

export const crmMeetings = pgTable('crm_meetings', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  title: text('title').notNull(),
  startsAt: ts('starts_at').notNull(),
  timeZone: text('time_zone').notNull(),
  durationMinutes: integer('duration_minutes').notNull().default(30),
  place: text('place').notNull().default(''),
  link: text('link').notNull().default(''),
  /** The invitees' names when the meeting was saved, as reminders show them. */
  who: text('who').notNull().default(''),
  notes: text('notes').notNull().default(''),
  remindedAt: ts('reminded_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type MeetingRow = typeof crmMeetings.$inferSelect;

/** Who a meeting invites: one row per contact or lead of the member (migration 0025). */
export const crmMeetingInvitees = pgTable('crm_meeting_invitees', {
  id: serial('id').primaryKey(),
  meetingId: integer('meeting_id').notNull(),
  memberId: integer('member_id').notNull(),
  leadId: integer('lead_id'),
  contactId: integer('contact_id'),
});

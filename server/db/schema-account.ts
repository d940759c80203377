/**
 * Drizzle description of the account tables created by migrations/0007_addresses.sql: the member's
 * address book. Imported directly where used.
 */
import { integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

export const addresses = pgTable('addresses', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull().default(''),
  company: text('company').notNull().default(''),
  address1: text('address_1').notNull(),
  address2: text('address_2').notNull().default(''),
  city: text('city').notNull(),
  postcode: text('postcode').notNull().default(''),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  countryId: integer('country_id').notNull(),
  countryName: text('country_name').notNull(),
  zoneId: integer('zone_id'),
  zoneName: text('zone_name').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type AddressRow = typeof addresses.$inferSelect;

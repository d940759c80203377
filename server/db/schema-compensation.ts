/** Drizzle description of migrations/0020_compensation_runs.sql: the periods a compensation run has paid. */
import { date, integer, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import type { Plan } from '../../src/schemas/common.schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

export const compensationRuns = pgTable('compensation_runs', {
  id: serial('id').primaryKey(),
  plan: text('plan').$type<Plan>().notNull(),
  periodStart: date('period_start', { mode: 'string' }).notNull(),
  paidUntil: ts('paid_until').notNull(),
  earningsCount: integer('earnings_count').notNull().default(0),
  totalPaid: numeric('total_paid').notNull().default('0'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Drizzle descriptions of the tables created by migrations/0019_packages_otc.sql: package purchases,
 * wallet top-ups and over-the-counter payment requests. Imported directly where used.
 */
import { bigint, bigserial, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
const id64 = (name: string) => bigint(name, { mode: 'number' });

export const packagePurchases = pgTable('package_purchases', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  packageId: integer('package_id').notNull(),
  fromPackageId: integer('from_package_id'),
  kind: text('kind').notNull(),
  amount: numeric('amount').notNull(),
  pv: numeric('pv').notNull(),
  status: text('status').notNull(),
  paymentMethod: text('payment_method'),
  paymentRef: text('payment_ref'),
  orderId: id64('order_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  paidAt: ts('paid_at'),
});

export const walletTopups = pgTable('wallet_topups', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  amount: numeric('amount').notNull(),
  status: text('status').notNull(),
  paymentRef: text('payment_ref'),
  transactionId: id64('transaction_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  paidAt: ts('paid_at'),
});

export const otcRequests = pgTable('otc_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  purpose: text('purpose').notNull(),
  refId: id64('ref_id').notNull(),
  amount: numeric('amount').notNull(),
  method: text('method').notNull(),
  reference: text('reference').notNull(),
  description: text('description').notNull(),
  status: text('status').notNull(),
  transactionRef: text('transaction_ref'),
  receiptUploadId: id64('receipt_upload_id'),
  reason: text('reason'),
  expiresAt: ts('expires_at').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  submittedAt: ts('submitted_at'),
  decidedAt: ts('decided_at'),
});

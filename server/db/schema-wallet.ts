/**
 * Drizzle descriptions of the wallet tables created by migrations/0004_wallet.sql: the ledger,
 * earnings, payouts, orders, PV and binary history. Imported directly where used.
 */
import { bigint, bigserial, char, date, integer, jsonb, numeric, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
const id64 = (name: string) => bigint(name, { mode: 'number' });

export const ledgerAccounts = pgTable('ledger_accounts', {
  id: serial('id').primaryKey(),
  kind: text('kind').notNull(),
  memberId: integer('member_id'),
  normalSide: char('normal_side', { length: 1 }).notNull(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const ledgerTransactions = pgTable('ledger_transactions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  transactionGroup: text('transaction_group').notNull(),
  transactionType: text('transaction_type').notNull(),
  transactionKey: text('transaction_key').notNull(),
  memberId: integer('member_id'),
  fromMemberId: integer('from_member_id'),
  level: integer('level'),
  rankId: integer('rank_id'),
  payoutId: id64('payout_id'),
  orderId: id64('order_id'),
  memo: text('memo'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const ledgerEntries = pgTable('ledger_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  transactionId: id64('transaction_id').notNull(),
  accountId: integer('account_id').notNull(),
  amount: numeric('amount').notNull(),
  createdAt: ts('created_at').notNull(),
});

export const earnings = pgTable('earnings', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  bonusType: text('bonus_type').notNull(),
  amountGenerated: numeric('amount_generated').notNull(),
  tax: numeric('tax').notNull().default('0'),
  serviceCharge: numeric('service_charge').notNull().default('0'),
  amountPayable: numeric('amount_payable').notNull(),
  level: integer('level'),
  fromMemberId: integer('from_member_id'),
  rankId: integer('rank_id'),
  transactionId: id64('transaction_id').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const payoutRequests = pgTable('payout_requests', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  amount: numeric('amount').notNull(),
  fee: numeric('fee').notNull().default('0'),
  status: smallint('status').notNull().default(1),
  idempotencyKey: text('idempotency_key'),
  requestFingerprint: text('request_fingerprint'),
  balanceAfter: numeric('balance_after'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  paidAt: ts('paid_at'),
  note: text('note'),
  /** The payout method at the time of the request and a masked snapshot of its destination. */
  payoutMethod: text('payout_method'),
  payoutDestination: text('payout_destination'),
});
export type PayoutRow = typeof payoutRequests.$inferSelect;

export const memberKyc = pgTable('member_kyc', {
  memberId: integer('member_id').primaryKey(),
  status: text('status').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const orders = pgTable('orders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  invoiceNo: text('invoice_no').notNull(),
  orderType: text('order_type').notNull(),
  status: text('status').notNull(),
  packageId: integer('package_id'),
  packageName: text('package_name'),
  total: numeric('total').notNull(),
  totalBv: numeric('total_bv').notNull(),
  paymentMethod: text('payment_method').notNull(),
  billing: jsonb('billing').notNull(),
  shipping: jsonb('shipping'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const orderItems = pgTable('order_items', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  orderId: id64('order_id').notNull(),
  sku: text('sku').notNull(),
  name: text('name').notNull(),
  price: numeric('price').notNull(),
  bv: numeric('bv').notNull(),
  quantity: integer('quantity').notNull(),
  expiry: date('expiry', { mode: 'string' }),
  image: text('image'),
});

export const pvHistory = pgTable('pv_history', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  type: text('type').notNull(),
  pv: numeric('pv').notNull(),
  tv: numeric('tv').notNull(),
  totalPv: numeric('total_pv').notNull(),
  totalTv: numeric('total_tv').notNull(),
  fromMemberId: integer('from_member_id'),
  orderId: id64('order_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const binaryHistory = pgTable('binary_history', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  memberId: integer('member_id').notNull(),
  type: text('type').notNull(),
  leg: char('leg', { length: 1 }),
  pvAdded: numeric('pv_added').notNull().default('0'),
  pvDeductedLeft: numeric('pv_deducted_left').notNull().default('0'),
  pvDeductedRight: numeric('pv_deducted_right').notNull().default('0'),
  totalLeft: numeric('total_left').notNull(),
  totalRight: numeric('total_right').notNull(),
  carryLeft: numeric('carry_left').notNull(),
  carryRight: numeric('carry_right').notNull(),
  bonusGenerated: numeric('bonus_generated').notNull().default('0'),
  bonusToPay: numeric('bonus_to_pay').notNull().default('0'),
  cappingLimit: numeric('capping_limit'),
  periodStart: date('period_start', { mode: 'string' }),
  fromMemberId: integer('from_member_id'),
  orderId: id64('order_id'),
  earningId: id64('earning_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Drizzle description of the CRM's sales and invoices (migrations/0024_crm_sales.sql): a sale to a contact,
 * its lines (catalogue items at the price of the day), the invoice it issued and each member's last
 * invoice number. Imported directly where used.
 */
import { date, integer, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });
const amount = (name: string) => numeric(name, { precision: 20, scale: 4 });

export const crmSales = pgTable('crm_sales', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  contactId: integer('contact_id').notNull(),
  contactName: text('contact_name').notNull(),
  total: amount('total').notNull(),
  notes: text('notes').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type SaleRow = typeof crmSales.$inferSelect;

export const crmSaleLines = pgTable('crm_sale_lines', {
  id: serial('id').primaryKey(),
  saleId: integer('sale_id').notNull(),
  position: integer('position').notNull(),
  kind: text('kind').notNull(),
  itemId: integer('item_id').notNull(),
  sku: text('sku').notNull(),
  name: text('name').notNull(),
  quantity: integer('quantity').notNull(),
  unitPrice: amount('unit_price').notNull(),
  amount: amount('amount').notNull(),
});
export type SaleLineRow = typeof crmSaleLines.$inferSelect;

export const crmInvoiceCounters = pgTable('crm_invoice_counters', {
  memberId: integer('member_id').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});

export const crmInvoices = pgTable('crm_invoices', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  saleId: integer('sale_id').notNull(),
  number: integer('number').notNull(),
  status: text('status').notNull().default('draft'),
  issuedOn: date('issued_on', { mode: 'string' }).notNull(),
  dueOn: date('due_on', { mode: 'string' }).notNull(),
  total: amount('total').notNull(),
  sentAt: ts('sent_at'),
  paidAt: ts('paid_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});
export type InvoiceRow = typeof crmInvoices.$inferSelect;

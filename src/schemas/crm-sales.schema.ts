/**
 * Sales and invoices of the member's CRM (spec §2 CRM routes /crm/sales, /crm/invoices): a sale to one of
 * the member's contacts of products or packages of the company's catalogue, and the invoice it issues.
 * Prices come from the catalogue on the server (a body carries only what and how many); money is decimal
 * text, never a float. An invoice is stored as draft, sent or paid; `overdue` is derived — a sent invoice
 * past its due day — on the server, for the answers and the list's filter alike.
 */
import * as z from 'zod/mini';
import { idSchema } from './common.schema';
import { cursorPage } from './values.schema';
import { crmText } from './crm.schema';
import { cursorParam, dateRangeParam, dayParam, limitParam, oneOfParam, sortParam, textParam } from './list-query.schema';

export const SALE_ITEM_KINDS = ['product', 'package'] as const;
export type SaleItemKind = (typeof SALE_ITEM_KINDS)[number];
/** Stored statuses of an invoice. */
export const STORED_INVOICE_STATUSES = ['draft', 'sent', 'paid'] as const;
/** Statuses as answered and filtered: the stored ones and `overdue` (sent, past its due day). */
export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Days until an invoice is due, as the new-sale form offers them. */
export const DUE_DAYS = ['0', '7', '14', '30', '60'] as const;
/** At most this many lines per sale, and this many of one item per line. */
export const MAX_SALE_LINES = 50;
export const MAX_QUANTITY = 9999;

/** A catalogue item: `product:<id>` or `package:<id>`. */
export const SALE_ITEM = /^(product|package):[1-9]\d{0,9}$/;
const QUANTITY = /^\d{1,12}$/;

/** One line of a sale as typed: what (an item of the catalogue) and how many (a whole number, 1 to MAX_QUANTITY). */
export const saleLineSchema = z.strictObject({
  item: z.string('validation:required').check(
    z.trim(),
    z.minLength(1, 'validation:required'),
    z.refine((v) => v === '' || SALE_ITEM.test(v), 'validation:invalidChoice'),
  ),
  quantity: z.string('validation:required').check(
    z.trim(),
    z.minLength(1, 'validation:required'),
    z.refine((v) => v === '' || /^-?\d+$/.test(v), 'validation:invalidFormat'),
    z.refine((v) => !QUANTITY.test(v) || Number(v) >= 1, 'validation:tooSmall'),
    z.refine((v) => !/^-/.test(v), 'validation:tooSmall'),
    z.refine((v) => !QUANTITY.test(v) || Number(v) <= MAX_QUANTITY, 'validation:tooBig'),
  ),
});
export type SaleLineRequest = z.infer<typeof saleLineSchema>;

/** Body of POST /api/crm/sales: the buyer (a contact of the member), the lines, when the invoice is due, notes. */
export const saleRequestSchema = z.strictObject({
  contact_id: z.string('validation:required').check(
    z.trim(),
    z.minLength(1, 'validation:required'),
    z.refine((v) => v === '' || /^[1-9]\d{0,9}$/.test(v), 'validation:invalidChoice'),
  ),
  due_days: z.string('validation:invalidChoice').check(z.refine((v) => (DUE_DAYS as readonly string[]).includes(v), 'validation:invalidChoice')),
  notes: z.optional(crmText(1000, false, true)),
  lines: z.array(saleLineSchema).check(z.minLength(1, 'validation:required'), z.maxLength(MAX_SALE_LINES, 'validation:tooLong')),
});
export type SaleRequest = z.infer<typeof saleRequestSchema>;
/** The new-sale form's values: text fields and the list of lines (each line's text as typed). */
export type SaleLineValues = { item: string; quantity: string };
export type SaleValues = { contact_id: string; due_days: string; notes: string; lines: readonly SaleLineValues[] };
export const EMPTY_SALE_LINE: SaleLineValues = { item: '', quantity: '1' };
export const EMPTY_SALE: SaleValues = { contact_id: '', due_days: '30', notes: '', lines: [EMPTY_SALE_LINE] };

/** One line as answered: the catalogue's name, SKU and unit price at the time of the sale. */
export const saleLineSchemaOut = z.object({
  kind: z.string(),
  item_id: idSchema,
  sku: z.string(),
  name: z.string(),
  quantity: z.number(),
  unit_price: z.string(),
  amount: z.string(),
});
export type SaleLine = z.infer<typeof saleLineSchemaOut>;

/** A sale in a list: buyer, total, how many lines, its invoice's number and status. */
export const saleSummarySchema = z.object({
  id: idSchema,
  contact_id: idSchema,
  contact_name: z.string(),
  total: z.string(),
  line_count: z.number(),
  invoice_id: idSchema,
  invoice_number: z.string(),
  invoice_status: z.string(),
  created_at: z.string(),
});
export type SaleSummary = z.infer<typeof saleSummarySchema>;
export const salePageSchema = cursorPage(saleSummarySchema);

export const saleSchema = z.object({
  ...saleSummarySchema.shape,
  notes: z.string(),
  lines: z.array(saleLineSchemaOut),
});
export type Sale = z.infer<typeof saleSchema>;

/** An invoice in a list. `status` is draft, sent, paid or overdue (derived). */
export const invoiceSummarySchema = z.object({
  id: idSchema,
  number: z.string(),
  sale_id: idSchema,
  contact_id: idSchema,
  contact_name: z.string(),
  status: z.string(),
  issued_on: z.string(),
  due_on: z.string(),
  total: z.string(),
  created_at: z.string(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;
export const invoicePageSchema = cursorPage(invoiceSummarySchema);

export const invoiceSchema = z.object({
  ...invoiceSummarySchema.shape,
  sent_at: z.nullable(z.string()),
  paid_at: z.nullable(z.string()),
  seller: z.object({ name: z.string(), email: z.string() }),
  buyer: z.object({ name: z.string(), company: z.string(), email: z.string(), phone: z.string(), city: z.string() }),
  notes: z.string(),
  lines: z.array(saleLineSchemaOut),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** What the new-sale form chooses from: the member's contacts and the catalogue (products and packages). */
export const catalogueItemSchema = z.object({ item: z.string(), kind: z.string(), sku: z.string(), name: z.string(), price: z.string() });
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;
export const saleChoicesSchema = z.object({
  contacts: z.array(z.object({ id: idSchema, name: z.string() })),
  catalogue: z.array(catalogueItemSchema),
});
export type SaleChoices = z.infer<typeof saleChoicesSchema>;

const listShape = {
  cursor: z.optional(cursorParam()),
  limit: z.optional(limitParam()),
  sort: z.optional(sortParam),
  q: z.optional(textParam('validation:tooLong', z.maxLength(100, { error: 'validation:tooLong' }))),
  date_range: z.optional(dateRangeParam),
  start_date: z.optional(dayParam),
  end_date: z.optional(dayParam),
};
/** GET /api/crm/sales (and /export): search (buyer or invoice number), made between, newest or oldest first. */
export const saleListQuerySchema = z.looseObject(listShape);
export type SaleFilters = Partial<Pick<z.output<typeof saleListQuerySchema>, 'q' | 'sort' | 'date_range' | 'start_date' | 'end_date'>>;
/** GET /api/crm/invoices (and /export): the same and a status (overdue included). */
export const invoiceListQuerySchema = z.looseObject({ ...listShape, status: z.optional(oneOfParam(INVOICE_STATUSES)) });
export type InvoiceFilters = Partial<Pick<z.output<typeof invoiceListQuerySchema>, 'q' | 'status' | 'sort' | 'date_range' | 'start_date' | 'end_date'>>;

/** "INV-000042": an invoice's number as shown, per member without gaps. */
export const invoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;

/** Decimal text (up to 4 fraction digits) as hundredths, and back: the form's running total without floats. */
export const toCents = (v: string): bigint => {
  const neg = v.startsWith('-');
  const [i, f = ''] = v.replace(/^-/, '').split('.');
  const c = BigInt(i || '0') * 100n + BigInt((f + '00').slice(0, 2));
  return neg ? -c : c;
};
export const fromCents = (c: bigint) => `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;
/** The running total of the lines typed so far: known items times valid quantities; other lines count nothing. */
export function runningTotal(lines: readonly SaleLineValues[], catalogue: readonly CatalogueItem[]): string {
  const prices = new Map(catalogue.map((c) => [c.item, c.price]));
  let total = 0n;
  for (const l of lines) {
    const price = prices.get(l.item);
    const q = l.quantity.trim();
    if (price === undefined || !/^\d{1,4}$/.test(q) || Number(q) < 1) continue;
    total += toCents(price) * BigInt(q);
  }
  return fromCents(total);
}

/**
 * Sales and invoices of the member's CRM. A sale is to one of the member's live contacts, of items of the
 * company's catalogue (active products of the store, active packages) and quantities: the unit prices are
 * the catalogue's, read here (a body names only the item and how many); amounts are decimal units
 * (server/lib/money.ts). Recording a sale issues its invoice in the same transaction, numbered per member
 * without gaps: the member's counter row is raised with an upsert whose row lock makes concurrent sales
 * take turns, and a sale that fails rolls its number back. An invoice is stored draft, sent or paid; it
 * reads as overdue while sent and due before today (`invoiceStatusAt`, and the same rule in SQL for the
 * list's filter). Every query names the member: someone else's sale or invoice is one that does not exist.
 */
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import {
  INVOICE_STATUSES,
  invoiceNumber,
  type CatalogueItem,
  type Invoice,
  type InvoiceStatus,
  type InvoiceSummary,
  type Sale,
  type SaleChoices,
  type SaleLine,
  type SaleRequest,
  type SaleSummary,
} from '../../src/schemas/crm-sales.schema';
import type { Db } from '../db/client';
import { members, type MemberRow } from '../db/schema';
import { crmContacts } from '../db/schema-crm';
import { crmInvoiceCounters, crmInvoices, crmSaleLines, crmSales, type InvoiceRow, type SaleLineRow } from '../db/schema-crm-sales';
import { containsPattern, money2 } from './crm-leads';
import { notFound, validationError, type FieldMap } from './errors';
import { rowsOf, type Executor } from './ledger';
import { keyedRow, type Keyed } from './list-endpoint';
import * as money from './money';
import type { ListQuery } from './pagination';

/** Today's calendar day on the server (UTC), the day invoices are issued and become overdue by. */
export const todayYmd = (now = new Date()) => now.toISOString().slice(0, 10);
const addDays = (ymd: string, days: number) => new Date(Date.parse(`${ymd}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The status an invoice shows on `today`: a sent invoice due before today is overdue. */
export function invoiceStatusAt(stored: string, dueOn: string, today: string): InvoiceStatus {
  return stored === 'sent' && dueOn < today ? 'overdue' : (stored as InvoiceStatus);
}

// ── The catalogue ───────────────────────────────────────────────────────────────────────────────────

interface CatalogueRow {
  kind: 'product' | 'package';
  id: number;
  sku: string;
  name: string;
  price: string;
}

/** Active products of the store and active packages, by name (what a sale can hold). */
async function catalogueRows(ex: Executor, only?: { products: number[]; packages: number[] }): Promise<CatalogueRow[]> {
  const productIds = only ? (only.products.length ? sql`AND id IN (${sql.join(only.products.map((id) => sql`${id}`), sql`, `)})` : sql`AND FALSE`) : sql``;
  const packageIds = only ? (only.packages.length ? sql`AND id IN (${sql.join(only.packages.map((id) => sql`${id}`), sql`, `)})` : sql`AND FALSE`) : sql``;
  const rows = await rowsOf<CatalogueRow>(
    ex,
    sql`SELECT 'product' AS kind, id::int AS id, sku, name, price::text AS price FROM products WHERE active ${productIds}
        UNION ALL
        SELECT 'package' AS kind, id, sku, name, price::text AS price FROM packages WHERE status ${packageIds}
        ORDER BY name, kind, id LIMIT 2000`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

const toCatalogueItem = (r: CatalogueRow): CatalogueItem => ({ item: `${r.kind}:${r.id}`, kind: r.kind, sku: r.sku, name: r.name, price: money2(r.price) });

/** The new-sale form's choices: the member's live contacts (at most 500, by name) and the catalogue. */
export async function saleChoices(db: Db, member: MemberRow): Promise<SaleChoices> {
  const [contacts, catalogue] = await Promise.all([
    db
      .select({ id: crmContacts.id, name: crmContacts.name })
      .from(crmContacts)
      .where(and(eq(crmContacts.memberId, member.id), isNull(crmContacts.deletedAt)))
      .orderBy(asc(crmContacts.name))
      .limit(500),
    catalogueRows(db),
  ]);
  return { contacts, catalogue: catalogue.map(toCatalogueItem) };
}

// ── Recording a sale ────────────────────────────────────────────────────────────────────────────────

const itemOf = (text: string) => {
  const [kind, id] = text.split(':');
  return { kind: kind as 'product' | 'package', id: Number(id) };
};

/**
 * Records the sale and issues its invoice (draft, due `due_days` after today), in one transaction. The
 * contact must be the member's, every item in the catalogue: otherwise 422 with the field map
 * (`contact_id`, `lines.<i>.item`) and nothing is written (no invoice number is used).
 */
export async function recordSale(db: Db, member: MemberRow, body: SaleRequest, now = new Date()): Promise<{ saleId: number; invoiceId: number }> {
  const wanted = body.lines.map((l) => itemOf(l.item));
  const [contact] = await db
    .select()
    .from(crmContacts)
    .where(and(eq(crmContacts.id, Number(body.contact_id)), eq(crmContacts.memberId, member.id), isNull(crmContacts.deletedAt)))
    .limit(1);
  const catalogue = await catalogueRows(db, {
    products: [...new Set(wanted.filter((w) => w.kind === 'product').map((w) => w.id))],
    packages: [...new Set(wanted.filter((w) => w.kind === 'package').map((w) => w.id))],
  });
  const byItem = new Map(catalogue.map((c) => [`${c.kind}:${c.id}`, c]));
  const errors: FieldMap = {};
  if (!contact) errors.contact_id = ['validation:invalidChoice'];
  body.lines.forEach((l, i) => {
    if (!byItem.has(l.item)) errors[`lines.${i}.item`] = ['validation:invalidChoice'];
  });
  if (Object.keys(errors).length) throw validationError(errors);

  const lines = body.lines.map((l, i) => {
    const c = byItem.get(l.item)!;
    const quantity = Number(l.quantity);
    const unit = money.parse(c.price);
    return { position: i + 1, kind: c.kind, itemId: c.id, sku: c.sku, name: c.name, quantity, unit, amount: money.times(unit, quantity) };
  });
  const total = money.sum(lines.map((l) => l.amount));
  const issuedOn = todayYmd(now);

  return db.transaction(async (tx) => {
    const [sale] = await tx
      .insert(crmSales)
      .values({ memberId: member.id, contactId: contact!.id, contactName: contact!.name, total: money.format(total), notes: body.notes ?? '', createdAt: now, updatedAt: now })
      .returning({ id: crmSales.id });
    await tx.insert(crmSaleLines).values(
      lines.map((l) => ({ saleId: sale.id, position: l.position, kind: l.kind, itemId: l.itemId, sku: l.sku, name: l.name, quantity: l.quantity, unitPrice: money.format(l.unit), amount: money.format(l.amount) })),
    );
    const number = await nextInvoiceNumber(tx, member.id);
    const [invoice] = await tx
      .insert(crmInvoices)
      .values({ memberId: member.id, saleId: sale.id, number, status: 'draft', issuedOn, dueOn: addDays(issuedOn, Number(body.due_days)), total: money.format(total), createdAt: now, updatedAt: now })
      .returning({ id: crmInvoices.id });
    return { saleId: sale.id, invoiceId: invoice.id };
  });
}

/** The member's next invoice number, taken inside the caller's transaction (held by the counter row's lock until it ends). */
export async function nextInvoiceNumber(tx: Executor, memberId: number): Promise<number> {
  const [row] = await tx
    .insert(crmInvoiceCounters)
    .values({ memberId, lastNumber: 1 })
    .onConflictDoUpdate({ target: crmInvoiceCounters.memberId, set: { lastNumber: sql`${crmInvoiceCounters.lastNumber} + 1` } })
    .returning({ n: crmInvoiceCounters.lastNumber });
  return row.n;
}

// ── Reading sales ───────────────────────────────────────────────────────────────────────────────────

const toLine = (l: SaleLineRow): SaleLine => ({
  kind: l.kind,
  item_id: l.itemId,
  sku: l.sku,
  name: l.name,
  quantity: l.quantity,
  unit_price: money2(l.unitPrice),
  amount: money2(l.amount),
});

async function linesOf(ex: Executor, saleId: number): Promise<SaleLine[]> {
  const rows = await ex.select().from(crmSaleLines).where(eq(crmSaleLines.saleId, saleId)).orderBy(asc(crmSaleLines.position));
  return rows.map(toLine);
}

interface SaleListRow {
  id: number;
  contact_id: number;
  contact_name: string;
  total: string;
  line_count: number;
  invoice_id: number;
  invoice_number: number;
  invoice_status: string;
  due_on: string;
  notes: string;
  created_at: Date | string;
}

const saleSummary = (r: SaleListRow, today: string): Omit<SaleSummary, 'id' | 'created_at'> => ({
  contact_id: Number(r.contact_id),
  contact_name: r.contact_name,
  total: money2(r.total),
  line_count: Number(r.line_count),
  invoice_id: Number(r.invoice_id),
  invoice_number: invoiceNumber(Number(r.invoice_number)),
  invoice_status: invoiceStatusAt(r.invoice_status, String(r.due_on), today),
});

const SALE_COLUMNS = sql`s.id, s.contact_id, s.contact_name, s.total::text AS total, s.notes, s.created_at,
  (SELECT count(*)::int FROM crm_sale_lines l WHERE l.sale_id = s.id) AS line_count,
  i.id AS invoice_id, i.number AS invoice_number, i.status AS invoice_status, i.due_on::text AS due_on`;

/** "INV-000012", "inv-12" or "12": the invoice number a search names, if it names one. */
function numberSearched(q: string): number | null {
  const m = /^(?:inv-?)?0*(\d{1,9})$/i.exec(q.trim());
  return m ? Number(m[1]) : null;
}

export const saleFilters = (q: ListQuery) => ({ q: q.text('q') });

/** A page of the member's sales (search: the buyer's name or the invoice number), keyset-paged by (created_at, id). */
export async function saleRows(db: Db, member: MemberRow, q: ListQuery, f: { q?: string }, limit: number): Promise<Array<Keyed<SaleSummary>>> {
  const today = todayYmd();
  const n = f.q ? numberSearched(f.q) : null;
  const search = f.q ? sql`(s.contact_name ILIKE ${containsPattern(f.q)} ${n !== null ? sql`OR i.number = ${n}` : sql``})` : sql`TRUE`;
  const rows = await rowsOf<SaleListRow>(
    db,
    sql`SELECT ${SALE_COLUMNS} FROM crm_sales s JOIN crm_invoices i ON i.sale_id = s.id
        WHERE s.member_id = ${member.id} AND s.deleted_at IS NULL AND ${search}
          AND ${q.rangeSql(sql`s.created_at`)} AND ${q.afterCursorSql(sql`s.created_at`, sql`s.id`)}
        ORDER BY ${q.orderSql(sql`s.created_at`, sql`s.id`)} LIMIT ${limit}`,
  );
  return rows.map((r) => keyedRow(r.id, r.created_at, saleSummary(r, today)) as Keyed<SaleSummary>);
}

/** The member's sale `id` with its lines and its invoice, or 404. */
export async function saleOf(db: Db, member: MemberRow, id: number): Promise<Sale> {
  const [r] = await rowsOf<SaleListRow>(
    db,
    sql`SELECT ${SALE_COLUMNS} FROM crm_sales s JOIN crm_invoices i ON i.sale_id = s.id
        WHERE s.id = ${id} AND s.member_id = ${member.id} AND s.deleted_at IS NULL`,
  );
  if (!r) throw notFound();
  return { id: Number(r.id), ...saleSummary(r, todayYmd()), created_at: new Date(r.created_at).toISOString(), notes: r.notes, lines: await linesOf(db, Number(r.id)) };
}

/** A contact's sales for its timeline (newest first, at most 200). */
export async function contactSales(db: Db, member: MemberRow, contactId: number) {
  return db
    .select({ id: crmSales.id, total: crmSales.total, createdAt: crmSales.createdAt, number: crmInvoices.number })
    .from(crmSales)
    .innerJoin(crmInvoices, eq(crmInvoices.saleId, crmSales.id))
    .where(and(eq(crmSales.memberId, member.id), eq(crmSales.contactId, contactId), isNull(crmSales.deletedAt)))
    .orderBy(sql`${crmSales.createdAt} DESC`)
    .limit(200);
}

// ── Invoices ────────────────────────────────────────────────────────────────────────────────────────

export const invoiceFilters = (q: ListQuery) => ({ q: q.text('q'), status: q.oneOf('status', INVOICE_STATUSES) });

/** The list's status filter: the stored status, or for `overdue` (and `sent`) the derived rule on `today`. */
function statusWhere(status: InvoiceStatus | undefined, today: string): SQL {
  if (!status) return sql`TRUE`;
  if (status === 'overdue') return sql`(i.status = 'sent' AND i.due_on < ${today}::date)`;
  if (status === 'sent') return sql`(i.status = 'sent' AND i.due_on >= ${today}::date)`;
  return sql`i.status = ${status}`;
}

interface InvoiceListRow {
  id: number;
  number: number;
  sale_id: number;
  contact_id: number;
  contact_name: string;
  status: string;
  issued_on: string;
  due_on: string;
  total: string;
  created_at: Date | string;
}

const INVOICE_COLUMNS = sql`i.id, i.number, i.sale_id, s.contact_id, s.contact_name, i.status, i.issued_on::text AS issued_on,
  i.due_on::text AS due_on, i.total::text AS total, i.created_at`;

const invoiceSummary = (r: InvoiceListRow, today: string): Omit<InvoiceSummary, 'id' | 'created_at'> => ({
  number: invoiceNumber(Number(r.number)),
  sale_id: Number(r.sale_id),
  contact_id: Number(r.contact_id),
  contact_name: r.contact_name,
  status: invoiceStatusAt(r.status, String(r.due_on), today),
  issued_on: String(r.issued_on),
  due_on: String(r.due_on),
  total: money2(r.total),
});

/** A page of the member's invoices (search: buyer or number; status, overdue included), keyset-paged by (created_at, id). */
export async function invoiceRows(db: Db, member: MemberRow, q: ListQuery, f: { q?: string; status?: InvoiceStatus }, limit: number): Promise<Array<Keyed<InvoiceSummary>>> {
  const today = todayYmd();
  const n = f.q ? numberSearched(f.q) : null;
  const search = f.q ? sql`(s.contact_name ILIKE ${containsPattern(f.q)} ${n !== null ? sql`OR i.number = ${n}` : sql``})` : sql`TRUE`;
  const rows = await rowsOf<InvoiceListRow>(
    db,
    sql`SELECT ${INVOICE_COLUMNS} FROM crm_invoices i JOIN crm_sales s ON s.id = i.sale_id
        WHERE i.member_id = ${member.id} AND i.deleted_at IS NULL AND ${search} AND ${statusWhere(f.status, today)}
          AND ${q.rangeSql(sql`i.created_at`)} AND ${q.afterCursorSql(sql`i.created_at`, sql`i.id`)}
        ORDER BY ${q.orderSql(sql`i.created_at`, sql`i.id`)} LIMIT ${limit}`,
  );
  return rows.map((r) => keyedRow(r.id, r.created_at, invoiceSummary(r, today)) as Keyed<InvoiceSummary>);
}

/** The member's invoice `id` with seller, buyer and lines, or 404. */
export async function invoiceOf(db: Executor, member: MemberRow, id: number): Promise<Invoice> {
  const [r] = await rowsOf<InvoiceListRow & { sent_at: Date | null; paid_at: Date | null; notes: string }>(
    db,
    sql`SELECT ${INVOICE_COLUMNS}, i.sent_at, i.paid_at, s.notes FROM crm_invoices i JOIN crm_sales s ON s.id = i.sale_id
        WHERE i.id = ${id} AND i.member_id = ${member.id} AND i.deleted_at IS NULL`,
  );
  if (!r) throw notFound();
  const [[buyer], [seller], lines] = await Promise.all([
    db.select().from(crmContacts).where(eq(crmContacts.id, Number(r.contact_id))).limit(1),
    db.select({ firstName: members.firstName, lastName: members.lastName, username: members.username, email: members.email }).from(members).where(eq(members.id, member.id)).limit(1),
    linesOf(db, Number(r.sale_id)),
  ]);
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: Number(r.id),
    ...invoiceSummary(r, todayYmd()),
    created_at: new Date(r.created_at).toISOString(),
    sent_at: iso(r.sent_at),
    paid_at: iso(r.paid_at),
    seller: { name: [seller?.firstName, seller?.lastName].filter(Boolean).join(' ') || (seller?.username ?? ''), email: seller?.email ?? '' },
    buyer: { name: r.contact_name, company: buyer?.company ?? '', email: buyer?.email ?? '', phone: buyer?.phone ?? '', city: buyer?.city ?? '' },
    notes: r.notes,
    lines,
  };
}

/** What each action may change: mark sent (a draft), mark paid (a draft or a sent one, overdue included). */
const FROM: Record<'sent' | 'paid', string[]> = { sent: ['draft'], paid: ['draft', 'sent'] };

/**
 * Marks the member's invoice sent or paid, by one conditional update (two at once change it once). Asking
 * again for the status it has answers it as it is; a change the status does not allow (a paid invoice
 * marked sent) is a 422 on `status`.
 */
export async function markInvoice(db: Db, member: MemberRow, id: number, to: 'sent' | 'paid', now = new Date()): Promise<Invoice> {
  const set: Partial<InvoiceRow> = to === 'sent' ? { status: 'sent', sentAt: now, updatedAt: now } : { status: 'paid', paidAt: now, updatedAt: now };
  const changed = await db
    .update(crmInvoices)
    .set(set)
    .where(and(eq(crmInvoices.id, id), eq(crmInvoices.memberId, member.id), isNull(crmInvoices.deletedAt), inArray(crmInvoices.status, FROM[to])))
    .returning({ id: crmInvoices.id });
  const invoice = await invoiceOf(db, member, id);
  if (!changed.length && !(invoice.status === to || (to === 'sent' && invoice.status === 'overdue'))) throw validationError({ status: ['validation:invoiceStatus'] });
  return invoice;
}

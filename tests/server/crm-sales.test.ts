// @vitest-environment node
/**
 * Sales and invoices of the member's CRM: a sale to the member's contact of catalogue items, priced by the
 * server (a price in the body is refused), totals in decimals; its invoice numbered per member without gaps,
 * even for sales recorded at the same time; the lists (search, dates, status with the derived overdue, CSV);
 * marking sent and paid; the PDF read back (lines, quantities, total); bad bodies answered 422 with a field
 * map; another member's sale or invoice a 404 on every call.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../server/lib/auth';
import type { Contact } from '../../src/schemas/crm.schema';
import type { CatalogueItem, Invoice, InvoiceSummary, Sale, SaleChoices, SaleSummary } from '../../src/schemas/crm-sales.schema';
import { pdfText } from '../support/pdf-text';
import { apiHeaders, startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, login, rows, type Answer } from './helpers';

let s: TestServer;
let mine: string;
let theirs: string;
let buyer: Contact;
let catalogue: CatalogueItem[];
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
  mine = (await login(s.app, 'demo')).token;
  const [other] = await bulkMembers(s.database, 1);
  theirs = (await createSession(s.database.db, other.id)).token;
  buyer = (await api('POST', '/api/crm/contacts', mine, { name: 'Lucía Gómez', company: 'Globex', email: 'lucia@example.com', city: 'Madrid' })).body.data;
  catalogue = ((await api('GET', '/api/crm/sales/choices', mine)).body.data as SaleChoices).catalogue;
});
afterAll(async () => {
  await s?.close();
});

const api = <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown): Promise<Answer<T>> =>
  call<T>(s.app, method, url, body, { token });
const product = () => catalogue.find((c) => c.kind === 'product')!;
const pack = () => catalogue.find((c) => c.kind === 'package')!;
const saleBody = (over: object = {}) => ({
  contact_id: String(buyer.id),
  due_days: '30',
  notes: 'Paid on delivery',
  lines: [
    { item: product().item, quantity: '3' },
    { item: pack().item, quantity: '1' },
  ],
  ...over,
});
const record = async (body: object = saleBody(), token = mine): Promise<Sale> => {
  const res = await api('POST', '/api/crm/sales', token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as Sale;
};
/** Decimal text as hundredths (the test's own arithmetic, without floats). */
const cents = (v: string) => {
  const [i, f = ''] = v.split('.');
  return BigInt(i) * 100n + BigInt((f + '00').slice(0, 2));
};
const pdf = async (id: number, token = mine) => {
  const res = await s.app.inject({ method: 'GET', url: `/api/crm/invoices/${id}/pdf`, headers: apiHeaders(token) });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
};

describe('recording a sale', () => {
  it('offers the member’s contacts and the catalogue (products and packages with their prices)', async () => {
    const choices = (await api('GET', '/api/crm/sales/choices', mine)).body.data as SaleChoices;
    expect(choices.contacts.map((c) => c.id)).toContain(buyer.id);
    expect(choices.catalogue.some((c) => c.kind === 'product') && choices.catalogue.some((c) => c.kind === 'package')).toBe(true);
    const [p] = await rows<{ price: string }>(s.database, sql`SELECT price::text AS price FROM products WHERE id = ${Number(product().item.split(':')[1])}`);
    expect(cents(product().price)).toBe(cents(p.price));
  });

  it('prices every line from the catalogue and totals them in decimals; the sale issues a draft invoice', async () => {
    const sale = await record();
    expect(sale.contact_name).toBe('Lucía Gómez');
    expect(sale.lines.map((l) => [l.name, l.quantity, l.unit_price])).toEqual([
      [product().name, 3, product().price],
      [pack().name, 1, pack().price],
    ]);
    const expected = cents(product().price) * 3n + cents(pack().price);
    expect(cents(sale.total)).toBe(expected);
    expect(sale.lines.map((l) => cents(l.amount))).toEqual([cents(product().price) * 3n, cents(pack().price)]);
    expect(sale.invoice_number).toMatch(/^INV-\d{6}$/);
    expect(sale.invoice_status).toBe('draft');
    const invoice = (await api('GET', `/api/crm/invoices/${sale.invoice_id}`, mine)).body.data as Invoice;
    expect(invoice).toMatchObject({ number: sale.invoice_number, sale_id: sale.id, status: 'draft', total: sale.total, buyer: { name: 'Lucía Gómez', company: 'Globex' } });
    expect(Date.parse(invoice.due_on) - Date.parse(invoice.issued_on)).toBe(30 * 86_400_000);
    expect(invoice.seller.name).not.toBe('');
  });

  it('refuses bad bodies with a field map and writes nothing (no invoice number is used)', async () => {
    const [before] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM crm_invoices`);
    const theirContact = (await api('POST', '/api/crm/contacts', theirs, { name: 'Not yours' })).body.data as Contact;
    const cases: Array<[object, Record<string, string[]>]> = [
      [saleBody({ lines: [] }), { lines: ['validation:required'] }],
      [saleBody({ lines: [{ item: product().item, quantity: '0' }] }), { 'lines.0.quantity': ['validation:tooSmall'] }],
      [saleBody({ lines: [{ item: product().item, quantity: '-2' }] }), { 'lines.0.quantity': ['validation:tooSmall'] }],
      [saleBody({ lines: [{ item: product().item, quantity: '99999999999' }] }), { 'lines.0.quantity': ['validation:tooBig'] }],
      [saleBody({ lines: [{ item: product().item, quantity: '1.5' }] }), { 'lines.0.quantity': ['validation:invalidFormat'] }],
      [saleBody({ lines: [{ item: 'product:999999', quantity: '1' }] }), { 'lines.0.item': ['validation:invalidChoice'] }],
      [saleBody({ lines: [{ item: 'shoe:1', quantity: '1' }] }), { 'lines.0.item': ['validation:invalidChoice'] }],
      [saleBody({ contact_id: String(theirContact.id) }), { contact_id: ['validation:invalidChoice'] }],
      [saleBody({ contact_id: '' }), { contact_id: ['validation:required'] }],
      [saleBody({ due_days: '1000' }), { due_days: ['validation:invalidChoice'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await api('POST', '/api/crm/sales', mine, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors, JSON.stringify(body)).toEqual(errors);
    }
    // A price from the client is not taken: an unknown field.
    const priced = await api('POST', '/api/crm/sales', mine, saleBody({ lines: [{ item: product().item, quantity: '1', unit_price: '0.01' }] }));
    expect(priced.status).toBe(422);
    expect(priced.body.errors).toEqual({ 'lines.0.unit_price': ['validation:unknownField'] });
    const [after] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM crm_invoices`);
    expect(after.n).toBe(before.n);
  });

  it('numbers invoices per member without gaps, also for sales recorded at the same time', async () => {
    const other = (await api('POST', '/api/crm/contacts', theirs, { name: 'Their buyer' })).body.data as Contact;
    const theirs1 = await record(saleBody({ contact_id: String(other.id) }), theirs);
    expect(theirs1.invoice_number).toBe('INV-000001');
    // Twelve at once, and a failing one among them (it must not use a number).
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, () => api('POST', '/api/crm/sales', mine, saleBody({ lines: [{ item: product().item, quantity: '1' }] }))),
      api('POST', '/api/crm/sales', mine, saleBody({ lines: [{ item: 'product:999999', quantity: '1' }] })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(12).fill(201), 422]);
    const numbers = (await rows<{ number: number }>(s.database, sql`SELECT i.number FROM crm_invoices i JOIN members m ON m.id = i.member_id WHERE m.username = 'demo' ORDER BY i.number`)).map((r) => r.number);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.invoice_number)).size).toBe(12);
    const next = await record(saleBody({ contact_id: String(other.id) }), theirs);
    expect(next.invoice_number).toBe('INV-000002');
  });
});

describe('lists', () => {
  it('lists sales newest first with search, dates and keyset paging; exports them as CSV', async () => {
    const sale = await record(saleBody({ lines: [{ item: pack().item, quantity: '2' }] }));
    const first = (await api('GET', '/api/crm/sales?limit=2', mine)).body.data;
    expect(first.items[0].id).toBe(sale.id);
    expect(first.items).toHaveLength(2);
    const second = (await api('GET', first.next_page_url.replace(/^.*\/api/, '/api'), mine)).body.data;
    expect(second.items.map((x: SaleSummary) => x.id)).not.toContain(sale.id);
    expect((await api('GET', `/api/crm/sales?q=${sale.invoice_number}`, mine)).body.data.items.map((x: SaleSummary) => x.id)).toEqual([sale.id]);
    expect((await api('GET', '/api/crm/sales?q=lucía', mine)).body.data.items.length).toBeGreaterThan(1);
    expect((await api('GET', '/api/crm/sales?q=nobody-at-all', mine)).body.data.items).toEqual([]);
    expect((await api('GET', '/api/crm/sales?start_date=2001-01-01&end_date=2001-01-31', mine)).body.data.items).toEqual([]);
    expect((await api('GET', '/api/crm/sales?start_date=not-a-day', mine)).status).toBe(422);
    const csv = await api('GET', `/api/crm/sales/export?q=${sale.invoice_number}`, mine);
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    expect(csv.body).toContain('id,created_at,contact,lines,total,invoice,invoice_status');
    expect(csv.body).toContain(`${sale.id},`);
    expect(csv.body).toContain(sale.total);
  });

  it('shows a sent invoice past its due day as overdue, in the detail and in the status filter', async () => {
    const sale = await record(saleBody({ due_days: '7' }));
    await api('POST', `/api/crm/invoices/${sale.invoice_id}/sent`, mine);
    const ofStatus = async (status: string) => (await api('GET', `/api/crm/invoices?status=${status}&limit=100`, mine)).body.data.items.map((x: InvoiceSummary) => x.id);
    expect(await ofStatus('sent')).toContain(sale.invoice_id);
    expect(await ofStatus('overdue')).not.toContain(sale.invoice_id);
    await s.database.db.execute(sql`UPDATE crm_invoices SET issued_on = current_date - 20, due_on = current_date - 13 WHERE id = ${sale.invoice_id}`);
    expect((await api('GET', `/api/crm/invoices/${sale.invoice_id}`, mine)).body.data.status).toBe('overdue');
    expect((await api('GET', `/api/crm/sales/${sale.id}`, mine)).body.data.invoice_status).toBe('overdue');
    expect(await ofStatus('overdue')).toContain(sale.invoice_id);
    expect(await ofStatus('sent')).not.toContain(sale.invoice_id);
    expect((await api('GET', '/api/crm/invoices?status=late', mine)).status).toBe(422);
    const csv = await api('GET', '/api/crm/invoices/export?status=overdue', mine);
    expect(csv.body).toContain(`${sale.invoice_number},`);
    // An overdue invoice can be paid.
    expect((await api('POST', `/api/crm/invoices/${sale.invoice_id}/paid`, mine)).body.data.status).toBe('paid');
  });
});

describe('invoice actions and the PDF', () => {
  it('marks a draft sent, then paid; asking again answers it as it is; a paid invoice cannot be sent', async () => {
    const sale = await record();
    const sent = await api('POST', `/api/crm/invoices/${sale.invoice_id}/sent`, mine);
    expect(sent.status).toBe(200);
    expect(sent.body.data.status).toBe('sent');
    expect(sent.body.data.sent_at).not.toBeNull();
    expect((await api('POST', `/api/crm/invoices/${sale.invoice_id}/sent`, mine)).body.data.sent_at).toBe(sent.body.data.sent_at);
    const paid = await api('POST', `/api/crm/invoices/${sale.invoice_id}/paid`, mine);
    expect(paid.body.data).toMatchObject({ status: 'paid' });
    const again = await api('POST', `/api/crm/invoices/${sale.invoice_id}/sent`, mine);
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ status: ['validation:invoiceStatus'] });
  });

  it('serves the invoice as a PDF showing the company, seller, buyer, lines and total, as an attachment', async () => {
    const sale = await record();
    const file = await pdf(sale.invoice_id);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${sale.invoice_number}.pdf"; filename*=UTF-8''${sale.invoice_number}.pdf`);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(file.bytes);
    expect(text).toContain(sale.invoice_number);
    expect(text).toContain('Lucía Gómez');
    expect(text).toContain('Globex');
    for (const l of sale.lines) {
      expect(text).toContain(l.name);
      expect(text).toContain(l.sku);
    }
    const money = (v: string) => v.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    expect(text).toMatch(new RegExp(`Total: ${money(sale.total).replace('.', '\\.')} [A-Z]{3}`));
    expect(text).toContain(`${money(sale.lines[0].unit_price)} `);
    expect(text.split('\n')).toContain('3');
    // In English for a member who reads English.
    for (const label of ['Invoice', 'Seller', 'Buyer', 'Item', 'Unit price', 'Amount']) expect(text.split('\n')).toContain(label);
    expect(text).toContain('Status: Draft');
  });

  it('prints names in any script, and writes labels, status and dates in the member’s language and date format', async () => {
    const [member] = await bulkMembers(s.database, 1, 7);
    await rows(s.database, sql`UPDATE members SET language_code = 'es', date_format = 'd/m/Y' WHERE id = ${member.id}`);
    const token = (await createSession(s.database.db, member.id)).token;
    const contact = (await api('POST', '/api/crm/contacts', token, { name: 'Zoë Łukasz 王芳 Ğü', company: 'Ünïcode Sp. z o.o.', city: 'Łódź' })).body.data as Contact;
    const sale = await record(saleBody({ contact_id: String(contact.id), notes: 'Entrega en Kraków — 谢谢' }), token);
    const file = await pdf(sale.invoice_id, token);
    expect(file.status).toBe(200);
    const text = pdfText(file.bytes);
    // Every character as typed (each font's piece of a line, and each wrapped line, is a text run of its own).
    const runs = text.split('\n');
    const joined = runs.join('');
    expect(joined).toContain('Zoë Łukasz 王芳 Ğü');
    expect(joined).toContain('Ünïcode Sp. z o.o.');
    expect(joined).toContain('Łódź');
    expect(joined).toContain('Entrega en Kraków — 谢谢');
    expect(joined).not.toContain('\uFFFD');
    // Spanish labels, status and the member's day/month/year.
    for (const label of ['Factura', 'Vendedor', 'Comprador', 'Artículo', 'Importe']) expect(runs).toContain(label);
    expect(joined).toContain('Precio unitario');
    expect(text).toContain('Estado: Borrador');
    const invoice = (await api('GET', `/api/crm/invoices/${sale.invoice_id}`, token)).body.data as { issued_on: string };
    const [y, m, d] = invoice.issued_on.split('-');
    expect(text).toContain(`Emitida: ${d}/${m}/${y}`);
    expect(text).toMatch(/Total: [\d,]+\.\d{2} [A-Z]{3}/);
    expect(text).not.toMatch(/\bSeller\b|\bBuyer\b|Unit price/);
    // The fonts travel inside the file.
    expect(file.bytes.toString('latin1')).toMatch(/\/FontFile2/);
  });
});

describe('the contact’s timeline', () => {
  it('lists the contact’s own live sales with their invoice number and total, newest first', async () => {
    const buyer2 = (await api('POST', '/api/crm/contacts', mine, { name: 'Timeline Buyer' })).body.data as Contact;
    const first = await record(saleBody({ contact_id: String(buyer2.id) }));
    const second = await record(saleBody({ contact_id: String(buyer2.id), lines: [{ item: pack().item, quantity: '2' }] }));
    const gone = await record(saleBody({ contact_id: String(buyer2.id) }));
    await rows(s.database, sql`UPDATE crm_sales SET created_at = created_at - interval '1 day' WHERE id = ${first.id}`);
    await rows(s.database, sql`UPDATE crm_sales SET deleted_at = now() WHERE id = ${gone.id}`);
    await api('POST', `/api/crm/contacts/${buyer2.id}/notes`, mine, { body: 'Asked for a discount' });
    // A sale to someone else is not on this timeline.
    await record();

    const res = await api('GET', `/api/crm/contacts/${buyer2.id}/timeline`, mine);
    expect(res.status).toBe(200);
    const items = res.body.data.items as Array<{ kind: string; id: number; text: string; amount?: string }>;
    expect(items.filter((e) => e.kind === 'sale')).toEqual([
      expect.objectContaining({ kind: 'sale', id: second.id, text: second.invoice_number, amount: second.total }),
      expect.objectContaining({ kind: 'sale', id: first.id, text: first.invoice_number, amount: first.total }),
    ]);
    expect(items.map((e) => e.kind)).toEqual(['note', 'sale', 'sale']);
    // Another member cannot read it.
    expect((await api('GET', `/api/crm/contacts/${buyer2.id}/timeline`, theirs)).status).toBe(404);
  });
});

describe('another member', () => {
  it('gets 404 for the member’s sales and invoices on every call, and never sees them listed', async () => {
    const sale = await record();
    for (const [method, url] of [
      ['GET', `/api/crm/sales/${sale.id}`],
      ['GET', `/api/crm/invoices/${sale.invoice_id}`],
      ['POST', `/api/crm/invoices/${sale.invoice_id}/sent`],
      ['POST', `/api/crm/invoices/${sale.invoice_id}/paid`],
      ['GET', `/api/crm/invoices/${sale.invoice_id}/pdf`],
    ] as const)
      expect((await api(method, url, theirs)).status, `${method} ${url}`).toBe(404);
    expect((await api('GET', '/api/crm/sales?limit=100', theirs)).body.data.items.map((x: SaleSummary) => x.id)).not.toContain(sale.id);
    expect((await api('GET', '/api/crm/invoices?limit=100', theirs)).body.data.items.map((x: InvoiceSummary) => x.id)).not.toContain(sale.invoice_id);
    expect((await api('GET', '/api/crm/sales/choices', theirs)).body.data.contacts.map((c: { id: number }) => c.id)).not.toContain(buyer.id);
    expect((await api('GET', `/api/crm/invoices/${sale.invoice_id}`, mine)).body.data.status).toBe('draft');
    // Not signed in, and ids that are no ids.
    expect((await api('GET', '/api/crm/sales', undefined)).status).toBe(401);
    expect((await api('POST', '/api/crm/sales', undefined, saleBody())).status).toBe(401);
    expect((await api('GET', '/api/crm/invoices/abc', mine)).status).toBe(404);
    expect((await api('GET', '/api/crm/sales/99999999999', mine)).status).toBe(404);
  });
});

describe('the seeded demo', () => {
  it('has sales with invoices in every status, dated across recent months', async () => {
    const items: InvoiceSummary[] = [];
    let url: string | null = '/api/crm/invoices?limit=100&sort=asc';
    while (url) {
      const page: { items: InvoiceSummary[]; next_page_url: string | null } = (await api('GET', url, mine)).body.data;
      items.push(...page.items);
      url = page.next_page_url && page.next_page_url.replace(/^.*\/api/, '/api');
    }
    const seeded = items.filter((i) => i.contact_name !== 'Lucía Gómez');
    expect(seeded.length).toBeGreaterThanOrEqual(50);
    expect(new Set(seeded.map((i) => i.status))).toEqual(new Set(['draft', 'sent', 'paid', 'overdue']));
    const months = new Set(seeded.map((i) => i.issued_on.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(5);
    expect(seeded[0].number).toBe('INV-000001');
  });
});

/**
 * An invoice as a PDF (pdfkit, A4, the standard Helvetica fonts): the company's name, the member as the
 * seller, the contact as the buyer, the invoice's number, status and days, one row per line (item, SKU,
 * quantity, unit price, amount) and the total. Amounts are the decimal text of the invoice, never floats.
 */
import PDFDocument from 'pdfkit';
import type { Invoice } from '../../src/schemas/crm-sales.schema';
import * as money from './money';

export interface InvoicePdfInput {
  invoice: Invoice;
  company: string;
  /** The currency code amounts are in (the company's). */
  currency: string;
  /** Written as the document's creation date (fixed in tests). */
  now?: Date;
}

const amount = (v: string, currency: string) => `${money.display(money.parse(v))} ${currency}`;

/** The PDF's bytes. */
export function invoicePdf({ invoice, company, currency, now = new Date() }: InvoicePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${company} ${invoice.number}`, Author: company, CreationDate: now } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.font('Helvetica-Bold').fontSize(20).text(company, left, 50);
  doc.font('Helvetica').fontSize(10).fillColor('#444').text('Invoice', { continued: false });
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').fontSize(14).fillColor('#000').text(invoice.number);
  doc.font('Helvetica').fontSize(10);
  doc.text(`Status: ${invoice.status}`);
  doc.text(`Issued: ${invoice.issued_on}`);
  doc.text(`Due: ${invoice.due_on}`);
  if (invoice.paid_at) doc.text(`Paid: ${invoice.paid_at.slice(0, 10)}`);

  // Seller and buyer side by side.
  const top = doc.y + 16;
  const half = width / 2 - 10;
  const block = (x: number, title: string, lines: string[]) => {
    doc.font('Helvetica-Bold').fontSize(10).text(title, x, top, { width: half });
    doc.font('Helvetica').fontSize(10);
    for (const l of lines.filter(Boolean)) doc.text(l, x, doc.y, { width: half });
    return doc.y;
  };
  const afterSeller = block(left, 'Seller', [invoice.seller.name, invoice.seller.email]);
  const b = invoice.buyer;
  const afterBuyer = block(left + width / 2 + 10, 'Buyer', [b.name, b.company, b.email, b.phone, b.city]);
  let y = Math.max(afterSeller, afterBuyer) + 24;

  // The lines.
  const cols = [
    { title: 'Item', x: left, w: width * 0.34, align: 'left' as const },
    { title: 'SKU', x: left + width * 0.34, w: width * 0.22, align: 'left' as const },
    { title: 'Qty', x: left + width * 0.56, w: width * 0.08, align: 'right' as const },
    { title: 'Unit price', x: left + width * 0.64, w: width * 0.17, align: 'right' as const },
    { title: 'Amount', x: left + width * 0.81, w: width * 0.19, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    const h = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i].w - 4 })));
    if (y + h > doc.page.height - doc.page.margins.bottom - 40) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    cells.forEach((c, i) => doc.text(c, cols[i].x, y, { width: cols[i].w - 4, align: cols[i].align }));
    y += h + 6;
  };
  row(cols.map((c) => c.title), true);
  doc.moveTo(left, y - 3).lineTo(left + width, y - 3).strokeColor('#999').stroke();
  for (const l of invoice.lines) row([l.name, l.sku, String(l.quantity), amount(l.unit_price, currency), amount(l.amount, currency)]);
  doc.moveTo(left, y).lineTo(left + width, y).strokeColor('#999').stroke();
  y += 8;
  doc.font('Helvetica-Bold').fontSize(12).text(`Total: ${amount(invoice.total, currency)}`, left, y, { width, align: 'right' });
  if (invoice.notes) {
    doc.moveDown(1.5);
    doc.font('Helvetica').fontSize(9).fillColor('#444').text(invoice.notes, left, doc.y, { width });
  }
  doc.end();
  return done;
}

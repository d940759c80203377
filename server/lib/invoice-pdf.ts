/**
 * An invoice as a PDF (pdfkit, A4): the company's name, the member as the seller, the contact as the buyer, the
 * invoice's number, status and days, one row per line (item, SKU, quantity, unit price, amount) and the total.
 * Written in the member's language (labels from the app's translations, dates in the member's date format),
 * in fonts embedded from npm packages so that every name prints as typed — "Zoë Łukasz 王芳 Ğü" included
 * (server/lib/pdf-fonts.ts). Amounts are the decimal text of the invoice, never floats.
 */
import PDFDocument from 'pdfkit';
import type { Invoice } from '../../src/schemas/crm-sales.schema';
import { formatDay } from '../../src/lib/dates';
import type { SupportedLanguage } from '../../src/i18n/languages';
import { translator } from './i18n';
import * as money from './money';
import { baseFont, runs, type PdfFont, type Weight } from './pdf-fonts';

export interface InvoicePdfInput {
  invoice: Invoice;
  company: string;
  /** The currency code amounts are in (the company's). */
  currency: string;
  /** The member's language and date format (PHP-style, as in their preferences). */
  language?: SupportedLanguage;
  dateFormat?: string | null;
  /** Written as the document's creation date (fixed in tests). */
  now?: Date;
}

const amount = (v: string, currency: string) => `${money.display(money.parse(v))} ${currency}`;

/** The PDF's bytes. */
export async function invoicePdf({ invoice, company, currency, language = 'en', dateFormat = null, now = new Date() }: InvoicePdfInput): Promise<Buffer> {
  const t = await translator(language);
  const label = (key: string, values?: Record<string, string>) => t(`crm:invoicePdf.${key}`, values);
  // A day (YYYY-MM-DD) at noon, so that no time zone moves it; a moment as it is.
  const day = (v: string) => formatDay(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T12:00:00` : v, dateFormat, { language });
  const doc = new PDFDocument({ size: 'A4', margin: 50, font: '', info: { Title: `${company} ${invoice.number}`, Author: company, CreationDate: now } } as PDFKit.PDFDocumentOptions);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const registered = new Set<string>();
  const use = (font: PdfFont, size: number) => {
    if (!registered.has(font.name)) {
      doc.registerFont(font.name, font.file);
      registered.add(font.name);
    }
    doc.font(font.name).fontSize(size);
  };
  /** `text` at (x, y) — or where the last one ended — each piece in a font that shows it. */
  const write = (text: string, weight: Weight, size: number, at?: { x: number; y: number }, opts: PDFKit.Mixins.TextOptions = {}) => {
    const pieces = runs(text, weight);
    if (!pieces.length) return;
    pieces.forEach((p, i) => {
      use(p.font, size);
      const o = { ...opts, continued: i < pieces.length - 1 };
      if (i === 0 && at) doc.text(p.text, at.x, at.y, o);
      else doc.text(p.text, o);
    });
  };
  const height = (text: string, weight: Weight, size: number, width: number) => {
    use(baseFont(weight), size);
    return doc.heightOfString(text, { width });
  };
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  write(company, 'bold', 20, { x: left, y: 50 });
  doc.fillColor('#444');
  write(label('title'), 'regular', 10);
  doc.moveDown(0.5);
  doc.fillColor('#000');
  write(invoice.number, 'bold', 14);
  write(label('status', { status: t(`crm:invoiceStatus.${invoice.status}`) }), 'regular', 10);
  write(label('issued', { date: day(invoice.issued_on) }), 'regular', 10);
  write(label('due', { date: day(invoice.due_on) }), 'regular', 10);
  if (invoice.paid_at) write(label('paid', { date: day(invoice.paid_at) }), 'regular', 10);

  // Seller and buyer side by side.
  const top = doc.y + 16;
  const half = width / 2 - 10;
  const block = (x: number, title: string, lines: Array<string | null | undefined>) => {
    write(title, 'bold', 10, { x, y: top }, { width: half });
    for (const l of lines.filter((v): v is string => !!v)) write(l, 'regular', 10, { x, y: doc.y }, { width: half });
    return doc.y;
  };
  const afterSeller = block(left, label('seller'), [invoice.seller.name, invoice.seller.email]);
  const b = invoice.buyer;
  const afterBuyer = block(left + width / 2 + 10, label('buyer'), [b.name, b.company, b.email, b.phone, b.city]);
  let y = Math.max(afterSeller, afterBuyer) + 24;

  // The lines.
  const cols = [
    { title: label('item'), x: left, w: width * 0.34, align: 'left' as const },
    { title: label('sku'), x: left + width * 0.34, w: width * 0.22, align: 'left' as const },
    { title: label('quantity'), x: left + width * 0.56, w: width * 0.08, align: 'right' as const },
    { title: label('unitPrice'), x: left + width * 0.64, w: width * 0.17, align: 'right' as const },
    { title: label('amount'), x: left + width * 0.81, w: width * 0.19, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    const weight: Weight = bold ? 'bold' : 'regular';
    const h = Math.max(...cells.map((c, i) => height(c, weight, 10, cols[i].w - 4)));
    if (y + h > doc.page.height - doc.page.margins.bottom - 40) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    cells.forEach((c, i) => write(c, weight, 10, { x: cols[i].x, y }, { width: cols[i].w - 4, align: cols[i].align }));
    y += h + 6;
  };
  row(cols.map((c) => c.title), true);
  doc.moveTo(left, y - 3).lineTo(left + width, y - 3).strokeColor('#999').stroke();
  for (const l of invoice.lines) row([l.name, l.sku, String(l.quantity), amount(l.unit_price, currency), amount(l.amount, currency)]);
  doc.moveTo(left, y).lineTo(left + width, y).strokeColor('#999').stroke();
  y += 8;
  write(label('total', { amount: amount(invoice.total, currency) }), 'bold', 12, { x: left, y }, { width, align: 'right' });
  if (invoice.notes) {
    doc.moveDown(1.5);
    doc.fillColor('#444');
    write(invoice.notes, 'regular', 9, { x: left, y: doc.y }, { width });
  }
  doc.end();
  return done;
}

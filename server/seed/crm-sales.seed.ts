/**
 * Sales and invoices of `demo`: 60 sales to its CRM contacts over the last six months, each of one to four
 * catalogue items (products and packages) at the catalogue's prices, with their invoices numbered INV-000001
 * to INV-000060 in date order (the member's counter left at 60, so the next sale continues without a gap).
 * Dated back from the day the database is seeded, so every status shows whenever it is: older invoices
 * mostly paid, some sent and now overdue, recent ones draft, sent or paid. Written in a few bulk statements.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { DUE_DAYS } from '../../src/schemas/crm-sales.schema';
import { members } from '../db/schema';
import { crmContacts } from '../db/schema-crm';
import { crmInvoiceCounters, crmInvoices, crmSaleLines, crmSales } from '../db/schema-crm-sales';
import { saleChoices, todayYmd } from '../lib/crm-sales';
import * as money from '../lib/money';
import type { Seeder } from '../seed';

export const DEMO_SALES = 60;
const DAY = 86_400_000;

export const crmSalesSeeder: Seeder = async ({ db, members: seeded, rng }) => {
  const r = rng('crm-sales');
  const [member] = await db.select().from(members).where(eq(members.id, seeded.ids.demo)).limit(1);
  const contacts = await db
    .select({ id: crmContacts.id, name: crmContacts.name })
    .from(crmContacts)
    .where(and(eq(crmContacts.memberId, member.id), isNull(crmContacts.deletedAt)))
    .orderBy(asc(crmContacts.id));
  const { catalogue } = await saleChoices(db, member);
  if (!contacts.length || !catalogue.length) return;
  const products = catalogue.filter((c) => c.kind === 'product');
  const now = Date.now();
  const sales = Array.from({ length: DEMO_SALES }, (_, i) => {
    // Oldest first, so numbers follow the dates.
    const daysAgo = Math.round(((DEMO_SALES - 1 - i) / (DEMO_SALES - 1)) * 180);
    const at = new Date(now - daysAgo * DAY - r.int(1, 8) * 3_600_000);
    const lines = Array.from({ length: r.int(1, 4) }, (_, k) => {
      const c = r.chance(0.8) && products.length ? r.pick(products) : r.pick(catalogue);
      const quantity = r.int(1, 6);
      const unit = money.parse(c.price);
      return { position: k + 1, kind: c.kind, itemId: Number(c.item.split(':')[1]), sku: c.sku, name: c.name, quantity, unitPrice: money.format(unit), amount: money.times(unit, quantity) };
    });
    const dueDays = Number(r.pick(DUE_DAYS.filter((d) => d !== '0')));
    // The newest few show each status for sure; the rest by age: older ones mostly paid.
    const status =
      i === DEMO_SALES - 1 ? 'draft' : i === DEMO_SALES - 2 || i === DEMO_SALES - 12 ? 'sent' : i === DEMO_SALES - 3 ? 'paid'
      : daysAgo < 10 ? r.pick(['draft', 'sent', 'paid'])
      : daysAgo > dueDays ? (r.chance(0.8) ? 'paid' : 'sent')
      : r.pick(['sent', 'paid']);
    const sentAt = status === 'draft' ? null : new Date(at.getTime() + r.int(1, 24) * 3_600_000);
    const paidAt = status === 'paid' ? new Date(Math.min(now, sentAt!.getTime() + r.int(1, dueDays) * DAY)) : null;
    const issuedOn = todayYmd(at);
    return {
      contact: r.pick(contacts),
      at,
      lines,
      total: money.sum(lines.map((l) => l.amount)),
      notes: r.chance(0.3) ? r.pick(['Paid on delivery.', 'Gift set for a friend.', 'Monthly order.']) : '',
      invoice: { number: i + 1, status, issuedOn, dueOn: todayYmd(new Date(Date.parse(`${issuedOn}T00:00:00Z`) + dueDays * DAY)), sentAt, paidAt },
    };
  });
  const saleRows = await db
    .insert(crmSales)
    .values(sales.map((s) => ({ memberId: member.id, contactId: s.contact.id, contactName: s.contact.name, total: money.format(s.total), notes: s.notes, createdAt: s.at, updatedAt: s.at })))
    .returning({ id: crmSales.id });
  await db.insert(crmSaleLines).values(sales.flatMap((s, i) => s.lines.map((l) => ({ ...l, saleId: saleRows[i].id, amount: money.format(l.amount) }))));
  await db.insert(crmInvoices).values(
    sales.map((s, i) => ({
      memberId: member.id,
      saleId: saleRows[i].id,
      number: s.invoice.number,
      status: s.invoice.status,
      issuedOn: s.invoice.issuedOn,
      dueOn: s.invoice.dueOn,
      total: money.format(s.total),
      sentAt: s.invoice.sentAt,
      paidAt: s.invoice.paidAt,
      createdAt: s.at,
      updatedAt: s.invoice.paidAt ?? s.invoice.sentAt ?? s.at,
    })),
  );
  await db.insert(crmInvoiceCounters).values({ memberId: member.id, lastNumber: DEMO_SALES });
};

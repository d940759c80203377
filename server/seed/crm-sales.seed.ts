/**
 * Sales and invoices of `demo`: 60 sales to its CRM contacts over the last six months, each of one to four
 * catalogue items (products and packages), recorded through the same `recordSale` as the API (so invoice
 * numbers run from INV-000001 without gaps, prices come from the catalogue). Dated back from the day the
 * database is seeded, so every status shows whenever it is: older invoices mostly paid, some sent and now
 * overdue, recent ones draft, sent or paid.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import { DUE_DAYS } from '../../src/schemas/crm-sales.schema';
import { members } from '../db/schema';
import { crmContacts } from '../db/schema-crm';
import { crmInvoices } from '../db/schema-crm-sales';
import { recordSale, saleChoices } from '../lib/crm-sales';
import type { Seeder } from '../seed';

export const DEMO_SALES = 60;
const DAY = 86_400_000;

export const crmSalesSeeder: Seeder = async ({ db, members: seeded, rng }) => {
  const r = rng('crm-sales');
  const [member] = await db.select().from(members).where(eq(members.id, seeded.ids.demo)).limit(1);
  const contacts = await db
    .select({ id: crmContacts.id })
    .from(crmContacts)
    .where(and(eq(crmContacts.memberId, member.id), isNull(crmContacts.deletedAt)))
    .orderBy(asc(crmContacts.id));
  const { catalogue } = await saleChoices(db, member);
  if (!contacts.length || !catalogue.length) return;
  const products = catalogue.filter((c) => c.kind === 'product');
  const now = Date.now();
  for (let i = 0; i < DEMO_SALES; i++) {
    // Oldest first, so numbers follow the dates.
    const daysAgo = Math.round(((DEMO_SALES - 1 - i) / (DEMO_SALES - 1)) * 180);
    const at = new Date(now - daysAgo * DAY - r.int(1, 8) * 3_600_000);
    const lines = Array.from({ length: r.int(1, 4) }, () => ({
      item: (r.chance(0.8) && products.length ? r.pick(products) : r.pick(catalogue)).item,
      quantity: String(r.int(1, 6)),
    }));
    const dueDays = r.pick(DUE_DAYS.filter((d) => d !== '0'));
    const { invoiceId } = await recordSale(db, member, { contact_id: String(r.pick(contacts).id), due_days: dueDays, notes: r.chance(0.3) ? r.pick(['Paid on delivery.', 'Gift set for a friend.', 'Monthly order.']) : '', lines }, at);
    // The first few show each status for sure; the rest by age: older ones mostly paid.
    const due = daysAgo > Number(dueDays);
    const status =
      i === DEMO_SALES - 1 ? 'draft' : i === DEMO_SALES - 2 ? 'sent' : i === DEMO_SALES - 12 ? 'sent' : i === DEMO_SALES - 3 ? 'paid'
      : daysAgo < 10 ? r.pick(['draft', 'sent', 'paid'])
      : due ? (r.chance(0.8) ? 'paid' : 'sent')
      : r.pick(['sent', 'paid']);
    if (status === 'draft') continue;
    const sentAt = new Date(at.getTime() + r.int(1, 24) * 3_600_000);
    const paidAt = new Date(Math.min(now, sentAt.getTime() + r.int(1, Number(dueDays)) * DAY));
    await db
      .update(crmInvoices)
      .set(status === 'paid' ? { status, sentAt, paidAt, updatedAt: paidAt } : { status, sentAt, updatedAt: sentAt })
      .where(eq(crmInvoices.id, invoiceId));
  }
};

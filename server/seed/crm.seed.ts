/**
 * CRM demo data of `demo`: about 300 leads across statuses and sources with values, follow-ups, lost
 * reasons and notes. `CRM_LEADS=N` (or `npm run seed -- --crm-leads N`) gives `demo` N leads instead, for
 * measuring the lists and the board. Dates derive from a fixed base, so every seeded database is the same.
 */
import { LEAD_SOURCES, LEAD_STATUSES } from '../../src/schemas/crm.schema';
import { crmLeads, crmNotes } from '../db/schema-crm';
import type { Seeder } from '../seed';
import { FIRST_NAMES, LAST_NAMES } from './names';

/** Leads of `demo` when CRM_LEADS does not say otherwise. */
export const DEMO_LEADS = 300;
const BASE = Date.UTC(2026, 10, 20, 9);
const DAY = 86_400_000;
const COMPANIES = ['', '', 'Northwind', 'Contoso', 'Globex', 'Initech', 'Umbrella Health', 'Stark Wellness', 'Wayne Foods', 'Acme Beauty'];
const LOST_REASONS = ['Chose another company', 'No budget this year', 'Not interested any more', 'Could not reach them'];
const NOTES = ['Asked for the catalogue.', 'Interested in the starter package.', 'Call back after the holidays.', 'Met at the spring event.', 'Wants to talk to the partner first.'];

/** How many leads `demo` gets: CRM_LEADS when it is a whole number from 0 to 1 000 000. */
export function crmLeadCount(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.CRM_LEADS);
  return env.CRM_LEADS !== undefined && Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : DEMO_LEADS;
}

export const crmSeeder: Seeder = async ({ db, members, rng }) => {
  const r = rng('crm');
  const memberId = members.ids.demo;
  const count = crmLeadCount();
  const ymd = (t: number) => new Date(t).toISOString().slice(0, 10);
  for (let start = 0; start < count; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      const first = r.pick(FIRST_NAMES);
      const last = r.pick(LAST_NAMES);
      const status = r.weighted(LEAD_STATUSES.map((s, k) => [s, [30, 22, 16, 12, 10, 10][k]] as const));
      const createdAt = new Date(BASE - r.int(0, 330) * DAY - r.int(0, 86_399) * 1000);
      const open = status !== 'won' && status !== 'lost';
      rows.push({
        memberId,
        name: `${first} ${last}`,
        company: r.pick(COMPANIES),
        email: r.chance(0.8) ? `${first}.${last}${i}@example.com`.toLowerCase() : '',
        phone: r.chance(0.7) ? `312555${String(1000 + (i % 9000)).padStart(4, '0')}` : '',
        source: r.pick(LEAD_SOURCES),
        status,
        estimatedValue: `${r.int(0, 60) * 50}.00`,
        nextFollowUp: open && r.chance(0.7) ? ymd(BASE + r.int(-10, 30) * DAY) : null,
        lostReason: status === 'lost' ? r.pick(LOST_REASONS) : '',
        createdAt,
        updatedAt: new Date(Math.min(BASE, createdAt.getTime() + r.int(0, 20) * DAY)),
      });
    }
    const inserted = await db.insert(crmLeads).values(rows).returning({ id: crmLeads.id, createdAt: crmLeads.createdAt });
    const notes = inserted
      .filter(() => r.chance(0.4))
      .map((l) => ({ memberId, leadId: l.id, body: r.pick(NOTES), createdAt: new Date(l.createdAt.getTime() + r.int(1, 5) * DAY) }));
    if (notes.length) await db.insert(crmNotes).values(notes);
  }
};

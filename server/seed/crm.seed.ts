/**
 * CRM demo data of `demo`: about 300 leads across statuses, sources and the last eleven months with values,
 * follow-ups, lost reasons and notes (some wanting to join: recruits); 40 contacts, 120 calls, and meetings
 * past and upcoming, each inviting one or two people. `CRM_LEADS=N` (or `npm run seed -- --crm-leads N`)
 * gives `demo` N leads instead, for measuring the lists and the board. Dates derive from a fixed base, so
 * every seeded database is the same — but for what the dashboard puts first, which is placed around the
 * day of seeding (follow-ups due today and overdue, meetings today and in the next days), so a fresh demo
 * always has something to do next.
 */
import { LEAD_SOURCES, LEAD_STATUSES } from '../../src/schemas/crm.schema';
import { CALL_DIRECTIONS, CALL_OUTCOMES } from '../../src/schemas/crm.schema';
import { crmCalls, crmContacts, crmLeads, crmMeetingInvitees, crmMeetings, crmNotes } from '../db/schema-crm';
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
  // Of the leads, nine are the dashboard's (below) when there are enough of them.
  const dueDays = [0, 0, 0, -1, -2, -4, -7];
  const extra = crmLeadCount() >= 50 ? dueDays.length + 2 : 0;
  const count = crmLeadCount() - extra;
  const ymd = (t: number) => new Date(t).toISOString().slice(0, 10);
  for (let start = 0; start < count; start += 1000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      const first = r.pick(FIRST_NAMES);
      const last = r.pick(LAST_NAMES);
      const status = r.weighted(LEAD_STATUSES.map((s, k) => [s, [30, 22, 16, 12, 10, 10][k]] as const));
      const createdAt = new Date(BASE - r.int(0, 330) * DAY - r.int(0, 86_399) * 1000);
      const open = status !== 'won' && status !== 'lost';
      const updatedAt = new Date(Math.min(BASE, createdAt.getTime() + r.int(0, 20) * DAY));
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
        interest: r.chance(0.25) ? 'recruit' : 'customer',
        closedAt: open ? null : updatedAt,
        createdAt,
        updatedAt,
      });
    }
    const inserted = await db.insert(crmLeads).values(rows).returning({ id: crmLeads.id, createdAt: crmLeads.createdAt });
    const notes = inserted
      .filter(() => r.chance(0.4))
      .map((l) => ({ memberId, leadId: l.id, body: r.pick(NOTES), createdAt: new Date(l.createdAt.getTime() + r.int(1, 5) * DAY) }));
    if (notes.length) await db.insert(crmNotes).values(notes);
  }

  // Contacts of their own.
  const now = new Date(BASE);
  const contacts = Array.from({ length: 40 }, (_, i) => {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const at = new Date(BASE - r.int(0, 300) * DAY);
    return { memberId, name: `${first} ${last}`, company: r.pick(COMPANIES), email: `${first}.${last}.c${i}@example.com`.toLowerCase(), phone: `312556${String(1000 + i)}`, city: r.pick(['Chicago', 'Madrid', 'Lima', 'Bogotá', 'Austin']), createdAt: at, updatedAt: at };
  });
  const made = await db.insert(crmContacts).values(contacts).returning({ id: crmContacts.id, name: crmContacts.name });
  // Calls with the contacts, over the last months.
  const callRows = Array.from({ length: 120 }, () => {
    const c = r.pick(made);
    const at = new Date(BASE - r.int(0, 120) * DAY - r.int(8, 19) * 3_600_000);
    return { memberId, contactId: c.id, who: c.name, direction: r.pick(CALL_DIRECTIONS), outcome: r.pick(CALL_OUTCOMES), durationSeconds: r.int(0, 40) * 60, notes: r.chance(0.5) ? r.pick(NOTES) : '', calledAt: at, createdAt: at, updatedAt: at };
  });
  await db.insert(crmCalls).values(callRows);
  // Meetings: past ones and upcoming ones (after the base date), in a few time zones.
  const zones = ['America/Chicago', 'Europe/Madrid', 'America/Lima'];
  const titles = ['Product demo', 'Coffee chat', 'Business plan review', 'Starter kit walkthrough'];
  const meetingOf = (i: number, startsAt: Date, reminded: boolean) => {
    const invited = r.chance(0.4) ? [r.pick(made), r.pick(made)] : [r.pick(made)];
    const people = [...new Map(invited.map((c) => [c.id, c])).values()];
    return {
      row: { memberId, title: r.pick(titles), startsAt, timeZone: r.pick(zones), durationMinutes: r.pick([30, 45, 60]), place: r.chance(0.5) ? r.pick(['Café Central', 'Office', 'Client office']) : '', link: r.chance(0.5) ? `https://meet.example.com/${i}` : '', who: people.map((c) => c.name).join(', '), remindedAt: reminded ? startsAt : null, createdAt: now, updatedAt: now },
      people,
    };
  };
  const meetings = Array.from({ length: 30 }, (_, i) => {
    const startsAt = new Date(BASE + (i < 15 ? -r.int(1, 60) : r.int(1, 60)) * DAY + r.int(0, 8) * 3_600_000);
    return meetingOf(i, startsAt, startsAt < now);
  });

  // What the dashboard puts first, around the day of seeding: follow-ups due today and overdue, meetings
  // today and in the next days (at whole hours UTC, so two seeds of one day are the same).
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const dueRows = (extra ? dueDays : []).map((days, i) => {
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const at = new Date(today - r.int(3, 40) * DAY);
    return {
      memberId,
      name: `${first} ${last}`,
      company: r.pick(COMPANIES),
      email: `${first}.${last}.due${i}@example.com`.toLowerCase(),
      phone: `312557${String(1000 + i)}`,
      source: r.pick(LEAD_SOURCES),
      status: r.pick<string>(['contacted', 'qualified', 'proposal']),
      estimatedValue: `${r.int(2, 40) * 50}.00`,
      nextFollowUp: ymd(today + days * DAY),
      interest: i % 3 === 0 ? 'recruit' : 'customer',
      createdAt: at,
      updatedAt: at,
    };
  });
  // Two leads won this month.
  for (const i of extra ? [0, 1] : []) {
    const at = new Date(today - i * DAY);
    dueRows.push({ ...dueRows[i], name: `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`, email: '', status: 'won', nextFollowUp: null as never, createdAt: new Date(today - 30 * DAY), updatedAt: at });
  }
  if (dueRows.length) await db.insert(crmLeads).values(dueRows.map((l) => ({ ...l, closedAt: l.status === 'won' ? l.updatedAt : null })));
  const soon = [0, 0, 1, 2, 5].map((days, i) => meetingOf(30 + i, new Date(today + days * DAY + (i === 0 ? 15 : i === 1 ? 17 : 10) * 3_600_000), false));
  for (const m of soon) if (m.people.length < 2) m.people.push(made.find((c) => c.id !== m.people[0].id)!), (m.row.who = m.people.map((c) => c.name).join(', '));

  const all = [...meetings, ...soon];
  const ids = await db.insert(crmMeetings).values(all.map((m) => m.row)).returning({ id: crmMeetings.id });
  await db.insert(crmMeetingInvitees).values(all.flatMap((m, i) => m.people.map((c) => ({ meetingId: ids[i].id, memberId, contactId: c.id }))));
};

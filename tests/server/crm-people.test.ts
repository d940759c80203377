// @vitest-environment node
/**
 * Contacts, calls and meetings of the member's CRM: CRUD with field maps, a lead converted into a contact
 * once (two at once give one contact), the CSV import checked row by row (a preview names the failing rows;
 * an import with a broken row imports nothing), calls and meetings about the member's own contacts and leads
 * only, the agenda in the member's time zone, the timeline of a contact, the reminder before a meeting in the
 * notifications list; another member's contact, call or meeting is a 404 on every call.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../server/lib/auth';
import { remindMeetings, zonedInstant } from '../../server/lib/crm-people';
import type { Contact, Lead, Meeting } from '../../src/schemas/crm.schema';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, login, type Answer } from './helpers';

let s: TestServer;
let mine: string;
let theirs: string;
let otherId: number;
beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100 });
  mine = (await login(s.app, 'demo')).token;
  const [other] = await bulkMembers(s.database, 1);
  otherId = other.id;
  theirs = (await createSession(s.database.db, other.id)).token;
});
afterAll(async () => {
  await s?.close();
});

const api = <T = any>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | undefined, body?: unknown): Promise<Answer<T>> =>
  call<T>(s.app, method, url, body, { token });
const created = async <T,>(url: string, body: object, token = mine): Promise<T> => {
  const res = await api('POST', url, token, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as T;
};
const contact = (over: object = {}) => ({ name: 'Lucía Gómez', company: 'Globex', email: 'lucia@example.com', phone: '34911222333', city: 'Madrid', ...over });
const newLead = (name = 'Pablo Ortega') => created<Lead>('/api/crm/leads', { name, email: 'pablo@example.com', phone: '34600111222', source: 'referral', status: 'qualified' });

describe('contacts', () => {
  it('creates, lists, searches, edits and deletes a contact; bad bodies are field maps', async () => {
    const c = await created<Contact>('/api/crm/contacts', contact());
    expect(c).toMatchObject({ ...contact(), lead_id: null });
    const found = (await api('GET', '/api/crm/contacts?q=globex', mine)).body.data.items as Contact[];
    expect(found.map((x) => x.id)).toContain(c.id);
    expect((await api('PUT', `/api/crm/contacts/${c.id}`, mine, contact({ city: 'Sevilla' }))).body.data.city).toBe('Sevilla');
    const bad = await api('POST', '/api/crm/contacts', mine, { name: '', email: 'x', phone: '+1 (2)' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ name: ['validation:required'], email: ['validation:invalidEmail'], phone: ['validation:invalidMobile'] });
    expect((await api('DELETE', `/api/crm/contacts/${c.id}`, mine)).status).toBe(200);
    expect((await api('GET', `/api/crm/contacts/${c.id}`, mine)).status).toBe(404);
  });

  it('converts a lead into a contact once, even when asked twice at the same time', async () => {
    const lead = await newLead();
    const [a, b] = await Promise.all([api('POST', `/api/crm/leads/${lead.id}/convert`, mine), api('POST', `/api/crm/leads/${lead.id}/convert`, mine)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(a.body.data).toMatchObject({ name: 'Pablo Ortega', email: 'pablo@example.com', phone: '34600111222', lead_id: lead.id });
    expect((await api('GET', `/api/crm/leads/${lead.id}`, mine)).body.data.contact_id).toBe(a.body.data.id);
    expect((await api('POST', `/api/crm/leads/${lead.id}/convert`, theirs)).status).toBe(404);
  });

  it('previews a CSV import row by row, refuses an import with a broken row, imports a clean one', async () => {
    const rows = [
      { name: 'Ana Torres', email: 'ana@example.com', phone: '', company: '', city: 'Lima' },
      { name: '', email: 'nobody@example.com' },
      { name: 'Bad Mail', email: 'not-an-address', phone: '12ab' },
      { name: 'Extra', colour: 'red' },
    ];
    const preview = await api('POST', '/api/crm/contacts/import', mine, { dry_run: true, rows });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toEqual({
      imported: 0,
      valid: 1,
      failed: [
        { row: 2, errors: { name: ['validation:required'] } },
        { row: 3, errors: { email: ['validation:invalidEmail'], phone: ['validation:invalidMobile'] } },
        { row: 4, errors: { colour: ['validation:unknownField'] } },
      ],
    });
    const refused = await api('POST', '/api/crm/contacts/import', mine, { rows });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({ 'rows.2.name': ['validation:required'], 'rows.3.email': ['validation:invalidEmail'] });
    expect((await api('GET', '/api/crm/contacts?q=Ana%20Torres', mine)).body.data.items).toEqual([]);

    const done = await api('POST', '/api/crm/contacts/import', mine, { rows: [rows[0], { name: 'Bruno Díaz', city: 'Quito' }] });
    expect(done.status).toBe(201);
    expect(done.body.data).toMatchObject({ imported: 2, valid: 2, failed: [] });
    expect((await api('GET', '/api/crm/contacts?q=Bruno', mine)).body.data.items[0]).toMatchObject({ name: 'Bruno Díaz', city: 'Quito' });
    for (const body of [{ rows: [] }, { rows: 'x' }, { rows: [{ name: 5 }] }, {}])
      expect((await api('POST', '/api/crm/contacts/import', mine, body)).status, JSON.stringify(body)).toBe(422);
    const csv = await api<string>('GET', '/api/crm/contacts/export?q=Bruno', mine);
    expect(csv.status).toBe(200);
    expect(csv.body).toContain('Bruno Díaz');
  });
});

describe('calls and meetings', () => {
  it('logs a call about a contact; it shows in the list and on the contact’s timeline', async () => {
    const c = await created<Contact>('/api/crm/contacts', contact({ name: 'Call Person' }));
    const logged = await created<any>('/api/crm/calls', {
      contact_id: String(c.id),
      direction: 'outgoing',
      outcome: 'answered',
      duration_minutes: '12',
      notes: 'Wants the starter pack.',
      date: '2026-11-20',
      time: '10:30',
      time_zone: 'Europe/Madrid',
    });
    expect(logged).toMatchObject({ contact_id: c.id, who: 'Call Person', duration_minutes: 12, called_at: '2026-11-20T09:30:00.000Z' });
    expect((await api('GET', '/api/crm/calls', mine)).body.data.items[0].id).toBe(logged.id);
    const timeline = (await api('GET', `/api/crm/contacts/${c.id}/timeline`, mine)).body.data.items;
    expect(timeline[0]).toMatchObject({ kind: 'call', id: logged.id });
    expect(timeline[0].text).toContain('Wants the starter pack.');
    expect((await api('POST', `/api/crm/contacts/${c.id}/notes`, mine, { body: 'Follow up Monday.' })).status).toBe(201);

    const bad = await api('POST', '/api/crm/calls', mine, { direction: 'sideways', outcome: 'answered', duration_minutes: 'ten', date: '2026-13-01', time: '25:00' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({
      contact_id: ['validation:required'],
      direction: ['validation:invalidChoice'],
      duration_minutes: ['validation:invalidFormat'],
      date: ['validation:invalidDate'],
      time: ['validation:invalidFormat'],
    });
    // Someone else's contact cannot be named.
    const theirContact = await created<Contact>('/api/crm/contacts', contact({ name: 'Theirs' }), theirs);
    const foreign = await api('POST', '/api/crm/calls', mine, { contact_id: String(theirContact.id), direction: 'incoming', outcome: 'busy', duration_minutes: '0', date: '2026-11-20', time: '10:00' });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ contact_id: ['validation:invalidChoice'] });
  });

  it('schedules a meeting in the member’s time zone; the agenda lists it; a reminder appears before it starts', async () => {
    const lead = await newLead('Meeting Lead');
    const soon = new Date(Date.now() + 20 * 60_000);
    const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' })
      .formatToParts(soon)
      .reduce<Record<string, string>>((o, p) => ({ ...o, [p.type]: p.value }), {});
    const m = await created<Meeting>('/api/crm/meetings', {
      title: 'Product demo',
      date: `${parts.year}-${parts.month}-${parts.day}`,
      time: `${parts.hour}:${parts.minute}`,
      time_zone: 'America/Mexico_City',
      duration_minutes: '45',
      link: 'https://meet.example.com/abc',
      invitees: [`lead:${lead.id}`],
    });
    expect(m).toMatchObject({ title: 'Product demo', who: 'Meeting Lead', invitees: [{ kind: 'lead', id: lead.id, name: 'Meeting Lead' }], time_zone: 'America/Mexico_City', time: `${parts.hour}:${parts.minute}` });
    expect(Math.abs(Date.parse(m.starts_at) - soon.getTime())).toBeLessThan(60_000);
    const agenda = (await api('GET', '/api/crm/agenda?sort=asc', mine)).body.data.items as Meeting[];
    expect(agenda.map((x) => x.id)).toContain(m.id);
    expect((await api('GET', '/api/crm/agenda?when=past', mine)).body.data.items.map((x: Meeting) => x.id)).not.toContain(m.id);

    expect(await remindMeetings(s.app.ctx)).toBeGreaterThanOrEqual(1);
    expect(await remindMeetings(s.app.ctx)).toBe(0);
    // The demo's seeded meetings may start within the reminder window too: this meeting's notice is among them, once.
    const notices = await s.database.rows<{ subject: string; link: string }>(
      sql`SELECT subject, link FROM member_notices WHERE event = 'meeting_reminder' AND member_id = (SELECT id FROM members WHERE username = 'demo') ORDER BY id`,
    );
    expect(notices.filter((n) => n.subject.endsWith(': Product demo'))).toEqual([{ subject: `Meeting at ${parts.hour}:${parts.minute}: Product demo`, link: '/member/crm/meetings' }]);

    const bad = await api('POST', '/api/crm/meetings', mine, { title: 'x', date: '2026-11-20', time: '10:00', time_zone: 'Mars/Olympus', duration_minutes: '30', link: 'javascript:alert(1)' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ link: ['validation:invalidFormat'] });
    const zone = await api('POST', '/api/crm/meetings', mine, { title: 'x', date: '2026-11-20', time: '10:00', time_zone: 'Mars/Olympus', duration_minutes: '30' });
    expect(zone.body.errors).toEqual({ time_zone: ['validation:invalidChoice'] });
  });

  it('turns a local time into the right instant across summer time', () => {
    expect(zonedInstant('2026-07-01', '09:00', 'Europe/Madrid')!.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedInstant('2026-01-15', '09:00', 'Europe/Madrid')!.toISOString()).toBe('2026-01-15T08:00:00.000Z');
    expect(zonedInstant('2026-03-08', '03:30', 'America/New_York')!.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(zonedInstant('2026-01-01', '00:00', 'Nowhere/City')).toBeNull();
  });

  it("another member's contact, call or meeting is a 404 on every call", async () => {
    const c = await created<Contact>('/api/crm/contacts', contact({ name: 'Mine Only' }));
    const callRow = await created<any>('/api/crm/calls', { contact_id: String(c.id), direction: 'incoming', outcome: 'voicemail', duration_minutes: '1', date: '2026-11-20', time: '09:00' });
    const meeting = await created<Meeting>('/api/crm/meetings', { title: 'Private', date: '2026-12-20', time: '09:00', time_zone: 'UTC', duration_minutes: '30', invitees: [`contact:${c.id}`] });
    for (const [method, url, body] of [
      ['GET', `/api/crm/contacts/${c.id}`],
      ['PUT', `/api/crm/contacts/${c.id}`, contact()],
      ['DELETE', `/api/crm/contacts/${c.id}`],
      ['GET', `/api/crm/contacts/${c.id}/timeline`],
      ['POST', `/api/crm/contacts/${c.id}/notes`, { body: 'x' }],
      ['GET', `/api/crm/calls/${callRow.id}`],
      ['PUT', `/api/crm/calls/${callRow.id}`, { bad: 1 }],
      ['DELETE', `/api/crm/calls/${callRow.id}`],
      ['GET', `/api/crm/meetings/${meeting.id}`],
      ['PUT', `/api/crm/meetings/${meeting.id}`, { bad: 1 }],
      ['DELETE', `/api/crm/meetings/${meeting.id}`],
      ['POST', `/api/crm/meetings/${meeting.id}/restore`],
    ] as const)
      expect((await api(method, url, theirs, body)).status, `${method} ${url}`).toBe(404);
    expect((await api('GET', '/api/crm/agenda?sort=asc', theirs)).body.data.items.map((x: Meeting) => x.id)).not.toContain(meeting.id);
    const choices = (await api('GET', '/api/crm/choices', theirs)).body.data;
    expect(choices.contacts.map((x: { name: string }) => x.name)).not.toContain('Mine Only');
    expect(otherId).toBeGreaterThan(0);
  });
});

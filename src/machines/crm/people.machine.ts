/**
 * Contacts, calls and meetings of the member's CRM, each declared once on the resource factory; the
 * contact's page (record with its timeline, a note, the delete) and the CSV import of contacts:
 *
 *   idle → reading (papaparse) → checking (the server checks every row, nothing saved) → preview
 *   (which rows fail and why) → importing → done; a file that cannot be read is `unreadable`.
 */
import Papa from 'papaparse';
import { assign, fromPromise, setup } from 'xstate';
import { callApi, choicesApi, contactApi, meetingApi } from '../../api/crm';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo } from '../../api/errors';
import { browserTimeZone } from '../../lib/dates';
import type { NotifyParams } from '../../lib/flow';
import {
  callRequestSchema,
  contactRequestSchema,
  EMPTY_CALL,
  EMPTY_CONTACT,
  EMPTY_MEETING,
  inviteeRef,
  MAX_IMPORT_ROWS,
  meetingRequestSchema,
  noteRequestSchema,
  type Call,
  type CallValues,
  type Contact,
  type ContactFilters,
  type ContactImportResult,
  type ContactValues,
  type Meeting,
  type MeetingValues,
  type TimelineEntry,
} from '../../schemas/crm.schema';
import { createFormMachine } from '../form.machine';
import { createLoadMachine } from '../load.machine';
import { nextFromUrl } from '../paged-list.machine';
import { createResource } from '../resource.machine';
import { createRecordPageMachine } from './leads.machine';

export const contacts = createResource({
  id: 'contact',
  api: {
    list: async ({ filters, next, signal }: { filters: ContactFilters; next: { cursor?: string } | null; signal?: AbortSignal }) => {
      const page = await contactApi.list(filters ?? {}, next?.cursor, signal);
      return { items: page.items, next: nextFromUrl(page.next_page_url) };
    },
    get: contactApi.get,
    create: contactApi.create,
    update: contactApi.update,
    remove: contactApi.remove,
    restore: contactApi.restore,
  },
  schema: contactRequestSchema,
  initialValues: EMPTY_CONTACT,
  valuesOf: (c: Contact): ContactValues => ({ name: c.name, company: c.company, email: c.email, phone: c.phone, city: c.city }),
});

export const contactDetailLoad = createLoadMachine<{ contact: Contact; timeline: TimelineEntry[] }, number>('contactWithTimeline', (id) =>
    Promise.all([contactApi.get(id), contactApi.timeline(id)]).then(([contact, t]) => ({ contact, timeline: t.items })),
);
export const contactNoteForm = createFormMachine<{ body: string }, never, TimelineEntry, { values: { body: string }; result: TimelineEntry }, 'form', number>({
    id: 'contactNote',
    initialValues: { body: '' },
    schema: noteRequestSchema,
    submit: ({ values, params }) => contactApi.addNote(params as number, values.body),
    successKey: 'crm:leads.noteAdded',
    clearOnSuccess: true,
  });
export const contactPageMachine = createRecordPageMachine('contactPage', { detail: contactDetailLoad, note: contactNoteForm, remove: contacts.remove });

/** The member's time zone, as the browser knows it (a meeting's default). */
const ownTimeZone = browserTimeZone;

export const calls = createResource({
  id: 'call',
  api: {
    list: async ({ next, signal }) => {
      const page = await callApi.list(next?.cursor, signal);
      return { items: page.items, next: nextFromUrl(page.next_page_url) };
    },
    get: callApi.get,
    create: callApi.create,
    update: callApi.update,
    remove: callApi.remove,
    restore: callApi.restore,
  },
  schema: callRequestSchema,
  initialValues: { ...EMPTY_CALL, time_zone: ownTimeZone() },
  choices: choicesApi.get,
  valuesOf: (c: Call): CallValues => ({
    contact_id: c.contact_id ? String(c.contact_id) : '',
    lead_id: c.lead_id ? String(c.lead_id) : '',
    direction: c.direction,
    outcome: c.outcome,
    duration_minutes: String(c.duration_minutes),
    notes: c.notes,
    date: c.called_at.slice(0, 10),
    time: c.called_at.slice(11, 16),
    time_zone: 'UTC',
  }),
});

export const meetings = createResource({
  id: 'meeting',
  api: {
    list: async ({ next, signal }) => {
      const page = await meetingApi.agenda(next?.cursor, signal);
      return { items: page.items, next: nextFromUrl(page.next_page_url) };
    },
    get: meetingApi.get,
    create: meetingApi.create,
    update: meetingApi.update,
    remove: meetingApi.remove,
    restore: meetingApi.restore,
  },
  schema: meetingRequestSchema,
  initialValues: { ...EMPTY_MEETING, time_zone: ownTimeZone() },
  choices: choicesApi.get,
  valuesOf: (m: Meeting): MeetingValues => ({
    title: m.title,
    date: m.date,
    time: m.time,
    time_zone: m.time_zone,
    duration_minutes: String(m.duration_minutes),
    place: m.place,
    link: m.link,
    invitees: m.invitees.map((i) => inviteeRef(i.kind, i.id)),
    notes: m.notes,
  }),
});

// ── The CSV import of contacts ──────────────────────────────────────────────────────────────────────

export type CsvRow = Record<string, string>;

/** The rows of a CSV file with a header row (column names lower-cased and trimmed); at most MAX_IMPORT_ROWS + 1. */
export function readCsv(file: Blob): Promise<CsvRow[]> {
  return new Promise((resolve, reject) => {
    Papa.parse<CsvRow>(file as File, {
      header: true,
      skipEmptyLines: 'greedy',
      preview: MAX_IMPORT_ROWS + 1,
      transformHeader: (h) => h.trim().toLowerCase(),
      complete: (r) => (r.data.length && r.meta.fields?.length ? resolve(r.data) : reject(new Error('empty'))),
      error: (e) => reject(e),
    });
  });
}

export interface ImportContext {
  fileName: string | null;
  rows: CsvRow[];
  result: ContactImportResult | null;
  error: ErrorInfo | null;
  /** Why the file could not be used: unreadable, empty or too many rows. */
  problem: 'unreadable' | 'tooMany' | null;
}

export type ImportEvent = { type: 'import.file'; file: Blob; name: string } | { type: 'import.confirm' } | { type: 'import.retry' } | { type: 'import.reset' };

const errorOf = (event: unknown) => errorInfo((event as { error: unknown }).error);
const failureOf = (event: unknown) => classifyFailure((event as { error: unknown }).error);

export const contactImportMachine = setup({
  types: { context: {} as ImportContext, events: {} as ImportEvent, tags: {} as 'busy' },
  actors: {
    read: fromPromise<CsvRow[], Blob>(({ input }) => readCsv(input)),
    check: fromPromise<ContactImportResult, CsvRow[]>(({ input }) => contactApi.importRows(input, true)),
    save: fromPromise<ContactImportResult, CsvRow[]>(({ input }) => contactApi.importRows(input, false)),
  },
  actions: {
    notify: (_, _params: NotifyParams) => {},
    forceLogout: () => {},
    takeFile: assign(({ event }) => (event.type === 'import.file' ? { fileName: event.name, rows: [], result: null, error: null, problem: null } : {})),
    takeRows: assign(({ event }) => {
      const rows = (event as unknown as { output: CsvRow[] }).output;
      return { rows, problem: rows.length > MAX_IMPORT_ROWS ? ('tooMany' as const) : null };
    }),
    unreadable: assign({ problem: 'unreadable' as const }),
    takeResult: assign({ result: ({ event }) => (event as unknown as { output: ContactImportResult }).output, error: null }),
    setError: assign({ error: ({ event }) => errorOf(event) }),
    reset: assign({ fileName: null, rows: [], result: null, error: null, problem: null }),
  },
  guards: {
    /** The file has at most MAX_IMPORT_ROWS rows. */
    fits: ({ event }) => (event as unknown as { output: CsvRow[] }).output.length <= MAX_IMPORT_ROWS,
    allGood: ({ context }) => !!context.result && context.result.failed.length === 0 && context.result.valid > 0,
    sessionEnded: ({ event }) => endsSession(failureOf(event)),
    refusedRows: ({ event }) => failureOf(event) === 'validation',
  },
}).createMachine({
  id: 'contactImport',
  context: { fileName: null, rows: [], result: null, error: null, problem: null },
  initial: 'idle',
  on: { 'import.file': { target: '.reading', actions: 'takeFile' } },
  states: {
    idle: {},
    reading: {
      tags: ['busy'],
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ event }) => (event as { file: Blob }).file,
        onDone: [{ guard: 'fits', target: 'checking', actions: 'takeRows' }, { target: 'unusable', actions: 'takeRows' }],
        onError: { target: 'unusable', actions: 'unreadable' },
      },
    },
    /** The file cannot be imported (unreadable, no rows, too many rows): choose another. */
    unusable: {},
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'check',
        src: 'check',
        input: ({ context }) => context.rows,
        onDone: { target: 'preview', actions: 'takeResult' },
        onError: [
          { guard: 'sessionEnded', target: 'forceLogout', actions: 'setError' },
          { target: 'checkError', actions: 'setError' },
        ],
      },
    },
    checkError: { on: { 'import.retry': 'checking', 'import.reset': { target: 'idle', actions: 'reset' } } },
    /** The rows and, for the failing ones, why; importing needs every row good. */
    preview: {
      on: {
        'import.confirm': { guard: 'allGood', target: 'importing' },
        'import.reset': { target: 'idle', actions: 'reset' },
      },
    },
    importing: {
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => context.rows,
        onDone: { target: 'done', actions: ['takeResult', { type: 'notify', params: { kind: 'success', key: 'crm:import.done' } }] },
        onError: [
          { guard: 'sessionEnded', target: 'forceLogout', actions: 'setError' },
          // The server found a row it refuses now: check again, to show which.
          { guard: 'refusedRows', target: 'checking', actions: 'setError' },
          { target: 'importError', actions: 'setError' },
        ],
      },
    },
    importError: { on: { 'import.retry': 'importing', 'import.reset': { target: 'idle', actions: 'reset' } } },
    done: { on: { 'import.reset': { target: 'idle', actions: 'reset' } } },
    forceLogout: { entry: 'forceLogout' },
  },
});


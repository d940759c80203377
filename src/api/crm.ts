/**
 * The member's CRM (/api/crm/*): leads with their board and timeline, contacts (with the CSV import),
 * calls and meetings.
 */
import * as z from 'zod/mini';
import { queryRecord } from '../lib/search-codec';
import {
  boardSchema,
  leadListQuerySchema,
  leadPageSchema,
  leadRequestSchema,
  leadSchema,
  timelineEntrySchema,
  timelineSchema,
  callPageSchema,
  callRequestSchema,
  callSchema,
  contactImportResultSchema,
  contactListQuerySchema,
  contactPageSchema,
  contactRequestSchema,
  contactSchema,
  crmChoicesSchema,
  meetingPageSchema,
  meetingRequestSchema,
  meetingSchema,
  type CallValues,
  type ContactFilters,
  type ContactValues,
  type MeetingValues,
  type LeadFilters,
  type LeadMove,
  type LeadValues,
} from '../schemas/crm.schema';
import { del, get, post, put } from './client';
import { download } from './download';

const LEADS = '/api/crm/leads';
const leadPath = (id: number) => `${LEADS}/${encodeURIComponent(String(id))}`;
/** The form's text as the request body. */
const leadBody = (values: LeadValues) => z.parse(leadRequestSchema, values);
const leadQuery = (f: LeadFilters, cursor?: string) => queryRecord(leadListQuerySchema, { ...f, ...(cursor ? { cursor } : {}) });

export const leadApi = {
  list: (filters: LeadFilters, cursor: string | undefined, signal?: AbortSignal) => get(leadPageSchema, LEADS, leadQuery(filters, cursor), { signal }),
  download: (filters: LeadFilters) => download(`${LEADS}/export`, leadQuery(filters)),
  get: (id: number) => get(leadSchema, leadPath(id)),
  create: (values: LeadValues) => post(leadSchema, LEADS, leadBody(values)),
  update: (id: number, values: LeadValues) => put(leadSchema, leadPath(id), leadBody(values)),
  remove: (id: number) => del(z.object({ id: z.number() }), leadPath(id)),
  restore: (id: number) => post(leadSchema, `${leadPath(id)}/restore`),
  board: (signal?: AbortSignal) => get(boardSchema, `${LEADS}/board`, undefined, { signal }),
  move: (id: number, move: LeadMove) => put(leadSchema, `${leadPath(id)}/status`, move),
  timeline: (id: number) => get(timelineSchema, `${leadPath(id)}/timeline`),
  addNote: (id: number, body: string) => post(timelineEntrySchema, `${leadPath(id)}/notes`, { body }),
  convert: (id: number) => post(contactSchema, `${leadPath(id)}/convert`),
};

const CONTACTS = '/api/crm/contacts';
const contactPath = (id: number) => `${CONTACTS}/${encodeURIComponent(String(id))}`;
const contactQuery = (f: ContactFilters, cursor?: string) => queryRecord(contactListQuerySchema, { ...f, ...(cursor ? { cursor } : {}) });
const deleted = z.object({ id: z.number() });

export const contactApi = {
  list: (filters: ContactFilters, cursor: string | undefined, signal?: AbortSignal) => get(contactPageSchema, CONTACTS, contactQuery(filters, cursor), { signal }),
  download: (filters: ContactFilters) => download(`${CONTACTS}/export`, contactQuery(filters)),
  get: (id: number) => get(contactSchema, contactPath(id)),
  create: (values: ContactValues) => post(contactSchema, CONTACTS, z.parse(contactRequestSchema, values)),
  update: (id: number, values: ContactValues) => put(contactSchema, contactPath(id), z.parse(contactRequestSchema, values)),
  remove: (id: number) => del(deleted, contactPath(id)),
  restore: (id: number) => post(contactSchema, `${contactPath(id)}/restore`),
  timeline: (id: number) => get(timelineSchema, `${contactPath(id)}/timeline`),
  addNote: (id: number, body: string) => post(timelineEntrySchema, `${contactPath(id)}/notes`, { body }),
  /** The rows of a CSV: checked only (`dryRun`), or imported when every row is good. */
  importRows: (rows: Array<Record<string, string>>, dryRun: boolean) => post(contactImportResultSchema, `${CONTACTS}/import`, { rows, dry_run: dryRun }),
};

/** What the call and meeting forms choose from. */
export const choicesApi = { get: () => get(crmChoicesSchema, '/api/crm/choices') };

const CALLS = '/api/crm/calls';
const callPath = (id: number) => `${CALLS}/${encodeURIComponent(String(id))}`;
export const callApi = {
  list: (cursor: string | undefined, signal?: AbortSignal) => get(callPageSchema, CALLS, { cursor }, { signal }),
  get: (id: number) => get(callSchema, callPath(id)),
  create: (values: CallValues) => post(callSchema, CALLS, z.parse(callRequestSchema, values)),
  update: (id: number, values: CallValues) => put(callSchema, callPath(id), z.parse(callRequestSchema, values)),
  remove: (id: number) => del(deleted, callPath(id)),
  restore: (id: number) => post(callSchema, `${callPath(id)}/restore`),
};

const MEETINGS = '/api/crm/meetings';
const meetingPath = (id: number) => `${MEETINGS}/${encodeURIComponent(String(id))}`;
export const meetingApi = {
  /** The agenda: upcoming meetings, soonest first. */
  agenda: (cursor: string | undefined, signal?: AbortSignal) => get(meetingPageSchema, '/api/crm/agenda', { sort: 'asc', cursor }, { signal }),
  get: (id: number) => get(meetingSchema, meetingPath(id)),
  create: (values: MeetingValues) => post(meetingSchema, MEETINGS, z.parse(meetingRequestSchema, values)),
  update: (id: number, values: MeetingValues) => put(meetingSchema, meetingPath(id), z.parse(meetingRequestSchema, values)),
  remove: (id: number) => del(deleted, meetingPath(id)),
  restore: (id: number) => post(meetingSchema, `${meetingPath(id)}/restore`),
};

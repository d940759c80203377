/**
 * The member's CRM (/api/crm/*): leads with their board and timeline.
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
  type LeadFilters,
  type LeadMove,
  type LeadValues,
} from '../schemas/crm.schema';
import { del, download, get, post, put } from './client';

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
};

/**
 * Support ticket calls (spec §2 /member/support): the member's tickets (paged, one status), one ticket with
 * its conversation and trail, a new ticket and a reply as multipart (files under attachments[]), reopen and
 * close, and the download of one of the member's own files.
 */
import * as z from 'zod/mini';
import { get, post, postMultipart } from './client';
import { download } from './download';
import { ticketPageSchema, ticketSchema, ticketsQuerySchema, type ReplyValues, type TicketsQuery, type TicketValues } from '../schemas/support.schema';

function withFiles(form: FormData, files: readonly File[]): FormData {
  for (const f of files) form.append('attachments[]', f, f.name);
  return form;
}

/** A new ticket's values as the multipart body of POST /api/support/tickets. */
export function ticketFormData(values: TicketValues): FormData {
  const form = new FormData();
  for (const k of ['category', 'priority', 'subject', 'description'] as const) form.append(k, values[k].trim());
  return withFiles(form, values.attachments);
}

export function replyFormData(values: ReplyValues): FormData {
  const form = new FormData();
  form.append('body', values.body.trim());
  return withFiles(form, values.attachments);
}

const ticketPath = (id: number) => `/api/support/tickets/${encodeURIComponent(String(id))}`;

export const supportApi = {
  tickets: (query: TicketsQuery, signal?: AbortSignal) => get(ticketPageSchema, '/api/support/tickets', z.parse(ticketsQuerySchema, query) as Record<string, string>, { signal }),
  ticket: (id: number) => get(ticketSchema, ticketPath(id)),
  open: (values: TicketValues) => postMultipart(ticketSchema, '/api/support/tickets', ticketFormData(values)),
  reply: (id: number, values: ReplyValues) => postMultipart(ticketSchema, `${ticketPath(id)}/replies`, replyFormData(values)),
  reopen: (id: number) => post(ticketSchema, `${ticketPath(id)}/reopen`),
  close: (id: number) => post(ticketSchema, `${ticketPath(id)}/close`),
  /** One of the member's own files (GET /api/uploads/{id}), saved under its name. */
  downloadFile: (url: string, name: string) => download(url, undefined, name),
};

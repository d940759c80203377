/**
 * Mail calls (spec §2 Mail): the inbox, sent and bin pages, the counts, whom the member may write to, a
 * conversation (opened: marked read), a sent item, compose and reply (multipart: fields and files under
 * attachments[]), bin and restore, and the download of an attachment.
 */
import * as z from 'zod/mini';
import { del, get, post, postMultipart, put } from './client';
import { download } from './download';
import { messageSchema } from '../schemas/login.schema';
import {
  mailConversationSchema,
  mailCountsSchema,
  mailListSchema,
  mailMessageSchema,
  mailRecipientListSchema,
  type MailBox,
  type MailFiltersValue,
} from '../schemas/mail.schema';

export type { MailFiltersValue };


export interface MailComposeValues {
  to: string;
  subject: string;
  body: string;
  attachments: readonly File[];
}

const sentSchema = z.object({ thread_id: z.number(), message_id: z.number() });
const path = (id: number) => encodeURIComponent(String(id));

/** The values as the multipart body: text fields, then the files under attachments[]. */
export function mailFormData(fields: Record<string, string>, files: readonly File[]): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('attachments[]', f, f.name);
  return form;
}

export const mailApi = {
  list: (box: MailBox, filters: MailFiltersValue, cursor: string | undefined, signal?: AbortSignal) =>
    get(
      mailListSchema,
      `/api/mail/${box}`,
      { ...(filters.keyword?.trim() ? { keyword: filters.keyword.trim() } : {}), ...(filters.unread ? { unread: '1' } : {}), ...(cursor ? { cursor } : {}) },
      { signal },
    ),
  counts: () => get(mailCountsSchema, '/api/mail/counts'),
  recipients: (keyword: string) => get(mailRecipientListSchema, '/api/mail/recipients', keyword.trim() ? { keyword: keyword.trim() } : {}),
  conversation: (id: number) => get(mailConversationSchema, `/api/mail/threads/${path(id)}`),
  markRead: (id: number, read: boolean) => put(mailCountsSchema, `/api/mail/threads/${path(id)}/read`, { read }),
  sentItem: (id: number) => get(mailMessageSchema, `/api/mail/sent/${path(id)}`),
  send: (v: MailComposeValues) => postMultipart(sentSchema, '/api/mail/messages', mailFormData({ to: v.to, subject: v.subject, body: v.body }, v.attachments)),
  reply: (threadId: number, body: string, files: readonly File[]) =>
    postMultipart(sentSchema, `/api/mail/threads/${path(threadId)}/reply`, mailFormData({ body }, files)),
  bin: (id: number) => del(messageSchema, `/api/mail/messages/${path(id)}`),
  restore: (id: number) => post(messageSchema, `/api/mail/messages/${path(id)}/restore`),
  /** An attachment of a message the member sent or received, saved under its name. */
  downloadAttachment: (url: string, name: string) => download(url, undefined, name),
};

export type MailApi = typeof mailApi;

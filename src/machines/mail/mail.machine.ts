/**
 * /member/mail: the inbox, sent and bin lists (paged; ?keyword= and ?unread=1 from the URL), a sent item,
 * a conversation (opening it marks it read) with its reply form, and the compose form. Every machine is a
 * declaration on the factories: lists, loads and forms behave as everywhere else.
 */
import { mailApi, type MailComposeValues } from '../../api/mail';
import {
  mailComposeFormSchema,
  mailReplyFormSchema,
  type MailConversation,
  type MailFiltersValue,
  type MailListItem,
  type MailMessage,
} from '../../schemas/mail.schema';
import { createFormMachine } from '../form.machine';
import { createLoadMachine } from '../load.machine';
import { createPagedListMachine, nextFromUrl } from '../paged-list.machine';

/** The inbox page lists the inbox, or the bin with ?folder=bin; the sent page lists what was sent. */
const listOf = (id: string, box: (filters: MailFiltersValue) => 'inbox' | 'sent' | 'bin') =>
  createPagedListMachine<MailListItem, MailFiltersValue>(id, async ({ filters, next, signal }) => {
    const p = await mailApi.list(box(filters), filters, next?.cursor, signal);
    return { items: p.items, next: nextFromUrl(p.next_page_url) };
  });

export const mailInboxMachine = listOf('mailInbox', (f) => (f.folder === 'bin' ? 'bin' : 'inbox'));
export const mailSentMachine = listOf('mailSent', () => 'sent');

export const mailSentItemMachine = createLoadMachine<MailMessage, number>('mailSentItem', (id) => mailApi.sentItem(id));

export interface MailReplyValues {
  [field: string]: string | undefined | readonly File[];
  body: string;
  attachments: readonly File[];
}

/** Opening a conversation marks what the member received in it read, then reads it. */
const openConversation = async (id: number) => {
  await mailApi.markRead(id, true);
  return mailApi.conversation(id);
};

/** A conversation (input.params: the thread) and its reply: once sent, the conversation is read again with the reply in it. */
export const mailConversationMachine = createFormMachine<MailReplyValues, MailConversation, MailConversation, { values: MailReplyValues; result: MailConversation }, 'form', number>({
  id: 'mailConversation',
  initialValues: { body: '', attachments: [] },
  load: (id) => openConversation(id ?? -1),
  schema: mailReplyFormSchema,
  submit: async ({ values, params }) => {
    const thread = params ?? -1;
    await mailApi.reply(thread, values.body, values.attachments);
    return mailApi.conversation(thread);
  },
  successKey: 'mail:replySent',
  clearOnSuccess: true,
});

export type MailComposeFormValues = MailComposeValues & { [field: string]: string | undefined | readonly File[] };

/** A new message: recipient, subject, rich-text body, files. `apply` (bound by the page) opens the new thread. */
export const mailComposeMachine = createFormMachine<MailComposeFormValues, never, { thread_id: number; message_id: number }>({
  id: 'mailCompose',
  initialValues: { to: '', subject: '', body: '', attachments: [] },
  schema: mailComposeFormSchema,
  submit: ({ values }) => mailApi.send(values),
  successKey: 'mail:sentToast',
  clearOnSuccess: true,
});

/** What the list pages do besides their list: bin and restore a message, save an attachment, find recipients. */
export const mailActions = {
  bin: (id: number) => mailApi.bin(id),
  restore: (id: number) => mailApi.restore(id),
  markUnread: (threadId: number) => mailApi.markRead(threadId, false),
  download: (url: string, name: string) => mailApi.downloadAttachment(url, name),
  recipients: (keyword: string) => mailApi.recipients(keyword),
};
export type MailActions = typeof mailActions;

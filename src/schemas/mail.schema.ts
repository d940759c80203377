/**
 * Mail (spec §2 Mail: inbox, sent, sent item, compose, conversation; §3 the message fields of the
 * notifications): the answers of /api/mail/*, the query of its lists and the compose and reply fields. The
 * body is HTML from the rich-text editor, cleaned by the server's one sanitiser before it is stored and
 * cleaned again in the browser before it is shown.
 */
import * as z from 'zod/mini';
import { idSchema } from './common.schema';
import { text } from './values.schema';
import { listQueryShape, oneOfParam, textParam } from './list-query.schema';

/** The recipient value that names the company's mailbox. */
export const COMPANY_RECIPIENT = '@company';

/** Files a message may carry: JPG, PNG, WebP or PDF (by their bytes), 10 MB each, at most 5. */
export const MAIL_FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export const MAIL_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAIL_MAX_FILES = 5;
export const MAIL_SUBJECT_MAX = 150;
/** Longest body, as HTML. */
export const MAIL_BODY_MAX = 20_000;

export const MAIL_RELATIONS = ['company', 'sponsor', 'upline', 'downline'] as const;
export type MailRelation = (typeof MAIL_RELATIONS)[number];

/** Someone a message is from or to: a member, or the company (`company`, username COMPANY_RECIPIENT). */
export const mailPartySchema = z.object({
  username: z.string(),
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
  company: z.boolean(),
});
export type MailParty = z.infer<typeof mailPartySchema>;

/** Someone the member may write to, and why. */
export const mailRecipientSchema = z.object({ ...mailPartySchema.shape, relation: z.enum(MAIL_RELATIONS) });
export type MailRecipient = z.infer<typeof mailRecipientSchema>;
export const mailRecipientListSchema = z.array(mailRecipientSchema);

export const mailAttachmentSchema = z.object({ id: idSchema, name: z.string(), content_type: z.string(), size: z.number(), url: z.string() });
export type MailAttachment = z.infer<typeof mailAttachmentSchema>;

export const MAIL_BOXES = ['inbox', 'sent', 'bin'] as const;
export type MailBox = (typeof MAIL_BOXES)[number];

/** A row of the inbox, sent or bin list: one message; `party` is the sender (inbox) or the recipient (sent). */
export const mailListItemSchema = z.object({
  id: idSchema,
  thread_id: idSchema,
  box: z.enum(['inbox', 'sent']),
  subject: z.string(),
  snippet: z.string(),
  party: mailPartySchema,
  read: z.boolean(),
  attachments: z.number(),
  created_at: z.string(),
});
export type MailListItem = z.infer<typeof mailListItemSchema>;
export const mailListSchema = z.object({ items: z.array(mailListItemSchema), next_page_url: z.nullable(z.string()) });
export type MailList = z.infer<typeof mailListSchema>;

export const mailCountsSchema = z.object({ unread: z.number(), inbox: z.number(), sent: z.number(), bin: z.number() });
export type MailCounts = z.infer<typeof mailCountsSchema>;

/** One message of a conversation, or a sent item. `body` is sanitised HTML. */
export const mailMessageSchema = z.object({
  id: idSchema,
  thread_id: idSchema,
  subject: z.string(),
  from: mailPartySchema,
  to: mailPartySchema,
  body: z.string(),
  mine: z.boolean(),
  read_at: z.nullable(z.string()),
  binned: z.boolean(),
  attachments: z.array(mailAttachmentSchema),
  created_at: z.string(),
});
export type MailMessage = z.infer<typeof mailMessageSchema>;

/** A thread as its member sees it: messages oldest first, and whom a reply goes to. */
export const mailConversationSchema = z.object({
  id: idSchema,
  subject: z.string(),
  reply_to: mailPartySchema,
  messages: z.array(mailMessageSchema),
});
export type MailConversation = z.infer<typeof mailConversationSchema>;

/** The list query: paging and dates of every list, a keyword (subject or person) and unread only. */
export const mailListQuery = z.looseObject({
  ...listQueryShape,
  keyword: z.optional(textParam('validation:invalidFormat', z.maxLength(100, { error: 'validation:tooLong' }))),
  unread: z.optional(oneOfParam(['1'] as const)),
});
export type MailListQuery = z.output<typeof mailListQuery>;

/** What a mail list page filters by (its URL): a keyword over subject and person, unread only, and the bin as a folder of the inbox page. */
export interface MailFiltersValue {
  keyword?: string;
  unread?: '1';
  folder?: 'bin';
}

/** The inbox page's URL: the list query's keyword and unread, and `folder=bin` for the bin. */
export const mailPageQuery = z.looseObject({ ...mailListQuery.shape, folder: z.optional(oneOfParam(['bin'] as const)) });

export const mailRecipientsQuery = z.looseObject({
  keyword: z.optional(textParam('validation:invalidFormat', z.maxLength(100, { error: 'validation:tooLong' }))),
});

/** Compose: a recipient (username or COMPANY_RECIPIENT), a subject and a body (HTML); files go as attachments[]. */
export const mailComposeSchema = z.object({
  to: text({ min: 1, max: 191 }),
  subject: text({ min: 1, max: MAIL_SUBJECT_MAX }),
  body: text({ min: 1, max: MAIL_BODY_MAX, multiline: true }),
});
export type MailCompose = z.infer<typeof mailComposeSchema>;

export const mailReplySchema = z.object({ body: text({ min: 1, max: MAIL_BODY_MAX, multiline: true }) });
export type MailReply = z.infer<typeof mailReplySchema>;

export const mailReadRequestSchema = z.strictObject({ read: z.boolean() });

/** The i18n key of what is wrong with one chosen file (by what the browser says of it), or null. */
export function mailFileProblem(file: { type: string; size: number }): string | null {
  if (!(MAIL_FILE_TYPES as readonly string[]).includes(file.type)) return 'account:upload.fileType';
  if (file.size > MAIL_MAX_FILE_BYTES) return 'account:upload.fileTooLarge';
  if (file.size === 0) return 'account:upload.fileEmpty';
  return null;
}

/** True when the editor's HTML holds some text (an empty editor gives `<p></p>`). */
export const htmlHasText = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&nbsp;|\s/g, '').length > 0;

const files = z.array(z.custom<File>()).check(
  z.superRefine((list, ctx) => {
    if (list.length > MAIL_MAX_FILES) return ctx.addIssue('account:upload.tooManyFiles');
    for (const f of list) {
      const problem = mailFileProblem(f);
      if (problem) return ctx.addIssue(problem);
    }
  }),
);
const bodyHtml = z.string().check(z.refine(htmlHasText, 'validation:required'), z.maxLength(MAIL_BODY_MAX, 'validation:tooLong'));

/** The compose form (the server applies the same rules, and decides who may be written to). */
export const mailComposeFormSchema = z.object({
  to: z.string().check(z.trim(), z.minLength(1, 'mail:errors.recipientRequired')),
  subject: z.string().check(z.trim(), z.minLength(1, 'validation:required'), z.maxLength(MAIL_SUBJECT_MAX, 'validation:tooLong')),
  body: bodyHtml,
  attachments: files,
});

/** The reply form of a conversation. */
export const mailReplyFormSchema = z.object({ body: bodyHtml, attachments: files });

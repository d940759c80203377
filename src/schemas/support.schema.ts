/**
 * Support tickets (spec §2 /member/support with the ticketing_system switch on): a member's tickets with
 * category, priority, subject, description and attachments; the conversation with the company's support;
 * the statuses open, awaiting member, answered, resolved and closed, and the trail of every status change.
 * The attachments follow the upload pipeline's support policy: JPG, PNG, WebP or PDF (by their bytes on the
 * server), 10 MB each, at most SUPPORT_MAX_FILES per message.
 */
import * as z from 'zod/mini';
import { idSchema } from './common.schema';
import { text } from './values.schema';
import { cursorParam, limitParam, oneOfParam } from './list-query.schema';

export const TICKET_STATUSES = ['open', 'awaiting_member', 'answered', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_CATEGORIES = ['account', 'payments', 'orders', 'technical', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** What a member may do with a ticket in each status. */
export const ticketCan = {
  reply: (s: TicketStatus) => s === 'open' || s === 'awaiting_member' || s === 'answered',
  reopen: (s: TicketStatus) => s === 'resolved',
  close: (s: TicketStatus) => s !== 'closed',
};

export const SUPPORT_FILE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export const SUPPORT_MAX_FILE_BYTES = 10 * 1024 * 1024;
export const SUPPORT_MAX_FILES = 5;
export const SUBJECT_MAX = 150;
export const BODY_MAX = 5000;

export const ticketAttachmentSchema = z.object({ id: idSchema, name: z.string(), content_type: z.string(), size: z.number(), url: z.string() });
export type TicketAttachment = z.infer<typeof ticketAttachmentSchema>;

/** One line of the list (and the head of a ticket). */
export const ticketSummarySchema = z.object({
  id: idSchema,
  subject: z.string(),
  category: z.enum(TICKET_CATEGORIES),
  priority: z.enum(TICKET_PRIORITIES),
  status: z.enum(TICKET_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** A message of the conversation: the member's or support's (plain text). */
export const ticketMessageSchema = z.object({
  id: idSchema,
  author: z.enum(['member', 'support']),
  body: z.string(),
  created_at: z.string(),
  attachments: z.array(ticketAttachmentSchema),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

/** One status change: from (null when the ticket was opened), to, by whom. */
export const ticketEventSchema = z.object({
  from: z.nullable(z.enum(TICKET_STATUSES)),
  to: z.enum(TICKET_STATUSES),
  actor: z.enum(['member', 'support']),
  created_at: z.string(),
});
export type TicketEvent = z.infer<typeof ticketEventSchema>;

export const ticketSchema = z.object({
  ...ticketSummarySchema.shape,
  messages: z.array(ticketMessageSchema),
  events: z.array(ticketEventSchema),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketPageSchema = z.object({ items: z.array(ticketSummarySchema), next_page_url: z.nullable(z.string()) });

/** GET /api/support/tickets: optionally one status, cursor-paged, newest first. */
export const ticketsQuerySchema = z.looseObject({
  status: z.optional(oneOfParam(TICKET_STATUSES)),
  cursor: z.optional(cursorParam()),
  limit: z.optional(limitParam()),
});
export type TicketsQuery = z.output<typeof ticketsQuerySchema>;

/** The text fields of a new ticket (POST /api/support/tickets, multipart; files under attachments[]). */
export const ticketFieldsSchema = z.object({
  category: z.enum(TICKET_CATEGORIES, { error: 'validation:invalidChoice' }),
  priority: z.enum(TICKET_PRIORITIES, { error: 'validation:invalidChoice' }),
  subject: text({ min: 1, max: SUBJECT_MAX }),
  description: text({ min: 1, max: BODY_MAX, multiline: true }),
});
/** The text field of a reply (POST /api/support/tickets/{id}/replies, multipart). */
export const replyFieldsSchema = z.object({ body: text({ min: 1, max: BODY_MAX, multiline: true }) });

/** The i18n key of what is wrong with one chosen file (by what the browser says of it), or null. */
export function supportFileProblem(file: { type: string; size: number }): string | null {
  if (!(SUPPORT_FILE_TYPES as readonly string[]).includes(file.type)) return 'support:tickets.fileType';
  if (file.size > SUPPORT_MAX_FILE_BYTES) return 'account:upload.fileTooLarge';
  if (file.size === 0) return 'account:upload.fileEmpty';
  return null;
}

const attachmentsSchema = z.array(z.custom<File>()).check(
  z.superRefine((files, ctx) => {
    if (files.length > SUPPORT_MAX_FILES) return ctx.addIssue('account:upload.tooManyFiles');
    for (const f of files) {
      const problem = supportFileProblem(f);
      if (problem) return ctx.addIssue(problem);
    }
  }),
);

export interface TicketValues {
  [field: string]: string | undefined | readonly File[];
  category: string;
  priority: string;
  subject: string;
  description: string;
  attachments: readonly File[];
}
export const ticketFormSchema = z.object({ ...ticketFieldsSchema.shape, attachments: attachmentsSchema });

export interface ReplyValues {
  [field: string]: string | undefined | readonly File[];
  body: string;
  attachments: readonly File[];
}
export const replyFormSchema = z.object({ ...replyFieldsSchema.shape, attachments: attachmentsSchema });

/**
 * The account hub (/member/account), its FAQs (/member/account/faqs) and the account deletion
 * (/member/account/delete), spec §2 "Account", §3 "User", §5, §7 DELETE /api/users.
 */
import * as z from 'zod/mini';
import { idSchema } from './common.schema';
import { cursorParam, limitParam, textParam } from './list-query.schema';
import { isoDateTime, kycStatusSchema } from './wallet.schema';

/** GET /api/user/account: who the member is, as the hub shows it. */
export const accountSummarySchema = z.object({
  id: idSchema,
  username: z.string(),
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
  email: z.nullable(z.string()),
  member_since: isoDateTime,
  kyc_status: kycStatusSchema,
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;

/** Longest FAQ search a member may type. */
export const FAQ_KEYWORD_MAX = 100;

/** GET /api/faqs: a keyword in the question or the answer's text, cursor-paged. Unknown parameters pass. */
export const faqsQuerySchema = z.looseObject({
  keyword: z.optional(textParam('validation:tooLong', z.maxLength(FAQ_KEYWORD_MAX, { error: 'validation:tooLong' }))),
  cursor: z.optional(cursorParam()),
  limit: z.optional(limitParam()),
});
export type FaqsQuery = z.output<typeof faqsQuerySchema>;

/** One question; `answer` is HTML cleaned by the server's sanitiser (and again by the browser's). */
export const faqSchema = z.object({ id: idSchema, question: z.string(), answer: z.string(), created_at: isoDateTime });
export type Faq = z.infer<typeof faqSchema>;

export const faqPageSchema = z.object({ items: z.array(faqSchema), next_page_url: z.nullable(z.string()) });

/**
 * The deletion form: the username typed again as confirmation (`username` is the account's), checked in the
 * browser only — the server needs the password (spec §5), which the form keeps apart from its values.
 */
export function accountDeletionSchema(username: string | null) {
  return z.object({
    confirmation: z.string().check(
      z.trim(),
      z.minLength(1, 'validation:required'),
      z.refine((v) => username !== null && v === username, 'account:deleteAccount.confirmationMismatch'),
    ),
  });
}
export type AccountDeletionValues = { confirmation: string };

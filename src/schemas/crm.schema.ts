/**
 * The member's CRM (spec §2 CRM routes): leads, their notes and the board by status. One schema per
 * request body and list query, read by the server (validation, OpenAPI) and by the client (forms, calls,
 * page URLs). Money is decimal text (estimated value), never a float.
 */
import * as z from 'zod/mini';
import { emailField, mobileField } from './auth.schema';
import { idSchema, plainText } from './common.schema';
import { cursorPage } from './common.schema';
import { cursorParam, dateRangeParam, dayParam, isYmd, limitParam, oneOfParam, sortParam, textParam } from './list-query.schema';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_SOURCES = ['website', 'referral', 'social', 'event', 'advert', 'other'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

/** Text of at most `max` characters, trimmed, without control characters; `required` ones cannot be empty. */
export const crmText = (max: number, required = false, multiline = false) =>
  z
    .string('validation:required')
    .check(
      z.trim(),
      plainText('validation:invalidFormat', multiline),
      ...(required ? [z.minLength(1, 'validation:required')] : []),
      z.maxLength(max, 'validation:tooLong'),
    );
/** Empty, or a value `field` accepts (`key` otherwise). */
const blankOr = (field: z.ZodMiniType<string>, key: string) =>
  z.string().check(z.trim(), z.maxLength(191, 'validation:tooLong'), z.refine((v) => v === '' || z.safeParse(field, v).success, key));

/** A decimal amount of at most 2 fraction digits and 12 whole digits, as text ("1250", "99.90"); '' when optional and not given. */
export const MONEY_TEXT = /^\d{1,12}(\.\d{1,2})?$/;
export const moneyText = (required = false) =>
  z.string('validation:invalidAmount').check(
    z.trim(),
    z.refine((v) => (v === '' ? !required : MONEY_TEXT.test(v)), { error: required ? 'validation:invalidAmount' : 'validation:invalidAmount' }),
  );
/** A calendar day yyyy-MM-dd, or '' (none). */
export const dayText = z.string('validation:invalidDate').check(z.trim(), z.refine((v) => v === '' || isYmd(v), 'validation:invalidDate'));
const choiceOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.string('validation:invalidChoice').check(z.refine((v) => (values as readonly string[]).includes(v), 'validation:invalidChoice'));

// ── Leads ───────────────────────────────────────────────────────────────────────────────────────────

/** Body of POST /api/crm/leads and PUT /api/crm/leads/{id}, and the check of the lead form. */
export const leadRequestSchema = z.strictObject({
  name: crmText(120, true),
  company: z.optional(crmText(120)),
  email: z.optional(blankOr(emailField, 'validation:invalidEmail')),
  phone: z.optional(blankOr(mobileField, 'validation:invalidMobile')),
  source: choiceOf(LEAD_SOURCES),
  status: choiceOf(LEAD_STATUSES),
  estimated_value: z.optional(moneyText()),
  next_follow_up: z.optional(dayText),
  lost_reason: z.optional(crmText(300)),
});
export type LeadRequest = z.infer<typeof leadRequestSchema>;
export type LeadValues = { [K in keyof LeadRequest]-?: string };

export const EMPTY_LEAD: LeadValues = {
  name: '',
  company: '',
  email: '',
  phone: '',
  source: 'website',
  status: 'new',
  estimated_value: '',
  next_follow_up: '',
  lost_reason: '',
};

/** One lead as answered. `estimated_value` is decimal text with 2 digits; `next_follow_up` a day or null. */
export const leadSchema = z.object({
  id: idSchema,
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  source: z.string(),
  status: z.string(),
  estimated_value: z.string(),
  next_follow_up: z.nullable(z.string()),
  lost_reason: z.string(),
  contact_id: z.nullable(idSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Lead = z.infer<typeof leadSchema>;
export const leadPageSchema = cursorPage(leadSchema);

/** GET /api/crm/leads (and /export): search, status, source, created between, newest or oldest first. */
export const leadListQuerySchema = z.looseObject({
  cursor: z.optional(cursorParam()),
  limit: z.optional(limitParam()),
  sort: z.optional(sortParam),
  q: z.optional(textParam('validation:tooLong', z.maxLength(100, { error: 'validation:tooLong' }))),
  status: z.optional(oneOfParam(LEAD_STATUSES)),
  source: z.optional(oneOfParam(LEAD_SOURCES)),
  date_range: z.optional(dateRangeParam),
  start_date: z.optional(dayParam),
  end_date: z.optional(dayParam),
});
export type LeadListQuery = z.output<typeof leadListQuerySchema>;
/** What the leads page's URL carries (the list's filters). */
export type LeadFilters = Partial<Pick<LeadListQuery, 'q' | 'status' | 'source' | 'sort' | 'date_range' | 'start_date' | 'end_date'>>;

/** PUT /api/crm/leads/{id}/status: a move on the board. */
export const leadMoveSchema = z.strictObject({
  status: choiceOf(LEAD_STATUSES),
  lost_reason: z.optional(crmText(300)),
});
export type LeadMove = z.infer<typeof leadMoveSchema>;

/** GET /api/crm/leads/board: per status the newest cards (at most `BOARD_COLUMN_LIMIT`) and how many there are. */
export const BOARD_COLUMN_LIMIT = 500;
export const boardCardSchema = z.object({
  id: idSchema,
  name: z.string(),
  company: z.string(),
  status: z.string(),
  estimated_value: z.string(),
  next_follow_up: z.nullable(z.string()),
});
export type BoardCard = z.infer<typeof boardCardSchema>;
export const boardSchema = z.object({
  columns: z.array(z.object({ status: z.string(), total: z.number(), value: z.string(), cards: z.array(boardCardSchema) })),
});
export type Board = z.infer<typeof boardSchema>;

// ── The timeline of a lead ──────────────────────────────────────────────────────────────────────────

export const noteRequestSchema = z.strictObject({ body: crmText(2000, true, true) });
export type NoteRequest = z.infer<typeof noteRequestSchema>;

/** One entry of a lead's timeline: a note (later also calls and meetings), newest first. */
export const timelineEntrySchema = z.object({
  kind: z.string(),
  id: idSchema,
  at: z.string(),
  text: z.string(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export const timelineSchema = z.object({ items: z.array(timelineEntrySchema) });

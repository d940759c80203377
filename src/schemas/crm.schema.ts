/**
 * The member's CRM (spec §2 CRM routes): leads, their notes and the board by status. One schema per
 * request body and list query, read by the server (validation, OpenAPI) and by the client (forms, calls,
 * page URLs). Money is decimal text (estimated value), never a float.
 */
import * as z from 'zod/mini';
import { emailField, mobileField } from './auth-fields.schema';
import { idSchema } from './common.schema';
import { plainText } from './values.schema';
import { cursorPage } from './values.schema';
import { cursorParam, dateRangeParam, dayParam, isYmd, limitParam, oneOfParam, sortParam, textParam } from './list-query.schema';

export const LEAD_STATUSES = ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_SOURCES = ['website', 'referral', 'social', 'event', 'advert', 'other'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];
/** What a lead wants: to buy (customer) or to join the business (recruit: may be registered as a member). */
export const LEAD_INTERESTS = ['customer', 'recruit'] as const;
export type LeadInterest = (typeof LEAD_INTERESTS)[number];
/** Statuses of a lead still in the pipeline (neither won nor lost). */
export const OPEN_LEAD_STATUSES = ['new', 'contacted', 'qualified', 'proposal'] as const;

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
  interest: z.optional(choiceOf(LEAD_INTERESTS)),
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
  interest: 'customer',
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
  interest: z.string(),
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

/**
 * One entry of a lead's or a contact's timeline, newest first: a note, a call, a meeting, or (a contact's) a
 * sale, whose `id` is the sale's, `text` its invoice number and `amount` its total (decimal text).
 */
export const timelineEntrySchema = z.object({
  kind: z.string(),
  id: idSchema,
  at: z.string(),
  text: z.string(),
  amount: z.optional(z.string()),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;
export const timelineSchema = z.object({ items: z.array(timelineEntrySchema) });

// ── Contacts ────────────────────────────────────────────────────────────────────────────────────────

/** Body of POST /api/crm/contacts and PUT /api/crm/contacts/{id}; also one row of a CSV import. */
export const contactRequestSchema = z.strictObject({
  name: crmText(120, true),
  company: z.optional(crmText(120)),
  email: z.optional(blankOr(emailField, 'validation:invalidEmail')),
  phone: z.optional(blankOr(mobileField, 'validation:invalidMobile')),
  city: z.optional(crmText(96)),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;
export type ContactValues = { [K in keyof ContactRequest]-?: string };
export const EMPTY_CONTACT: ContactValues = { name: '', company: '', email: '', phone: '', city: '' };
/** The CSV columns of an import and an export (a header row names them). */
export const CONTACT_CSV_COLUMNS = ['name', 'company', 'email', 'phone', 'city'] as const;

export const contactSchema = z.object({
  id: idSchema,
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  city: z.string(),
  lead_id: z.nullable(idSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;
export const contactPageSchema = cursorPage(contactSchema);
export const contactListQuerySchema = z.looseObject({
  cursor: z.optional(cursorParam()),
  limit: z.optional(limitParam()),
  sort: z.optional(sortParam),
  q: z.optional(textParam('validation:tooLong', z.maxLength(100, { error: 'validation:tooLong' }))),
});
export type ContactFilters = Partial<Pick<z.output<typeof contactListQuerySchema>, 'q' | 'sort'>>;

/** At most this many rows per import. */
export const MAX_IMPORT_ROWS = 1000;
/** POST /api/crm/contacts/import: the rows of a CSV (read in the browser); `dry_run` checks without saving. */
export const contactImportSchema = z.strictObject({
  dry_run: z.optional(z.boolean()),
  rows: z.array(z.record(z.string(), z.string())).check(z.minLength(1, 'validation:required'), z.maxLength(MAX_IMPORT_ROWS, 'validation:tooLong')),
});
export type ContactImport = z.infer<typeof contactImportSchema>;
/** The answer: how many rows are (or were) imported, and per failing row (1 = first data row) its field map. */
export const contactImportResultSchema = z.object({
  imported: z.number(),
  valid: z.number(),
  failed: z.array(z.object({ row: z.number(), errors: z.record(z.string(), z.array(z.string())) })),
});
export type ContactImportResult = z.infer<typeof contactImportResultSchema>;

/** POST /api/crm/leads/{id}/convert: the lead becomes a contact (once); the answer is the contact. */

// ── Calls ───────────────────────────────────────────────────────────────────────────────────────────

export const CALL_DIRECTIONS = ['outgoing', 'incoming'] as const;
export const CALL_OUTCOMES = ['answered', 'no_answer', 'voicemail', 'busy'] as const;
const optionalId = z.string('validation:invalidChoice').check(z.trim(), z.refine((v) => v === '' || /^[1-9]\d{0,9}$/.test(v), 'validation:invalidChoice'));
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Body of POST /api/crm/calls (and PUT): who (a contact or a lead), direction, outcome, minutes, notes, when. */
export const callRequestSchema = z
  .strictObject({
    contact_id: z.optional(optionalId),
    lead_id: z.optional(optionalId),
    direction: choiceOf(CALL_DIRECTIONS),
    outcome: choiceOf(CALL_OUTCOMES),
    duration_minutes: z.string('validation:invalidFormat').check(z.trim(), z.regex(/^\d{1,3}$/, 'validation:invalidFormat')),
    notes: z.optional(crmText(2000, false, true)),
    date: z.string('validation:invalidDate').check(z.trim(), z.refine(isYmd, 'validation:invalidDate')),
    time: z.string('validation:invalidFormat').check(z.trim(), z.regex(TIME, 'validation:invalidFormat')),
    time_zone: z.optional(crmText(64)),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (!v.contact_id && !v.lead_id) ctx.addIssue({ code: 'custom', path: ['contact_id'], message: 'validation:required', input: v.contact_id });
    }),
  );
export type CallRequest = z.infer<typeof callRequestSchema>;
export type CallValues = { [K in keyof CallRequest]-?: string };
export const EMPTY_CALL: CallValues = { contact_id: '', lead_id: '', direction: 'outgoing', outcome: 'answered', duration_minutes: '5', notes: '', date: '', time: '', time_zone: '' };

export const callSchema = z.object({
  id: idSchema,
  contact_id: z.nullable(idSchema),
  lead_id: z.nullable(idSchema),
  who: z.string(),
  direction: z.string(),
  outcome: z.string(),
  duration_minutes: z.number(),
  notes: z.string(),
  called_at: z.string(),
  created_at: z.string(),
});
export type Call = z.infer<typeof callSchema>;
export const callPageSchema = cursorPage(callSchema);
export const simpleListQuerySchema = z.looseObject({ cursor: z.optional(cursorParam()), limit: z.optional(limitParam()), sort: z.optional(sortParam) });

// ── Meetings ────────────────────────────────────────────────────────────────────────────────────────

/** Most people one meeting invites. */
export const MAX_INVITEES = 50;
/** One invitee of a meeting as a request names it: `contact:<id>` or `lead:<id>`. */
export const INVITEE_REF = /^(contact|lead):[1-9]\d{0,9}$/;
export const inviteeRef = (kind: 'contact' | 'lead', id: number) => `${kind}:${id}`;
/** The invitees of a meeting: each the member's contact or lead, each once (a repeat is dropped). */
const inviteesField = z.array(z.string('validation:invalidChoice'), 'validation:invalidChoice').check(
  z.refine((v) => v.every((x) => INVITEE_REF.test(x)), 'validation:invalidChoice'),
  z.maxLength(MAX_INVITEES, 'validation:tooBig'),
);

/** Body of POST /api/crm/meetings (and PUT): a local date and time in the member's time zone. */
export const meetingRequestSchema = z.strictObject({
  title: crmText(160, true),
  date: z.string('validation:invalidDate').check(z.trim(), z.refine(isYmd, 'validation:invalidDate')),
  time: z.string('validation:invalidFormat').check(z.trim(), z.regex(TIME, 'validation:invalidFormat')),
  time_zone: crmText(64, true),
  duration_minutes: z.string('validation:invalidFormat').check(z.trim(), z.regex(/^([1-9]\d{0,2})$/, 'validation:invalidFormat')),
  place: z.optional(crmText(200)),
  link: z.optional(z.string().check(z.trim(), z.maxLength(500, 'validation:tooLong'), z.refine((v) => v === '' || /^https:\/\/[^\s<>"]+$/.test(v), 'validation:invalidFormat'))),
  invitees: z.optional(inviteesField),
  notes: z.optional(crmText(2000, false, true)),
});
export type MeetingRequest = z.infer<typeof meetingRequestSchema>;
export type MeetingValues = { [K in Exclude<keyof MeetingRequest, 'invitees'>]-?: string } & { invitees: readonly string[] };
export const EMPTY_MEETING: MeetingValues = { title: '', date: '', time: '', time_zone: '', duration_minutes: '30', place: '', link: '', invitees: [], notes: '' };

export const inviteeSchema = z.object({ kind: z.enum(['contact', 'lead']), id: idSchema, name: z.string() });
export type Invitee = z.infer<typeof inviteeSchema>;

export const meetingSchema = z.object({
  id: idSchema,
  title: z.string(),
  starts_at: z.string(),
  date: z.string(),
  time: z.string(),
  time_zone: z.string(),
  duration_minutes: z.number(),
  place: z.string(),
  link: z.string(),
  /** Who is invited (contacts and leads of the member still on record), in the order they were added. */
  invitees: z.array(inviteeSchema),
  /** Their names when the meeting was saved. */
  who: z.string(),
  notes: z.string(),
  created_at: z.string(),
});
export type Meeting = z.infer<typeof meetingSchema>;
export const meetingPageSchema = cursorPage(meetingSchema);
/** GET /api/crm/meetings: `when=upcoming` (default: from now on, soonest first) or `past` (latest first). */
export const MEETING_WHEN = ['upcoming', 'past'] as const;
export const meetingListQuerySchema = z.looseObject({
  cursor: z.optional(cursorParam()),
  limit: z.optional(limitParam()),
  when: z.optional(oneOfParam(MEETING_WHEN)),
});

/** What the call and meeting forms choose from: the member's contacts and open leads (names). */
export const crmChoicesSchema = z.object({
  contacts: z.array(z.object({ id: idSchema, name: z.string() })),
  leads: z.array(z.object({ id: idSchema, name: z.string() })),
});
export type CrmChoices = z.infer<typeof crmChoicesSchema>;

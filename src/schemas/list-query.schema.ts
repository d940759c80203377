/**
 * The query strings of the lists (spec §4, §7), as zod schemas: the reference server validates each
 * list call with them (its OpenAPI document shows them), the client builds its calls from their types
 * and its URL codecs (src/lib/search-codec.ts) read and write the browser's query string with them.
 *
 * Wire names only as the spec gives them: cursor, sort, date_range, start_date, end_date,
 * transaction_key[i], cash_flow, bonus_type[i], payout_status[], type, page, username, level.
 *
 * A parameter arrives as text, or as a list when repeated or bracketed (`a=1&a=2`, `a[]=1`, `a[0]=1`;
 * see readQuery in src/lib/search-codec.ts). Every bad value is answered by the i18n key of the
 * `validation` namespace the schema names (validation:invalidChoice, invalidDate, invalidCursor…);
 * a repeated single-valued parameter is validation:invalidType.
 */
import * as z from 'zod/mini';
import { plainText } from './values.schema';

export const SORTS = ['asc', 'desc'] as const;
export type Sort = (typeof SORTS)[number];
/** Date presets; weeks start on Monday, days are UTC (spec §9). */
export const DATE_RANGES = ['today', 'yesterday', 'this_week', 'last_week', 'this_month', 'last_month', 'this_year', 'custom'] as const;
export type DateRange = (typeof DATE_RANGES)[number];
export const CASH_FLOWS = ['credit', 'debit'] as const;
export type CashFlow = (typeof CASH_FLOWS)[number];
/** Payout status ids as the payout_status[] filter carries them (pending, approved, paid, rejected). */
export const PAYOUT_STATUS_IDS = ['1', '2', '3', '4', '5'] as const;
export const PAYOUT_INTERVALS = ['day', 'week', 'month', 'year'] as const;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Most values one list parameter may carry (repeats included). */
export const MAX_LIST_VALUES = 20;
/** Longest range of the earnings chart (earnings_total_datewise), in days, both ends included. */
export const MAX_CHART_DAYS = 366;

/** How a list parameter is written: `a=1&a=2` (repeat), `a[0]=1&a[1]=2` (indexed) or `a[]=1&a[]=2` (brackets). */
export type ArrayStyle = 'repeat' | 'indexed' | 'brackets';
/** The spelling each list parameter's schema asks for (read by the query writers). */
export const arrayStyles = z.registry<{ style: ArrayStyle }>();

/** The typed parameters of a query schema (its output without the pass-through of unknown parameters). */
export type QueryParams<S extends z.ZodMiniType> = { [K in keyof z.output<S> as string extends K ? never : K]: z.output<S>[K] };

// --- Parameters --------------------------------------------------------------------------------

/** The answer to a bad value: absent → required; a list where one value belongs → invalidType; else `key`. */
const answer = (key: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'validation:required' : typeof issue.input === 'string' ? key : 'validation:invalidType';

/** Any one value of text without control characters (a repeated parameter is validation:invalidType). */
export const textValue = z.string({ error: answer('validation:invalid') }).check(plainText('validation:invalid'));

/** One value of text without control characters, answered by `key` when bad. */
export const textParam = (key: string, ...checks: Array<z.core.$ZodCheck<string>>) =>
  z.string({ error: answer(key) }).check(plainText(key), ...(checks.length ? checks : [z.minLength(1, { error: key })]));

/** One of `values` (validation:invalidChoice). */
export const oneOfParam = <const T extends readonly [string, ...string[]]>(values: T, key = 'validation:invalidChoice') =>
  z.enum(values, { error: answer(key) });

/**
 * A list parameter (`item` one or more times), deduplicated, in first-seen order. Any bad value makes the
 * whole parameter bad (`key`); more than MAX_LIST_VALUES values are validation:tooBig.
 */
export function listParam<T extends string>(item: z.ZodMiniType<T, string>, style: ArrayStyle, key = 'validation:invalidChoice') {
  const list = z.pipe(
    z.union([item, z.array(item)], {
      error: (issue: { input?: unknown }) =>
        typeof issue.input === 'string' || (Array.isArray(issue.input) && issue.input.every((x) => typeof x === 'string')) ? key : 'validation:invalidType',
    }),
    z.transform((v: T | T[], payload) => {
      const all = Array.isArray(v) ? v : [v];
      if (all.length > MAX_LIST_VALUES) payload.issues.push({ code: 'custom', message: 'validation:tooBig', input: v, path: [] });
      return [...new Set(all)];
    }),
  );
  arrayStyles.add(list, { style });
  return list;
}

const YMD = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day in yyyy-MM-dd between the years 1900 and 2999. */
export function isYmd(value: string | null | undefined): value is string {
  if (typeof value !== 'string' || !YMD.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const d = new Date(`${value}T00:00:00Z`);
  return year >= 1900 && year <= 2999 && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A calendar day, yyyy-MM-dd (spec §5). */
export const dayParam = textParam('validation:invalidDate', z.regex(YMD, { error: 'validation:invalidDate' }), z.refine(isYmd, { error: 'validation:invalidDate' }));
export const sortParam = oneOfParam(SORTS);
export const dateRangeParam = oneOfParam(DATE_RANGES);
/** The opaque cursor of a next_page_url; the server alone reads it. */
export const cursorParam = (key = 'validation:invalidCursor') => textParam(key, z.regex(/^[A-Za-z0-9_-]{1,200}$/, { error: key }));
/** Page size, 1 … MAX_PAGE_SIZE. */
export const limitParam = (key = 'validation:invalidLimit') => textParam(key, z.regex(/^(100|[1-9]\d?)$/, { error: key }));
/** Positive whole number as text (1 … 9 999 999). */
export const positiveIntParam = textParam('validation:invalidFormat', z.regex(/^[1-9]\d{0,6}$/, { error: 'validation:invalidFormat' }));
/** The same, read as a number. */
export const positiveIntNumber = z.pipe(positiveIntParam, z.transform(Number));
/** A username, or the start of one (trimmed, 1 … 64 characters). */
export const usernameParam = z.string({ error: answer('validation:invalid') }).check(
  z.trim(),
  plainText('validation:invalidFormat'),
  z.minLength(1, { error: 'validation:required' }),
  z.maxLength(64, { error: 'validation:tooLong' }),
);

/** A parameter as the OpenAPI document describes it. */
function described<S extends z.ZodMiniType>(schema: S, description: string): S {
  z.globalRegistry.add(schema, { description });
  return schema;
}

// --- Rules across parameters -----------------------------------------------------------------

/** The dates of a custom range, or the bounds given without a preset (either may be alone). */
export interface DateFilter {
  date_range?: DateRange;
  start_date?: string;
  end_date?: string;
}

/** A custom range names both days. */
export const customRangeComplete = (v: DateFilter) => v.date_range !== 'custom' || (v.start_date !== undefined && v.end_date !== undefined);
/** Without a preset, or with a custom range, the end day is not before the start day. */
export const datesInOrder = (v: DateFilter) =>
  (v.date_range !== undefined && v.date_range !== 'custom') || !isYmd(v.start_date) || !isYmd(v.end_date) || v.start_date <= v.end_date;
/** cash_flow goes only with exactly one transaction_key (spec §7). */
export const cashFlowApplies = (v: { transaction_key?: readonly string[] }) => v.transaction_key?.length === 1;

type Ctx = z.core.$RefinementCtx<unknown>;
const fieldsWithIssues = (ctx: Ctx) => new Set(ctx.issues.map((i) => i.path?.[0]));
const fail = (ctx: Ctx, field: string, key: string) => ctx.addIssue({ code: 'custom', path: [field], message: key, input: undefined });

/** Runs even when single parameters were bad, so one answer names every problem. */
const always = { when: () => true };

const dateRules = z.superRefine((v: DateFilter, ctx) => {
  const bad = fieldsWithIssues(ctx as Ctx);
  if (v.date_range === 'custom' && !bad.has('date_range')) {
    if (v.start_date === undefined) fail(ctx as Ctx, 'start_date', 'validation:required');
    if (v.end_date === undefined) fail(ctx as Ctx, 'end_date', 'validation:required');
  }
  if (!bad.has('start_date') && !bad.has('end_date') && !datesInOrder(v)) fail(ctx as Ctx, 'end_date', 'validation:endBeforeStart');
}, always);

// --- The list queries --------------------------------------------------------------------------

/** What every cursor-paged list accepts (spec §4, §7). Unknown parameters (route, load_modules…) pass. */
export const listQueryShape = {
  cursor: described(z.optional(cursorParam()), 'Continues a list: the cursor of the previous answer\'s next_page_url.'),
  sort: described(z.optional(sortParam), 'By date: desc (newest first, default) or asc.'),
  date_range: described(z.optional(dateRangeParam), 'A preset (UTC days, weeks from Monday), or custom with start_date and end_date.'),
  start_date: described(z.optional(dayParam), 'yyyy-MM-dd; needed with date_range=custom; alone, the list starts that day.'),
  end_date: described(z.optional(dayParam), 'yyyy-MM-dd, included; needed with date_range=custom; alone, the list ends that day.'),
  limit: described(z.optional(limitParam()), 'Page size, 1–100 (default 20).'),
};

export const listQuerySchema = z.looseObject(listQueryShape).check(dateRules);
export type ListQuery = z.output<typeof listQuerySchema>;

type Choices = readonly [string, ...string[]];
const anyKey = textParam('validation:invalidChoice', z.minLength(1, { error: 'validation:invalidChoice' }), z.maxLength(64, { error: 'validation:invalidChoice' }));
/** One of `values`, or (on the client, which learns the values from the answers) any key. */
const choice = (values?: Choices) => (values ? oneOfParam(values) : anyKey);

/** GET /api/wallet/transactions (and its export): transaction_key[i], cash_flow with exactly one key. */
export function transactionsQuery(keys?: Choices) {
  return z
    .looseObject({
      ...listQueryShape,
      transaction_key: described(z.optional(listParam(choice(keys), 'indexed')), 'Transaction types, as transaction_key[0], transaction_key[1]…'),
      cash_flow: described(z.optional(oneOfParam(CASH_FLOWS)), 'credit or debit; only with exactly one transaction_key.'),
    })
    .check(
      dateRules,
      z.superRefine((v: { transaction_key?: string[]; cash_flow?: CashFlow }, ctx) => {
        const bad = fieldsWithIssues(ctx as Ctx);
        if (v.cash_flow !== undefined && !bad.has('transaction_key') && !cashFlowApplies(v)) fail(ctx as Ctx, 'cash_flow', 'validation:cashFlowNeedsOneType');
      }, always),
    );
}

/** GET /api/wallet/recent_earnings (and its export): bonus_type[i]. */
export const recentEarningsQuery = (types?: Choices) =>
  z
    .looseObject({ ...listQueryShape, bonus_type: described(z.optional(listParam(choice(types), 'indexed')), 'Bonus types, as bonus_type[0], bonus_type[1]…') })
    .check(dateRules);

/** GET /api/payout/transactions (and its export): payout_status[] (status ids as text). */
export const payoutTransactionsQuery = z
  .looseObject({
    ...listQueryShape,
    payout_status: described(
      z.optional(listParam(oneOfParam(PAYOUT_STATUS_IDS), 'brackets')),
      'Status ids as payout_status[]: 1 pending, 2 approved, 3 paid, 4 rejected.',
    ),
  })
  .check(dateRules);

/** GET /api/network/pv_history and /binary_history (and exports): `type`, one at a time (spec §7). */
export const historyQuery = (types?: Choices) =>
  z.looseObject({ ...listQueryShape, type: described(z.optional(choice(types)), 'One type; all types when absent.') }).check(dateRules);

/** GET /api/orders/recent_orders (and its export). */
export const recentOrdersQuery = listQuerySchema;

/** GET /api/wallet/earnings_total_datewise: both days or neither (then the last 30 days), at most MAX_CHART_DAYS. */
export const earningsTotalDatewiseQuery = z.looseObject({ start_date: z.optional(dayParam), end_date: z.optional(dayParam) }).check(
  dateRules,
  z.superRefine((v: DateFilter, ctx) => {
    const bad = fieldsWithIssues(ctx as Ctx);
    if (bad.has('start_date') || bad.has('end_date')) return;
    if ((v.start_date === undefined) !== (v.end_date === undefined)) fail(ctx as Ctx, v.start_date === undefined ? 'start_date' : 'end_date', 'validation:required');
    else if (v.start_date && v.end_date && datesInOrder(v) && daysInRange(v.start_date, v.end_date) > MAX_CHART_DAYS) fail(ctx as Ctx, 'end_date', 'validation:rangeTooLong');
  }, always),
);

/** GET /api/payout/statement: the bucket of the chart (default month). */
export const payoutStatementQuery = z.looseObject({ interval: z.optional(oneOfParam(PAYOUT_INTERVALS)) });

/** GET /api/referral/joinings: cursor-paged, newest first; per_page 1 … 100 (kept in next_page_url). */
export const referralJoiningsQuery = z.looseObject({
  cursor: z.optional(cursorParam('validation:invalidFormat')),
  per_page: z.optional(limitParam('validation:invalidFormat')),
});

/** GET /api/network/downline_report[/{category}]: page-number paging (spec §4) with filters. */
export const downlineReportQuery = z.looseObject({
  page: z.optional(positiveIntNumber),
  /** Members whose username starts with this text (case-insensitive). */
  username: z.optional(usernameParam),
  level: z.optional(positiveIntNumber),
  /** By join date: 'desc' newest first (default), 'asc' oldest first (spec §5). */
  sort: z.optional(sortParam),
  /**
   * Not named by the spec: where the previous page ended, as carried by next_page_url. With it the next
   * page continues exactly after that row (no repeats when members join meanwhile, no cost for deep
   * pages); without it `page` alone picks the rows.
   */
  after: z.optional(textParam('validation:invalidFormat', z.maxLength(128, { error: 'validation:invalidFormat' }))),
});

// --- Page URLs -------------------------------------------------------------------------------

/** A type key of a list filter (transaction key, bonus type, payout status id, history type). */
export const typeKeyParam = z.string({ error: answer('validation:invalidChoice') }).check(
  z.trim(),
  plainText('validation:invalidChoice'),
  z.minLength(1, { error: 'validation:invalidChoice' }),
  z.maxLength(64, { error: 'validation:invalidChoice' }),
);

/**
 * The filters of an endless list as its page URL keeps them (src/lib/list-filters.ts): the wire names of
 * the list calls, with the chosen types under `type` whatever the list (each list call names them its way).
 */
export const listFilterSearchSchema = z.looseObject({
  sort: z.optional(sortParam),
  date_range: z.optional(dateRangeParam),
  start_date: z.optional(dayParam),
  end_date: z.optional(dayParam),
  type: z.optional(listParam(typeKeyParam, 'repeat')),
  cash_flow: z.optional(oneOfParam(CASH_FLOWS)),
});
export type ListFilterSearch = QueryParams<typeof listFilterSearchSchema>;

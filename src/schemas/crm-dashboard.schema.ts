/**
 * The CRM's dashboard (what to do next), analytics (per month) and the phone hub's counts (spec §2 CRM
 * routes /crm/dashboard, /crm/dashboard/analytics, /crm/index). Money is decimal text, never a float.
 *
 * Analytics answer one series per chart, each a list of months with a value per key
 * (`MonthSeries`): a new chart is one more series in `crmAnalyticsSchema`, filled by one more query.
 */
import * as z from 'zod/mini';
import { idSchema } from './common.schema';
import { meetingSchema } from './crm.schema';
import { oneOfParam, textParam } from './list-query.schema';

/** An IANA time zone name as a query parameter (the server checks it names a zone). */
const timeZoneParam = textParam('validation:invalidChoice', z.maxLength(64, { error: 'validation:invalidChoice' }));

/** GET /api/crm/dashboard: `tz` is the member's time zone ("today", "this month"); UTC when left out. */
export const crmDashboardQuerySchema = z.looseObject({ tz: z.optional(timeZoneParam) });

/** A lead due for a follow-up. */
export const followUpSchema = z.object({
  id: idSchema,
  name: z.string(),
  company: z.string(),
  status: z.string(),
  estimated_value: z.string(),
  next_follow_up: z.string(),
});
export type FollowUp = z.infer<typeof followUpSchema>;

/** A meeting as the dashboard lists it. */
export const meetingBriefSchema = z.pick(meetingSchema, {
  id: true,
  title: true,
  starts_at: true,
  date: true,
  time: true,
  time_zone: true,
  duration_minutes: true,
  place: true,
  link: true,
  invitees: true,
});
export type MeetingBrief = z.infer<typeof meetingBriefSchema>;

/** Most follow-ups and meetings of each kind the dashboard lists (the totals say how many there are). */
export const DASHBOARD_LIST_LIMIT = 10;

export const crmDashboardSchema = z.object({
  /** The member's day the answer is about (yyyy-MM-dd in `tz`). */
  today: z.string(),
  follow_ups: z.object({
    /** Open leads whose next follow-up day has passed, oldest first. */
    overdue: z.array(followUpSchema),
    overdue_total: z.number(),
    /** Open leads to follow up today. */
    today: z.array(followUpSchema),
    today_total: z.number(),
  }),
  meetings: z.object({
    /** Meetings of the member's day (past hours included), soonest first. */
    today: z.array(meetingBriefSchema),
    /** The next meetings after today, soonest first. */
    upcoming: z.array(meetingBriefSchema),
    upcoming_total: z.number(),
  }),
  /** Every status with its count and summed estimated value, in pipeline order. */
  by_status: z.array(z.object({ status: z.string(), count: z.number(), value: z.string() })),
  /** Sum of the estimated values of open leads, and how many there are. */
  pipeline: z.object({ value: z.string(), count: z.number() }),
  /** Leads won since the first of the member's month. */
  won_this_month: z.object({ count: z.number(), value: z.string() }),
  /** Sales recorded since the first of the member's month: how many, and their summed total. */
  sales_this_month: z.object({ count: z.number(), total: z.string() }),
  /** Whether the member has any lead or contact at all (none: the dashboard invites to add the first lead). */
  has_records: z.boolean(),
});
export type CrmDashboard = z.infer<typeof crmDashboardSchema>;

/** The analytics' periods: the last 3, 6, 12 or 24 months, the current one included. */
export const ANALYTICS_PERIODS = ['3m', '6m', '12m', '24m'] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
export const DEFAULT_ANALYTICS_PERIOD: AnalyticsPeriod = '12m';
export const periodMonths = (p: AnalyticsPeriod) => Number(p.slice(0, -1));

/** GET /api/crm/analytics and the analytics page's URL (?period=). */
export const crmAnalyticsQuerySchema = z.looseObject({
  period: z.optional(oneOfParam(ANALYTICS_PERIODS)),
  tz: z.optional(timeZoneParam),
});
export type CrmAnalyticsFilters = { period?: AnalyticsPeriod };

/** One month of a series: `yyyy-MM` and a value per key (counts as numbers; money would be decimal text). */
export const monthRowSchema = z.object({ month: z.string(), values: z.record(z.string(), z.number()) });
export type MonthRow = z.infer<typeof monthRowSchema>;

/** One month of the member's sales: their summed total (decimal text) and how many. */
export const salesMonthSchema = z.object({ month: z.string(), total: z.string(), count: z.number() });
export type SalesMonth = z.infer<typeof salesMonthSchema>;

export const crmAnalyticsSchema = z.object({
  period: z.string(),
  /** The months of the period, oldest first (every series has one row per month, zeros included). */
  months: z.array(z.string()),
  /** Leads created per month, per source. */
  leads_by_source: z.array(monthRowSchema),
  /** Leads created per month, per status they have now. */
  leads_by_status: z.array(monthRowSchema),
  /**
   * Leads closed in the period: won, lost, and the win rate (won / closed, percent with one digit, null with
   * nothing closed); leads created in the period and how many became contacts (percent likewise).
   */
  conversion: z.object({
    won: z.number(),
    closed: z.number(),
    win_rate: z.nullable(z.string()),
    leads: z.number(),
    to_contact: z.number(),
    contact_rate: z.nullable(z.string()),
  }),
  /** Sales recorded per month of the period (one row per month, zeros included). */
  sales_per_month: z.array(salesMonthSchema),
});
export type CrmAnalytics = z.infer<typeof crmAnalyticsSchema>;

/** GET /api/crm/counts: what the phone hub shows beside each area (cheap counts of live records). */
export const crmCountsSchema = z.object({
  leads: z.number(),
  open_leads: z.number(),
  contacts: z.number(),
  upcoming_meetings: z.number(),
  calls: z.number(),
  sales: z.number(),
  invoices: z.number(),
});
export type CrmCounts = z.infer<typeof crmCountsSchema>;

/**
 * Home calls of spec §7 (all GET under /api/home) and their answers (spec §3: Dashboard summary,
 * Dashboard extra, Package data, Promotions, Ranks, Binary summary, Notifications, Article, Event,
 * Recent joining, Recruitment progress). Amounts and volumes are decimal strings with 4 fraction
 * digits; instants are ISO 8601 UTC; months are yyyy-MM.
 */
import * as z from 'zod/mini';
import { idSchema, planSchema, decimalString } from './common.schema';
import { cursorPage } from './values.schema';
import { recentJoiningSchema } from './network.schema';
import { isoDateTime, kycStatusSchema, labelsSchema, transactionSchema, ymdSchema } from './wallet.schema';
import { cursorParam, limitParam } from './list-query.schema';

const count = z.number().check(z.int(), z.nonnegative());
const roleId = z.union([z.literal(1), z.literal(2), z.literal(3)]);
/** A calendar month, yyyy-MM. */
export const monthSchema = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/));

// --- Stories and events ------------------------------------------------------------------------

/** spec §3 "Article". `content` is HTML the server has already passed through its allow-list sanitiser. */
export const articleSchema = z.object({
  id: idSchema,
  title: z.string(),
  description: z.string(),
  content: z.string(),
  image_preview: z.nullable(z.string()),
  updated_at: isoDateTime,
});
export type Article = z.infer<typeof articleSchema>;

/** spec §3 "Story/article list item" (articles and videos). For a video, `url` is where it plays. */
export const storyItemSchema = z.object({
  id: idSchema,
  title: z.string(),
  description: z.string(),
  url: z.nullable(z.string()),
  /** Not named by the spec: the thumbnail. */
  image_preview: z.nullable(z.string()),
  updated_at: isoDateTime,
});
export type StoryItem = z.infer<typeof storyItemSchema>;

/** spec §3 "Event": start_date, end_date and updated_at are dates (instants). */
export const eventSchema = z.object({
  id: idSchema,
  title: z.string(),
  venue: z.string(),
  /** Plain text. */
  about: z.string(),
  image_preview: z.nullable(z.string()),
  tag: z.nullable(z.string()),
  start_date: isoDateTime,
  end_date: isoDateTime,
  updated_at: isoDateTime,
});
export type HomeEvent = z.infer<typeof eventSchema>;

// --- Dashboard -------------------------------------------------------------------------------

export const RECRUITMENT_STATUSES = ['achieved', 'in_progress', 'missed'] as const;
export const recruitmentStatusSchema = z.enum(RECRUITMENT_STATUSES);

/** spec §3 "Recruitment progress entry": personally sponsored members who joined in the month against its target. */
export const recruitmentProgressSchema = z.object({
  month: monthSchema,
  required_count: count,
  current_count: count,
  /** First and last day of the month (yyyy-MM-dd, UTC). */
  start_date: ymdSchema,
  end_date: ymdSchema,
  /** achieved (target met) · in_progress (the current month, not met yet) · missed (a past month, not met). */
  status: recruitmentStatusSchema,
  /** Whole percent of the target reached, 0–100. */
  progress: z.number().check(z.int(), z.gte(0), z.lte(100)),
});
export type RecruitmentProgress = z.infer<typeof recruitmentProgressSchema>;

/** Total of one calendar month (every month of the range is present, zero included). */
export const monthlyTotalSchema = z.object({ month: monthSchema, total: decimalString });
export type MonthlyTotal = z.infer<typeof monthlyTotalSchema>;

/** spec §3 "Dashboard summary". */
export const dashboardSummarySchema = z.object({
  user_role: roleId,
  account_type: z.enum(['personal', 'merchant']),
  /** The member's account is linked to a storefront customer. */
  is_linked: z.boolean(),
  is_special_member: z.boolean(),
  merchant_status: z.nullable(z.number()),
  merchant_email: z.nullable(z.string()),
  member_email: z.nullable(z.string()),
  /** From the ledger: −Σ of the wallet's entries. */
  wallet_balance: decimalString,
  /** Gross of every bonus earned. */
  total_earnings: decimalString,
  /** Sum of paid payouts. */
  total_paid: decimalString,
  pv: decimalString,
  tv: decimalString,
  cv: decimalString,
  package_id: z.nullable(idSchema),
  package_name: z.nullable(z.string()),
  /** The package's price. */
  package_amount: z.nullable(decimalString),
  package_bv: z.nullable(decimalString),
  package_expiry: z.nullable(isoDateTime),
  package_purchase_date: z.nullable(isoDateTime),
  rank_id: z.nullable(idSchema),
  rank_name: z.nullable(z.string()),
  rank_icon: z.nullable(z.string()),
  rank_bonus: z.nullable(decimalString),
  rank_achieved_date: z.nullable(isoDateTime),
  /** The member holds the highest active package (nothing to upgrade to). */
  is_highest_package: z.boolean(),
  /** Newest members of the placement downline. */
  recent_joinings: z.array(recentJoiningSchema),
  /** Newest wallet lines. */
  recent_transactions: z.array(transactionSchema),
  recent_articles: z.array(storyItemSchema),
  recent_videos: z.array(storyItemSchema),
  transaction_labels: labelsSchema,
  /** Storefront category path of the affiliate products (product_category module), or null. */
  affiliate_products_category: z.nullable(z.string()),
  /** Money into the wallet per month, the last 12 months up to the current one (oldest first). */
  credit_history: z.array(monthlyTotalSchema),
  /** Money out of the wallet per month, same months. */
  debit_history: z.array(monthlyTotalSchema),
  /** Sum of the member's package orders (registration and upgrades), cancelled ones excluded. */
  total_investment: decimalString,
  /** Gross of the return-on-investment bonuses earned. */
  total_return: decimalString,
  kyc_status: kycStatusSchema,
  /** The last 6 months that have a target, up to the current month (oldest first). */
  recruitment_progress: z.array(recruitmentProgressSchema),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;

/** spec §3 "Dashboard extra". */
export const dashboardExtraSchema = z.object({
  account_type: z.enum(['personal', 'merchant']),
  /** Upcoming events, soonest first. */
  events: z.array(eventSchema),
  /** Newest articles. */
  articles: z.array(articleSchema),
  pv: decimalString,
  tv: decimalString,
  kyc_status: kycStatusSchema,
  /** The company limits referring to members who meet its criteria (an approved KYC). */
  referral_criteria_enabled: z.boolean(),
  /** This member may use the referral features. */
  referral_allowed: z.boolean(),
});
export type DashboardExtra = z.infer<typeof dashboardExtraSchema>;

// --- Packages ----------------------------------------------------------------------------------

export const PACKAGE_STATUSES = ['active', 'expired', 'none'] as const;

export const packageOptionSchema = z.object({
  id: idSchema,
  name: z.string(),
  sku: z.string(),
  sort_order: z.number().check(z.int()),
  price: decimalString,
  bv: decimalString,
  /** Validity in days, null when it never expires. */
  expiry: z.nullable(count),
  image: z.nullable(z.string()),
  description: z.nullable(z.string()),
  max_levels: z.nullable(count),
  /** Direct (referral) bonus rate of the package, percent. */
  direct_bonus: decimalString,
  roi_bonus: decimalString,
  /** This package's price minus the current package's (the full price without one); negative for lower packages. */
  price_difference: decimalString,
  /** This package's volume minus the current package's. */
  pv_difference: decimalString,
  is_current: z.boolean(),
  /** An upgrade to it is possible now (upgrade module on, higher than the current package). */
  can_upgrade: z.boolean(),
});
export type PackageOption = z.infer<typeof packageOptionSchema>;

/** spec §3 "Package data". */
export const packageDataSchema = z.object({
  /** active · expired · none (no package bought). */
  package_status: z.enum(PACKAGE_STATUSES),
  /** Feature switches of the bonuses the packages carry. */
  direct_bonus: z.boolean(),
  roi_bonus: z.boolean(),
  /** Rates of the current package (percent), 0 without one. */
  direct_bonus_rate: decimalString,
  roi_bonus_rate: decimalString,
  unilevel_bonus: z.boolean(),
  /** An upgrade is possible (upgrade module on and a higher package exists). */
  upgrade_status: z.boolean(),
  autoship_status: z.boolean(),
  /** To the next higher package; null when there is none. */
  price_difference: z.nullable(decimalString),
  pv_difference: z.nullable(decimalString),
  current_package_id: z.nullable(idSchema),
  current_package_expiry: z.nullable(isoDateTime),
  packages: z.array(packageOptionSchema),
  /** The company's plan and the figures its level commissions pay (server/lib/compensation.ts). */
  plan: z.object({
    compensation_plan: planSchema,
    /** Matrix: children per member and levels paid; null on the other plans. */
    matrix_width: z.nullable(count),
    matrix_depth: z.nullable(count),
    /** Percent of a purchase's volume for level (matrix) or generation (unilevel) 1, 2, …; empty for binary. */
    level_percents: z.array(decimalString),
  }),
});
export type PackageData = z.infer<typeof packageDataSchema>;

// --- Promotions --------------------------------------------------------------------------------

/** spec §3 "Promotions": upcoming events (soonest first, then the latest past ones) and the newest articles. */
export const promotionsSchema = z.object({
  events: z.array(eventSchema),
  articles: z.array(articleSchema),
});
export type Promotions = z.infer<typeof promotionsSchema>;

// --- Ranks -------------------------------------------------------------------------------------

/**
 * What a rank may ask for (server/lib/ranks.ts computes each from the member's figures and tree):
 * - referral_count: personally sponsored active members;
 * - pv: personal volume; tv: team volume (ranks kept from before plans had criteria of their own);
 * - left_volume / right_volume (binary): the volume of each leg;
 * - levels_filled (matrix): complete levels of the member's matrix, level k holding width^k members;
 * - places_filled (matrix): members within the matrix's width and depth;
 * - group_volume (unilevel): personal volume and that of the generations the plan pays.
 */
export const RANK_CRITERIA = ['referral_count', 'pv', 'tv', 'left_volume', 'right_volume', 'levels_filled', 'places_filled', 'group_volume'] as const;
export const rankCriterionSchema = z.enum(RANK_CRITERIA);
export type RankCriterion = z.infer<typeof rankCriterionSchema>;
/** Criteria counted in members and levels (the others are volumes). */
export const COUNT_CRITERIA: readonly RankCriterion[] = ['referral_count', 'levels_filled', 'places_filled'];

/** One criterion's figure: what a rank requires, or what the member has. */
export const criterionFigureSchema = z.object({ key: rankCriterionSchema, value: decimalString });
export type CriterionFigure = z.infer<typeof criterionFigureSchema>;

/** Which of the spec's criteria the company's ranks use (`criteria_keys` lists every criterion of the plan's ranks). */
export const rankCriteriaSchema = z.object({ referral_count: z.boolean(), pv: z.boolean(), tv: z.boolean() });

export const currentRankSchema = z.object({
  id: idSchema,
  name: z.string(),
  icon: z.nullable(z.string()),
  bonus: decimalString,
  achieved_at: z.nullable(isoDateTime),
});

/** spec §3 "Achieved rank": created_at is when the member reached it; the criteria are the rank's (`requirements`: all of them). */
export const achievedRankSchema = z.object({
  id: idSchema,
  name: z.string(),
  icon: z.nullable(z.string()),
  bonus: decimalString,
  created_at: isoDateTime,
  referral_count: count,
  pv: decimalString,
  tv: decimalString,
  requirements: z.array(criterionFigureSchema),
});

/** spec §3 "Higher rank". */
export const higherRankSchema = z.object({
  id: idSchema,
  name: z.string(),
  icon: z.nullable(z.string()),
  bonus: decimalString,
  referral_count: count,
  pv: decimalString,
  tv: decimalString,
  requirements: z.array(criterionFigureSchema),
});

/** spec §3 "Criteria achieved": where the member stands (`figures`: every criterion of the plan's ranks). */
export const criteriaAchievedSchema = z.object({ referral_count: count, pv: decimalString, tv: decimalString, figures: z.array(criterionFigureSchema) });

export const ranksSchema = z.object({
  /** The company's compensation plan, whose ranks these are. */
  plan: planSchema,
  criteria: rankCriteriaSchema,
  /** The criteria the plan's ranks ask for, in the order they are shown. */
  criteria_keys: z.array(rankCriterionSchema),
  current_rank: z.nullable(currentRankSchema),
  /** Lowest first. */
  rank_achievements: z.array(achievedRankSchema),
  /** Lowest first. */
  higher_ranks: z.array(higherRankSchema),
  criteria_achieved: criteriaAchievedSchema,
});
export type Ranks = z.infer<typeof ranksSchema>;

// --- Binary summary ----------------------------------------------------------------------------

/** spec §3 "Binary summary", from the maintained tree columns. */
export const binarySummarySchema = z.object({
  /** Gross of the binary bonuses earned. */
  total_bonus: decimalString,
  /** The member's side under its placement parent (null at the top). */
  position: z.nullable(z.enum(['L', 'R'])),
  total_left: decimalString,
  total_right: decimalString,
  carry_left: decimalString,
  carry_right: decimalString,
  left_downline_count: count,
  right_downline_count: count,
  default_leg: z.nullable(z.enum(['L', 'R'])),
  placement_first_name: z.nullable(z.string()),
  placement_last_name: z.nullable(z.string()),
  sponsor_first_name: z.nullable(z.string()),
  sponsor_last_name: z.nullable(z.string()),
});
export type BinarySummary = z.infer<typeof binarySummarySchema>;

// --- Notifications -----------------------------------------------------------------------------

export const NOTIFICATION_KINDS = ['order', 'payout', 'message', 'notice'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** Most items one list carries (newest first); the counts are exact. */
export const NOTIFICATION_LIST_LIMIT = 50;

export const orderNotificationSchema = z.object({
  id: idSchema,
  invoice_no: z.string(),
  /** The order status key (pending, processing, shipped, completed, cancelled). */
  name: z.string(),
  /** A theme colour name for the status badge. */
  status_color: z.string(),
  updated_at: isoDateTime,
  total: decimalString,
  /** The package bought, null for product orders. */
  plan: z.nullable(z.string()),
  /** Read already (listed only with ?show=all; absent from older answers: unread). */
  read: z.optional(z.boolean()),
});
export type OrderNotification = z.infer<typeof orderNotificationSchema>;

/**
 * Where everything about a payout leads — its card on the notifications page and its notice: the payouts
 * list, where the payout's row shows its status (a payout has no page of its own).
 */
export const PAYOUT_LINK = '/member/wallet/recent-payouts';

export const payoutNotificationSchema = z.object({
  id: idSchema,
  invoice_no: z.string(),
  status_id: z.number().check(z.int(), z.gte(1), z.lte(5)),
  /** The payout status key (pending, approved, paid, rejected, cancelled). */
  name: z.string(),
  updated_at: isoDateTime,
  total: decimalString,
  /** Read already (listed only with ?show=all; absent from older answers: unread). */
  read: z.optional(z.boolean()),
});
export type PayoutNotification = z.infer<typeof payoutNotificationSchema>;

export const messageNotificationSchema = z.object({
  id: idSchema,
  thread_id: idSchema,
  subject: z.string(),
  /** Plain text. */
  body: z.string(),
  updated_at: isoDateTime,
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
  /** Read already (listed only with ?show=all; absent from older answers: unread). */
  read: z.optional(z.boolean()),
});
export type MessageNotification = z.infer<typeof messageNotificationSchema>;

/**
 * A notice: an event the member is told about in the app (the push channel of the notification
 * settings) — a new member in the team, a payout or order status, a new message, a KYC decision, a rank.
 */
export const noticeNotificationSchema = z.object({
  id: idSchema,
  /** The event (NOTIFICATION_EVENTS). */
  event: z.string(),
  subject: z.string(),
  /** Plain text. */
  body: z.string(),
  /** The member page about the matter, or null. */
  link: z.nullable(z.string()),
  updated_at: isoDateTime,
  /** Read already (listed only with ?show=all; absent from older answers: unread). */
  read: z.optional(z.boolean()),
});
export type NoticeNotification = z.infer<typeof noticeNotificationSchema>;

/** spec §3 "Notifications": the unread items of each kind, newest first (notices beyond the spec). */
export const notificationsSchema = z.object({
  orders: z.array(orderNotificationSchema),
  payouts: z.array(payoutNotificationSchema),
  messages: z.array(messageNotificationSchema),
  notices: z.optional(z.array(noticeNotificationSchema)),
});
export type Notifications = z.infer<typeof notificationsSchema>;

/** The tabs of /member/notifications. */
export const NOTIFICATION_TABS = ['orders', 'payouts', 'messages', 'notices'] as const;
export type NotificationsTab = (typeof NOTIFICATION_TABS)[number];
/** Which items the lists carry: the unread ones (default), or all of them, read ones marked (the history). */
export const NOTIFICATION_SHOWS = ['unread', 'all'] as const;
export type NotificationsShow = (typeof NOTIFICATION_SHOWS)[number];
/** GET /api/home/notifications?show=all. */
export const notificationsListQuerySchema = z.object({ show: z.optional(z.enum(NOTIFICATION_SHOWS)) });
/** /member/notifications?tab=payouts&show=all: the open tab (absent: orders) and unread or all. */
export const notificationsQuerySchema = z.looseObject({ tab: z.optional(z.enum(NOTIFICATION_TABS)), show: z.optional(z.enum(NOTIFICATION_SHOWS)) });
export type NotificationsUrl = { tab?: NotificationsTab; show?: NotificationsShow };

/**
 * GET /api/home/notifications/history/{orders|payouts|messages|notices}: every item of one kind, read ones
 * marked, newest first, cursor-paged (the "All" lists of the notifications page).
 */
export const notificationHistoryQuerySchema = z.looseObject({ cursor: z.optional(cursorParam()), limit: z.optional(limitParam()) });
export const NOTIFICATION_HISTORY = {
  orders: cursorPage(orderNotificationSchema),
  payouts: cursorPage(payoutNotificationSchema),
  messages: cursorPage(messageNotificationSchema),
  notices: cursorPage(noticeNotificationSchema),
} as const;
/** An item of one tab's history list. */
export type NotificationHistoryItem = OrderNotification | PayoutNotification | MessageNotification | NoticeNotification;
/** One page of a tab's history. */
export type NotificationHistoryPage = { items: NotificationHistoryItem[]; next_page_url: string | null };

/** spec §3 "Counts": unread items per kind and in all. */
export const notificationCountsSchema = z.object({
  order_count: count,
  payout_count: count,
  message_count: count,
  /** Unread notices (counted in total_count). */
  notice_count: z.optional(count),
  total_count: count,
});
export type NotificationCounts = z.infer<typeof notificationCountsSchema>;

/** PUT /api/home/notifications/read: mark the given items (or, without ids, every item) of a kind read. */
export const markNotificationsReadSchema = z.strictObject({
  kind: z.enum(['order', 'payout', 'message', 'notice', 'all']),
  ids: z.optional(z.array(idSchema).check(z.minLength(1), z.maxLength(200))),
});
export type MarkNotificationsRead = z.infer<typeof markNotificationsReadSchema>;

/** GET /api/home/dummy. */
export const homeDummySchema = z.object({ ok: z.boolean() });

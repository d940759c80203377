/**
 * Home (spec §3, §7): the figures of the dashboard, packages, ranks, binary summary, promotions and
 * notifications of one member, read from the tables that own them — money from the ledger (exact
 * decimals, never floats), volumes and counters from the maintained tree columns. Article HTML is served
 * through the sanitiser (./sanitize).
 */
import { sql } from 'drizzle-orm';
import { fixedRead, fixedRows, type Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { SettingsService } from './settings';
import { htmlToText, sanitizeHtml } from './sanitize';
import type { Modules } from '../../src/schemas/common.schema';
import type {
  Article,
  BinarySummary,
  DashboardExtra,
  DashboardSummary,
  HomeEvent,
  MessageNotification,
  MonthlyTotal,
  NoticeNotification,
  NotificationCounts,
  Notifications,
  OrderNotification,
  PackageData,
  PackageOption,
  PayoutNotification,
  Promotions,
  Ranks,
  RecruitmentProgress,
  StoryItem,
} from '../../src/schemas/home.schema';
import { NOTIFICATION_LIST_LIMIT } from '../../src/schemas/home.schema';
import type { RecentJoining } from '../../src/schemas/network.schema';
import { TRANSACTION_LABELS, isoUtc, kycStatus, rowsOf, type KycStatus } from './ledger';
import { packageRows, rankRows, type PackageDbRow } from './company-data';
import { earningsOf, figuresColumns, jsonOf, toFigures, totalEarnings } from './figures';
import { compensationSettings, planRules } from './compensation';
import { PLAN_CRITERIA, planRanks, planShape, rankFigures, type RankDefinition } from './ranks';
import type { RankCriterion } from '../../src/schemas/home.schema';
import * as money from './money';
import { ListQuery } from './pagination';
import { validationError } from './errors';
import type { Keyed } from './list-endpoint';
import { transactionPageSql } from './wallet';
import { keptOr } from './kept-answers';

// =============================================================================================
// Shared helpers

const DAY = 86_400_000;
const RECENT_ITEMS = 5;
const RECENT_STORIES = 3;
const PROMOTION_ITEMS = 10;
const RECRUITMENT_MONTHS = 6;
const HISTORY_MONTHS = 12;

/** Order statuses → theme colour of their badge. */
export const ORDER_STATUS_COLORS: Record<string, string> = {
  pending: 'yellow',
  processing: 'blue',
  shipped: 'cyan',
  completed: 'green',
  cancelled: 'red',
};
const PAYOUT_STATUS_NAMES: Record<number, string> = { 1: 'pending', 2: 'approved', 3: 'paid', 4: 'rejected', 5: 'cancelled' };

/** The `home` settings row. */
export interface HomeSettings {
  /** Referring is limited to members with an approved KYC. */
  referral_criteria_enabled: boolean;
  /** Storefront category path of the affiliate products (shown when the product_category module is on). */
  affiliate_products_category: string | null;
}
export const DEFAULT_HOME_SETTINGS: HomeSettings = { referral_criteria_enabled: true, affiliate_products_category: null };

export async function homeSettings(settings: SettingsService): Promise<HomeSettings> {
  const all = (await settings.all()) as unknown as Record<string, unknown>;
  const row = all.home && typeof all.home === 'object' ? (all.home as Partial<HomeSettings>) : {};
  return { ...DEFAULT_HOME_SETTINGS, ...row };
}

/** Decimal text from the database → 4 fraction digits ("12.5" → "12.5000"); null/undefined → 0. */
const dec = (v: unknown): string => money.normalize(v === null || v === undefined ? '0' : String(v));
const decOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : dec(v));
const iso = (v: unknown): string => new Date(v as string | Date).toISOString();
const isoOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : iso(v));
const int = (v: unknown) => Number(v);
const leg = (v: unknown): 'L' | 'R' | null => (v === 'L' || v === 'R' ? v : null);

/** First instant of the UTC month of `d`, moved by `add` months. */
export function monthStart(d: Date, add = 0): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));
}
const monthKey = (d: Date) => d.toISOString().slice(0, 7);

// =============================================================================================
// Stories and events

interface StoryDbRow {
  id: number;
  title: string;
  description: string;
  content: string;
  url: string | null;
  image_preview: string | null;
  updated_at: string | Date;
}

/** The newest published stories of a kind (company-wide: cached until stories change). */
function storyRows(db: Db, settings: SettingsService, kind: 'article' | 'video', limit: number): Promise<StoryDbRow[]> {
  return settings.cached(`stories:${kind}:${limit}`, () =>
    rowsOf<StoryDbRow>(
      db,
      sql`SELECT id, title, description, content, url, image_preview, updated_at FROM stories
          WHERE kind = ${kind} AND published ORDER BY updated_at DESC, id DESC LIMIT ${limit}`,
    ),
  );
}

const toStoryItem = (r: StoryDbRow): StoryItem => ({
  id: int(r.id),
  title: r.title,
  description: r.description,
  url: r.url,
  image_preview: r.image_preview,
  updated_at: iso(r.updated_at),
});

/** An article as served: its HTML content sanitised. */
export const toArticle = (r: Pick<StoryDbRow, 'id' | 'title' | 'description' | 'content' | 'image_preview' | 'updated_at'>): Article => ({
  id: int(r.id),
  title: r.title,
  description: r.description,
  content: sanitizeHtml(r.content),
  image_preview: r.image_preview,
  updated_at: iso(r.updated_at),
});

function recentStories(db: Db, settings: SettingsService, kind: 'article' | 'video', limit = RECENT_STORIES): Promise<StoryItem[]> {
  return settings.cached(`story-items:${kind}:${limit}`, async () => (await storyRows(db, settings, kind, limit)).map(toStoryItem));
}

/** The newest articles, sanitised once per change of the stories. */
function recentArticles(db: Db, settings: SettingsService, limit: number): Promise<Article[]> {
  return settings.cached(`articles:${limit}`, async () => (await storyRows(db, settings, 'article', limit)).map(toArticle));
}

export const EVENT_COLUMNS = sql.raw('id, title, venue, about, image_preview, tag, start_date, end_date, updated_at');

export const toEvent = (r: Record<string, unknown>): HomeEvent => ({
  id: int(r.id),
  title: String(r.title),
  venue: String(r.venue),
  about: String(r.about),
  image_preview: (r.image_preview as string | null) ?? null,
  tag: (r.tag as string | null) ?? null,
  start_date: iso(r.start_date),
  end_date: iso(r.end_date),
  updated_at: iso(r.updated_at),
});

/** Every published event, soonest first (company-wide: cached until events change). */
function publishedEvents(db: Db, settings: SettingsService): Promise<HomeEvent[]> {
  return settings.cached('events', async () =>
    (await rowsOf(db, sql`SELECT ${EVENT_COLUMNS} FROM events WHERE published ORDER BY start_date, id`)).map(toEvent),
  );
}

/** Events not over yet, soonest first. */
async function upcomingEvents(db: Db, settings: SettingsService, limit: number, now = new Date()): Promise<HomeEvent[]> {
  const at = now.getTime();
  return (await publishedEvents(db, settings)).filter((e) => Date.parse(e.end_date) >= at).slice(0, limit);
}

/** Upcoming events (soonest first), then the latest past ones, `limit` in all. */
async function promotionEvents(db: Db, settings: SettingsService, limit: number, now = new Date()): Promise<HomeEvent[]> {
  const at = now.getTime();
  const all = await publishedEvents(db, settings);
  const upcoming = all.filter((e) => Date.parse(e.end_date) >= at).slice(0, limit);
  if (upcoming.length >= limit) return upcoming;
  const past = all
    .filter((e) => Date.parse(e.end_date) < at)
    .sort((a, b) => Date.parse(b.end_date) - Date.parse(a.end_date) || b.id - a.id)
    .slice(0, limit - upcoming.length);
  return [...upcoming, ...past];
}

export async function promotions(db: Db, settings: SettingsService, now = new Date()): Promise<Promotions> {
  const [events, articles] = await Promise.all([promotionEvents(db, settings, PROMOTION_ITEMS, now), recentArticles(db, settings, PROMOTION_ITEMS)]);
  return { events, articles };
}

// =============================================================================================
// Dashboard

/** How many of the newest members of the whole tree are looked through for a downline's newest (see below). */
const JOININGS_WALK = 500;

/**
 * Newest members of the member's placement downline, as the JSON text of the answer's items, comma-separated
 * (null when there are none). `id`: the member's; `from`, `to`: the range of the downline's paths (below).
 *
 * The newest `JOININGS_WALK` members of the whole tree are read from the join-date index and those of the
 * downline kept: when that finds `limit` of them they are the downline's newest (the walk goes in join
 * order), and a downline that is most of the tree (the company's top members) costs a handful of rows.
 * Otherwise — a small downline, or one whose members all joined long ago — the downline's own path range is
 * read and sorted (MATERIALIZED keeps the planner from walking the whole join-date index instead, which with
 * 100 000 members passed by tens of thousands of rows for a downline of ten). Either way the cost is bounded
 * by the walk or by the downline's size, never by the tree's.
 *
 * The database function recent_downline_joinings (migration 0045) does this with one plan kept for every
 * member: the downline is the range of paths from `from` (the member's path) up to `to` (its last character
 * raised, as prefixEnd in genealogy.ts writes it), a range of the path index whatever its values. Written into the
 * dashboard's statement, with the downline as a `LIKE` pattern, the plan kept for every member could only read all
 * members, and PostgreSQL planned the whole statement again on every call for most members (about 1 ms each, more
 * than its reads).
 */
function recentDownlineJoiningsJson(id: unknown, from: unknown, to: unknown, limit = RECENT_ITEMS) {
  return sql`recent_downline_joinings(${id}::int, ${from}::text, ${to}::text, ${JOININGS_WALK}::int, ${limit}::int)`;
}

/** The last month list written (the same for every call of a month): YYYY-MM of `months` months from `from`. */
let lastMonthKeys: { at: number; months: number; keys: string[] } | null = null;
function monthKeys(from: Date, months: number): string[] {
  const at = from.getTime();
  if (lastMonthKeys?.at !== at || lastMonthKeys.months !== months) {
    lastMonthKeys = { at, months, keys: Array.from({ length: months }, (_, k) => monthKey(monthStart(from, k))) };
  }
  return lastMonthKeys.keys;
}

/** Money into (credit) and out of (debit) the wallet per UTC month from the maintained monthly figures, oldest first. */
function walletHistory(rows: Array<[string, string, string]>, from: Date, months = HISTORY_MONTHS): { credit: MonthlyTotal[]; debit: MonthlyTotal[] } {
  const byMonth = new Map(rows.map(([m, credit, debit]) => [m, { credit, debit }]));
  const credit: MonthlyTotal[] = [];
  const debit: MonthlyTotal[] = [];
  for (const m of monthKeys(from, months)) {
    credit.push({ month: m, total: dec(byMonth.get(m)?.credit) });
    debit.push({ month: m, total: dec(byMonth.get(m)?.debit) });
  }
  return { credit, debit };
}

/**
 * The last RECRUITMENT_MONTHS months that have a target (the member's own, else the company's), from
 * the month the member joined up to the current month, oldest first, each with the personally
 * sponsored members who joined in it (months before joining were never the member's to miss).
 */
function recruitmentProgress(targets: Array<[string, number]>, sponsored: Array<[string, number]>, now: Date): RecruitmentProgress[] {
  const byMonth = new Map(sponsored.map(([m, n]) => [m, int(n)]));
  const at = now.getTime();
  const out: RecruitmentProgress[] = [];
  // Each month is the first day of one (YYYY-MM-DD, as the database writes a date): its days are worked out
  // from its numbers, without parsing or writing a date.
  for (let i = targets.length - 1; i >= 0; i--) {
    const [month, requiredCount] = targets[i];
    const key = month.slice(0, 7);
    const next = new Date(0).setUTCFullYear(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1);
    const lastDay = new Date(next - DAY).getUTCDate();
    const required = int(requiredCount);
    const got = byMonth.get(key) ?? 0;
    out.push({
      month: key,
      required_count: required,
      current_count: got,
      start_date: month,
      end_date: `${key}-${lastDay < 10 ? '0' : ''}${lastDay}`,
      status: got >= required ? 'achieved' : next <= at ? 'missed' : 'in_progress',
      progress: Math.min(100, Math.floor((got * 100) / required)),
    });
  }
  return out;
}

/** Does an active package rank above the member's? */
const hasHigherPackage = (all: PackageDbRow[], current: PackageDbRow | undefined) =>
  all.some((p) => p.status && (!current || int(p.sort_order) > int(current.sort_order)));

/** The wallet's list as asked with no query (newest first, no dates, no cursor): the same for every call. */
const NEWEST_FIRST = new ListQuery({});

/**
 * The newest wallet lines as the JSON text of the answer's items (Transaction, in the schema's order),
 * comma-separated: the page of the wallet's own list (`transactionPageSql`), written by the database.
 */
function recentTransactionsJson(memberId: number, limit = RECENT_ITEMS) {
  const order = NEWEST_FIRST;
  return sql`(SELECT string_agg(row_to_json(r)::text, ',' ORDER BY ${order.orderSql(sql`x.created_at`, sql`x.id`)})
    FROM (${transactionPageSql(memberId, order, { keys: [] }, limit)}) x,
    LATERAL (SELECT x.id, x.transaction_group, x.transaction_type, x.transaction_key, ltrim(x.amount, '-') AS amount,
                    CASE WHEN x.amount LIKE '-%' THEN 'credit' ELSE 'debit' END AS cash_flow,
                    ${isoUtc(sql`x.created_at`)} AS created_at, x.level, x.from_user, x.rank_name) r)`;
}

/** Values of the dashboard's statements given with each call (`sql.placeholder`), typed as the builders take them. */
const MEMBER = sql.placeholder('member') as unknown as number;
const FROM = sql.placeholder('from');
const CURRENT = sql.placeholder('current');

/**
 * Everything of the member's own the dashboard shows, in one statement written once: maintained figures, the
 * wallet's months since `from`, the member's own recruitment targets and sponsored members per month from the
 * month the member joined up to `current`, KYC, special member, the newest wallet lines and (`joinings`) the
 * newest members of the downline. The two lists come as the answer's JSON text, written by the database; the small
 * month lists as JSON, read here, in month order (the same text whatever order the rows are stored in). The member's
 * place, join date and downline size are read with them, in the same snapshot.
 */
const DASHBOARD_READ = fixedRead(sql`SELECT ${figuresColumns(MEMBER)},
          (SELECT json_agg(json_build_array(to_char(month, 'YYYY-MM'), credit::text, debit::text) ORDER BY month)::text FROM member_wallet_months
            WHERE member_id = me.id AND month >= ${FROM}::date) AS months,
          (SELECT json_agg(json_build_array(to_char(month, 'YYYY-MM-DD'), required_count) ORDER BY month)::text FROM recruitment_targets
            WHERE member_id = me.id AND month <= ${CURRENT}::date AND month >= me.joined) AS targets,
          (SELECT json_agg(json_build_array(to_char(month, 'YYYY-MM'), joined) ORDER BY month)::text FROM member_sponsor_months
            WHERE member_id = me.id AND month >= me.joined) AS sponsored,
          (SELECT status FROM member_kyc WHERE member_id = me.id) AS kyc,
          EXISTS (SELECT 1 FROM special_members WHERE member_id = me.id) AS special,
          ${recentTransactionsJson(MEMBER)} AS recent,
          -- A member with no downline (or the tree's root) has no joinings to look for.
          CASE WHEN me.path = '' OR me.downline_count = 0 THEN NULL
               ELSE ${recentDownlineJoiningsJson(sql`me.id`, sql`me.path`, sql`left(me.path, -1) || chr(ascii(right(me.path, 1)) + 1)`)} END AS joinings
        FROM (SELECT id, path, downline_count, date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS joined FROM members WHERE id = ${MEMBER}) me
        LEFT JOIN member_figures f ON f.member_id = me.id`);

/** The company's recruitment targets (member_id NULL), newest first (company-wide: cached until targets change, migration 0042). */
function companyTargets(db: Db, settings: SettingsService): Promise<Array<[string, number]>> {
  return settings.cached('recruitment-targets', async () =>
    (
      await rowsOf<{ month: string; required_count: number }>(
        db,
        sql`SELECT to_char(month, 'YYYY-MM-DD') AS month, required_count FROM recruitment_targets WHERE member_id IS NULL ORDER BY month DESC`,
      )
    ).map((r): [string, number] => [r.month, int(r.required_count)]),
  );
}

/**
 * The last RECRUITMENT_MONTHS months from `joined` to `current` (first days, YYYY-MM-DD) that have a target,
 * newest first: the member's own where there is one, else the company's.
 */
function targetMonths(company: Array<[string, number]>, own: Array<[string, number]>, joined: string, current: string): Array<[string, number]> {
  const byMonth = new Map<string, number>();
  for (const [month, n] of company) if (month >= joined && month <= current) byMonth.set(month, n);
  for (const [month, n] of own) byMonth.set(month, n);
  return [...byMonth].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)).slice(0, RECRUITMENT_MONTHS);
}

/** First day of a UTC month as YYYY-MM-DD. */
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The member's parts of the dashboard for the month of `now` (balance, total paid, total pending, total investment,
 * earnings, months, targets, sponsored, KYC, special, recent lines, joinings): as kept while they still count
 * (`kept`), else computed and kept.
 */
export async function memberDashboardParts(db: Db, memberId: number, now: Date): Promise<{ parts: unknown[]; kept: boolean }> {
  const current = day(monthStart(now));
  const { answer, kept } = await keptOr(db, memberId, 'home', current, async () => {
    const [row] = await fixedRows(db, DASHBOARD_READ, { member: memberId, current, from: day(monthStart(now, -(HISTORY_MONTHS - 1))) });
    return JSON.stringify(row ?? []);
  });
  return { parts: JSON.parse(answer) as unknown[], kept };
}

async function dashboardFigures(db: Db, m: MemberRow, now: Date) {
  const from = monthStart(now, -(HISTORY_MONTHS - 1));
  const current = day(monthStart(now));
  const joined = day(monthStart(m.createdAt));
  const { parts: r } = await memberDashboardParts(db, m.id, now);
  const [balance, totalPaid, totalPending, totalInvestment, earnings, months, targets, sponsored, kyc, special, recent, joinings] = r as Array<string | null>;
  return {
    figures: toFigures({ balance, total_paid: totalPaid, total_pending: totalPending, total_investment: totalInvestment, earnings }),
    history: walletHistory(jsonOf(months, []), from),
    /** The recruitment progress, given the company's targets. */
    recruitment: (company: Array<[string, number]>) => recruitmentProgress(targetMonths(company, jsonOf(targets, []), joined, current), jsonOf(sponsored, []), now),
    kyc: (kyc as KycStatus | null) ?? 'not_submitted',
    special: !!special,
    recentJson: `[${recent ?? ''}]`,
    joiningsJson: `[${joinings ?? ''}]`,
  };
}

/** Company-wide parts of the dashboard's answer as JSON text, written once per change (settings cache). */
const storyItemsJson = (db: Db, settings: SettingsService, kind: 'article' | 'video') =>
  settings.cached(`story-items-json:${kind}`, async () => JSON.stringify(await recentStories(db, settings, kind)));
const TRANSACTION_LABELS_JSON = JSON.stringify(TRANSACTION_LABELS);

/** Everything company-wide the dashboard shows, gathered once per change of the company's data (one cache look-up per call). */
function dashboardCompany(db: Db, settings: SettingsService) {
  return settings.cached('dashboard-company', async () => {
    const [modules, home, packages, ranks, articles, videos, targets] = await Promise.all([
      settings.get('modules') as Promise<Modules>,
      homeSettings(settings),
      packageRows(db, settings),
      rankRows(db, settings),
      storyItemsJson(db, settings, 'article'),
      storyItemsJson(db, settings, 'video'),
      companyTargets(db, settings),
    ]);
    return { affiliateProductsCategory: modules.product_category ? home.affiliate_products_category : null, packages, ranks, articles, videos, targets };
  });
}

/**
 * GET /api/home/dashboard's `data` as JSON text, in the schema's order: the member's own lists as the database
 * wrote them, the company-wide ones as written once, the rest written here — no answer object is built and
 * serialised again.
 */
export async function dashboardSummaryJson(db: Db, settings: SettingsService, m: MemberRow, now = new Date()): Promise<string> {
  const [{ affiliateProductsCategory, packages, ranks, articles, videos, targets }, mine] = await Promise.all([
    dashboardCompany(db, settings),
    dashboardFigures(db, m, now),
  ]);
  const pkg = packages.find((p) => int(p.id) === m.packageId);
  const rank = m.rankId ? ranks.find((r) => int(r.id) === m.rankId) : undefined;
  const { figures } = mine;
  const head: Omit<
    DashboardSummary,
    | 'recent_joinings'
    | 'recent_transactions'
    | 'recent_articles'
    | 'recent_videos'
    | 'transaction_labels'
    | 'affiliate_products_category'
    | 'credit_history'
    | 'debit_history'
    | 'total_investment'
    | 'total_return'
    | 'kyc_status'
    | 'recruitment_progress'
  > = {
    user_role: (m.roleId === 1 || m.roleId === 2 ? m.roleId : 3) as 1 | 2 | 3,
    account_type: m.accountType === 'merchant' ? 'merchant' : 'personal',
    is_linked: m.customerId !== null,
    is_special_member: mine.special,
    merchant_status: m.merchantStatus,
    merchant_email: m.accountType === 'merchant' ? m.email : null,
    member_email: m.email,
    wallet_balance: money.format(figures.balance),
    total_earnings: money.format(totalEarnings(figures)),
    total_paid: money.format(figures.totalPaid),
    pv: dec(m.pv),
    tv: dec(m.tv),
    cv: dec(m.cv),
    package_id: pkg ? int(pkg.id) : null,
    package_name: pkg?.name ?? null,
    package_amount: pkg ? dec(pkg.price) : null,
    package_bv: pkg ? dec(pkg.bv) : null,
    package_expiry: pkg ? isoOrNull(m.packageExpiry) : null,
    package_purchase_date: pkg ? isoOrNull(m.packagePurchaseDate) : null,
    rank_id: rank ? int(rank.id) : null,
    rank_name: rank?.name ?? null,
    rank_icon: rank?.icon ?? null,
    rank_bonus: rank ? dec(rank.bonus) : null,
    rank_achieved_date: rank ? isoOrNull(m.rankAchievedAt) : null,
    is_highest_package: !!pkg && !hasHigherPackage(packages, pkg),
  };
  const tail: Pick<
    DashboardSummary,
    'affiliate_products_category' | 'credit_history' | 'debit_history' | 'total_investment' | 'total_return' | 'kyc_status' | 'recruitment_progress'
  > = {
    affiliate_products_category: affiliateProductsCategory,
    credit_history: mine.history.credit,
    debit_history: mine.history.debit,
    total_investment: money.format(figures.totalInvestment),
    total_return: money.format(earningsOf(figures, 'roi_bonus')),
    kyc_status: mine.kyc,
    recruitment_progress: mine.recruitment(targets),
  };
  return `${JSON.stringify(head).slice(0, -1)},"recent_joinings":${mine.joiningsJson},"recent_transactions":${mine.recentJson},"recent_articles":${articles},"recent_videos":${videos},"transaction_labels":${TRANSACTION_LABELS_JSON},${JSON.stringify(tail).slice(1)}`;
}

export async function dashboardSummary(db: Db, settings: SettingsService, m: MemberRow, now = new Date()): Promise<DashboardSummary> {
  return JSON.parse(await dashboardSummaryJson(db, settings, m, now)) as DashboardSummary;
}

export async function dashboardExtra(db: Db, settings: SettingsService, m: MemberRow, now = new Date()): Promise<DashboardExtra> {
  const [home, kyc, events, articles] = await Promise.all([
    homeSettings(settings),
    kycStatus(db, m.id),
    upcomingEvents(db, settings, RECENT_STORIES, now),
    recentArticles(db, settings, RECENT_STORIES),
  ]);
  const merchant = m.accountType === 'merchant';
  return {
    account_type: merchant ? 'merchant' : 'personal',
    events,
    articles,
    pv: dec(m.pv),
    tv: dec(m.tv),
    kyc_status: kyc,
    referral_criteria_enabled: home.referral_criteria_enabled,
    referral_allowed: !merchant && (!home.referral_criteria_enabled || kyc === 'approved'),
  };
}

// =============================================================================================
// Packages

export async function packageData(db: Db, settings: SettingsService, m: MemberRow, now = new Date()): Promise<PackageData> {
  const [modules, all, rules, comp] = await Promise.all([
    settings.get('modules') as Promise<Modules>,
    packageRows(db, settings),
    planRules(settings),
    compensationSettings(settings),
  ]);
  const current = all.find((p) => int(p.id) === m.packageId);
  const base = { price: current ? money.parse(current.price) : 0n, bv: current ? money.parse(current.bv) : 0n };
  const active = all.filter((p) => p.status || p === current);
  const options: PackageOption[] = active.map((p) => {
    const higher = !current || int(p.sort_order) > int(current.sort_order);
    return {
      id: int(p.id),
      name: p.name,
      sku: p.sku,
      sort_order: int(p.sort_order),
      price: dec(p.price),
      bv: dec(p.bv),
      expiry: p.expiry_days === null ? null : int(p.expiry_days),
      image: p.image,
      description: p.description,
      max_levels: p.max_levels === null ? null : int(p.max_levels),
      direct_bonus: dec(p.direct_bonus),
      roi_bonus: dec(p.roi_bonus),
      price_difference: money.format(money.parse(p.price) - base.price),
      pv_difference: money.format(money.parse(p.bv) - base.bv),
      is_current: p === current,
      can_upgrade: modules.upgrade && !!current && p.status && higher,
    };
  });
  // The next higher package (inactive ones are not offered, so every option above the current one is active).
  const next = current ? options.find((o) => o.sort_order > int(current.sort_order)) : undefined;
  const expiry = current ? m.packageExpiry : null;
  return {
    package_status: !current ? 'none' : expiry && expiry.getTime() < now.getTime() ? 'expired' : 'active',
    direct_bonus: modules.direct_bonus,
    roi_bonus: modules.roi_bonus,
    direct_bonus_rate: current ? dec(current.direct_bonus) : dec('0'),
    roi_bonus_rate: current ? dec(current.roi_bonus) : dec('0'),
    unilevel_bonus: modules.unilevel_bonus,
    upgrade_status: modules.upgrade && !!current && hasHigherPackage(all, current),
    autoship_status: modules.autoship,
    price_difference: next ? next.price_difference : null,
    pv_difference: next ? next.pv_difference : null,
    current_package_id: current ? int(current.id) : null,
    current_package_expiry: isoOrNull(expiry),
    packages: options,
    plan: {
      compensation_plan: rules.plan,
      matrix_width: rules.plan === 'matrix' ? rules.width : null,
      matrix_depth: rules.plan === 'matrix' ? comp.matrix_depth : null,
      level_percents: rules.levelPercents.map((x) => money.normalize(x)),
    },
  };
}

// =============================================================================================
// Ranks

export async function ranksOf(db: Db, settings: SettingsService, m: MemberRow): Promise<Ranks> {
  const shape = await planShape(settings);
  const [ranks, achievements, figures] = await Promise.all([
    planRanks(db, settings, shape.plan),
    rowsOf<{ rank_id: number; achieved_at: string | Date }>(db, sql`SELECT rank_id, achieved_at FROM rank_achievements WHERE member_id = ${m.id}`),
    rankFigures(db, shape, [m.id]),
  ]);
  const have = figures.get(m.id)!.values;
  const achievedAt = new Map(achievements.map((r) => [int(r.rank_id), iso(r.achieved_at)]));
  // The member's rank may be one of another plan's (reached before the company changed plans): it is shown, with the plan's ranks above it.
  const current = m.rankId ? await rankById(db, settings, m.rankId) : undefined;
  const fallback = isoOrNull(m.rankAchievedAt);
  const achieved = current ? ranks.filter((r) => r.sortOrder <= current.sortOrder) : [];
  const higher = current ? ranks.filter((r) => r.sortOrder > current.sortOrder) : ranks;
  const keys = PLAN_CRITERIA[shape.plan].filter((k) => ranks.some((r) => r.requirements.some((q) => q.key === k)));
  for (const r of ranks) for (const q of r.requirements) if (!keys.includes(q.key)) keys.push(q.key);
  const required = (r: RankDefinition, key: RankCriterion) => r.requirements.find((q) => q.key === key)?.value ?? 0n;
  const spec = (r: RankDefinition) => ({
    referral_count: Number(required(r, 'referral_count') / money.fromInt(1)),
    pv: money.format(required(r, 'pv')),
    tv: money.format(required(r, 'tv')),
    requirements: r.requirements.map((q) => ({ key: q.key, value: money.format(q.value) })),
  });
  return {
    plan: shape.plan,
    criteria: { referral_count: keys.includes('referral_count'), pv: keys.includes('pv'), tv: keys.includes('tv') },
    criteria_keys: keys,
    current_rank: current
      ? { id: current.id, name: current.name, icon: current.icon, bonus: dec(current.bonus), achieved_at: achievedAt.get(current.id) ?? fallback }
      : null,
    rank_achievements: achieved.map((r) => ({
      id: r.id,
      name: r.name,
      icon: r.icon,
      bonus: dec(r.bonus),
      created_at: achievedAt.get(r.id) ?? fallback ?? iso(m.createdAt),
      ...spec(r),
    })),
    higher_ranks: higher.map((r) => ({ id: r.id, name: r.name, icon: r.icon, bonus: dec(r.bonus), ...spec(r) })),
    criteria_achieved: {
      referral_count: Number((have.get('referral_count') ?? 0n) / money.fromInt(1)),
      pv: dec(m.pv),
      tv: dec(m.tv),
      figures: keys.map((key) => ({ key, value: money.format(have.get(key) ?? 0n) })),
    },
  };
}

/** A rank by id, whichever plan it belongs to. */
async function rankById(db: Db, settings: SettingsService, id: number): Promise<RankDefinition | undefined> {
  const [r] = (await rankRows(db, settings)).filter((x) => int(x.id) === id);
  if (!r) return undefined;
  const shape = await planShape(settings);
  const own = (await planRanks(db, settings, shape.plan)).find((x) => x.id === id);
  return own ?? { id, name: r.name, icon: r.icon, sortOrder: int(r.sort_order), bonus: r.bonus, requirements: [] };
}

// =============================================================================================
// Binary summary

export async function binarySummary(db: Db, m: MemberRow): Promise<BinarySummary> {
  const [names] = await rowsOf<{ pf: string | null; pl: string | null; sf: string | null; sl: string | null; bonus: string | null }>(
    db,
    sql`SELECT p.first_name AS pf, p.last_name AS pl, s.first_name AS sf, s.last_name AS sl,
               (SELECT total::text FROM member_earning_totals WHERE member_id = ${m.id} AND bonus_type = 'binary_bonus') AS bonus
        FROM (SELECT 1) one
        LEFT JOIN members p ON p.id = ${m.parentId}
        LEFT JOIN members s ON s.id = ${m.sponsorId}`,
  );
  return {
    total_bonus: dec(names?.bonus),
    position: leg(m.position),
    total_left: dec(m.totalLeft),
    total_right: dec(m.totalRight),
    carry_left: dec(m.carryLeft),
    carry_right: dec(m.carryRight),
    left_downline_count: m.leftCount,
    right_downline_count: m.rightCount,
    default_leg: leg(m.defaultLeg),
    placement_first_name: names?.pf ?? null,
    placement_last_name: names?.pl ?? null,
    sponsor_first_name: names?.sf ?? null,
    sponsor_last_name: names?.sl ?? null,
  };
}

// =============================================================================================
// Notifications
//
// Orders and payouts are read state derived from their own tables: an item is unread when it changed
// (an order when it was placed, a payout at its last status change) after the member's mark for the
// kind and after the member's own read of that item. Messages carry their read_at.

/** Where each kind is read from: the table under the alias the selects use, and the column dating a change. */
const UNREAD_SOURCES = {
  order: { table: 'orders', alias: 'o', changedAt: 'created_at' },
  payout: { table: 'payout_requests', alias: 'p', changedAt: 'updated_at' },
} as const;

/** The member's items of a kind (FROM … WHERE), and the condition that one of them is unread. */
const itemsSql = (memberId: number, kind: keyof typeof UNREAD_SOURCES) => {
  const { table, alias } = UNREAD_SOURCES[kind];
  const item = sql.raw(alias);
  return sql`
  FROM ${sql.raw(`${table} ${alias}`)}
  LEFT JOIN notification_marks nm ON nm.member_id = ${item}.member_id AND nm.kind = ${sql.raw(`'${kind}'`)}
  WHERE ${item}.member_id = ${memberId}`;
};
const unreadCondition = (kind: keyof typeof UNREAD_SOURCES) => {
  const { alias, changedAt } = UNREAD_SOURCES[kind];
  const item = sql.raw(alias);
  const changed = sql.raw(`${alias}.${changedAt}`);
  return sql`((nm.read_before IS NULL OR ${changed} > nm.read_before)
    AND NOT EXISTS (SELECT 1 FROM notification_reads r
                    WHERE r.member_id = ${item}.member_id AND r.kind = ${sql.raw(`'${kind}'`)} AND r.ref_id = ${item}.id AND r.read_at >= ${changed}))`;
};
const unreadItemsSql = (memberId: number, kind: keyof typeof UNREAD_SOURCES) => sql`${itemsSql(memberId, kind)} AND ${unreadCondition(kind)}`;

const unreadOrdersSql = (memberId: number) => unreadItemsSql(memberId, 'order');
const unreadPayoutsSql = (memberId: number) => unreadItemsSql(memberId, 'payout');

const messagesSql = (memberId: number) => sql`
  FROM messages msg
  JOIN message_threads t ON t.id = msg.thread_id
  JOIN members s ON s.id = msg.sender_id
  WHERE msg.recipient_id = ${memberId}`;
const unreadMessagesSql = (memberId: number) => sql`${messagesSql(memberId)} AND msg.read_at IS NULL`;

const noticesSql = (memberId: number) => sql`FROM member_notices n WHERE n.member_id = ${memberId}`;
const unreadNoticesSql = (memberId: number) => sql`${noticesSql(memberId)} AND n.read_at IS NULL`;

export const payoutInvoiceNo = (id: number) => `PO-${String(id).padStart(6, '0')}`;

/**
 * The unread items of each kind, newest first; with `show: 'all'` the read ones too (the history), each
 * saying whether it is read.
 */
type OrderNoticeRow = { id: number; invoice_no: string; status: string; created_at: string | Date; total: string; package_name: string | null; read: boolean };
type PayoutNoticeRow = { id: number; status: number; updated_at: string | Date; amount: string; read: boolean };
type MessageNoticeRow = { id: number; thread_id: number; subject: string; body: string; created_at: string | Date; first_name: string; last_name: string | null; avatar: string | null; read: boolean };
type NoticeRow = { id: number; event: string; subject: string; body: string; link: string | null; created_at: string | Date; read: boolean };

const ORDER_NOTICE_COLUMNS = sql`o.id, o.invoice_no, o.status, o.created_at, o.total::text AS total, o.package_name`;
const PAYOUT_NOTICE_COLUMNS = sql`p.id, p.status, p.updated_at, p.amount::text AS amount`;
const MESSAGE_NOTICE_COLUMNS = sql`msg.id, msg.thread_id, t.subject, msg.body, msg.created_at, s.first_name, s.last_name, s.avatar, msg.read_at IS NOT NULL AS read`;
const NOTICE_COLUMNS = sql`n.id, n.event, n.subject, n.body, n.link, n.created_at, n.read_at IS NOT NULL AS read`;

const orderNotice = (o: OrderNoticeRow): OrderNotification => ({
  id: int(o.id),
  invoice_no: o.invoice_no,
  name: o.status,
  status_color: ORDER_STATUS_COLORS[o.status] ?? 'gray',
  updated_at: iso(o.created_at),
  total: dec(o.total),
  plan: o.package_name,
  read: !!o.read,
});
const payoutNotice = (p: PayoutNoticeRow): PayoutNotification => ({
  id: int(p.id),
  invoice_no: payoutInvoiceNo(int(p.id)),
  status_id: int(p.status),
  name: PAYOUT_STATUS_NAMES[int(p.status)] ?? 'pending',
  updated_at: iso(p.updated_at),
  total: dec(p.amount),
  read: !!p.read,
});
const messageNotice = (x: MessageNoticeRow): MessageNotification => ({
  id: int(x.id),
  thread_id: int(x.thread_id),
  subject: x.subject,
  body: htmlToText(x.body).slice(0, 300),
  updated_at: iso(x.created_at),
  first_name: x.first_name,
  last_name: x.last_name,
  avatar: x.avatar,
  read: !!x.read,
});
const notice = (n: NoticeRow): NoticeNotification => ({
  id: int(n.id),
  event: n.event,
  subject: n.subject,
  body: n.body,
  link: n.link,
  updated_at: iso(n.created_at),
  read: !!n.read,
});

/**
 * The unread items of each kind, newest first; with `show: 'all'` the read ones too (the history), each
 * saying whether it is read. At most NOTIFICATION_LIST_LIMIT of each: the whole history is paged by
 * `notificationHistoryRows`.
 */
export async function notifications(db: Db, memberId: number, show: 'unread' | 'all' = 'unread'): Promise<Notifications> {
  const all = show === 'all';
  const kindSql = (kind: keyof typeof UNREAD_SOURCES) =>
    all ? { read: sql`NOT ${unreadCondition(kind)} AS read`, from: itemsSql(memberId, kind) } : { read: sql`false AS read`, from: unreadItemsSql(memberId, kind) };
  const o = kindSql('order');
  const p = kindSql('payout');
  // The four lists in one round trip, each as one JSON array (newest first).
  const [r] = await rowsOf<{ orders: OrderNoticeRow[] | string | null; payouts: PayoutNoticeRow[] | string | null; messages: MessageNoticeRow[] | string | null; notices: NoticeRow[] | string | null }>(
    db,
    sql`SELECT
      (SELECT json_agg(x ORDER BY x.created_at DESC, x.id DESC)::text FROM (
         SELECT ${ORDER_NOTICE_COLUMNS}, ${o.read} ${o.from} ORDER BY o.created_at DESC, o.id DESC LIMIT ${NOTIFICATION_LIST_LIMIT}) x) AS orders,
      (SELECT json_agg(x ORDER BY x.updated_at DESC, x.id DESC)::text FROM (
         SELECT ${PAYOUT_NOTICE_COLUMNS}, ${p.read} ${p.from} ORDER BY p.updated_at DESC, p.id DESC LIMIT ${NOTIFICATION_LIST_LIMIT}) x) AS payouts,
      (SELECT json_agg(x ORDER BY x.created_at DESC, x.id DESC)::text FROM (
         SELECT ${MESSAGE_NOTICE_COLUMNS} ${all ? messagesSql(memberId) : unreadMessagesSql(memberId)}
         ORDER BY msg.created_at DESC, msg.id DESC LIMIT ${NOTIFICATION_LIST_LIMIT}) x) AS messages,
      (SELECT json_agg(x ORDER BY x.created_at DESC, x.id DESC)::text FROM (
         SELECT ${NOTICE_COLUMNS} ${all ? noticesSql(memberId) : unreadNoticesSql(memberId)}
         ORDER BY n.created_at DESC, n.id DESC LIMIT ${NOTIFICATION_LIST_LIMIT}) x) AS notices`,
  );
  return {
    notices: jsonOf<NoticeRow[]>(r?.notices, []).map(notice),
    orders: jsonOf<OrderNoticeRow[]>(r?.orders, []).map(orderNotice),
    payouts: jsonOf<PayoutNoticeRow[]>(r?.payouts, []).map(payoutNotice),
    messages: jsonOf<MessageNoticeRow[]>(r?.messages, []).map(messageNotice),
  };
}

const withKeys = <T extends { id: number; updated_at: string }>(item: T): Keyed<T> => ({ ...item, _at: new Date(item.updated_at), _id: item.id });

/**
 * GET /api/home/notifications/history/{tab}: the rows of one kind's whole history for `listEndpoint` —
 * every item of the signed-in member, read ones marked, newest first (by the time the list shows), after
 * the query's cursor.
 */
export const notificationHistoryRows = {
  orders: async (db: Db, member: MemberRow, q: ListQuery, _f: unknown, limit: number) =>
    (
      await rowsOf<OrderNoticeRow>(
        db,
        sql`SELECT ${ORDER_NOTICE_COLUMNS}, NOT ${unreadCondition('order')} AS read ${itemsSql(member.id, 'order')}
            AND ${q.afterCursorSql(sql`o.created_at`, sql`o.id`)} ORDER BY ${q.orderSql(sql`o.created_at`, sql`o.id`)} LIMIT ${limit}`,
      )
    ).map((r) => withKeys(orderNotice(r))),
  payouts: async (db: Db, member: MemberRow, q: ListQuery, _f: unknown, limit: number) =>
    (
      await rowsOf<PayoutNoticeRow>(
        db,
        sql`SELECT ${PAYOUT_NOTICE_COLUMNS}, NOT ${unreadCondition('payout')} AS read ${itemsSql(member.id, 'payout')}
            AND ${q.afterCursorSql(sql`p.updated_at`, sql`p.id`)} ORDER BY ${q.orderSql(sql`p.updated_at`, sql`p.id`)} LIMIT ${limit}`,
      )
    ).map((r) => withKeys(payoutNotice(r))),
  messages: async (db: Db, member: MemberRow, q: ListQuery, _f: unknown, limit: number) =>
    (
      await rowsOf<MessageNoticeRow>(
        db,
        sql`SELECT ${MESSAGE_NOTICE_COLUMNS} ${messagesSql(member.id)}
            AND ${q.afterCursorSql(sql`msg.created_at`, sql`msg.id`)} ORDER BY ${q.orderSql(sql`msg.created_at`, sql`msg.id`)} LIMIT ${limit}`,
      )
    ).map((r) => withKeys(messageNotice(r))),
  notices: async (db: Db, member: MemberRow, q: ListQuery, _f: unknown, limit: number) =>
    (
      await rowsOf<NoticeRow>(
        db,
        sql`SELECT ${NOTICE_COLUMNS} ${noticesSql(member.id)}
            AND ${q.afterCursorSql(sql`n.created_at`, sql`n.id`)} ORDER BY ${q.orderSql(sql`n.created_at`, sql`n.id`)} LIMIT ${limit}`,
      )
    ).map((r) => withKeys(notice(r))),
};

export async function notificationCounts(db: Db, memberId: number): Promise<NotificationCounts> {
  const [r] = await rowsOf<{ o: number; p: number; m: number; n: number }>(
    db,
    sql`SELECT (SELECT count(*)::int ${unreadOrdersSql(memberId)}) AS o,
               (SELECT count(*)::int ${unreadPayoutsSql(memberId)}) AS p,
               (SELECT count(*)::int ${unreadMessagesSql(memberId)}) AS m,
               (SELECT count(*)::int ${unreadNoticesSql(memberId)}) AS n`,
  );
  const o = int(r.o);
  const p = int(r.p);
  const m = int(r.m);
  const n = int(r.n);
  return { order_count: o, payout_count: p, message_count: m, notice_count: n, total_count: o + p + m + n };
}

/** Mark the given items of a kind read (only the member's own; others are ignored), or every item of it (ids with 'all' are refused). */
export async function markNotificationsRead(
  db: Db,
  memberId: number,
  kind: 'order' | 'payout' | 'message' | 'notice' | 'all',
  ids?: number[],
  now = new Date(),
): Promise<void> {
  if (kind === 'all' && ids) throw validationError({ ids: ['validation:invalid'] });
  const at = now.toISOString();
  await db.transaction(async (tx) => {
    for (const k of kind === 'all' ? (['order', 'payout', 'message', 'notice'] as const) : [kind]) {
      if (k === 'notice') {
        const only = ids ? sql`AND id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql``;
        await tx.execute(sql`UPDATE member_notices SET read_at = ${at}::timestamptz WHERE member_id = ${memberId} AND read_at IS NULL ${only}`);
        continue;
      }
      if (k === 'message') {
        const only = ids ? sql`AND id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})` : sql``;
        await tx.execute(sql`UPDATE messages SET read_at = ${at}::timestamptz WHERE recipient_id = ${memberId} AND read_at IS NULL ${only}`);
        continue;
      }
      const table = k === 'order' ? sql.raw('orders') : sql.raw('payout_requests');
      if (ids) {
        await tx.execute(
          sql`INSERT INTO notification_reads (member_id, kind, ref_id, read_at)
              SELECT ${memberId}, ${k}, x.id, ${at}::timestamptz FROM ${table} x
              WHERE x.member_id = ${memberId} AND x.id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})
              ON CONFLICT (member_id, kind, ref_id) DO UPDATE SET read_at = EXCLUDED.read_at`,
        );
      } else {
        // Everything there is now: up to this moment, or to the newest change if one is dated later.
        const changed = k === 'order' ? sql.raw('created_at') : sql.raw('updated_at');
        await tx.execute(
          sql`INSERT INTO notification_marks (member_id, kind, read_before)
              SELECT ${memberId}, ${k}, GREATEST(${at}::timestamptz, max(x.${changed})) FROM ${table} x WHERE x.member_id = ${memberId}
              ON CONFLICT (member_id, kind) DO UPDATE SET read_before = GREATEST(notification_marks.read_before, EXCLUDED.read_before)`,
        );
        await tx.execute(sql`DELETE FROM notification_reads WHERE member_id = ${memberId} AND kind = ${k} AND read_at <= ${at}::timestamptz`);
      }
    }
  });
}

/**
 * The loads of the member home (spec §3, §7 Home): one generic load machine (createLoadMachine) per
 * tab of /member/home, and the unread-notifications count shown as the menu badge.
 */
import { askedAheadAnswered } from '../api/client';
import { homeApi } from '../api/home';
import { whenIdle } from '../lib/idle';
import type { DashboardExtra, DashboardSummary, Promotions } from '../schemas/home.schema';
import { createLoadMachine } from './load.machine';

/**
 * What the dashboard tab shows first: the summary (the figures, the activity, recent stories). Its figures are
 * drawn as soon as it answers, without waiting for the rest.
 */
export interface DashboardFigures {
  summary: DashboardSummary;
}

/** What the dashboard shows next to the figures once it arrives: the extra data (referral rights, KYC) and the promotions. */
export interface DashboardMore {
  extra: DashboardExtra;
  promotions: Promotions;
}

/** Everything the dashboard tab shows. */
export type DashboardData = DashboardFigures & DashboardMore;

export async function loadDashboardFigures(): Promise<DashboardFigures> {
  return { summary: await homeApi.dashboard() };
}

export async function loadDashboardMore(): Promise<DashboardMore> {
  const [extra, promotions] = await Promise.all([homeApi.dashboardExtra(), homeApi.promotions()]);
  return { extra, promotions };
}

/** The dashboard page's own load (the summary); the view loads the rest beside it (homeDashboardMoreMachine). */
export const homeDashboardMachine = createLoadMachine('homeDashboard', loadDashboardFigures);
export const homeDashboardMoreMachine = createLoadMachine('homeDashboardMore', loadDashboardMore);
export const homeBinaryMachine = createLoadMachine('homeBinary', () => homeApi.binary());
export const homePackageMachine = createLoadMachine('homePackage', () => homeApi.packages());
export const homeRankMachine = createLoadMachine('homeRank', () => homeApi.ranks());
/**
 * The badge's count waits for the calls the landing page asked ahead (the dashboard's, right after sign-in) to
 * answer and for the page to be idle: it is not needed to draw the page, and going out beside those calls it
 * competed with them on the server and in the browser. On any other page nothing was asked ahead and it waits for
 * the first idle moment only.
 */
export async function loadNotificationCountAfterPage() {
  await askedAheadAnswered();
  await whenIdle();
  return homeApi.notificationsCount();
}

/** The notifications badge (GET /api/home/notifications_count), refreshed on navigation and focus. */
export const notificationCountMachine = createLoadMachine('notificationCount', loadNotificationCountAfterPage);

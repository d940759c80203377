/**
 * The loads of the member home (spec §3, §7 Home): one generic load machine (createLoadMachine) per
 * tab of /member/home, and the unread-notifications count shown as the menu badge.
 */
import { homeApi } from '../api/home';
import type { DashboardExtra, DashboardSummary, Promotions } from '../schemas/home.schema';
import { createLoadMachine } from './load.machine';

/** What the dashboard tab shows: the summary, the extra data (referral rights, KYC) and the promotions. */
export interface DashboardData {
  summary: DashboardSummary;
  extra: DashboardExtra;
  promotions: Promotions;
}

export async function loadDashboard(): Promise<DashboardData> {
  const [summary, extra, promotions] = await Promise.all([homeApi.dashboard(), homeApi.dashboardExtra(), homeApi.promotions()]);
  return { summary, extra, promotions };
}

export const homeDashboardMachine = createLoadMachine('homeDashboard', loadDashboard);
export const homeBinaryMachine = createLoadMachine('homeBinary', () => homeApi.binary());
export const homePackageMachine = createLoadMachine('homePackage', () => homeApi.packages());
export const homeRankMachine = createLoadMachine('homeRank', () => homeApi.ranks());
/** The notifications badge (GET /api/home/notifications_count), refreshed on navigation and focus. */
export const notificationCountMachine = createLoadMachine('notificationCount', () => homeApi.notificationsCount());

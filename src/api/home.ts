/** Home calls of spec §7 (all GET under /api/home), plus marking notifications read. */
import { get, put } from './client';
import { DASHBOARD_EXTRA_PATH, DASHBOARD_SUMMARY_PATH, PROMOTIONS_PATH } from './home-calls';
import {
  binarySummarySchema,
  dashboardExtraSchema,
  dashboardSummarySchema,
  homeDummySchema,
  NOTIFICATION_HISTORY,
  notificationCountsSchema,
  notificationsSchema,
  packageDataSchema,
  promotionsSchema,
  ranksSchema,
  type MarkNotificationsRead,
  type NotificationHistoryPage,
  type NotificationsTab,
  type NotificationsShow,
} from '../schemas/home.schema';

export const homeApi = {
  dashboard: () => get(dashboardSummarySchema, DASHBOARD_SUMMARY_PATH),
  dashboardExtra: () => get(dashboardExtraSchema, DASHBOARD_EXTRA_PATH),
  ranks: () => get(ranksSchema, '/api/home/ranks'),
  packages: () => get(packageDataSchema, '/api/home/packages'),
  promotions: () => get(promotionsSchema, PROMOTIONS_PATH),
  binary: () => get(binarySummarySchema, '/api/home/binary'),
  /** The unread items, or (`all`) the read ones too. */
  notifications: (show: NotificationsShow = 'unread') => get(notificationsSchema, '/api/home/notifications', show === 'all' ? { show } : undefined),
  /** One tab's whole history (read items too), a page after `cursor`. */
  notificationHistory: (tab: NotificationsTab, cursor?: string, signal?: AbortSignal): Promise<NotificationHistoryPage> =>
    get(NOTIFICATION_HISTORY[tab], `/api/home/notifications/history/${tab}`, cursor ? { cursor } : undefined, { signal }),
  notificationsCount: () => get(notificationCountsSchema, '/api/home/notifications_count'),
  dummy: () => get(homeDummySchema, '/api/home/dummy'),
  /** Mark the given items of a kind (or, without ids, all of them) read; answers the new counts. */
  markNotificationsRead: (body: MarkNotificationsRead) => put(notificationCountsSchema, '/api/home/notifications/read', body),
};

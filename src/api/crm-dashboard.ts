/**
 * The CRM's dashboard, analytics and the phone hub's counts (/api/crm/dashboard, /analytics, /counts), in
 * the member's time zone as the browser knows it.
 */
import { browserTimeZone } from '../lib/dates';
import { queryRecord } from '../lib/search-codec';
import {
  crmAnalyticsQuerySchema,
  crmAnalyticsSchema,
  crmCountsSchema,
  crmDashboardSchema,
  type CrmAnalyticsFilters,
} from '../schemas/crm-dashboard.schema';
import { get } from './client';

export const crmDashboardApi = {
  dashboard: () => get(crmDashboardSchema, '/api/crm/dashboard', { tz: browserTimeZone() }),
  analytics: (filters: CrmAnalyticsFilters) => get(crmAnalyticsSchema, '/api/crm/analytics', queryRecord(crmAnalyticsQuerySchema, { ...filters, tz: browserTimeZone() })),
  counts: () => get(crmCountsSchema, '/api/crm/counts'),
};

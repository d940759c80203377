/**
 * The CRM's dashboard (/member/crm/dashboard), analytics (/member/crm/dashboard/analytics: the period in the
 * URL, a new period is `load.refresh` with it) and the phone hub's counts (/member/crm/index): one load
 * machine each, from the factory.
 */
import { crmDashboardApi } from '../../api/crm-dashboard';
import type { CrmAnalytics, CrmAnalyticsFilters, CrmCounts, CrmDashboard } from '../../schemas/crm-dashboard.schema';
import { createLoadMachine } from '../load.machine';

export const crmDashboardMachine = createLoadMachine<CrmDashboard>('crmDashboard', () => crmDashboardApi.dashboard());
export const crmAnalyticsMachine = createLoadMachine<CrmAnalytics, CrmAnalyticsFilters>('crmAnalytics', (filters) => crmDashboardApi.analytics(filters ?? {}));
export const crmCountsMachine = createLoadMachine<CrmCounts>('crmCounts', () => crmDashboardApi.counts());

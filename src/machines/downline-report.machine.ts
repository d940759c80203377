/**
 * Network › downline report (spec §3, §4) on the one paged-list machine: page number and `after` come
 * from next_page_url; the filters (level, username, join-date sort) are the page's URL input.
 */
import { networkApi, nextPageOf } from '../api/network';
import type { ReportFilters } from '../lib/list-filters';
import type { ReportMember } from '../schemas/network.schema';
import { createPagedListMachine } from './paged-list.machine';

export const downlineReportMachine = createPagedListMachine<ReportMember, ReportFilters>('downlineReport', ({ filters, next }) =>
  networkApi
    .downlineReport('placement', { ...filters, page: next?.page, after: next?.after })
    .then((p) => ({ items: p.data, next: nextPageOf(p.next_page_url) })),
);

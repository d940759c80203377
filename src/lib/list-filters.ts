/**
 * Filters of the endless lists (wallet transactions, earnings, payouts, PV and binary history, orders)
 * kept in the page URL so a filtered list can be shared and survives a reload. The URL speaks the
 * list calls' own names (spec §7), with the chosen types under `type` whatever the list:
 *
 *   ?sort=asc&date_range=custom&start_date=2026-01-01&end_date=2026-01-31&type=bonus&type=payout_fee&cash_flow=credit
 *
 * Links written before (`range`, `from`, `to`, `flow`) still open the same list.
 *
 * The URL codec is built from listFilterSearchSchema (src/schemas/list-query.schema.ts) and applies the
 * list calls' rules leniently: `filtersFromSearch` accepts any query string (unknown or malformed values
 * are dropped, so a hand-edited link still opens the list); `filtersToSearch` writes only what differs
 * from the defaults. The to*Filters functions give the query of each list call.
 */
import {
  PAYOUT_STATUS_IDS,
  cashFlowApplies,
  customRangeComplete,
  downlineReportQuery,
  earningsTotalDatewiseQuery,
  isYmd,
  listFilterSearchSchema,
  payoutTransactionsQuery,
  type CashFlow,
  type DateRange,
  type ListFilterSearch,
  type ListQuery,
  type Sort,
} from '../schemas/list-query.schema';
import type { EarningFilters, PayoutFilters, TransactionFilters } from '../schemas/wallet.schema';
import type { HistoryFilters } from '../schemas/history.schema';
import type { OrderFilters } from '../schemas/orders.schema';
import type { SortOrder } from '../schemas/network.schema';
import { createSearchCodec, tolerantValue } from './search-codec';

export { isYmd, daysInRange, MAX_CHART_DAYS } from '../schemas/list-query.schema';

export interface ListFilterState {
  sort: Sort;
  /** Absent: all time. */
  range?: DateRange;
  /** yyyy-MM-dd, with range=custom. */
  from?: string;
  to?: string;
  /** Chosen types (transaction keys, bonus types, payout status ids, history types); empty: all. */
  types: string[];
  /** Credit or debit; only meaningful with exactly one transaction type. */
  flow?: CashFlow;
}

export const DEFAULT_FILTERS: ListFilterState = { sort: 'desc', types: [] };

/**
 * The list rules applied leniently: dates only with a custom range that names both (put in order),
 * cash_flow only with exactly one type. A custom range still waiting for its days stays chosen (the
 * URL keeps `date_range=custom`, so the day picker stays open after a reload); the list calls leave it
 * out until both days are there.
 */
function lenient(v: ListFilterSearch): ListFilterSearch {
  const out = { ...v };
  if (out.date_range !== 'custom' || !customRangeComplete(out)) {
    delete out.start_date;
    delete out.end_date;
  } else if (out.start_date! > out.end_date!) {
    [out.start_date, out.end_date] = [out.end_date, out.start_date];
  }
  if (out.cash_flow && !cashFlowApplies({ transaction_key: out.type })) delete out.cash_flow;
  return out;
}

const listSearch = createSearchCodec(listFilterSearchSchema, {
  defaults: { sort: 'desc' },
  aliases: { range: 'date_range', from: 'start_date', to: 'end_date', flow: 'cash_flow' },
  fields: ['sort', 'date_range', 'start_date', 'end_date', 'type', 'cash_flow'],
  normalize: lenient,
});

/** The state in the URL's (and the list calls') names. */
function toSearch(f: ListFilterState): ListFilterSearch {
  return lenient({
    sort: f.sort,
    date_range: f.range,
    ...(f.range === 'custom' && isYmd(f.from) && isYmd(f.to) ? { start_date: f.from, end_date: f.to } : {}),
    type: f.types,
    cash_flow: f.flow,
  });
}

export function filtersFromSearch(search: string): ListFilterState {
  const v = listSearch.parse(search);
  return {
    sort: v.sort ?? 'desc',
    ...(v.date_range ? { range: v.date_range } : {}),
    ...(v.start_date && v.end_date ? { from: v.start_date, to: v.end_date } : {}),
    types: v.type ?? [],
    ...(v.cash_flow ? { flow: v.cash_flow } : {}),
  };
}

export function filtersToSearch(f: ListFilterState): string {
  return listSearch.format(toSearch(f));
}

/** Two filter states select the same rows. */
export function sameFilters(a: ListFilterState, b: ListFilterState): boolean {
  return filtersToSearch(a) === filtersToSearch(b);
}

/** sort, date_range, start_date, end_date: the same names in the URL and in every list call. */
function common(f: ListFilterState): Omit<ListQuery, 'cursor' | 'limit'> {
  const { sort, date_range, start_date, end_date } = toSearch(f);
  const pending = date_range === 'custom' && !(start_date && end_date);
  return { sort: sort ?? 'desc', ...(date_range && !pending ? { date_range } : {}), ...(start_date && end_date ? { start_date, end_date } : {}) };
}

export function toTransactionFilters(f: ListFilterState): TransactionFilters {
  const { type, cash_flow } = toSearch(f);
  return { ...common(f), ...(type?.length ? { transaction_key: type } : {}), ...(cash_flow ? { cash_flow } : {}) };
}

export function toEarningFilters(f: ListFilterState): EarningFilters {
  return { ...common(f), ...(f.types.length ? { bonus_type: f.types } : {}) };
}

/** Only the status ids the payouts call accepts. */
export function toPayoutFilters(f: ListFilterState): PayoutFilters {
  const ids = tolerantValue(payoutTransactionsQuery.shape.payout_status, f.types) as Array<(typeof PAYOUT_STATUS_IDS)[number]> | undefined;
  return { ...common(f), ...(ids?.length ? { payout_status: ids } : {}) };
}

/** type goes only when exactly one is chosen (spec §7). */
export function toHistoryFilters(f: ListFilterState): HistoryFilters {
  return { ...common(f), ...(f.types.length === 1 ? { type: f.types[0] } : {}) };
}

export function toOrderFilters(f: ListFilterState): OrderFilters {
  return common(f);
}

// --- Earnings chart range ---------------------------------------------------------------------------

/** The chart range in the URL: the call's start_date and end_date (earlier links: from, to). */
const chartSearch = createSearchCodec(earningsTotalDatewiseQuery, {
  aliases: { from: 'start_date', to: 'end_date' },
  fields: ['start_date', 'end_date'],
  normalize: (v) => (v.start_date && v.end_date && v.start_date > v.end_date ? { start_date: v.end_date, end_date: v.start_date } : v),
});

/**
 * The earnings chart range of the URL (swapped when typed the wrong way round); null when absent,
 * malformed or longer than MAX_CHART_DAYS (the default range applies).
 */
export function chartRangeFromSearch(search: string): { from: string; to: string } | null {
  const v = chartSearch.parse(search);
  // Both days, within the length the call accepts.
  return v.start_date && v.end_date && earningsTotalDatewiseQuery.safeParse(v).success ? { from: v.start_date, to: v.end_date } : null;
}

export function chartRangeToSearch(range: { from: string; to: string } | null): string {
  return range ? chartSearch.format({ start_date: range.from, end_date: range.to }) : '';
}

// --- Downline report ----------------------------------------------------------------------------------

export interface ReportFilters {
  username?: string;
  level?: number;
  sort: SortOrder;
}

const reportSearch = createSearchCodec(downlineReportQuery, { defaults: { sort: 'desc' }, fields: ['username', 'level', 'sort'] });

/** Downline report filters from a query string (unknown or invalid values dropped; sort defaults to newest first). */
export function reportFiltersFrom(search: string): ReportFilters {
  const { username, level, sort } = reportSearch.parse(search);
  return { sort: sort ?? 'desc', ...(level ? { level } : {}), ...(username ? { username } : {}) };
}

export function reportFiltersQuery(f: ReportFilters): string {
  return reportSearch.format(f);
}

/**
 * Filters of the endless lists (wallet transactions, earnings, payouts, PV and binary history, orders)
 * kept in the page URL so a filtered list can be shared and survives a reload:
 *
 *   ?sort=asc&range=custom&from=2026-01-01&to=2026-01-31&type=bonus&type=payout_fee&flow=credit
 *
 * `filtersFromSearch` accepts any query string (unknown or malformed values are dropped, so a hand-edited
 * link still opens the list); `filtersToSearch` writes only what differs from the defaults.
 * The to*Filters functions turn them into the query of each list call (spec §7).
 */
import { CASH_FLOWS, DATE_RANGES, type CashFlow, type DateRange, type EarningFilters, type PayoutFilters, type Sort, type TransactionFilters } from '../schemas/wallet.schema';
import type { HistoryFilters } from '../schemas/history.schema';
import type { OrderFilters } from '../schemas/orders.schema';

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

const YMD = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar day in yyyy-MM-dd. */
export function isYmd(value: string | null | undefined): value is string {
  if (!value || !YMD.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function filtersFromSearch(search: string): ListFilterState {
  const q = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const out: ListFilterState = { sort: q.get('sort') === 'asc' ? 'asc' : 'desc', types: [] };
  const range = q.get('range');
  if (range && (DATE_RANGES as readonly string[]).includes(range)) {
    if (range === 'custom') {
      const from = q.get('from');
      const to = q.get('to');
      if (isYmd(from) && isYmd(to)) {
        out.range = 'custom';
        // A range typed the wrong way round still means the days between the two dates.
        [out.from, out.to] = from <= to ? [from, to] : [to, from];
      }
    } else {
      out.range = range as DateRange;
    }
  }
  const types = q.getAll('type').map((t) => t.trim()).filter((t) => t !== '' && t.length <= 64);
  out.types = [...new Set(types)];
  const flow = q.get('flow');
  if (flow && (CASH_FLOWS as readonly string[]).includes(flow) && out.types.length === 1) out.flow = flow as CashFlow;
  return out;
}

export function filtersToSearch(f: ListFilterState): string {
  const q = new URLSearchParams();
  if (f.sort === 'asc') q.set('sort', 'asc');
  if (f.range === 'custom') {
    if (isYmd(f.from) && isYmd(f.to)) {
      q.set('range', 'custom');
      q.set('from', f.from);
      q.set('to', f.to);
    }
  } else if (f.range) {
    q.set('range', f.range);
  }
  for (const t of f.types) q.append('type', t);
  if (f.flow && f.types.length === 1) q.set('flow', f.flow);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Two filter states select the same rows. */
export function sameFilters(a: ListFilterState, b: ListFilterState): boolean {
  return filtersToSearch(a) === filtersToSearch(b);
}

function common(f: ListFilterState) {
  const out: { sort: Sort; date_range?: DateRange; start_date?: string; end_date?: string } = { sort: f.sort };
  if (f.range) {
    out.date_range = f.range;
    if (f.range === 'custom') {
      out.start_date = f.from;
      out.end_date = f.to;
    }
  }
  return out;
}

export function toTransactionFilters(f: ListFilterState): TransactionFilters {
  return {
    ...common(f),
    ...(f.types.length ? { transaction_key: f.types } : {}),
    ...(f.flow && f.types.length === 1 ? { cash_flow: f.flow } : {}),
  };
}

export function toEarningFilters(f: ListFilterState): EarningFilters {
  return { ...common(f), ...(f.types.length ? { bonus_type: f.types } : {}) };
}

export function toPayoutFilters(f: ListFilterState): PayoutFilters {
  const ids = f.types.map(Number).filter((n): n is 1 | 2 | 3 | 4 => n === 1 || n === 2 || n === 3 || n === 4);
  return { ...common(f), ...(ids.length ? { payout_status: ids } : {}) };
}

/** type goes only when exactly one is chosen (spec §7). */
export function toHistoryFilters(f: ListFilterState): HistoryFilters {
  return { ...common(f), ...(f.types.length === 1 ? { type: f.types[0] } : {}) };
}

export function toOrderFilters(f: ListFilterState): OrderFilters {
  return common(f);
}

/** Longest earnings chart range the server accepts, in days (both ends included). */
export const MAX_CHART_DAYS = 366;

/** Days from `from` to `to`, both included. */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * The earnings chart range of `?from=yyyy-MM-dd&to=yyyy-MM-dd` (swapped when typed the wrong way round);
 * null when absent, malformed or longer than MAX_CHART_DAYS (the default range applies).
 */
export function chartRangeFromSearch(search: string): { from: string; to: string } | null {
  const q = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const a = q.get('from');
  const b = q.get('to');
  if (!isYmd(a) || !isYmd(b)) return null;
  const [from, to] = a <= b ? [a, b] : [b, a];
  return daysInRange(from, to) <= MAX_CHART_DAYS ? { from, to } : null;
}

export function chartRangeToSearch(range: { from: string; to: string } | null): string {
  return range ? `?from=${range.from}&to=${range.to}` : '';
}

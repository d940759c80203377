/** Wallet and payout calls of spec §7. Lists are cursor-paged: pass `cursor` from the previous next_page_url. */
import { download, get, post, type Query } from './client';
import {
  earningsOverviewSchema,
  earningsPageSchema,
  earningsTotalDatewiseSchema,
  payoutRequestResultSchema,
  payoutSettingsSchema,
  payoutStatementSchema,
  payoutTransactionsPageSchema,
  transactionsPageSchema,
  walletSummarySchema,
  type EarningFilters,
  type ListFilters,
  type PayoutFilters,
  type PayoutRequestBody,
  type TransactionFilters,
} from '../schemas/wallet.schema';

/** The cursor query parameter of a next_page_url (spec §4), or null at the end of a list. */
export function cursorOf(nextPageUrl: string | null | undefined): string | null {
  if (!nextPageUrl) return null;
  const q = nextPageUrl.includes('?') ? nextPageUrl.slice(nextPageUrl.indexOf('?') + 1) : '';
  return new URLSearchParams(q).get('cursor');
}

/** Filters → query: list values as `name[0]`, `name[1]`…, empty values left out. */
export function listQuery(filters: ListFilters & Record<string, unknown>): Query {
  const out: Query = {};
  for (const [k, v] of Object.entries(filters)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x, i) => (out[`${k}[${i}]`] = String(x)));
    else out[k] = v as string | number;
  }
  return out;
}

/** cash_flow goes only with exactly one transaction type (spec §7). */
function transactionQuery(f: TransactionFilters): Query {
  const { cash_flow, ...rest } = f;
  return listQuery({ ...rest, ...(cash_flow && f.transaction_key?.length === 1 ? { cash_flow } : {}) });
}

export const walletApi = {
  statement: () => get(walletSummarySchema, '/api/wallet/statement'),
  earnings: () => get(earningsOverviewSchema, '/api/wallet/earnings'),
  /** Dates yyyy-MM-dd (spec §5). */
  earningsTotalDatewise: (startDate: string, endDate: string) =>
    get(earningsTotalDatewiseSchema, '/api/wallet/earnings_total_datewise', { start_date: startDate, end_date: endDate }),
  transactions: (f: TransactionFilters = {}) => get(transactionsPageSchema, '/api/wallet/transactions', transactionQuery(f)),
  downloadTransactions: (f: TransactionFilters = {}) => download('/api/wallet/transactions/export', transactionQuery({ ...f, cursor: undefined })),
  recentEarnings: (f: EarningFilters = {}) => get(earningsPageSchema, '/api/wallet/recent_earnings', listQuery({ ...f })),
  downloadRecentEarnings: (f: EarningFilters = {}) => download('/api/wallet/recent_earnings/export', listQuery({ ...f, cursor: undefined })),
};

export const payoutApi = {
  settings: () => get(payoutSettingsSchema, '/api/payout/settings'),
  /**
   * `idempotencyKey`: one UUID per submission (crypto.randomUUID()), the same on every retry of that
   * submission, so a retried request never pays out twice.
   */
  requestPayout: (body: PayoutRequestBody, idempotencyKey: string) =>
    post(payoutRequestResultSchema, '/api/payout/request_payout', body, { headers: { 'Idempotency-Key': idempotencyKey } }),
  statement: (interval?: 'day' | 'week' | 'month' | 'year') => get(payoutStatementSchema, '/api/payout/statement', { interval }),
  transactions: (f: PayoutFilters = {}) => get(payoutTransactionsPageSchema, '/api/payout/transactions', payoutQuery(f)),
  downloadTransactions: (f: PayoutFilters = {}) => download('/api/payout/transactions/export', payoutQuery({ ...f, cursor: undefined })),
};

/** payout_status[] carries the status ids as strings (spec §7). */
function payoutQuery(f: PayoutFilters): Query {
  const { payout_status, ...rest } = f;
  const q = listQuery({ ...rest });
  if (payout_status?.length) q['payout_status[]'] = payout_status.map(String);
  return q;
}

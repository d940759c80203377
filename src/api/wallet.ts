/** Wallet and payout calls of spec §7. Lists are cursor-paged: pass `cursor` from the previous next_page_url. */
import { get, post } from './client';
import { download } from './download';
import { queryRecord } from '../lib/search-codec';
import { cashFlowApplies, type PAYOUT_INTERVALS } from '../schemas/list-query.schema';
import {
  earningsOverviewSchema,
  earningsPageSchema,
  earningsTotalDatewiseSchema,
  payoutCancelResultSchema,
  payoutRequestResultSchema,
  payoutSettingsSchema,
  payoutStatementSchema,
  payoutTransactionsPageSchema,
  transactionsPageSchema,
  walletSummarySchema,
  earningsTotalDatewiseQuerySchema,
  payoutStatementQuerySchema,
  payoutTransactionsQuerySchema,
  recentEarningsQuerySchema,
  transactionsQuerySchema,
  type EarningFilters,
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

/** cash_flow goes only with exactly one transaction type (spec §7). */
const transactionQuery = (f: TransactionFilters) => queryRecord(transactionsQuerySchema, cashFlowApplies(f) ? f : { ...f, cash_flow: undefined });

export const walletApi = {
  statement: () => get(walletSummarySchema, '/api/wallet/statement'),
  earnings: () => get(earningsOverviewSchema, '/api/wallet/earnings'),
  /** Dates yyyy-MM-dd (spec §5). */
  earningsTotalDatewise: (startDate: string, endDate: string) =>
    get(earningsTotalDatewiseSchema, '/api/wallet/earnings_total_datewise', queryRecord(earningsTotalDatewiseQuerySchema, { start_date: startDate, end_date: endDate })),
  transactions: (f: TransactionFilters = {}) => get(transactionsPageSchema, '/api/wallet/transactions', transactionQuery(f)),
  downloadTransactions: (f: TransactionFilters = {}) => download('/api/wallet/transactions/export', transactionQuery({ ...f, cursor: undefined })),
  recentEarnings: (f: EarningFilters = {}) => get(earningsPageSchema, '/api/wallet/recent_earnings', queryRecord(recentEarningsQuerySchema, f)),
  downloadRecentEarnings: (f: EarningFilters = {}) =>
    download('/api/wallet/recent_earnings/export', queryRecord(recentEarningsQuerySchema, { ...f, cursor: undefined })),
};

export const payoutApi = {
  settings: () => get(payoutSettingsSchema, '/api/payout/settings'),
  /**
   * `idempotencyKey`: one UUID per submission (crypto.randomUUID()), the same on every retry of that
   * submission, so a retried request never pays out twice.
   */
  requestPayout: (body: PayoutRequestBody, idempotencyKey: string) =>
    post(payoutRequestResultSchema, '/api/payout/request_payout', body, { headers: { 'Idempotency-Key': idempotencyKey } }),
  /** Withdraw one of the member's own pending requests (the amount and fee go back to the wallet). */
  cancel: (id: number) => post(payoutCancelResultSchema, `/api/payout/requests/${id}/cancel`, {}),
  statement: (interval?: (typeof PAYOUT_INTERVALS)[number]) => get(payoutStatementSchema, '/api/payout/statement', queryRecord(payoutStatementQuerySchema, { interval })),
  transactions: (f: PayoutFilters = {}) => get(payoutTransactionsPageSchema, '/api/payout/transactions', queryRecord(payoutTransactionsQuerySchema, f)),
  downloadTransactions: (f: PayoutFilters = {}) =>
    download('/api/payout/transactions/export', queryRecord(payoutTransactionsQuerySchema, { ...f, cursor: undefined })),
};

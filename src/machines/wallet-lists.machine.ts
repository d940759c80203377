/**
 * The endless lists of the wallet area and of the member's volume and order histories, each a paged
 * list (paged-list.machine.ts) over its cursor-paged call. Input filters are the URL filters
 * (src/lib/list-filters.ts); each list turns them into its own query. Page metadata (labels and the
 * filter options the server offers) is kept as `meta`.
 */
import { walletApi, payoutApi } from '../api/wallet';
import { historyApi } from '../api/history';
import { ordersApi } from '../api/orders';
import {
  toEarningFilters,
  toHistoryFilters,
  toOrderFilters,
  toPayoutFilters,
  toTransactionFilters,
  type ListFilterState,
} from '../lib/list-filters';
import type { Earning, PayoutTransaction, Transaction } from '../schemas/wallet.schema';
import type { BinaryHistoryEntry, PvHistoryEntry } from '../schemas/history.schema';
import type { OrderSummary } from '../schemas/orders.schema';
import { createPagedListMachine, nextFromUrl } from './paged-list.machine';

/** Options and labels of a list's type filter. */
export interface ListMeta {
  types: string[];
  labels: Record<string, string>;
}

const NO_META: ListMeta = { types: [], labels: {} };

export const transactionsListMachine = createPagedListMachine<Transaction, ListFilterState, ListMeta>(
  'transactionsList',
  async ({ filters, next }) => {
    const p = await walletApi.transactions({ ...toTransactionFilters(filters), cursor: next?.cursor });
    return { items: p.items, next: nextFromUrl(p.next_page_url), meta: { types: p.transaction_keys, labels: p.transaction_labels } };
  },
);

export const recentEarningsListMachine = createPagedListMachine<Earning, ListFilterState, ListMeta>(
  'recentEarningsList',
  async ({ filters, next }) => {
    const p = await walletApi.recentEarnings({ ...toEarningFilters(filters), cursor: next?.cursor });
    return { items: p.items, next: nextFromUrl(p.next_page_url), meta: { types: p.bonus_types, labels: p.bonus_labels } };
  },
);

export const recentPayoutsListMachine = createPagedListMachine<PayoutTransaction, ListFilterState, ListMeta>(
  'recentPayoutsList',
  async ({ filters, next }) => {
    const p = await payoutApi.transactions({ ...toPayoutFilters(filters), cursor: next?.cursor });
    return { items: p.items, next: nextFromUrl(p.next_page_url), meta: NO_META };
  },
);

export const pvHistoryListMachine = createPagedListMachine<PvHistoryEntry, ListFilterState, ListMeta>(
  'pvHistoryList',
  async ({ filters, next }) => {
    const p = await historyApi.pvHistory({ ...toHistoryFilters(filters), cursor: next?.cursor });
    return { items: p.items, next: nextFromUrl(p.next_page_url), meta: { types: p.types, labels: p.type_labels } };
  },
);

export const binaryHistoryListMachine = createPagedListMachine<BinaryHistoryEntry, ListFilterState, ListMeta>(
  'binaryHistoryList',
  async ({ filters, next }) => {
    const p = await historyApi.binaryHistory({ ...toHistoryFilters(filters), cursor: next?.cursor });
    return { items: p.items, next: nextFromUrl(p.next_page_url), meta: { types: p.types, labels: p.type_labels } };
  },
);

export const ordersListMachine = createPagedListMachine<OrderSummary, ListFilterState, ListMeta>(
  'ordersList',
  async ({ filters, next }) => {
    const p = await ordersApi.recentOrders({ ...toOrderFilters(filters), cursor: next?.cursor });
    return { items: p.items, next: nextFromUrl(p.next_page_url), meta: NO_META };
  },
);

/** CSV of each list for the chosen filters (the server's export endpoints). */
export const listDownloads = {
  transactions: (f: ListFilterState) => walletApi.downloadTransactions(toTransactionFilters(f)),
  recentEarnings: (f: ListFilterState) => walletApi.downloadRecentEarnings(toEarningFilters(f)),
  recentPayouts: (f: ListFilterState) => payoutApi.downloadTransactions(toPayoutFilters(f)),
  pvHistory: (f: ListFilterState) => historyApi.downloadPvHistory(toHistoryFilters(f)),
  binaryHistory: (f: ListFilterState) => historyApi.downloadBinaryHistory(toHistoryFilters(f)),
  orders: (f: ListFilterState) => ordersApi.downloadRecentOrders(toOrderFilters(f)),
} as const;

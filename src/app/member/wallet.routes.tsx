/**
 * Routes of the member wallet area (rendered inside the member shell's Switch, paths relative to
 * /member): the wallet tabs, its endless lists, the payout request, PV and binary history, and orders.
 * List filters live in the URL query (src/lib/list-filters.ts): the filter bar writes the URL and the
 * list actor follows it, so a filtered list is shareable and survives a reload.
 */
import { useEffect, useMemo, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, useLocation, useParams, useSearch } from 'wouter';
import type { AnyStateMachine } from 'xstate';
import { chartRangeFromSearch, chartRangeToSearch, filtersFromSearch, filtersToSearch, sameFilters, type ListFilterState } from '../../lib/list-filters';
import { showToast } from '../../lib/toast';
import { DEFAULT_DATE_FORMAT } from '../../lib/dates';
import { DEFAULT_CURRENCY } from '../../schemas/common.schema';
import {
  binaryHistoryListMachine,
  listDownloads,
  ordersListMachine,
  pvHistoryListMachine,
  recentEarningsListMachine,
  recentPayoutsListMachine,
  transactionsListMachine,
} from '../../machines/wallet-lists.machine';
import { earningsOverviewMachine, earningsRangeMachine, payoutStatementMachine, walletStatementMachine, type EarningsRange } from '../../machines/wallet-pages.machine';
import { payoutRequestMachine } from '../../machines/payout-request.machine';
import { orderDetailMachine } from '../../machines/order-detail.machine';
import { ListFormatProvider } from '../../views/components/paged-list/list-format';
import type { ChartRange } from '../../views/wallet/wallet.view';
import { lazyView } from '../lazy-view';
import '../../views/components/paged-list/member-list-css';
import { useSession } from '../session-context';
import { usePageActor } from './page-actor';

// The wallet screens (date pickers, virtual lists, charts) load when a wallet page is opened, not with the shell.
const wallet = () => import('../../views/wallet/wallet.view');
const lists = () => import('../../views/wallet/wallet-lists.view');
const history = () => import('../../views/history/history-lists.view');
const orders = () => import('../../views/orders/orders.view');
const WalletTabs = lazyView(() => wallet().then((m) => m.WalletTabs));
const StatementTab = lazyView(() => wallet().then((m) => m.StatementTab));
const EarningTab = lazyView(() => wallet().then((m) => m.EarningTab));
const PayoutTab = lazyView(() => wallet().then((m) => m.PayoutTab));
const TransactionsListView = lazyView(() => lists().then((m) => m.TransactionsListView));
const RecentEarningsListView = lazyView(() => lists().then((m) => m.RecentEarningsListView));
const RecentPayoutsListView = lazyView(() => lists().then((m) => m.RecentPayoutsListView));
const BinaryHistoryView = lazyView(() => history().then((m) => m.BinaryHistoryView));
const PvHistoryView = lazyView(() => history().then((m) => m.PvHistoryView));
const OrdersListView = lazyView(() => orders().then((m) => m.OrdersListView));
const OrderDetailView = lazyView(() => orders().then((m) => m.OrderDetailView));
const PayoutRequestView = lazyView(() => import('../../views/wallet/payout-request.view').then((m) => m.PayoutRequestView));

function Format({ children }: { children: ReactNode }) {
  const { moduleData } = useSession();
  const { i18n } = useTranslation();
  const value = useMemo(
    () => ({
      currency: moduleData?.default_currency ?? DEFAULT_CURRENCY,
      dateFormat: moduleData?.date_format || DEFAULT_DATE_FORMAT,
      language: i18n.resolvedLanguage ?? i18n.language ?? 'en',
    }),
    [moduleData, i18n.resolvedLanguage, i18n.language],
  );
  return <ListFormatProvider value={value}>{children}</ListFormatProvider>;
}

type ListViewComponent = ComponentType<{ actor: never; onFilters: (f: ListFilterState) => void; onDownload?: () => void }>;

function ListRoute({ pageKey, machine, View, download }: { pageKey: string; machine: AnyStateMachine; View: ListViewComponent; download: (f: ListFilterState) => Promise<unknown> }) {
  const { t } = useTranslation('wallet');
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const actor = usePageActor(pageKey, machine, { filters } as never);
  // The URL is the source of the filters: a change (filter bar, Back, a pasted link) reloads the list.
  useEffect(() => {
    const current = (actor.getSnapshot() as { context: { filters: ListFilterState } }).context.filters;
    if (!sameFilters(current, filters)) actor.send({ type: 'list.setFilters', filters } as never);
  }, [actor, filters]);
  const onFilters = (f: ListFilterState) => navigate(location + filtersToSearch(f), { replace: true });
  const onDownload = () => {
    download(filters).catch(() => showToast({ kind: 'error', message: t('filters.downloadFailed') }));
  };
  return (
    <Format>
      <View actor={actor as never} onFilters={onFilters} onDownload={onDownload} />
    </Format>
  );
}

/** A tab's figures: a page restored from an earlier visit is refreshed (the balance may have moved). */
function useFreshLoad(key: string, machine: AnyStateMachine) {
  const actor = usePageActor(key, machine, {} as never);
  useEffect(() => {
    if ((actor.getSnapshot() as { value: unknown }).value !== 'loading') actor.send({ type: 'load.refresh' } as never);
  }, [actor]);
  return actor;
}

function StatementRoute() {
  const actor = useFreshLoad('wallet.statement', walletStatementMachine);
  return (
    <Format>
      <WalletTabs tab="statement">
        <StatementTab actor={actor as never} />
      </WalletTabs>
    </Format>
  );
}

function EarningRoute() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const range = useMemo(() => chartRangeFromSearch(search), [search]);
  const actor = useFreshLoad('wallet.earning', earningsOverviewMachine);
  const params: EarningsRange = range ?? {};
  const rangeActor = usePageActor('wallet.earningRange', earningsRangeMachine, { params });
  // The range in the URL is the source: a change (picker, Back, a pasted link) loads its figures;
  // a page restored from an earlier visit is refreshed.
  useEffect(() => {
    const snap = rangeActor.getSnapshot();
    const current = (snap.context.params ?? {}) as EarningsRange;
    if (snap.value === 'loading' && current.from === params.from && current.to === params.to) return;
    rangeActor.send({ type: 'load.refresh', params });
  }, [rangeActor, range]);
  const onRange = (r: ChartRange | null) => navigate(location + chartRangeToSearch(r), { replace: true });
  return (
    <Format>
      <WalletTabs tab="earning">
        <EarningTab actor={actor as never} rangeActor={rangeActor} range={range} onRange={onRange} />
      </WalletTabs>
    </Format>
  );
}

function PayoutTabRoute() {
  const actor = useFreshLoad('wallet.payout', payoutStatementMachine);
  return (
    <Format>
      <WalletTabs tab="payout">
        <PayoutTab actor={actor as never} />
      </WalletTabs>
    </Format>
  );
}

function RequestPayoutRoute() {
  const { t } = useTranslation(['payout']);
  const logic = useMemo(
    () =>
      payoutRequestMachine.provide({
        actions: {
          notify: (_, params) => showToast({ kind: params.kind, message: t(params.key, params.values) }),
        },
      }),
    [t],
  );
  const actor = usePageActor('wallet.requestPayout', logic);
  return (
    <Format>
      <PayoutRequestView actor={actor} />
    </Format>
  );
}

function OrderRoute() {
  const { id } = useParams<{ id: string }>();
  const orderId = Number(id);
  const actor = usePageActor(`order:${id}`, orderDetailMachine, { params: Number.isInteger(orderId) && orderId > 0 ? orderId : -1 });
  return (
    <Format>
      <OrderDetailView actor={actor} />
    </Format>
  );
}

export const walletRoutes: ReactElement[] = [
  <Route key="wallet-transactions" path="/wallet/transactions">
    <ListRoute pageKey="wallet.transactions" machine={transactionsListMachine} View={TransactionsListView as ListViewComponent} download={listDownloads.transactions} />
  </Route>,
  <Route key="wallet-recent-earnings" path="/wallet/recent-earnings">
    <ListRoute pageKey="wallet.recentEarnings" machine={recentEarningsListMachine} View={RecentEarningsListView as ListViewComponent} download={listDownloads.recentEarnings} />
  </Route>,
  <Route key="wallet-recent-payouts" path="/wallet/recent-payouts">
    <ListRoute pageKey="wallet.recentPayouts" machine={recentPayoutsListMachine} View={RecentPayoutsListView as ListViewComponent} download={listDownloads.recentPayouts} />
  </Route>,
  <Route key="wallet-request-payout" path="/wallet/request-payout">
    <RequestPayoutRoute />
  </Route>,
  <Route key="wallet-statement" path="/wallet/statement">
    <StatementRoute />
  </Route>,
  <Route key="wallet-earning" path="/wallet/earning">
    <EarningRoute />
  </Route>,
  <Route key="wallet-payout" path="/wallet/payout">
    <PayoutTabRoute />
  </Route>,
  <Route key="wallet" path="/wallet">
    <Redirect to="/wallet/statement" replace />
  </Route>,
  <Route key="pv-history" path="/pv-history">
    <ListRoute pageKey="history.pv" machine={pvHistoryListMachine} View={PvHistoryView as ListViewComponent} download={listDownloads.pvHistory} />
  </Route>,
  <Route key="binary-history" path="/binary-history">
    <ListRoute pageKey="history.binary" machine={binaryHistoryListMachine} View={BinaryHistoryView as ListViewComponent} download={listDownloads.binaryHistory} />
  </Route>,
  <Route key="order" path="/orders/:id">
    <OrderRoute />
  </Route>,
  <Route key="orders" path="/orders">
    <ListRoute pageKey="orders" machine={ordersListMachine} View={OrdersListView as ListViewComponent} download={listDownloads.orders} />
  </Route>,
];

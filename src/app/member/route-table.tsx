/**
 * Every member route of spec §2, one entry each, paths relative to /member, in menu order (the menu's
 * sub-items follow this order). An entry says where it is, who may open it (`permission`, from
 * src/lib/menu.ts: the route guard and the menu both read it), where the menu shows it, and what it
 * renders: a page (machine, URL input codec, persistence, view — run by src/app/member/member-page.tsx),
 * a redirect, or the "coming soon" page of a section not built yet.
 */
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { z } from 'zod';
import { APP_LANGUAGES } from '../../i18n/languages';
import { DEFAULT_DATE_FORMAT } from '../../lib/dates';
import { chartRangeFromSearch, chartRangeToSearch, filtersFromSearch, filtersToSearch, sameFilters, type ListFilterState } from '../../lib/list-filters';
import { PERMISSIONS, type MenuPlacement, type MenuSectionId, type Permission } from '../../lib/menu';
import { showToast } from '../../lib/toast';
import { downlineReportMachine } from '../../machines/downline-report.machine';
import { earningPageMachine } from '../../machines/earning-page.machine';
import { genealogyMachine } from '../../machines/genealogy.machine';
import { homeBinaryMachine, homeDashboardMachine, homePackageMachine, homeRankMachine } from '../../machines/home.machine';
import { notificationsMachine } from '../../machines/notifications.machine';
import { orderDetailMachine } from '../../machines/order-detail.machine';
import { payoutRequestMachine } from '../../machines/payout-request.machine';
import { preferencesMachine } from '../../machines/preferences.machine';
import { referralEarnersMachine, referralJoiningsMachine, referralRecruitersMachine, referralSummaryMachine } from '../../machines/referral-pages.machine';
import { tabularTreeMachine } from '../../machines/tabular-tree.machine';
import {
  binaryHistoryListMachine,
  listDownloads,
  ordersListMachine,
  pvHistoryListMachine,
  recentEarningsListMachine,
  recentPayoutsListMachine,
  transactionsListMachine,
} from '../../machines/wallet-lists.machine';
import { payoutStatementMachine, walletStatementMachine } from '../../machines/wallet-pages.machine';
import { DEFAULT_CURRENCY } from '../../schemas/common.schema';
import '../../views/components/paged-list/member-list-css';
import { BinaryView } from '../../views/home/binary.view';
import { DashboardView } from '../../views/home/dashboard.view';
import { HomeTabsView, type HomeTab } from '../../views/home/home-tabs.view';
import { NotificationsView } from '../../views/home/notifications.view';
import { PackageView } from '../../views/home/package.view';
import { PreferencesView } from '../../views/home/preferences.view';
import { RankView } from '../../views/home/rank.view';
import { DownlineReportView, reportFiltersFrom, reportFiltersQuery } from '../../views/network/downline-report.view';
import { NetworkPageView } from '../../views/network/network-page.view';
import { JoiningsView, LeaderboardView, ReferralPageView, ReferralSummaryView } from '../../views/referral/referral.view';
import type { ListViewProps } from '../../views/wallet/wallet-lists.view';
import { lazyView } from '../lazy-view';
import { bindPreferences } from './member-preferences';
import { page } from './member-page';
import { codecFromSchema, comingSoon, redirect, SESSION, type MemberRoute, type PageEnv, type Persistence, type PageRoute, type UrlBinding } from './member-route';

// The wallet screens (date pickers, virtual lists, charts) and the tree screens (canvas drawing,
// layout, virtual rows) load when one of their pages is opened, not with the shell.
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
const GenealogyView = lazyView(() => import('../../views/network/genealogy.view').then((m) => m.GenealogyView));
const TabularView = lazyView(() => import('../../views/network/tabular.view').then((m) => m.TabularView));

/**
 * The tree pages keep their actors in memory only: a loaded tree can hold tens of thousands of members,
 * more than is worth writing to sessionStorage on every change; a reload loads the tree again.
 */
const TREE_MEMORY: Persistence = { kind: 'memory', reason: 'a loaded tree can hold tens of thousands of members' };

const menu = (section: MenuSectionId, item?: string): { menu: MenuPlacement } => ({ menu: item ? { section, item } : { section } });
const guarded = (permission: Permission, section: MenuSectionId, item?: string) => ({ permission, ...menu(section, item) });

/** Currency and date pattern of the network and referral views. */
function formats(env: PageEnv) {
  return { currency: env.moduleData?.default_currency ?? null, datePattern: env.moduleData?.date_format ?? null };
}

// ── Lists with their filters in the URL ─────────────────────────────────────────────────────────────

/** The list filters of src/lib/list-filters.ts as a list page's URL input, followed by `list.setFilters`. */
const LIST_FILTERS_URL = {
  codec: { parse: filtersFromSearch, format: filtersToSearch, equals: sameFilters },
  follow: {
    current: (s: { context: { filters: ListFilterState } }) => s.context.filters,
    event: (filters: ListFilterState) => ({ type: 'list.setFilters' as const, filters }),
  },
};

/**
 * An endless list page (with its entry's `machine`): filters from the URL as the list's input and
 * followed after, the view's filter bar writing the URL, the CSV download of the filtered rows, saved
 * in this tab.
 */
function filteredList<A>(View: (props: ListViewProps<A>) => ReactNode, download: (filters: ListFilterState) => Promise<unknown>) {
  return {
    input: ({ url }: { url: ListFilterState }) => ({ filters: url }),
    url: LIST_FILTERS_URL,
    persist: SESSION,
    view: ({ actor, url, setUrl }: { actor: A; url: ListFilterState; setUrl: (f: ListFilterState) => void }) => (
      <View
        actor={actor}
        onFilters={setUrl}
        onDownload={() => {
          download(url).catch(() => showToast({ kind: 'error', message: i18next.t('wallet:filters.downloadFailed') }));
        }}
      />
    ),
  };
}

/** A page that loads its figures: saved in this tab and fetched again when restored. */
const LOADED = { persist: SESSION, refresh: { type: 'load.refresh' } } as const;

// ── Home ────────────────────────────────────────────────────────────────────────────────────────────

/** A home tab's view inside the home tabs. */
function homeTab<A>(tab: HomeTab, View: (props: { actor: A; env: PageEnv }) => ReactNode) {
  return ({ actor, env }: { actor: A; env: PageEnv }) => (
    <HomeTabsView tab={tab}>
      <View actor={actor} env={env} />
    </HomeTabsView>
  );
}

// ── Display preferences (/account/language|currency|date-format) ────────────────────────────────────

function Preferences({ actor, env }: { actor: ActorRefFrom<typeof preferencesMachine>; env: PageEnv }) {
  const { i18n } = useTranslation();
  const md = env.moduleData;
  return (
    <PreferencesView
      actor={actor}
      languages={md?.languages.length ? md.languages : APP_LANGUAGES}
      currencies={md?.currencies.length ? md.currencies : [md?.default_currency ?? DEFAULT_CURRENCY]}
      language={i18n.resolvedLanguage ?? i18n.language}
      currency={md?.default_currency.code ?? DEFAULT_CURRENCY.code}
      dateFormat={md?.date_format || DEFAULT_DATE_FORMAT}
      onLanguage={(code) => env.session.send({ type: 'language.change', code })}
    />
  );
}

const preferencesPage = (path: string, item: string) =>
  page(
    path,
    {
      id: 'account.preferences',
      machine: preferencesMachine,
      provide: (m, env) => bindPreferences(m, env.session),
      // What is saved lives in the session's module data; a save in flight or its error belongs to the visit.
      persist: { kind: 'memory', reason: 'the saved values live in the session; only the save in flight is here' },
      view: Preferences,
    },
    menu('account', item),
  );

// ── Network and referral ────────────────────────────────────────────────────────────────────────────

/** ?username= opens the genealogy on that member (read once, as the tree's input). */
const genealogyUrl: UrlBinding<typeof genealogyMachine, { username?: string }> = {
  codec: codecFromSchema(z.object({ username: z.string().trim().min(1).max(64).optional() }), {}),
};

/** The downline report's filters in the URL; a new search adds a history entry, so Back returns to the last one. */
const reportUrl: UrlBinding<typeof downlineReportMachine, ReturnType<typeof reportFiltersFrom>> = {
  codec: { parse: reportFiltersFrom, format: reportFiltersQuery },
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
  history: 'push',
};

const downlineReport = (path: string, id: string, tabbed: boolean, item: string) =>
  page(
    path,
    {
      id,
      machine: downlineReportMachine,
      input: ({ url }) => ({ filters: url }),
      url: reportUrl,
      persist: SESSION,
      view: ({ actor, url, setUrl, env }) => {
        // A new query string starts the form again from the URL's filters.
        const report = <DownlineReportView key={reportFiltersQuery(url)} actor={actor} onFilters={setUrl} {...formats(env)} />;
        return tabbed ? <NetworkPageView tab="downline">{report}</NetworkPageView> : report;
      },
    },
    guarded(PERMISSIONS.network, 'network', item),
  );

const referralTab = (tab: 'recruiter' | 'earner', machine: typeof referralRecruitersMachine) =>
  page(
    `/referral/${tab}`,
    {
      id: `referral.${tab}`,
      machine,
      ...LOADED,
      view: ({ actor, env }) => (
        <ReferralPageView tab={tab}>
          <LeaderboardView actor={actor} metric={tab} {...formats(env)} />
        </ReferralPageView>
      ),
    },
    guarded(PERMISSIONS.referral, 'referral', tab),
  );

// ── Wallet ──────────────────────────────────────────────────────────────────────────────────────────

function EarningPage({ actor, url, setUrl }: { actor: ActorRefFrom<typeof earningPageMachine>; url: ReturnType<typeof chartRangeFromSearch>; setUrl: (r: ReturnType<typeof chartRangeFromSearch>) => void }) {
  const overview = useSelector(actor, (s) => s.children.overview);
  const range = useSelector(actor, (s) => s.children.range);
  if (!overview || !range) return null;
  return (
    <WalletTabs tab="earning">
      <EarningTab actor={overview} rangeActor={range} range={url} onRange={setUrl} />
    </WalletTabs>
  );
}

/** The earnings chart's from/to in the URL, followed by `range.set`. */
const earningUrl: UrlBinding<typeof earningPageMachine, ReturnType<typeof chartRangeFromSearch>> = {
  codec: { parse: chartRangeFromSearch, format: chartRangeToSearch },
  follow: {
    current: (s) => {
      const { from, to } = s.context.range;
      return from && to ? { from, to } : null;
    },
    event: (range) => ({ type: 'range.set', range: range ?? {} }),
  },
};

/** A wallet tab's view inside the wallet tabs. */
function walletTab<A>(tab: 'statement' | 'payout', View: (props: { actor: A }) => ReactNode) {
  return ({ actor }: { actor: A }) => (
    <WalletTabs tab={tab}>
      <View actor={actor} />
    </WalletTabs>
  );
}

/** A positive whole order id, or -1 (the server answers not found). */
const orderId = (id: string | undefined) => (Number.isInteger(Number(id)) && Number(id) > 0 ? Number(id) : -1);

const soon = (path: string, titleKey: string, place: Omit<PageRoute, 'kind' | 'path' | 'persist' | 'render'> = {}) =>
  comingSoon(path, `menu.${titleKey}`, place);

export const MEMBER_ROUTES: readonly MemberRoute[] = [
  // Home: tabs dashboard, binary, package, rank; the base (and an unknown tab) goes to dashboard.
  page(
    '/home/dashboard',
    {
      id: 'home.dashboard',
      machine: homeDashboardMachine,
      ...LOADED,
      view: homeTab('dashboard', ({ actor, env }) => <DashboardView actor={actor} referralLink={env.user.referral_link} />),
    },
    menu('home'),
  ),
  page('/home/binary', { id: 'home.binary', machine: homeBinaryMachine, ...LOADED, view: homeTab('binary', BinaryView) }),
  page('/home/package', { id: 'home.package', machine: homePackageMachine, ...LOADED, view: homeTab('package', PackageView) }),
  page('/home/rank', { id: 'home.rank', machine: homeRankMachine, ...LOADED, view: homeTab('rank', RankView) }),
  redirect('/home', '/home/dashboard'),
  redirect('/home/:tab', '/home/dashboard'),

  // Network: tabs genealogy, tabular, downline (base → genealogy); downlines, PV and binary history, member signup.
  page(
    '/network/genealogy',
    {
      id: 'network.genealogy',
      machine: genealogyMachine,
      input: ({ url }) => ({ username: url.username }),
      url: genealogyUrl,
      persist: TREE_MEMORY,
      view: ({ actor, env }) => (
        <NetworkPageView tab="genealogy">
          <GenealogyView actor={actor} {...formats(env)} />
        </NetworkPageView>
      ),
    },
    guarded(PERMISSIONS.network, 'network', 'genealogy'),
  ),
  page(
    '/network/tabular',
    {
      id: 'network.tabular',
      machine: tabularTreeMachine,
      persist: TREE_MEMORY,
      view: ({ actor, env }) => (
        <NetworkPageView tab="tabular">
          <TabularView actor={actor} {...formats(env)} />
        </NetworkPageView>
      ),
    },
    guarded(PERMISSIONS.network, 'network', 'tabular'),
  ),
  downlineReport('/network/downline', 'network.downline', true, 'downline'),
  redirect('/network', '/network/genealogy', { permission: PERMISSIONS.network }),
  downlineReport('/downlines', 'downlines', false, 'downlines'),
  page('/pv-history', { id: 'history.pv', machine: pvHistoryListMachine, ...filteredList(PvHistoryView, listDownloads.pvHistory) }, guarded(PERMISSIONS.network, 'network', 'pvHistory')),
  page('/binary-history', { id: 'history.binary', machine: binaryHistoryListMachine, ...filteredList(BinaryHistoryView, listDownloads.binaryHistory) }, guarded(PERMISSIONS.network, 'network', 'binaryHistory')),
  soon('/signup', 'memberSignup', guarded(PERMISSIONS.network, 'network', 'memberSignup')),
  soon('/signup/otp', 'memberSignup', { permission: PERMISSIONS.network }),

  // Referral: tabs summary, recruiter, earner (base → summary); joinings.
  page(
    '/referral/summary',
    {
      id: 'referral.summary',
      machine: referralSummaryMachine,
      ...LOADED,
      view: ({ actor, env }) => (
        <ReferralPageView tab="summary">
          <ReferralSummaryView actor={actor} {...formats(env)} />
        </ReferralPageView>
      ),
    },
    guarded(PERMISSIONS.referral, 'referral', 'referralSummary'),
  ),
  referralTab('recruiter', referralRecruitersMachine),
  referralTab('earner', referralEarnersMachine),
  page(
    '/referral/joinings',
    {
      id: 'referral.joinings',
      machine: referralJoiningsMachine,
      input: () => ({ filters: {} }),
      persist: SESSION,
      view: ({ actor, env }) => <JoiningsView actor={actor} datePattern={formats(env).datePattern} />,
    },
    guarded(PERMISSIONS.referral, 'referral', 'joinings'),
  ),
  redirect('/referral', '/referral/summary', { permission: PERMISSIONS.referral }),

  // Wallet: tabs statement, earning, payout (base → statement); request payout and the three lists.
  page('/wallet/statement', { id: 'wallet.statement', machine: walletStatementMachine, ...LOADED, view: walletTab('statement', StatementTab) }, menu('wallet', 'statement')),
  page(
    '/wallet/earning',
    {
      id: 'wallet.earning',
      machine: earningPageMachine,
      input: ({ url }) => ({ range: url ?? {} }),
      url: earningUrl,
      ...LOADED,
      view: EarningPage,
    },
    menu('wallet', 'earning'),
  ),
  page('/wallet/payout', { id: 'wallet.payout', machine: payoutStatementMachine, ...LOADED, view: walletTab('payout', PayoutTab) }, menu('wallet', 'payout')),
  page(
    '/wallet/request-payout',
    {
      id: 'wallet.requestPayout',
      machine: payoutRequestMachine,
      provide: (m) =>
        m.provide({ actions: { notify: (_, p) => showToast({ kind: p.kind, message: i18next.t(p.key, p.values) as string }) } }),
      persist: SESSION,
      view: PayoutRequestView,
    },
    menu('wallet', 'requestPayout'),
  ),
  page('/wallet/transactions', { id: 'wallet.transactions', machine: transactionsListMachine, ...filteredList(TransactionsListView, listDownloads.transactions) }, menu('wallet', 'transactions')),
  page('/wallet/recent-earnings', { id: 'wallet.recentEarnings', machine: recentEarningsListMachine, ...filteredList(RecentEarningsListView, listDownloads.recentEarnings) }, menu('wallet', 'recentEarnings')),
  page('/wallet/recent-payouts', { id: 'wallet.recentPayouts', machine: recentPayoutsListMachine, ...filteredList(RecentPayoutsListView, listDownloads.recentPayouts) }, menu('wallet', 'recentPayouts')),
  redirect('/wallet', '/wallet/statement'),

  // Shopping, package payment and over-the-counter payments: the orders/investments entry.
  soon('/shopping/products', 'products', guarded(PERMISSIONS.shopProducts, 'shop', 'products')),
  soon('/shopping/products/:id', 'products', { permission: PERMISSIONS.shopProducts }),
  soon('/shopping/cart', 'cart', guarded(PERMISSIONS.shopProducts, 'shop', 'cart')),
  soon('/shopping/checkout', 'checkout', guarded(PERMISSIONS.shopProducts, 'shop', 'checkout')),
  soon('/packages/payment', 'packagePayment', guarded(PERMISSIONS.shopPackages, 'shop', 'packagePayment')),
  soon('/otc/request-payment', 'otcRequestPayment', guarded(PERMISSIONS.shop, 'shop', 'otcRequestPayment')),
  soon('/otc/make-payment', 'otcMakePayment', guarded(PERMISSIONS.shop, 'shop', 'otcMakePayment')),
  soon('/otc/payment-history', 'otcPaymentHistory', guarded(PERMISSIONS.shop, 'shop', 'otcPaymentHistory')),
  soon('/payment/stripe/success', 'packagePayment', { permission: PERMISSIONS.shop }),

  // CRM (base → dashboard; /crm/index is the mobile start page); details under their list path.
  redirect('/crm', '/crm/dashboard', { permission: PERMISSIONS.crm }),
  soon('/crm/index', 'crm', { permission: PERMISSIONS.crm }),
  soon('/crm/dashboard', 'crmDashboard', guarded(PERMISSIONS.crm, 'crm', 'crmDashboard')),
  soon('/crm/dashboard/analytics', 'crmAnalytics', guarded(PERMISSIONS.crm, 'crm', 'crmAnalytics')),
  soon('/crm/leads', 'leads', guarded(PERMISSIONS.crm, 'crm', 'leads')),
  soon('/crm/leads/new', 'leads', { permission: PERMISSIONS.crm }),
  soon('/crm/leads/edit', 'leads', { permission: PERMISSIONS.crm }),
  soon('/crm/leads/:id', 'leads', { permission: PERMISSIONS.crm }),
  soon('/crm/contacts', 'contacts', guarded(PERMISSIONS.crm, 'crm', 'contacts')),
  soon('/crm/sales', 'sales', guarded(PERMISSIONS.crm, 'crm', 'sales')),
  soon('/crm/sales/new', 'sales', { permission: PERMISSIONS.crm }),
  soon('/crm/sales/:id', 'sales', { permission: PERMISSIONS.crm }),
  soon('/crm/invoices', 'invoices', guarded(PERMISSIONS.crm, 'crm', 'invoices')),
  soon('/crm/invoices/:id', 'invoices', { permission: PERMISSIONS.crm }),
  soon('/crm/meetings', 'meetings', guarded(PERMISSIONS.crm, 'crm', 'meetings')),
  soon('/crm/meetings/new', 'meetings', { permission: PERMISSIONS.crm }),
  soon('/crm/calls', 'calls', guarded(PERMISSIONS.crm, 'crm', 'calls')),
  soon('/crm/calls/new', 'calls', { permission: PERMISSIONS.crm }),

  soon('/kyc', 'kyc', guarded(PERMISSIONS.kyc, 'kyc')),

  // Mail (base → inbox).
  redirect('/mail', '/mail/inbox', { permission: PERMISSIONS.mailbox }),
  soon('/mail/inbox', 'inbox', guarded(PERMISSIONS.mailbox, 'mailbox', 'inbox')),
  soon('/mail/sent', 'sent', guarded(PERMISSIONS.mailbox, 'mailbox', 'sent')),
  soon('/mail/sent-item/:id?', 'sent', { permission: PERMISSIONS.mailbox }),
  soon('/mail/compose', 'compose', guarded(PERMISSIONS.mailbox, 'mailbox', 'compose')),
  soon('/mail/conversation/:id?', 'inbox', { permission: PERMISSIONS.mailbox }),

  // Stories: article and video, detail under each (base → article).
  redirect('/story', '/story/article', { permission: PERMISSIONS.stories }),
  soon('/story/article', 'articles', guarded(PERMISSIONS.stories, 'stories', 'articles')),
  soon('/story/article/:id', 'articles', { permission: PERMISSIONS.stories }),
  soon('/story/video', 'videos', guarded(PERMISSIONS.stories, 'stories', 'videos')),
  soon('/story/video/:id', 'videos', { permission: PERMISSIONS.stories }),

  soon('/events', 'events', guarded(PERMISSIONS.events, 'events')),
  soon('/event/:id', 'events', { permission: PERMISSIONS.events }),

  // My orders, with the detail under the list.
  page('/orders', { id: 'orders', machine: ordersListMachine, ...filteredList(OrdersListView, listDownloads.orders) }, menu('myOrders')),
  page('/orders/:id', {
    id: 'orders.detail',
    machine: orderDetailMachine,
    input: ({ params }) => ({ params: orderId(params.id) }),
    ...LOADED,
    view: OrderDetailView,
  }),

  page(
    '/notifications',
    {
      id: 'notifications',
      machine: notificationsMachine,
      // Marking read changes the unread counts: the menu's badge follows.
      provide: (m, env) => m.provide({ actions: { countsChanged: () => env.refreshBadge() } }),
      ...LOADED,
      view: NotificationsView,
    },
    menu('notifications'),
  ),

  // Account and its settings.
  soon('/account', 'account', menu('account')),
  soon('/account/basic', 'profile', menu('account', 'profile')),
  soon('/account/email', 'email', menu('account', 'email')),
  soon('/account/email/otp', 'email'),
  soon('/account/phone', 'phone', menu('account', 'phone')),
  soon('/account/phone/otp', 'phone'),
  soon('/account/bank', 'bank', menu('account', 'bank')),
  soon('/account/password', 'password', menu('account', 'password')),
  soon('/account/wallet-password', 'walletPassword', menu('account', 'walletPassword')),
  soon('/account/payout', 'payoutSettings', menu('account', 'payoutSettings')),
  preferencesPage('/account/language', 'language'),
  preferencesPage('/account/currency', 'currency'),
  preferencesPage('/account/date-format', 'dateFormat'),
  redirect('/account/notification', '/account/notification/email', menu('account', 'notificationSettings')),
  soon('/account/notification/push', 'notificationSettings'),
  soon('/account/notification/email', 'notificationSettings'),
  soon('/account/intro-video', 'introVideo', menu('account', 'introVideo')),
  soon('/account/addresses', 'addresses', menu('account', 'addresses')),
  soon('/account/addresses/new', 'addresses'),
  soon('/account/addresses/:id', 'addresses'),
  soon('/account/more', 'more', menu('account', 'more')),
  soon('/account/faqs', 'faqs', menu('faqs')),
  soon('/support', 'support', menu('support')),
];

/**
 * Every member route of spec §2, one entry each, paths relative to /member, in menu order (the menu's
 * sub-items follow this order). An entry says where it is, who may open it (`permission`, from
 * src/lib/menu.ts: the route guard and the menu both read it), where the menu shows it, and what it
 * renders: a page (machine, URL input codec, persistence, view — run by src/app/member/member-page.tsx),
 * a redirect, or the "coming soon" page of a section not built yet.
 */
import { useTranslation } from 'react-i18next';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { APP_LANGUAGES } from '../../i18n/languages';
import { DEFAULT_DATE_FORMAT } from '../../lib/dates';
import {
  chartRangeFromSearch,
  chartRangeToSearch,
  reportFiltersFrom,
  reportFiltersQuery,
  type ReportFilters,
} from '../../lib/list-filters';
import { createSearchCodec } from '../../lib/search-codec';
import { menuSwitches, PERMISSIONS, type MenuSectionId, type Permission } from '../../lib/menu';
import { accountDeletionMachine } from '../../machines/account/account-deletion.machine';
import { accountHubMachine } from '../../machines/account/account-hub.machine';
import { addresses } from '../../machines/account/addresses.machine';
import { emailChangeMachine, phoneChangeMachine } from '../../machines/account/contact-change.machine';
import { faqsListMachine, type FaqsSearch } from '../../machines/account/faqs.machine';
import { basicPageMachine } from '../../machines/account/basic.machine';
import { kycDownload, kycPageMachine } from '../../machines/account/kyc.machine';
import { passwordChangeMachine } from '../../machines/account/password-change.machine';
import { walletPasswordPageMachine } from '../../machines/account/wallet-password.machine';
import { bankDetailsMachine } from '../../machines/account/bank-details.machine';
import { notificationSettingsMachine } from '../../machines/account/notification-settings.machine';
import { payoutMethodMachine } from '../../machines/account/payout-method.machine';
import { twoFactorSettingsMachine } from '../../machines/account/two-factor.machine';
import { downlineReportMachine } from '../../machines/downline-report.machine';
import { earningPageMachine } from '../../machines/earning-page.machine';
import { genealogyMachine } from '../../machines/genealogy.machine';
import { homeBinaryMachine, homeDashboardMachine, homePackageMachine, homeRankMachine } from '../../machines/home.machine';
import { notificationsMachine } from '../../machines/notifications.machine';
import { orderDetailMachine } from '../../machines/order-detail.machine';
import { payoutPageMachine } from '../../machines/payout-request.machine';
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
import { faqsQuerySchema } from '../../schemas/account-hub.schema';
import { DEFAULT_CURRENCY } from '../../schemas/values.schema';
import { genealogyQuerySchema } from '../../schemas/network.schema';
import { notificationsQuerySchema, type NotificationsUrl } from '../../schemas/home.schema';
import '../../views/components/paged-list/member-list-css';
import { BinaryView } from '../../views/home/binary.view';
import { DashboardView } from '../../views/home/dashboard.view';
import { HomeTabsView } from '../../views/home/home-tabs.view';
import { NotificationsView } from '../../views/home/notifications.view';
import { PackageView } from '../../views/home/package.view';
import { PreferencesView } from '../../views/home/preferences.view';
import { RankView } from '../../views/home/rank.view';
import { DownlineReportView } from '../../views/network/downline-report.view';
import { NetworkPageView } from '../../views/network/network-page.view';
import { JoiningsView, LeaderboardView, ReferralPageView, ReferralSummaryView } from '../../views/referral/referral.view';
import { browserBindings } from '../bindings';
import { signupRoutes } from './routes/signup.routes';
import { lazyView } from '../lazy-view';
import { mailRoutes } from './routes/mail.routes';
import { AccountHubPage, bindAccountDeletion, DeleteAccountPage, FaqsView, IntroVideoScreen, MoreScreen } from './account-pages';
import { bindPreferences, formActions } from './member-forms';
import { resourceActions } from './resource-actions';
import { crmRoutes } from './routes/crm.routes';
import { page } from './member-page';
import { shopRoutes } from './routes/shop.routes';
import { FILES_MEMORY, filteredList, formats, guarded, LOADED, menu, tabView, TREE_MEMORY } from './route-parts';
import { packagesRoutes } from './routes/packages.routes';
import { storiesRoutes } from './routes/stories.routes';
import { supportRoutes } from './routes/support.routes';
import { comingSoon, redirect, SESSION, staticPage, type MemberRoute, type PageEnv, type PageRoute, type UrlBinding } from './member-route';

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
const PasswordView = lazyView(() => import('../../views/account/password.view').then((m) => m.PasswordView));
const BankDetailsView = lazyView(() => import('../../views/account/bank-details.view').then((m) => m.BankDetailsView));
const PayoutMethodView = lazyView(() => import('../../views/account/payout-method.view').then((m) => m.PayoutMethodView));
const NotificationSettingsView = lazyView(() => import('../../views/account/notification-settings.view').then((m) => m.NotificationSettingsView));
const TwoFactorView = lazyView(() => import('../../views/account/two-factor.view').then((m) => m.TwoFactorView));
const KycView = lazyView(() => import('../../views/account/kyc.view').then((m) => m.KycView));
const BasicView = lazyView(() => import('../../views/account/basic.view').then((m) => m.BasicView));
const addressViews = () => import('../../views/account/addresses.view');
const contactViews = () => import('../../views/account/contact.view');
const EmailView = lazyView(() => contactViews().then((m) => m.EmailView));
const EmailCodeView = lazyView(() => contactViews().then((m) => m.EmailCodeView));
const PhoneView = lazyView(() => contactViews().then((m) => m.PhoneView));
const PhoneCodeView = lazyView(() => contactViews().then((m) => m.PhoneCodeView));
const WalletPasswordPageView = lazyView(() => import('../../views/account/wallet-password.view').then((m) => m.WalletPasswordPageView));
const AddressBookView = lazyView(() => addressViews().then((m) => m.AddressBookView));
const AddressFormView = lazyView(() => addressViews().then((m) => m.AddressFormView));
const GenealogyView = lazyView(() => import('../../views/network/genealogy.view').then((m) => m.GenealogyView));
const TabularView = lazyView(() => import('../../views/network/tabular.view').then((m) => m.TabularView));

// ── Display preferences (/account/language|currency|date-format) ────────────────────────────────────

/** The member may renew a package here: the package payment page is open to them (spec §6). */
function mayRenew(env: PageEnv): boolean {
  const modules = env.moduleData?.modules;
  return !!modules && PERMISSIONS.shopPackages.allows({ switches: menuSwitches(modules), user: env.user });
}

/** The company has the CRM module on (its meetings, and so the meeting reminder). */
function hasCrm(env: PageEnv): boolean {
  const modules = env.moduleData?.modules;
  return !!modules && PERMISSIONS.crm.allows({ switches: menuSwitches(modules), user: env.user });
}

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

// ── Notification settings (/account/notification/email|push, one actor per tab) ─────────────────────

const notificationSettingsPage = (channel: 'email' | 'push') =>
  page(`/account/notification/${channel}`, {
    id: `account.notification.${channel}`,
    machine: notificationSettingsMachine,
    provide: (m, env) => m.provide({ actions: formActions(env.session) }),
    // The switches live on the server; a flip in flight or its error belongs to the visit.
    persist: { kind: 'memory', reason: 'the switches live on the server and load on every visit' },
    view: ({ actor, env }) => <NotificationSettingsView actor={actor} channel={channel} crm={hasCrm(env)} />,
  });

// ── Network and referral ────────────────────────────────────────────────────────────────────────────

/**
 * ?username= opens the genealogy on that member; a search writes it (a history entry), so a reload keeps
 * the search and Back returns to the previous one (no username: the top of the tree).
 */
const genealogyUrl: UrlBinding<typeof genealogyMachine, { username?: string }> = {
  codec: createSearchCodec(genealogyQuerySchema, { fields: ['username'] }),
  follow: {
    current: (s) => ({ username: s.context.query || undefined }),
    event: (url) => (url.username ? { type: 'tree.search', username: url.username } : { type: 'tree.top' }),
  },
};

/** The downline report's filters in the URL; a new search adds a history entry, so Back returns to the last one. */
const reportUrl: UrlBinding<typeof downlineReportMachine, ReportFilters> = {
  codec: { parse: reportFiltersFrom, format: reportFiltersQuery },
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
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
      view: tabView(ReferralPageView, tab, (props) => <LeaderboardView {...props} metric={tab} />),
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

/** A positive whole record id (an order, an address), or -1 (the server answers not found). */
const recordId = (id: string | undefined) => (Number.isInteger(Number(id)) && Number(id) > 0 ? Number(id) : -1);

/** The address form pages: toasts, the forced logout of a 401, and back to the address book once saved. */
const bindAddressForm = (m: typeof addresses.formPage, env: PageEnv) =>
  m.provide({ actions: { ...formActions(env.session), saved: () => browserBindings.navigate('/member/account/addresses') } });

/**
 * A change of e-mail or mobile: the address page and its code page (…/otp) are two entries with one
 * machine and one saved-state key, so both URLs show the one flow: the code page starts from the
 * snapshot the address page left in its code step, and a reload of either finds the same state (each
 * view sends the member to the URL of the state it is in). Saved in this tab without the password or code.
 */
const bindContactForm = <M extends typeof emailChangeMachine | typeof phoneChangeMachine>(m: M, env: PageEnv): M =>
  m.provide({ actions: formActions(env.session) }) as M;
/** ?keyword= of the FAQ page (the list's own query schema), followed by `list.setFilters`. */
const faqsUrl: UrlBinding<typeof faqsListMachine, FaqsSearch> = {
  codec: createSearchCodec(faqsQuerySchema, { fields: ['keyword'] }),
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

/**
 * ?tab= and ?show=all of the notifications page: a change adds a history entry, so Back returns to the
 * previous tab or choice; the actor follows `show` (the tab is the view's alone).
 */
const notificationsUrl: UrlBinding<typeof notificationsMachine, NotificationsUrl> = {
  codec: { ...createSearchCodec(notificationsQuerySchema, { fields: ['tab', 'show'] }), equals: (a, b) => (a.show ?? 'unread') === (b.show ?? 'unread') },
  follow: { current: (s) => ({ show: s.context.show }), event: (url) => ({ type: 'notifications.show', show: url.show ?? 'unread' }) },
};

/** The table itself, read when a page that lists the menu (the account hub, "more") is shown. */
const memberRoutes = () => MEMBER_ROUTES;

/** A route of a section not built yet: its path, its title (`common:menu.<key>`), and whether the menu lists it. */
type Soon = [path: string, titleKey: string, inMenu?: 'item' | 'own'];

/** The "coming soon" routes of one menu section, all under one permission. */
function soon(permission: Permission | undefined, section: MenuSectionId, routes: Soon[]) {
  return routes.map(([path, key, inMenu]) =>
    comingSoon(path, `menu.${key}`, { ...(permission ? { permission } : {}), ...(inMenu ? menu(section, inMenu === 'item' ? key : undefined) : {}) }),
  );
}

/** The shop pages My orders leads to: each by its own switch (spec §6 hides only the orders/investments entry). */
const shopLinks = (env: PageEnv) => ({
  shop: { products: !!env.moduleData?.modules.internal_store, packages: !!env.moduleData?.modules.package },
});

export const MEMBER_ROUTES: readonly MemberRoute[] = [
  // Home: tabs dashboard, binary, package, rank; the base (and an unknown tab) goes to dashboard.
  page(
    '/home/dashboard',
    {
      id: 'home.dashboard',
      machine: homeDashboardMachine,
      ...LOADED,
      view: tabView(HomeTabsView, 'dashboard', ({ actor, env }) => <DashboardView actor={actor} referralLink={env.user.referral_link} renewHref={mayRenew(env) ? '/packages/payment' : null} />),
    },
    menu('home'),
  ),
  page('/home/binary', { id: 'home.binary', machine: homeBinaryMachine, ...LOADED, view: tabView(HomeTabsView, 'binary', BinaryView) }, { permission: PERMISSIONS.binary }),
  page('/home/package', { id: 'home.package', machine: homePackageMachine, ...LOADED, view: tabView(HomeTabsView, 'package', PackageView) }),
  page('/home/rank', { id: 'home.rank', machine: homeRankMachine, ...LOADED, view: tabView(HomeTabsView, 'rank', RankView) }),
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
      view: ({ actor, env, url, setUrl }) => (
        <NetworkPageView tab="genealogy">
          <GenealogyView actor={actor} {...formats(env)} onSearch={(username) => setUrl({ username })} onTop={url.username ? () => setUrl({}) : undefined} />
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
      view: tabView(NetworkPageView, 'tabular', TabularView),
    },
    guarded(PERMISSIONS.network, 'network', 'tabular'),
  ),
  downlineReport('/network/downline', 'network.downline', true, 'downline'),
  redirect('/network', '/network/genealogy', { permission: PERMISSIONS.network }),
  downlineReport('/downlines', 'downlines', false, 'downlines'),
  page('/pv-history', { id: 'history.pv', machine: pvHistoryListMachine, ...filteredList(PvHistoryView, listDownloads.pvHistory) }, guarded(PERMISSIONS.network, 'network', 'pvHistory')),
  page('/binary-history', { id: 'history.binary', machine: binaryHistoryListMachine, ...filteredList(BinaryHistoryView, listDownloads.binaryHistory) }, guarded(PERMISSIONS.binaryHistory, 'network', 'binaryHistory')),
  ...signupRoutes,

  // Referral: tabs summary, recruiter, earner (base → summary); joinings.
  page(
    '/referral/summary',
    {
      id: 'referral.summary',
      machine: referralSummaryMachine,
      ...LOADED,
      view: tabView(ReferralPageView, 'summary', ReferralSummaryView),
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
  page('/wallet/statement', { id: 'wallet.statement', machine: walletStatementMachine, ...LOADED, view: tabView(WalletTabs, 'statement', StatementTab) }, menu('wallet', 'statement')),
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
  page('/wallet/payout', { id: 'wallet.payout', machine: payoutStatementMachine, ...LOADED, view: tabView(WalletTabs, 'payout', PayoutTab) }, menu('wallet', 'payout')),
  page(
    '/wallet/request-payout',
    {
      id: 'wallet.requestPayout',
      machine: payoutPageMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
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
  ...shopRoutes,
  ...packagesRoutes,

  // CRM (base → dashboard; /crm/index is the mobile start page); details under their list path.
  ...crmRoutes,

  page(
    '/kyc',
    {
      id: 'kyc',
      machine: kycPageMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: FILES_MEMORY,
      view: ({ actor }) => <KycView actor={actor} download={kycDownload} />,
    },
    guarded(PERMISSIONS.kyc, 'kyc'),
  ),

  // Mail (base → inbox).
  redirect('/mail', '/mail/inbox', { permission: PERMISSIONS.mailbox }),
  ...mailRoutes,

  // Stories: article and video, detail under each (base → article); events and one event.
  ...storiesRoutes,

  // My orders, with the detail under the list.
  page('/orders', { id: 'orders', machine: ordersListMachine, ...filteredList(OrdersListView, listDownloads.orders, shopLinks) }, menu('myOrders')),
  page('/orders/:id', {
    id: 'orders.detail',
    machine: orderDetailMachine,
    input: ({ params }) => ({ params: recordId(params.id) }),
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
      input: ({ url }) => ({ show: url.show }),
      url: notificationsUrl,
      ...LOADED,
      view: ({ actor, url, setUrl }) => <NotificationsView actor={actor} url={url} setUrl={setUrl} />,
    },
    menu('notifications'),
  ),

  // Account and its settings: the hub links every setting of the menu's account section.
  page(
    '/account',
    { id: 'account.hub', machine: accountHubMachine, ...LOADED, view: ({ actor, env }) => <AccountHubPage actor={actor} env={env} routes={memberRoutes} /> },
    menu('account'),
  ),
  page(
    '/account/basic',
    {
      id: 'account.basic',
      machine: basicPageMachine,
      // A saved name or picture: the session checks the member again and the shell shows the new record.
      provide: (m, env) => m.provide({ actions: { ...formActions(env.session), userChanged: () => env.session.send({ type: 'session.verify' }) } }),
      persist: FILES_MEMORY,
      view: ({ actor, env }) => <BasicView actor={actor} user={env.user} />,
    },
    menu('account', 'profile'),
  ),
  page('/account/email', { id: 'account.email', machine: emailChangeMachine, provide: bindContactForm, persist: SESSION, view: EmailView }, menu('account', 'email')),
  page('/account/email/otp', { id: 'account.email', machine: emailChangeMachine, provide: bindContactForm, persist: SESSION, view: EmailCodeView }),
  page('/account/phone', { id: 'account.phone', machine: phoneChangeMachine, provide: bindContactForm, persist: SESSION, view: PhoneView }, menu('account', 'phone')),
  page('/account/phone/otp', { id: 'account.phone', machine: phoneChangeMachine, provide: bindContactForm, persist: SESSION, view: PhoneCodeView }),
  page(
    '/account/bank',
    {
      id: 'account.bank',
      machine: bankDetailsMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: { kind: 'memory', reason: 'an account number being typed is never written to storage' },
      view: BankDetailsView,
    },
    menu('account', 'bank'),
  ),
  page(
    '/account/password',
    {
      id: 'account.password',
      machine: passwordChangeMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: SESSION,
      view: PasswordView,
    },
    menu('account', 'password'),
  ),
  page(
    '/account/wallet-password',
    {
      id: 'account.walletPassword',
      machine: walletPasswordPageMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      // Every value typed here is a secret, never saved; the status loads again.
      persist: { kind: 'memory', reason: 'every value of the page is a secret; the status loads again' },
      view: WalletPasswordPageView,
    },
    menu('account', 'walletPassword'),
  ),
  page(
    '/account/payout',
    {
      id: 'account.payout',
      machine: payoutMethodMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: SESSION,
      view: PayoutMethodView,
    },
    menu('account', 'payoutSettings'),
  ),
  page(
    '/account/two-factor',
    {
      id: 'account.twoFactor',
      machine: twoFactorSettingsMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: { kind: 'memory', reason: 'the authenticator key and the recovery codes are shown once and never saved' },
      view: TwoFactorView,
    },
    menu('account', 'twoFactor'),
  ),
  preferencesPage('/account/language', 'language'),
  preferencesPage('/account/currency', 'currency'),
  preferencesPage('/account/date-format', 'dateFormat'),
  redirect('/account/notification', '/account/notification/email', menu('account', 'notificationSettings')),
  notificationSettingsPage('email'),
  notificationSettingsPage('push'),
  // Shown when the company's intro_video switch is on; otherwise the page says it is not available.
  staticPage('/account/intro-video', (env) => <IntroVideoScreen env={env} />, guarded(PERMISSIONS.introVideo, 'account', 'introVideo')),
  // The address book: the list (rows change on the form pages, so it loads afresh on every visit), new, edit.
  page(
    '/account/addresses',
    {
      id: 'account.addresses',
      machine: addresses.book,
      provide: (m, env) => m.provide({ actions: resourceActions(env.session) }),
      persist: { kind: 'memory', reason: 'addresses change on the form pages; the book loads afresh on every visit' },
      view: AddressBookView,
    },
    menu('account', 'addresses'),
  ),
  page('/account/addresses/new', {
    id: 'account.addresses.new',
    machine: addresses.formPage,
    provide: bindAddressForm,
    persist: SESSION,
    view: AddressFormView,
  }),
  page('/account/addresses/:id', {
    id: 'account.addresses.edit',
    machine: addresses.formPage,
    input: ({ params }) => ({ params: recordId(params.id) }),
    provide: bindAddressForm,
    persist: SESSION,
    view: AddressFormView,
  }),
  // What a phone's bottom bar leaves out of the menu.
  staticPage('/account/more', (env) => <MoreScreen env={env} routes={memberRoutes} />, menu('account', 'more')),
  /**
   * Deleting the account is a page of its own, reached from the hub: a destructive step gets its own
   * address (a link to it, Back out of it), its own form actor (confirmation and password, never saved)
   * and room to say what is deleted and what stays — instead of a dialog over the hub's load.
   */
  page('/account/delete', { id: 'account.delete', machine: accountDeletionMachine, provide: bindAccountDeletion, persist: SESSION, view: DeleteAccountPage }),
  page(
    '/account/faqs',
    {
      id: 'account.faqs',
      machine: faqsListMachine,
      input: ({ url }) => ({ filters: url }),
      url: faqsUrl,
      persist: SESSION,
      view: ({ actor, url, setUrl }) => <FaqsView actor={actor} search={url} onSearch={setUrl} />,
    },
    menu('faqs'),
  ),
  ...supportRoutes,
];

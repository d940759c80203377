/**
 * Routes of the member home area (rendered inside the member shell's Switch, paths relative to
 * /member): /home/{dashboard,binary,package,rank}, /notifications, and the display preferences under
 * /account/{language,currency,date-format}. Each page's actor is created here (usePageActor).
 */
import { createContext, useContext, useEffect, type ReactElement } from 'react';
import type { ActorRefFrom } from 'xstate';
import { Redirect, Route, useParams } from 'wouter';
import { APP_LANGUAGES } from '../../i18n/languages';
import { homeBinaryMachine, homeDashboardMachine, homePackageMachine, homeRankMachine } from '../../machines/home.machine';
import { notificationsMachine } from '../../machines/notifications.machine';
import type { preferencesMachine } from '../../machines/preferences.machine';
import { DEFAULT_CURRENCY } from '../../schemas/common.schema';
import { DEFAULT_DATE_FORMAT } from '../../lib/dates';
import { BinaryView } from '../../views/home/binary.view';
import { DashboardView } from '../../views/home/dashboard.view';
import { HOME_TABS, HomeTabsView, type HomeTab } from '../../views/home/home-tabs.view';
import { NotificationsView } from '../../views/home/notifications.view';
import { PackageView } from '../../views/home/package.view';
import { PreferencesView } from '../../views/home/preferences.view';
import { RankView } from '../../views/home/rank.view';
import { PageLoader } from '../../views/components/page-loader';
import { useSession } from '../session-context';
import { usePageActor } from './page-actor';
import { useTranslation } from 'react-i18next';

/** What the member area shares with its pages: the preferences actor and a way to refresh the badge. */
export interface MemberServices {
  preferences: ActorRefFrom<typeof preferencesMachine> | null;
  refreshBadge: () => void;
}
export const MemberServicesContext = createContext<MemberServices>({ preferences: null, refreshBadge: () => {} });

/** A page restored from this tab's saved state shows it at once and is refreshed in the background. */
function useFreshOnOpen(actor: { getSnapshot(): { value: unknown }; send(e: { type: 'load.refresh' }): void }) {
  useEffect(() => {
    if (actor.getSnapshot().value === 'loaded') actor.send({ type: 'load.refresh' });
  }, [actor]);
}

function DashboardTab() {
  const actor = usePageActor('home.dashboard', homeDashboardMachine);
  useFreshOnOpen(actor);
  const { user } = useSession();
  return <DashboardView actor={actor} referralLink={user?.referral_link} />;
}
function BinaryTab() {
  const actor = usePageActor('home.binary', homeBinaryMachine);
  useFreshOnOpen(actor);
  return <BinaryView actor={actor} />;
}
function PackageTab() {
  const actor = usePageActor('home.package', homePackageMachine);
  useFreshOnOpen(actor);
  return <PackageView actor={actor} />;
}
function RankTab() {
  const actor = usePageActor('home.rank', homeRankMachine);
  useFreshOnOpen(actor);
  return <RankView actor={actor} />;
}

const TAB_VIEWS: Record<HomeTab, () => ReactElement> = { dashboard: DashboardTab, binary: BinaryTab, package: PackageTab, rank: RankTab };

function HomePage() {
  const { tab } = useParams<{ tab: string }>();
  if (!(HOME_TABS as readonly string[]).includes(tab)) return <Redirect to="/home/dashboard" replace />;
  const Tab = TAB_VIEWS[tab as HomeTab];
  return (
    <HomeTabsView tab={tab as HomeTab}>
      <Tab key={tab} />
    </HomeTabsView>
  );
}

function NotificationsPage() {
  const { refreshBadge } = useContext(MemberServicesContext);
  const actor = usePageActor('notifications', notificationsMachine.provide({ actions: { countsChanged: () => refreshBadge() } }));
  useFreshOnOpen(actor);
  return <NotificationsView actor={actor} />;
}

function PreferencesPage() {
  const { preferences } = useContext(MemberServicesContext);
  const { moduleData, send } = useSession();
  const { i18n } = useTranslation();
  if (!preferences) return <PageLoader />;
  return (
    <PreferencesView
      actor={preferences}
      languages={moduleData?.languages.length ? moduleData.languages : APP_LANGUAGES}
      currencies={moduleData?.currencies.length ? moduleData.currencies : [moduleData?.default_currency ?? DEFAULT_CURRENCY]}
      language={i18n.resolvedLanguage ?? i18n.language}
      currency={moduleData?.default_currency.code ?? DEFAULT_CURRENCY.code}
      dateFormat={moduleData?.date_format || DEFAULT_DATE_FORMAT}
      onLanguage={(code) => send({ type: 'language.change', code })}
    />
  );
}

export const homeRoutes: ReactElement[] = [
  <Route key="home-tab" path="/home/:tab">
    <HomePage />
  </Route>,
  <Route key="home" path="/home">
    <Redirect to="/home/dashboard" replace />
  </Route>,
  <Route key="notifications" path="/notifications">
    <NotificationsPage />
  </Route>,
  <Route key="preferences" path={/^\/account\/(language|currency|date-format)\/?$/}>
    <PreferencesPage />
  </Route>,
];

/** Routes of the member network area (rendered inside the member shell's Switch, paths relative to /member). */
import type { ReactElement, ReactNode } from 'react';
import { useActorRef } from '@xstate/react';
import { Redirect, Route, useLocation, useSearch } from 'wouter';
import { useEffect } from 'react';
import { EmptyState } from '../../views/components/empty-state';
import { useTranslation } from 'react-i18next';
import { genealogyMachine } from '../../machines/genealogy.machine';
import { tabularTreeMachine } from '../../machines/tabular-tree.machine';
import { lazyView } from '../lazy-view';
import { NetworkPageView } from '../../views/network/network-page.view';
import {
  DownlineReportView,
  reportFiltersFrom,
  reportFiltersQuery,
  type ReportFilters,
} from '../../views/network/downline-report.view';
import { createPagedListMachine } from '../../machines/paged-list.machine';
import { networkApi, nextPageOf } from '../../api/network';
import type { ReportMember } from '../../schemas/network.schema';
import { usePageActor } from './page-actor';
import {
  referralEarnersMachine,
  referralJoiningsMachine,
  referralRecruitersMachine,
  referralSummaryMachine,
} from '../../machines/referral-pages.machine';
import {
  JoiningsView,
  LeaderboardView,
  ReferralPageView,
  ReferralSummaryView,
} from '../../views/referral/referral.view';
import { useSession } from '../session-context';
import type { User } from '../../schemas/common.schema';

// The tree screens (canvas drawing, layout, virtual rows) load only when opened.
const GenealogyView = lazyView(() => import('../../views/network/genealogy.view').then((m) => m.GenealogyView));
const TabularView = lazyView(() => import('../../views/network/tabular.view').then((m) => m.TabularView));

const ROLE_AFFILIATE = 3;

/** Spec §6: the network is for role Affiliate, never for merchant accounts. */
export function canSeeNetwork(user: Pick<User, 'role_id' | 'account_type'> | null | undefined): boolean {
  return !!user && user.role_id === ROLE_AFFILIATE && user.account_type !== 'merchant';
}

/** Spec §6: merchants do not see the referral programme. */
export function canSeeReferral(user: Pick<User, 'account_type'> | null | undefined): boolean {
  return !!user && user.account_type !== 'merchant';
}

function Forbidden({ ns = 'network' }: { ns?: 'network' | 'referral' }) {
  const { t } = useTranslation(ns);
  return <EmptyState title={t('forbidden')} description=" " />;
}

export function ReferralGuard({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return canSeeReferral(user) ? <>{children}</> : <Forbidden ns="referral" />;
}

function ReferralSummaryRoute() {
  const actor = usePageActor('referralSummary', referralSummaryMachine, {});
  return <ReferralSummaryView actor={actor} {...useFormats()} />;
}

function RecruitersRoute() {
  const actor = usePageActor('referralRecruiters', referralRecruitersMachine, {});
  return <LeaderboardView actor={actor} metric="recruiter" {...useFormats()} />;
}

function EarnersRoute() {
  const actor = usePageActor('referralEarners', referralEarnersMachine, {});
  return <LeaderboardView actor={actor} metric="earner" {...useFormats()} />;
}

function JoiningsRoute() {
  const actor = usePageActor('referralJoinings', referralJoiningsMachine, { filters: {} });
  return <JoiningsView actor={actor} {...useFormats()} />;
}

export function NetworkGuard({ children }: { children: ReactNode }) {
  const { user } = useSession();
  return canSeeNetwork(user) ? <>{children}</> : <Forbidden />;
}

function useFormats() {
  const { moduleData } = useSession();
  return { currency: moduleData?.default_currency ?? null, datePattern: moduleData?.date_format ?? null };
}

/*
 * The tree pages keep their actors in memory only (not persisted to sessionStorage like other pages):
 * a loaded tree can hold tens of thousands of members, more than is worth writing on every change; a
 * reload loads the tree again from the server.
 */
function GenealogyRoute() {
  const search = useSearch();
  const username = new URLSearchParams(search).get('username') ?? undefined;
  const actor = useActorRef(genealogyMachine, { input: { username } });
  return <GenealogyView actor={actor} {...useFormats()} />;
}

function TabularRoute() {
  const actor = useActorRef(tabularTreeMachine);
  return <TabularView actor={actor} {...useFormats()} />;
}

/** The downline report on the one paged-list machine: page number and `after` come from next_page_url. */
export const downlineReportMachine = createPagedListMachine<ReportMember, ReportFilters>('downlineReport', ({ filters, next }) =>
  networkApi
    .downlineReport('placement', { ...filters, page: next?.page, after: next?.after })
    .then((p) => ({ items: p.data, next: nextPageOf(p.next_page_url) })),
);

function DownlineReportRoute({ base }: { base: string }) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = reportFiltersFrom(search);
  const key = reportFiltersQuery(filters);
  const actor = usePageActor('downlineReport', downlineReportMachine, { filters });
  // The URL is the source of the filters: a changed query string (form, back/forward) reloads the list.
  useEffect(() => {
    const current = actor.getSnapshot().context.filters;
    if (reportFiltersQuery(current) !== key) actor.send({ type: 'list.setFilters', filters: reportFiltersFrom(key) });
  }, [actor, key]);
  return (
    <DownlineReportView
      key={key}
      actor={actor}
      onFilters={(f: ReportFilters) => navigate(`${base}${reportFiltersQuery(f)}`)}
      {...useFormats()}
    />
  );
}

export const networkRoutes: ReactElement[] = [
  <Route key="network-genealogy" path="/network/genealogy">
    <NetworkGuard>
      <NetworkPageView tab="genealogy">
        <GenealogyRoute />
      </NetworkPageView>
    </NetworkGuard>
  </Route>,
  <Route key="network-tabular" path="/network/tabular">
    <NetworkGuard>
      <NetworkPageView tab="tabular">
        <TabularRoute />
      </NetworkPageView>
    </NetworkGuard>
  </Route>,
  <Route key="network-downline" path="/network/downline">
    <NetworkGuard>
      <NetworkPageView tab="downline">
        <DownlineReportRoute base="~/member/network/downline" />
      </NetworkPageView>
    </NetworkGuard>
  </Route>,
  <Route key="downlines" path="/downlines">
    <NetworkGuard>
      <DownlineReportRoute base="~/member/downlines" />
    </NetworkGuard>
  </Route>,
  <Route key="network" path="/network">
    <Redirect to="/network/genealogy" replace />
  </Route>,
  <Route key="referral-joinings" path="/referral/joinings">
    <ReferralGuard>
      <JoiningsRoute />
    </ReferralGuard>
  </Route>,
  <Route key="referral-summary" path="/referral/summary">
    <ReferralGuard>
      <ReferralPageView tab="summary">
        <ReferralSummaryRoute />
      </ReferralPageView>
    </ReferralGuard>
  </Route>,
  <Route key="referral-recruiter" path="/referral/recruiter">
    <ReferralGuard>
      <ReferralPageView tab="recruiter">
        <RecruitersRoute />
      </ReferralPageView>
    </ReferralGuard>
  </Route>,
  <Route key="referral-earner" path="/referral/earner">
    <ReferralGuard>
      <ReferralPageView tab="earner">
        <EarnersRoute />
      </ReferralPageView>
    </ReferralGuard>
  </Route>,
  <Route key="referral" path="/referral">
    <Redirect to="/referral/summary" replace />
  </Route>,
];

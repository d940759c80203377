/**
 * The account hub's pages as the member route table binds them (src/app/member/route-table.tsx): the hub
 * and the "more" list read the member menu built from the table itself (`routes`), so they list exactly
 * what the sidebar lists; the hub and the delete page each own a personal-data-export actor next to their
 * page actor (bound like the page's form: its toasts and the forced logout of a 401).
 */
import { useActorRef } from '@xstate/react';
import { useMemo, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { hubGroups, moreEntries } from '../../lib/account-hub';
import { buildMenu, menuSwitches, type MenuRoute } from '../../lib/menu';
import { dataExportMachine, type accountHubMachine } from '../../machines/account/account-hub.machine';
import type { accountDeletionMachine } from '../../machines/account/account-deletion.machine';
import { lazyView } from '../lazy-view';
import { formActions } from './member-forms';
import type { PageEnv } from './member-route';

const AccountHubView = lazyView(() => import('../../views/account/account-hub.view').then((m) => m.AccountHubView));
const DeleteAccountView = lazyView(() => import('../../views/account/delete-account.view').then((m) => m.DeleteAccountView));
const MoreView = lazyView(() => import('../../views/account/more.view').then((m) => m.MoreView));
const IntroVideoView = lazyView(() => import('../../views/account/intro-video.view').then((m) => m.IntroVideoView));
export const FaqsView = lazyView(() => import('../../views/account/faqs.view').then((m) => m.FaqsView));

/** The member menu of `env`'s member (the sidebar's, without the unread badge). */
function useMenu(env: PageEnv, routes: () => readonly MenuRoute[]) {
  const modules = env.moduleData?.modules;
  return useMemo(() => (modules ? { menu: buildMenu(routes(), menuSwitches(modules), env.user), switches: menuSwitches(modules) } : null), [modules, env.user, routes]);
}

/** The personal data export's actor, for as long as the page is shown. */
function useDataExport(env: PageEnv) {
  const [logic] = useState(() => dataExportMachine.provide({ actions: formActions(env.session) }));
  return useActorRef(logic);
}

export function AccountHubPage({ actor, env, routes }: { actor: ActorRefFrom<typeof accountHubMachine>; env: PageEnv; routes: () => readonly MenuRoute[] }) {
  const menu = useMenu(env, routes);
  const exporter = useDataExport(env);
  const groups = useMemo(() => hubGroups(menu?.menu ?? []), [menu]);
  const kycLink = menu?.menu.find((e) => e.id === 'kyc')?.link ?? null;
  return <AccountHubView actor={actor} exporter={exporter} groups={groups} kycLink={kycLink} />;
}

export function DeleteAccountPage({ actor, env }: { actor: ActorRefFrom<typeof accountDeletionMachine>; env: PageEnv }) {
  const exporter = useDataExport(env);
  return <DeleteAccountView actor={actor} exporter={exporter} />;
}

/** The deletion form's bindings: its toasts, and once the account is deleted, signed out to /login. */
export const bindAccountDeletion = (m: typeof accountDeletionMachine, env: PageEnv) =>
  m.provide({ actions: { ...formActions(env.session), apply: () => env.session.send({ type: 'session.forceLogout' }) } });

export function MoreScreen({ env, routes }: { env: PageEnv; routes: () => readonly MenuRoute[] }) {
  const menu = useMenu(env, routes);
  const entries = useMemo(() => (menu ? moreEntries(menu.menu, menu.switches) : []), [menu]);
  return <MoreView entries={entries} />;
}

export function IntroVideoScreen({ env }: { env: PageEnv }) {
  const md = env.moduleData;
  return <IntroVideoView url={md?.modules.intro_video_url ?? null} company={md?.company.name ?? ''} />;
}

/**
 * The member area (everything under /member/), loaded as its own chunk: the member shell (menu from
 * the member route table through src/lib/menu.ts, with the unread badge; header switches; logout)
 * around the member routes of the same table (src/app/member/route-table.tsx), each run by the member
 * page component (src/app/member/member-page.tsx).
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_LANGUAGES } from '../i18n/languages';
import { DEFAULT_DATE_FORMAT } from '../lib/dates';
import { bottomBar, buildMenu, menuSwitches } from '../lib/menu';
import { notificationCountMachine } from '../machines/home.machine';
import { preferencesMachine } from '../machines/preferences.machine';
import { DEFAULT_CURRENCY } from '../schemas/values.schema';
import { ListFormatProvider } from '../views/components/paged-list/list-format';
import { DisplayFormatProvider } from '../views/member/display-format';
import { MemberShellView } from '../views/member/member-shell.view';
import { PageLoader } from '../views/components/page-loader';
import { useSession, useSessionSelector } from './session-context';
import { MemberPageProvider, MemberRoutes, type MemberPageContext } from './member/member-page';
import { bindPreferences } from './member/member-forms';
import type { MemberRoute } from './member/member-route';
import { MEMBER_ROUTES } from './member/route-table';
// The toasts' store and host come with the member area: a toast raised there (a call that failed offline among
// them) has its code at hand instead of fetching it then.
import '../views/components/toasts-host';

export function MemberArea({ routes = MEMBER_ROUTES }: { routes?: readonly MemberRoute[] }) {
  const { user, moduleData, send, actor: session } = useSession();
  const busy = useSessionSelector((s) => s.matches({ authenticated: 'loggingOut' }));
  const path = useSessionSelector((s) => s.context.path);
  const { i18n } = useTranslation('common');

  const counter = useActorRef(notificationCountMachine, { input: { autoStart: true } });
  const unread = useSelector(counter, (s) => s.context.data?.total_count ?? 0);
  // The badge follows navigation and the window regaining focus (the first load starts with the actor).
  const seenPath = useRef(path);
  useEffect(() => {
    if (seenPath.current === path) return;
    seenPath.current = path;
    counter.send({ type: 'load.refresh' });
  }, [counter, path]);
  useEffect(() => {
    const onFocus = () => counter.send({ type: 'load.refresh' });
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [counter]);

  // The header's currency switch saves through its own preferences actor, bound like the preferences pages'.
  const [preferencesLogic] = useState(() => bindPreferences(preferencesMachine, session));
  const preferences = useActorRef(preferencesLogic);
  const currencyBusy = useSelector(preferences, (s) => s.hasTag('busy'));

  const modules = moduleData?.modules;
  const menu = useMemo(
    () => (modules && user ? buildMenu(routes, menuSwitches(modules), user, { notificationCount: unread }) : []),
    [routes, modules, user, unread],
  );
  const pages = useMemo<MemberPageContext | null>(
    () =>
      modules && user
        ? {
            access: { switches: menuSwitches(modules), user },
            env: { user, moduleData: moduleData ?? null, session, refreshBadge: () => counter.send({ type: 'load.refresh' }) },
          }
        : null,
    [modules, moduleData, user, session, counter],
  );
  const listFormat = useMemo(
    () => ({
      currency: moduleData?.default_currency ?? DEFAULT_CURRENCY,
      dateFormat: moduleData?.date_format || DEFAULT_DATE_FORMAT,
      language: i18n.resolvedLanguage ?? i18n.language ?? 'en',
    }),
    [moduleData, i18n.resolvedLanguage, i18n.language],
  );
  const bottom = useMemo(() => (modules ? bottomBar(menu, menuSwitches(modules)) : []), [menu, modules]);

  if (!user) return <PageLoader fullScreen />;
  const currency = moduleData?.default_currency ?? DEFAULT_CURRENCY;
  return (
    <MemberPageProvider value={pages}>
      <DisplayFormatProvider currency={currency} dateFormat={moduleData?.date_format}>
        <MemberShellView
          user={user}
          company={moduleData?.company}
          languages={moduleData?.languages.length ? moduleData.languages : APP_LANGUAGES}
          currentLanguage={i18n.resolvedLanguage ?? i18n.language}
          onLanguage={(code) => send({ type: 'language.change', code })}
          onLogout={() => send({ type: 'session.logout' })}
          busy={busy}
          menu={menu}
          bottom={bottom}
          path={path}
          currencies={modules?.currency ? moduleData?.currencies : []}
          currentCurrency={currency.code}
          onCurrency={(code) => preferences.send({ type: 'preferences.save', values: { currency: code } })}
          currencyBusy={currencyBusy}
        >
          <ListFormatProvider value={listFormat}>
            <MemberRoutes routes={routes} />
          </ListFormatProvider>
        </MemberShellView>
      </DisplayFormatProvider>
    </MemberPageProvider>
  );
}

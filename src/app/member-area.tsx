/**
 * The member area (everything under /member/), loaded as its own chunk: the member shell (menu from
 * src/lib/menu.ts with the unread badge, header switches, logout) around the member routes. Route
 * order: home, wallet, network, then the shell's own fallbacks — sections not open yet show a
 * "coming soon" page inside the shell, unknown paths the not-found page inside the shell.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import i18next from 'i18next';
import { Redirect, Route, Switch } from 'wouter';
import { APP_LANGUAGES } from '../i18n/languages';
import { bottomBar, buildMenu, menuSwitches } from '../lib/menu';
import { showToast } from '../lib/toast';
import { notificationCountMachine } from '../machines/home.machine';
import { preferencesMachine } from '../machines/preferences.machine';
import { DEFAULT_CURRENCY } from '../schemas/common.schema';
import { ComingSoonView } from '../views/member/coming-soon.view';
import { DisplayFormatProvider } from '../views/member/display-format';
import { MemberShellView } from '../views/member/member-shell.view';
import { NotFoundView } from '../views/public/not-found.view';
import { PageLoader } from '../views/components/page-loader';
import { useSession, useSessionSelector } from './session-context';
import { homeRoutes, MemberServicesContext } from './member/home.routes';
import { walletRoutes } from './member/wallet.routes';
import { networkRoutes } from './member/network.routes';

export const MEMBER_HOME = '/home/dashboard';

/** Member sections of spec §2 that are not open yet, by first path segment → the menu label of the page. */
const COMING_SOON: Record<string, string> = {
  account: 'menu.account',
  kyc: 'menu.kyc',
  crm: 'menu.crm',
  mail: 'menu.mailbox',
  story: 'menu.stories',
  events: 'menu.events',
  event: 'menu.events',
  support: 'menu.support',
  packages: 'menu.packagePayment',
  shopping: 'menu.products',
  payment: 'menu.packagePayment',
  otc: 'menu.otcRequestPayment',
  signup: 'menu.memberSignup',
};
const COMING_SOON_PATH = new RegExp(`^/(${Object.keys(COMING_SOON).join('|')})(?:/.*)?$`);

function ComingSoonPage({ path }: { path: string }) {
  const segment = path.split('/')[1] ?? '';
  const key = path.startsWith('/account/faqs') ? 'menu.faqs' : COMING_SOON[segment];
  return <ComingSoonView titleKey={key} />;
}

export function MemberArea() {
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

  const preferences = useActorRef(
    preferencesMachine.provide({
      actions: {
        // The saved choice re-renders every amount and date, and is kept in module_data for the next visit.
        apply: (_, { values, user: saved }) => {
          const md = session.getSnapshot().context.moduleData;
          if (!md) return;
          const currency = values.currency ? md.currencies.find((c) => c.code === values.currency) : undefined;
          send({
            type: 'modules.loaded',
            modules: {
              ...md,
              user: saved,
              default_currency: currency ?? md.default_currency,
              date_format: values.date_format ?? saved.date_format ?? md.date_format,
            },
          });
        },
        notify: (_, { kind, key }) => {
          showToast({ kind, message: i18next.t(key) as string });
        },
      },
    }),
  );
  const currencyBusy = useSelector(preferences, (s) => s.hasTag('busy'));
  const services = useMemo(() => ({ preferences, refreshBadge: () => counter.send({ type: 'load.refresh' }) }), [preferences, counter]);

  const modules = moduleData?.modules;
  const menu = useMemo(
    () => (modules && user ? buildMenu(menuSwitches(modules), user, { notificationCount: unread }) : []),
    [modules, user, unread],
  );
  const bottom = useMemo(() => (modules ? bottomBar(menu, menuSwitches(modules)) : []), [menu, modules]);

  if (!user) return <PageLoader fullScreen />;
  const currency = moduleData?.default_currency ?? DEFAULT_CURRENCY;
  return (
    <MemberServicesContext.Provider value={services}>
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
          <Switch>
            {homeRoutes}
            {walletRoutes}
            {networkRoutes}
            <Route path="/">
              <Redirect to={MEMBER_HOME} replace />
            </Route>
            <Route path={COMING_SOON_PATH}>
              <ComingSoonPage path={path.replace(/^\/member/, '')} />
            </Route>
            <Route>
              <NotFoundView homeHref={`~/member${MEMBER_HOME}`} />
            </Route>
          </Switch>
        </MemberShellView>
      </DisplayFormatProvider>
    </MemberServicesContext.Provider>
  );
}

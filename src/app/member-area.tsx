/**
 * The member area (everything under /member/), loaded as its own chunk: the member shell with the
 * member's name, the language switch and logout, and the member routes. For now the home
 * dashboard is a placeholder page.
 */
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch } from 'wouter';
import { APP_LANGUAGES } from '../i18n/languages';
import { MemberShellView } from '../views/member/member-shell.view';
import { NotFoundView } from '../views/public/not-found.view';
import { PageLoader } from '../views/components/page-loader';
import { fullName } from '../views/components/person';
import { useSession, useSessionSelector } from './session-context';
import { homeRoutes } from './member/home.routes';
import { walletRoutes } from './member/wallet.routes';
import { networkRoutes } from './member/network.routes';

export const MEMBER_HOME = '/home/dashboard';

function HomePlaceholder() {
  const { t } = useTranslation('common');
  const { user } = useSession();
  return (
    <Stack gap="xs">
      <Title order={1} size="h2">
        {user ? fullName(user) : t('appName')}
      </Title>
      <Text c="dimmed">{t('comingSoon')}</Text>
    </Stack>
  );
}

export function MemberArea() {
  const { user, moduleData, send } = useSession();
  const busy = useSessionSelector((s) => s.matches({ authenticated: 'loggingOut' }));
  const { i18n } = useTranslation('common');
  if (!user) return <PageLoader fullScreen />;
  return (
    <MemberShellView
      user={user}
      company={moduleData?.company}
      languages={moduleData?.languages.length ? moduleData.languages : APP_LANGUAGES}
      currentLanguage={i18n.resolvedLanguage ?? i18n.language}
      onLanguage={(code) => send({ type: 'language.change', code })}
      onLogout={() => send({ type: 'session.logout' })}
      busy={busy}
    >
      <Switch>
        {homeRoutes}
        {walletRoutes}
        {networkRoutes}
        <Route path={MEMBER_HOME}>
          <HomePlaceholder />
        </Route>
        <Route path="/home">
          <Redirect to={MEMBER_HOME} replace />
        </Route>
        <Route path="/">
          <Redirect to={MEMBER_HOME} replace />
        </Route>
        <Route>
          <NotFoundView homeHref={`~/member${MEMBER_HOME}`} />
        </Route>
      </Switch>
    </MemberShellView>
  );
}

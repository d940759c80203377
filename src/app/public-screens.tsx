/**
 * Public screens that belong to the session rather than to a flow view: account blocked, demo
 * blocked, and the SSO login/logout status. They select from the session (or the SSO flow) and
 * pass props to the presentational views.
 */
import { useSelector } from '@xstate/react';
import { AccountBlockedView } from '../views/public/account-blocked.view';
import { DemoBlockedView } from '../views/public/demo-blocked.view';
import { SsoStatusView, type SsoStatus } from '../views/public/sso.view';
import { PageLoader } from '../views/components/page-loader';
import { FlowRoute, type FlowActor } from './flow-route';
import { useSession, useSessionSelector } from './session-context';

export function AccountBlockedScreen() {
  const { status, company, authenticated, send } = useSession();
  const busy = useSessionSelector((s) => s.hasTag('busy'));
  // Not blocked: the session sends this page to root.
  if (status !== 'accountBlocked') return <PageLoader />;
  return (
    <AccountBlockedView
      company={company}
      authenticated={authenticated}
      busy={busy}
      onTryAgain={() => send({ type: 'blocked.tryAgain' })}
      onLogout={() => send({ type: 'blocked.logout' })}
    />
  );
}

export function DemoBlockedScreen() {
  const { status, company, moduleData, authenticated, send } = useSession();
  const busy = useSessionSelector((s) => s.hasTag('busy'));
  if (status !== 'demoBlocked') return <PageLoader />;
  return (
    <DemoBlockedView
      demoInfo={moduleData?.demo_info ?? null}
      company={company}
      authenticated={authenticated}
      busy={busy}
      onTryAgain={() => send({ type: 'blocked.tryAgain' })}
      onLogout={() => send({ type: 'blocked.logout' })}
    />
  );
}

function ssoStatus(snapshot: { matches(value: string): boolean }): SsoStatus {
  if (snapshot.matches('connectionError')) return 'connectionError';
  if (snapshot.matches('serverError')) return 'serverError';
  return 'connecting';
}

function SsoStatusOf({ actor }: { actor: FlowActor<'ssoLogin'> | FlowActor<'ssoLogout'> }) {
  const status = useSelector(actor as FlowActor<'ssoLogin'>, ssoStatus);
  return <SsoStatusView status={status} onRetry={() => actor.send({ type: 'sso.retry' })} />;
}

export function SsoLoginScreen() {
  return <FlowRoute flow="ssoLogin" render={(actor) => <SsoStatusOf actor={actor} />} />;
}

export function SsoLogoutScreen() {
  return <FlowRoute flow="ssoLogout" render={(actor) => <SsoStatusOf actor={actor} />} />;
}

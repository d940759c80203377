/**
 * Every route of spec §2. Public routes render inside the public layout; flow routes mount the view
 * of the flow the session invoked for the area (src/app/flow-route.tsx). Views load lazily per
 * route, and the member area (/member/*) is its own chunk: nothing here imports member code.
 */
import type { ComponentType, ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { FlowRoute, type FlowActor, type FlowKey } from './app/flow-route';
import { lazyView } from './app/lazy-view';
import { loadedMemberArea, loadMemberArea } from './app/member-preload';
import { PublicPage } from './app/public-page';
import { sessionStatus, useSessionSelector } from './app/session-context';
import { PageLoader } from './views/components/page-loader';
// The sign-in screens are the landing page of most visits: bundled with the entry, not fetched after it.
import { LoginView } from './views/public/login.view';
import { LoginContinueView } from './views/public/login-continue.view';

const LoginOtpView = lazyView(() => import('./views/public/login-otp.view').then((m) => m.LoginOtpView));
const PasswordForgotView = lazyView(() => import('./views/public/password-forgot.view').then((m) => m.PasswordForgotView));
const PasswordForgotOtpView = lazyView(() => import('./views/public/password-forgot-otp.view').then((m) => m.PasswordForgotOtpView));
const PasswordResetView = lazyView(() => import('./views/public/password-reset.view').then((m) => m.PasswordResetView));
const PasswordResetSuccessView = lazyView(() =>
  import('./views/public/password-reset-success.view').then((m) => m.PasswordResetSuccessView),
);
const SignupView = lazyView(() => import('./views/public/signup.view').then((m) => m.SignupView));
const SignupOtpView = lazyView(() => import('./views/public/signup-otp.view').then((m) => m.SignupOtpView));
const SignupSuccessView = lazyView(() => import('./views/public/signup-success.view').then((m) => m.SignupSuccessView));
const RequestDemoView = lazyView(() => import('./views/public/request-demo.view').then((m) => m.RequestDemoView));
const RequestDemoSuccessView = lazyView(() => import('./views/public/request-demo-success.view').then((m) => m.RequestDemoSuccessView));
// Pages few visits see: blocked accounts, single sign-on, not found.
const AccountBlockedScreen = lazyView(() => import('./app/public-screens').then((m) => m.AccountBlockedScreen));
const DemoBlockedScreen = lazyView(() => import('./app/public-screens').then((m) => m.DemoBlockedScreen));
const SsoLoginScreen = lazyView(() => import('./app/public-screens').then((m) => m.SsoLoginScreen));
const SsoLogoutScreen = lazyView(() => import('./app/public-screens').then((m) => m.SsoLogoutScreen));
const NotFoundView = lazyView(() => import('./views/public/not-found.view').then((m) => m.NotFoundView));
const MemberArea = lazyView(
  () => loadMemberArea().then((m) => m.MemberArea),
  () => loadedMemberArea()?.MemberArea,
);

function Public({ children }: { children: ReactNode }) {
  return <PublicPage>{children}</PublicPage>;
}

/**
 * /member/*: the member chunk loads only for a signed-in member; the session redirects guests. (The page's first
 * calls went out when the session signed the member in: its prepareMemberPage, src/app/member-preload.ts.)
 */
function MemberGate() {
  const status = useSessionSelector(sessionStatus);
  if (status !== 'authenticated') return <PageLoader fullScreen />;
  return <MemberArea />;
}

/** A flow's page: the public layout around the view of the flow the session invoked for the area. */
function flowPage<K extends FlowKey>(path: string, flow: K, View: ComponentType<{ actor: FlowActor<K> }>) {
  return (
    <Route path={path}>
      <Public>
        <FlowRoute flow={flow} render={(actor) => <View actor={actor} />} />
      </Public>
    </Route>
  );
}

/** A public page without a flow of its own. */
function publicPage(path: string, View: ComponentType) {
  return (
    <Route path={path}>
      <Public>
        <View />
      </Public>
    </Route>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/member" nest>
        <MemberGate />
      </Route>
      {/* The session sends / to the dashboard or to login. */}
      <Route path="/">
        <PageLoader fullScreen />
      </Route>
      {flowPage('/login', 'login', LoginView)}
      {flowPage('/login/continue', 'login', LoginContinueView)}
      {flowPage('/login/two-factor', 'login', LoginContinueView)}
      {flowPage('/login/otp', 'otpLogin', LoginOtpView)}
      {flowPage('/password/forgot', 'passwordReset', PasswordForgotView)}
      {flowPage('/password/forgot/otp', 'passwordReset', PasswordForgotOtpView)}
      {flowPage('/password/reset', 'passwordReset', PasswordResetView)}
      {flowPage('/password/reset/success', 'passwordReset', PasswordResetSuccessView)}
      {flowPage('/signup', 'signup', SignupView)}
      {flowPage('/signup/otp', 'signup', SignupOtpView)}
      {flowPage('/signup/success', 'signup', SignupSuccessView)}
      {flowPage('/request-demo', 'requestDemo', RequestDemoView)}
      {flowPage('/request-demo/success', 'requestDemo', RequestDemoSuccessView)}
      {publicPage('/sso_login', SsoLoginScreen)}
      {publicPage('/sso_logout', SsoLogoutScreen)}
      {publicPage('/account-blocked', AccountBlockedScreen)}
      {publicPage('/demo-blocked', DemoBlockedScreen)}
      <Route>
        <Public>
          <NotFoundView />
        </Public>
      </Route>
    </Switch>
  );
}

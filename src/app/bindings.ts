/**
 * The root's bindings: the named actions of the session machine and of every flow it invokes
 * (navigate, notify, changeLanguage, openInNewTab) get their browser implementations here, once.
 */
import i18next from 'i18next';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { changeLanguage as changeI18nLanguage } from '../i18n/i18n';
import { showToast, updateToast } from '../lib/toast';
import { prefetchMemberArea, prepareMemberPage } from './member-preload';
import { loadTwoFactorStep } from '../views/public/auth/login-flow';
import type { NavigateParams, NotifyParams } from '../lib/flow';
import { sessionMachine } from '../machines/session.machine';
import { loginMachine } from '../machines/login.machine';
import { deferredFlows } from '../machines/deferred-flows';
import type { OpenInNewTabParams } from '../machines/logout-call';
import type { PromiseToastNotifyParams } from '../machines/promise-toast.machine';

export interface SessionBindings {
  navigate(to: string, replace?: boolean): void;
  notify(params: NotifyParams): void;
  changeLanguage(code: string): void;
  /** Opens a page of another site in a new tab (the storefront's single sign-on logout). */
  openInNewTab(url: string): void;
  /** A member was just signed in and lands on the member page at `path`: get it ready (code, translations, first calls). */
  prepareMemberPage(path: string): void;
  /** A member is signing in (typing on /login, or on the password step): the member area's code and first translations, and the two-factor step's code. */
  prefetchMemberArea(): void;
}

/** Runs `fn` now when translations are ready, else as soon as they are. */
function whenI18nReady(fn: () => void): void {
  if (i18next.isInitialized) fn();
  else i18next.on('initialized', fn);
}

export const browserBindings: SessionBindings = {
  navigate: (to, replace) => browserNavigate(to, { replace: !!replace }),
  notify: ({ kind, key, values }) => {
    showToast({ kind, message: i18next.t(key, values ?? {}) as string });
  },
  changeLanguage: (code) => whenI18nReady(() => void changeI18nLanguage(code)),
  openInNewTab: (url) => void window.open(url, '_blank', 'noopener'),
  prepareMemberPage,
  prefetchMemberArea: () => {
    prefetchMemberArea();
    // A member with two-factor sign-in on goes on to that step from the password one.
    void loadTwoFactorStep().catch(() => undefined);
  },
};

/** `notify` of promise-toast machines: the three stages share one toast. */
export function notifyPromiseToast({ id, kind, key, values }: PromiseToastNotifyParams): void {
  const message = i18next.t(key, values ?? {}) as string;
  if (kind === 'loading') showToast({ id, kind, message });
  else updateToast(id, { kind, message });
}

/** The session machine with its and its flows' named actions bound. */
export function bindSessionMachine(b: SessionBindings) {
  const navigate = (_: unknown, p: NavigateParams) => b.navigate(p.to, p.replace);
  const notify = (_: unknown, p: NotifyParams) => b.notify(p);
  const openInNewTab = (_: unknown, p: OpenInNewTabParams) => p.url && b.openInNewTab(p.url);
  const flow = { actions: { navigate, notify } };
  return sessionMachine.provide({
    actions: {
      navigate,
      notify,
      openInNewTab,
      changeLanguage: (_, p) => p.code && b.changeLanguage(p.code),
      prepareMemberPage: (_, p) => b.prepareMemberPage(p.path),
    },
    actors: {
      login: loginMachine.provide({ actions: { navigate, notify, prepareMemberArea: () => b.prefetchMemberArea() } }),
      otpLogin: deferredFlows.otpLogin.provide(flow),
      passwordReset: deferredFlows.passwordReset.provide(flow),
      signup: deferredFlows.signup.provide(flow),
      requestDemo: deferredFlows.requestDemo.provide(flow),
      ssoLogin: deferredFlows.ssoLogin.provide(flow),
      ssoLogout: deferredFlows.ssoLogout.provide(flow),
      blockedLogout: deferredFlows.blockedLogout.provide({ actions: { navigate, notify, openInNewTab } }),
    },
  });
}

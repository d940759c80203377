/**
 * Flows that only some visits need — OTP login, password reset, signup, request demo, single sign-on
 * login and logout, the blocked screens' logout — are loaded the first time their area is entered (the
 * blocked screens' logout: when its button is pressed), so the first page carries the sign-in flow only.
 *
 * The session machine invokes each of them through a stand-in: an object that behaves exactly as
 * the loaded machine (every property and method is the machine's own, `provide` included) and is
 * usable once the machine's module has arrived. The app makes sure of that before it routes to an
 * area (`loadFlowFor`), before the boot answer is acted on, and before a saved state holding such a
 * flow is restored; using a stand-in earlier throws `FlowNotLoadedError`.
 */
import { areaOf } from '../lib/paths';
import type { otpLoginMachine } from './otp-login.machine';
import type { passwordResetMachine } from './password-reset.machine';
import type { signupMachine } from './signup.machine';
import type { requestDemoMachine } from './request-demo.machine';
import type { ssoLoginMachine } from './sso-login.machine';
import type { ssoLogoutMachine } from './sso-logout.machine';
import type { blockedLogoutMachine } from './blocked-logout.machine';

export class FlowNotLoadedError extends Error {
  constructor(readonly area: string) {
    super(`The ${area} flow is used before its code has loaded`);
    this.name = 'FlowNotLoadedError';
  }
}

interface Slot {
  load(): Promise<object>;
  value?: object;
  pending?: Promise<void>;
}

const slots: Record<string, Slot> = {
  otpLogin: { load: () => import('./otp-login.machine').then((m) => m.otpLoginMachine) },
  passwordReset: { load: () => import('./password-reset.machine').then((m) => m.passwordResetMachine) },
  signup: { load: () => import('./signup.machine').then((m) => m.signupMachine) },
  requestDemo: { load: () => import('./request-demo.machine').then((m) => m.requestDemoMachine) },
  ssoLogin: { load: () => import('./sso-login.machine').then((m) => m.ssoLoginMachine) },
  ssoLogout: { load: () => import('./sso-logout.machine').then((m) => m.ssoLogoutMachine) },
  blockedLogout: { load: () => import('./blocked-logout.machine').then((m) => m.blockedLogoutMachine) },
};

/** An object standing for `resolve()`'s result, resolved at its first use and then kept. */
function standIn<T extends object>(resolve: () => T): T {
  let real: T | undefined;
  const target = () => (real ??= resolve());
  return new Proxy({} as T, {
    get(_, prop) {
      // `provide` before loading gives another stand-in: bound now, resolved on first use.
      if (prop === 'provide') return (impl: unknown) => standIn(() => (target() as { provide(i: unknown): T }).provide(impl));
      const t = target();
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
    has: (_, prop) => prop in target(),
  });
}

function deferred<T extends object>(area: keyof typeof slots): T {
  return standIn(() => {
    const value = slots[area].value;
    if (!value) throw new FlowNotLoadedError(area);
    return value as T;
  });
}

export const deferredFlows = {
  otpLogin: deferred<typeof otpLoginMachine>('otpLogin'),
  passwordReset: deferred<typeof passwordResetMachine>('passwordReset'),
  signup: deferred<typeof signupMachine>('signup'),
  requestDemo: deferred<typeof requestDemoMachine>('requestDemo'),
  ssoLogin: deferred<typeof ssoLoginMachine>('ssoLogin'),
  ssoLogout: deferred<typeof ssoLogoutMachine>('ssoLogout'),
  blockedLogout: deferred<typeof blockedLogoutMachine>('blockedLogout'),
};

/** True when the area's flow can be invoked now (areas whose flow is part of the first page always can). */
export function isFlowLoaded(area: string | null | undefined): boolean {
  const slot = area ? slots[area] : undefined;
  return !slot || !!slot.value;
}

/** Loads the area's flow (once; a failed load is tried again on the next call). */
export function loadFlow(area: string | null | undefined): Promise<void> {
  const slot = area ? slots[area] : undefined;
  if (!slot || slot.value) return Promise.resolve();
  slot.pending ??= slot.load().then(
    (value) => {
      slot.value = value;
    },
    (error: unknown) => {
      slot.pending = undefined;
      throw error;
    },
  );
  return slot.pending;
}

/** Loads the flow of the area `path` belongs to. */
export const loadFlowFor = (path: string): Promise<void> => loadFlow(areaOf(path));

/** Loads every deferred flow (tests, tools). */
export const loadAllFlows = (): Promise<void> => Promise.all(Object.keys(slots).map(loadFlow)).then(() => undefined);

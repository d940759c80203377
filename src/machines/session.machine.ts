/**
 * The root of the app (spec §2, §4, §6, §8): booting, authenticated, unauthenticated, account
 * blocked, demo blocked, and the boot error screens. It owns the URL → flow mapping: inside
 * `unauthenticated` and `authenticated` there is one substate per flow area, invoking the flow with
 * a stable id equal to the area key, so `getPersistedSnapshot()` of this actor captures the whole
 * app's flow state. `route.changed` events (sent on every location change) pick the area; inside
 * an area they are forwarded to the flow, so Back inside a multi-step flow moves it back a step.
 *
 * Navigation, toasts and language changes are named actions bound once at the root with
 * `.provide({ actions })`; storage writes have real default implementations (src/lib/storage).
 */
import { assign, fromPromise, raise, sendTo, setup, spawnChild } from 'xstate';
import { authApi } from '../api/auth';
import { preferencesApi } from '../api/preferences';
import { setModulesLoaded } from '../api/client';
import { ConnectionError, errorInfo, toApiError, type ErrorInfo } from '../api/errors';
import type { LoginResponse } from '../schemas/auth.schema';
import { USER_STATUS, type ModuleData, type User } from '../schemas/common.schema';
import { storage } from '../lib/storage';
import {
  ACCOUNT_BLOCKED_PATH,
  DASHBOARD_PATH,
  DEMO_BLOCKED_PATH,
  GUEST_ONLY_AREAS,
  LOGIN_PATH,
  ROOT_PATH,
  areaOf,
  isBlockedPath,
  isMemberPath,
  loginRedirectFor,
  normalisePath,
  safeRedirect,
  searchParam,
  splitLocation,
  type FlowArea,
} from '../lib/paths';
import { isLoggedInOutput, isLoggedOutOutput, type NavigateParams, type NotifyParams } from '../lib/flow';
import { loginMachine } from './login.machine';
import { deferredFlows, loadFlow, loadFlowFor } from './deferred-flows';
import type { LogoutResult, OpenInNewTabParams } from './logout-call';

export const HOME_MENU = 'home';

export interface SessionInput {
  path: string;
  search: string;
  /** Module data saved by an earlier visit (storage module_data), shown until the boot answer. */
  moduleData?: ModuleData | null;
}

export interface SessionContext {
  /** The current location, kept in step with the router. */
  path: string;
  search: string;
  moduleData: ModuleData | null;
  user: User | null;
  /** A signed-in session exists on this device (also inside the blocked states: offers Logout). */
  authenticated: boolean;
  /** Where to go after signing in (a safe member-area path from ?redirect=). */
  redirect: string | null;
  /** The current menu entry of the member area; reset to home on logout (spec §2). */
  menu: string;
  error: ErrorInfo | null;
}

export type SessionEvent =
  | { type: 'route.changed'; path: string; search: string }
  | { type: 'modules.loaded'; modules: ModuleData }
  | { type: 'session.retry' }
  | { type: 'session.logout' }
  | { type: 'session.forceLogout' }
  | { type: 'session.userBlocked' }
  | { type: 'session.demoBlocked' }
  | { type: 'blocked.tryAgain' }
  | { type: 'blocked.logout' }
  | { type: 'language.change'; code: string }
  | { type: 'menu.select'; id: string }
  /** Sent after a saved flow state is restored: the stored token is checked again (it may be revoked). */
  | { type: 'session.verify' }
  /** Raised on entering a flow area: hands the flow the location it started at. */
  | { type: 'flow.started' };

export interface BootResult {
  /** The signed-in member, or null for a guest. */
  user: User | null;
  /** A stored token was refused (401): the stored session has been cleared. */
  expired: boolean;
}

/**
 * Boot (spec §4, §7): with a stored token GET /api/auth_check (401 means not signed in: the stored
 * session is cleared), otherwise GET /api/auth/dummy. Both carry load_modules=1, so the module data
 * arrives through the client's onModules hook before this resolves. Meanwhile the flow of the page
 * the app opened on (`path`) is loaded when it is one of the deferred flows.
 */
export async function bootCall(path = '/'): Promise<BootResult> {
  const [result] = await Promise.all([
    authCall(),
    loadFlowFor(path).catch(() => {
      throw new ConnectionError('The page could not be loaded');
    }),
  ]);
  return result;
}

async function authCall(): Promise<BootResult> {
  setModulesLoaded(false);
  if (storage.get('auth_token')) {
    try {
      return { user: await authApi.authCheck(), expired: false };
    } catch (e) {
      if (toApiError(e).kind !== 'unauthorized') throw e;
      storage.clearSession();
      await authApi.dummy();
      return { user: null, expired: true };
    }
  }
  await authApi.dummy();
  return { user: null, expired: false };
}

type DoneEvent = { type: string; output?: unknown };
type ErrorEvent = { type: string; error?: unknown };
const outputOf = (event: unknown) => (event as DoneEvent).output;
const errorOf = (event: unknown) => (event as ErrorEvent).error;
const loginResponseOf = (event: unknown): LoginResponse | null => {
  const output = outputOf(event);
  return isLoggedInOutput(output) ? output.response : null;
};

// The other flows load when first needed (src/machines/deferred-flows.ts).
const FLOW_ACTORS = {
  login: loginMachine,
  ...deferredFlows,
};

/** Clears what logout clears (spec §4): user, session, menu, cached data and the cart. */
/** Where a member signed in on boot lands: the member page asked for, else (the root, a guest page) the dashboard. */
const landingPath = (path: string) => (isMemberPath(path) ? path : DASHBOARD_PATH);

const signedOutContext = (context: SessionContext): Partial<SessionContext> => ({
  user: null,
  authenticated: false,
  redirect: null,
  menu: HOME_MENU,
  moduleData: context.moduleData ? { ...context.moduleData, user: null, cart: [], customer_token: null } : null,
});

const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    children: {} as {
      login: 'login';
      otpLogin: 'otpLogin';
      passwordReset: 'passwordReset';
      signup: 'signup';
      requestDemo: 'requestDemo';
      ssoLogin: 'ssoLogin';
      ssoLogout: 'ssoLogout';
      blockedLogout: 'blockedLogout';
    },
    tags: {} as 'busy' | 'error',
  },
  actors: {
    boot: fromPromise<BootResult, { path: string }>(({ input }) => bootCall(input.path)),
    /** The logout call (and the storefront links it builds) arrives with the member area (src/app/member-preload.ts). */
    logout: fromPromise<LogoutResult>(() => import('./logout-call').then((m) => m.logoutCall())),
    verify: fromPromise<User>(() => authApi.authCheck()),
    /** The code of a flow loaded on first use (src/machines/deferred-flows.ts). */
    loadFlow: fromPromise<void, { area: string }>(({ input }) => loadFlow(input.area)),
    /** A signed-in member's language choice is their setting (spec §1): saved on the server too. */
    saveLanguage: fromPromise<void, { code: string }>(async ({ input }) => {
      await preferencesApi.update({ language: input.code }).catch(() => undefined);
    }),
    ...FLOW_ACTORS,
  },
  actions: {
    // Bound at the root.
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: NotifyParams) => {},
    changeLanguage: (_, _params: { code: string }) => {},
    /**
     * A member is signed in and about to land on `path` (a member page): its code, translations and first
     * calls can be asked for now, side by side, instead of once the page has rendered (src/app/member-preload.ts).
     */
    prepareMemberPage: (_, _params: { path: string }) => {},
    openInNewTab: (_, _params: OpenInNewTabParams) => {},
    // Storage writes.
    saveModules: (_, params: { moduleData: ModuleData | null }) => {
      if (params.moduleData) storage.setJSON('module_data', params.moduleData);
    },
    saveUser: (_, params: { user: User | null }) => {
      storage.setJSON('user_data', params.user);
    },
    saveLogin: (_, params: { response: LoginResponse }) => {
      const r = params.response;
      storage.set('auth_token', r.token);
      storage.setJSON('user_data', r.user);
      storage.set('store_auth_token', r.store_token || null);
      storage.set('sso_token', r.sso_token || null);
    },
    clearSession: () => storage.clearSession(),
    // Context.
    setLocation: assign(({ event }) => (event.type === 'route.changed' ? { path: normalisePath(event.path), search: event.search } : {})),
    /** Keeps the context location in step with a navigation (the router's echo is then a no-op). */
    moveTo: assign((_, params: NavigateParams) => splitLocation(params.to)),
    captureRedirect: assign({
      redirect: ({ context }) => safeRedirect(searchParam(context.search, 'redirect')) ?? context.redirect,
    }),
    forwardRoute: sendTo(
      (_, params: { area: FlowArea }) => params.area,
      ({ context }) => ({ type: 'route.changed' as const, path: context.path, search: context.search }),
    ),
    setModules: assign({
      moduleData: ({ event, context }) => (event.type === 'modules.loaded' ? event.modules : context.moduleData),
    }),
    setBootUser: assign(({ event, context }) => {
      const result = outputOf(event) as BootResult;
      return {
        user: result.user,
        authenticated: result.user !== null,
        error: null,
        moduleData: context.moduleData && result.user ? { ...context.moduleData, user: result.user } : context.moduleData,
      };
    }),
    setBootError: assign({ error: ({ event }) => errorInfo(errorOf(event)) }),
    applyLogin: assign(({ event, context }) => {
      const r = loginResponseOf(event)!;
      return {
        user: r.user,
        authenticated: true,
        error: null,
        menu: HOME_MENU,
        moduleData: context.moduleData
          ? {
              ...context.moduleData,
              user: r.user,
              cart: r.cart,
              default_currency: r.default_currency,
              default_language: r.default_language,
              date_format: r.user.date_format ?? context.moduleData.date_format,
              is_master_demo: r.is_master_demo,
            }
          : null,
      };
    }),
    signOut: assign(({ context }) => signedOutContext(context)),
    setMenu: assign({ menu: ({ event, context }) => (event.type === 'menu.select' ? event.id : context.menu) }),
    setLanguage: assign({
      moduleData: ({ event, context }) => {
        if (event.type !== 'language.change' || !context.moduleData) return context.moduleData;
        const language = context.moduleData.languages.find((l) => l.code === event.code);
        return language ? { ...context.moduleData, default_language: language } : context.moduleData;
      },
    }),
    markAuthenticated: assign({ authenticated: true }),
    setVerifiedUser: assign(({ event, context }) => {
      const u = outputOf(event) as User;
      return { user: u, moduleData: context.moduleData ? { ...context.moduleData, user: u } : context.moduleData };
    }),
    clearRedirect: assign({ redirect: null }),
  },
  guards: {
    // Locations.
    pathInArea: ({ context }, params: { area: FlowArea }) => areaOf(context.path) === params.area,
    eventInArea: ({ event }, params: { area: FlowArea }) => event.type === 'route.changed' && areaOf(event.path) === params.area,
    isRootPath: ({ context }) => context.path === ROOT_PATH,
    isMemberLocation: ({ context }) => isMemberPath(context.path),
    isBlockedLocation: ({ context }) => isBlockedPath(context.path),
    isGuestOnlyLocation: ({ context }) => {
      const area = areaOf(context.path);
      return area !== null && GUEST_ONLY_AREAS.includes(area);
    },
    eventOnPath: ({ event }, params: { path: string }) => event.type === 'route.changed' && normalisePath(event.path) === params.path,
    isAuthenticated: ({ context }) => context.authenticated,
    // Boot.
    bootSignedIn: ({ event }) => (outputOf(event) as BootResult).user !== null,
    bootUserBlocked: ({ event }) => {
      const user = (outputOf(event) as BootResult).user;
      return user !== null && user.status !== USER_STATUS.active;
    },
    bootDemoBlocked: ({ event, context }) =>
      (outputOf(event) as BootResult).user !== null && context.moduleData?.demo_info?.user_allowed === false,
    verifiedUserBlocked: ({ event }) => (outputOf(event) as User).status !== USER_STATUS.active,
    // Flow outputs.
    loginBlockedUser: ({ event }) => {
      const r = loginResponseOf(event);
      return r !== null && r.user_status !== USER_STATUS.active;
    },
    loginDemoBlocked: ({ event }) => {
      const r = loginResponseOf(event);
      return r !== null && !r.user_allowed;
    },
    loggedIn: ({ event }) => loginResponseOf(event) !== null,
    loggedOut: ({ event }) => isLoggedOutOutput(outputOf(event)),
    // Errors.
    errorIsConnection: ({ event }) => errorInfo(errorOf(event)).kind === 'connection',
    errorIsUserBlocked: ({ event }) => errorInfo(errorOf(event)).code === 'user_blocked',
    errorIsUnauthorized: ({ event }) => errorInfo(errorOf(event)).kind === 'unauthorized',
  },
});

type StateConfig = NonNullable<Parameters<typeof sessionSetup.createMachine>[0]['states']>[string];

export const sessionMachine = sessionSetup.createMachine({
  id: 'session',
  context: ({ input }) => ({
    path: normalisePath(input.path),
    search: input.search,
    moduleData: input.moduleData ?? null,
    user: null,
    authenticated: false,
    redirect: null,
    menu: HOME_MENU,
    error: null,
  }),
  initial: 'booting',
  on: {
    'modules.loaded': {
      actions: ['setModules', { type: 'saveModules', params: ({ context }) => ({ moduleData: context.moduleData }) }],
    },
    'session.demoBlocked': {
      actions: { type: 'notify', params: { kind: 'error', key: 'common:featureUnavailableInDemo' } },
    },
    'language.change': {
      actions: [
        'setLanguage',
        { type: 'changeLanguage', params: ({ event }) => ({ code: event.code }) },
        { type: 'saveModules', params: ({ context }) => ({ moduleData: context.moduleData }) },
      ],
    },
  },
  states: {
    booting: {
      tags: ['busy'],
      invoke: {
        id: 'boot',
        src: 'boot',
        input: ({ context }) => ({ path: context.path }),
        onDone: [
          {
            guard: 'bootUserBlocked',
            target: 'accountBlocked',
            actions: ['setBootUser', ...go({ to: ACCOUNT_BLOCKED_PATH, replace: true })],
          },
          {
            guard: 'bootDemoBlocked',
            target: 'demoBlocked',
            actions: ['setBootUser', ...go({ to: DEMO_BLOCKED_PATH, replace: true })],
          },
          {
            guard: 'bootSignedIn',
            target: 'authenticated',
            actions: [
              'setBootUser',
              { type: 'saveUser', params: ({ context }) => ({ user: context.user }) },
              {
                type: 'changeLanguage',
                // The member's language setting drives the app language (spec §1).
                params: ({ context }) => ({ code: context.moduleData?.default_language.code ?? '' }),
              },
              { type: 'prepareMemberPage', params: ({ context }) => ({ path: landingPath(context.path) }) },
            ],
          },
          { target: 'unauthenticated', actions: ['setBootUser', 'signOut'] },
        ],
        onError: [
          {
            guard: 'errorIsUserBlocked',
            target: 'accountBlocked',
            actions: ['markAuthenticated', ...go({ to: ACCOUNT_BLOCKED_PATH, replace: true })],
          },
          { guard: 'errorIsConnection', target: 'bootConnectionError', actions: 'setBootError' },
          { target: 'bootServerError', actions: 'setBootError' },
        ],
      },
      on: {
        'route.changed': { actions: 'setLocation' },
        'session.userBlocked': {
          target: 'accountBlocked',
          actions: ['markAuthenticated', ...go({ to: ACCOUNT_BLOCKED_PATH, replace: true })],
        },
      },
    },
    bootConnectionError: {
      tags: ['error'],
      on: {
        'session.retry': 'booting',
        'route.changed': { actions: 'setLocation' },
      },
    },
    bootServerError: {
      tags: ['error'],
      on: {
        'session.retry': 'booting',
        'route.changed': { actions: 'setLocation' },
      },
    },
    unauthenticated: {
      initial: 'routing',
      on: {
        'route.changed': { target: '.routing', actions: 'setLocation' },
        'session.userBlocked': {
          target: 'accountBlocked',
          actions: go({ to: ACCOUNT_BLOCKED_PATH, replace: true }),
        },
      },
      states: {
        routing: {
          always: [
            ...(['login', 'otpLogin', 'passwordReset', 'signup', 'requestDemo', 'ssoLogin', 'ssoLogout'] as const).map((area) => ({
              guard: { type: 'pathInArea' as const, params: { area } },
              target: area,
              actions: area === 'login' || area === 'ssoLogin' ? ('captureRedirect' as const) : [],
            })),
            { guard: 'isRootPath', target: 'routing', reenter: true, actions: go({ to: LOGIN_PATH, replace: true }) },
            {
              guard: 'isMemberLocation',
              target: 'routing',
              reenter: true,
              actions: go(({ context }) => ({ to: loginRedirectFor(context.path, context.search), replace: true })),
            },
            { guard: 'isBlockedLocation', target: 'routing', reenter: true, actions: go({ to: ROOT_PATH, replace: true }) },
            { target: 'idle' },
          ],
        },
        /** A public page without a flow (not found). */
        idle: {},
        login: flowArea('login', 'idle'),
        otpLogin: flowArea('otpLogin', 'idle'),
        passwordReset: flowArea('passwordReset', 'idle'),
        signup: flowArea('signup', 'idle'),
        requestDemo: flowArea('requestDemo', 'idle'),
        ssoLogin: flowArea('ssoLogin', 'idle'),
        ssoLogout: flowArea('ssoLogout', 'idle'),
      },
    },
    authenticated: {
      initial: 'routing',
      on: {
        'route.changed': { target: '.routing', actions: 'setLocation' },
        'session.logout': '.loggingOut',
        'session.forceLogout': {
          target: 'unauthenticated',
          actions: ['clearSession', 'signOut', ...go({ to: LOGIN_PATH, replace: true })],
        },
        'session.userBlocked': {
          target: 'accountBlocked',
          actions: go({ to: ACCOUNT_BLOCKED_PATH, replace: true }),
        },
        'menu.select': { actions: 'setMenu' },
        'session.verify': { actions: spawnChild('verify', { id: 'verify' }) },
        'xstate.done.actor.verify': [
          {
            guard: 'verifiedUserBlocked',
            target: 'accountBlocked',
            actions: ['setVerifiedUser', ...go({ to: ACCOUNT_BLOCKED_PATH, replace: true })],
          },
          { actions: ['setVerifiedUser', { type: 'saveUser', params: ({ context }: { context: SessionContext }) => ({ user: context.user }) }] },
        ],
        'xstate.error.actor.verify': [
          {
            guard: 'errorIsUnauthorized',
            target: 'unauthenticated',
            actions: ['clearSession', 'signOut', ...go({ to: LOGIN_PATH, replace: true })],
          },
          { guard: 'errorIsUserBlocked', target: 'accountBlocked', actions: go({ to: ACCOUNT_BLOCKED_PATH, replace: true }) },
          // Unreachable or failing server: the session is still presumed valid (nothing said otherwise);
          // the restored page shows its own connection-error or server-error screen with Retry.
          {},
        ],
        'language.change': {
          actions: [
            'setLanguage',
            { type: 'changeLanguage', params: ({ event }) => ({ code: event.code }) },
            { type: 'saveModules', params: ({ context }) => ({ moduleData: context.moduleData }) },
            spawnChild('saveLanguage', { input: ({ event }) => ({ code: event.type === 'language.change' ? event.code : '' }) }),
          ],
        },
      },
      states: {
        routing: {
          always: [
            { guard: { type: 'pathInArea', params: { area: 'ssoLogin' } }, target: 'ssoLogin', actions: 'captureRedirect' },
            { guard: { type: 'pathInArea', params: { area: 'ssoLogout' } }, target: 'ssoLogout' },
            { guard: 'isRootPath', target: 'member', actions: go({ to: DASHBOARD_PATH, replace: true }) },
            { guard: 'isGuestOnlyLocation', target: 'member', actions: go({ to: DASHBOARD_PATH, replace: true }) },
            { guard: 'isBlockedLocation', target: 'routing', reenter: true, actions: go({ to: ROOT_PATH, replace: true }) },
            { target: 'member' },
          ],
        },
        /** Member pages (and public pages without a flow). */
        member: {},
        loggingOut: {
          tags: ['busy'],
          invoke: {
            id: 'logout',
            src: 'logout',
            onDone: {
              target: '#session.unauthenticated',
              actions: [
                { type: 'openInNewTab', params: ({ event }) => ({ url: event.output?.storeLogoutUrl ?? null }) },
                'clearSession',
                'signOut',
                ...go({ to: LOGIN_PATH }),
              ],
            },
            onError: [
              {
                // The server already ended this session.
                guard: 'errorIsUnauthorized',
                target: '#session.unauthenticated',
                actions: ['clearSession', 'signOut', ...go({ to: LOGIN_PATH })],
              },
              { target: 'member', actions: { type: 'notify', params: { kind: 'error', key: 'auth:logoutError' } } },
            ],
          },
          on: {
            'route.changed': { actions: 'setLocation' },
            'session.logout': {},
          },
        },
        ssoLogin: flowArea('ssoLogin', 'member'),
        ssoLogout: flowArea('ssoLogout', 'member'),
      },
    },
    accountBlocked: blockedState(ACCOUNT_BLOCKED_PATH, '/?redirectedFrom=accountBlocked'),
    demoBlocked: blockedState(DEMO_BLOCKED_PATH, '/?redirectedFrom=demoBlocked', {
      'session.userBlocked': {
        target: 'accountBlocked',
        actions: go({ to: ACCOUNT_BLOCKED_PATH, replace: true }),
      },
    }),
  },
});

/**
 * One flow area: invokes the flow with id = area key, forwards route changes inside the area, and
 * performs the login-success (spec §4) or local-logout handling on the flow's output.
 */
function flowArea(area: FlowArea, fallback: 'idle' | 'member'): StateConfig {
  return {
    entry: raise({ type: 'flow.started' as const }),
    invoke: {
      // One config serves every area; the types of the flows differ only in their input.
      id: area as 'ssoLogout',
      src: area as 'ssoLogout',
      input: ({ context }) => ({ search: context.search, authenticated: context.authenticated }),
      onDone: [
        {
          guard: 'loginBlockedUser' as const,
          target: '#session.accountBlocked',
          actions: [...go({ to: ACCOUNT_BLOCKED_PATH })],
        },
        {
          guard: 'loginDemoBlocked' as const,
          target: '#session.demoBlocked',
          actions: [...go({ to: DEMO_BLOCKED_PATH })],
        },
        {
          guard: 'loggedIn' as const,
          target: '#session.authenticated.routing',
          actions: [
            { type: 'saveLogin' as const, params: ({ event }: { event: unknown }) => ({ response: loginResponseOf(event)! }) },
            // First, with the token just stored: the landing page's first call goes out before the language change
            // and the navigation have their listeners run.
            {
              type: 'prepareMemberPage' as const,
              params: ({ context }: { context: SessionContext }) => ({ path: splitLocation(context.redirect ?? DASHBOARD_PATH).path }),
            },
            'applyLogin' as const,
            { type: 'saveModules' as const, params: ({ context }: { context: SessionContext }) => ({ moduleData: context.moduleData }) },
            {
              type: 'changeLanguage' as const,
              params: ({ event }: { event: unknown }) => ({ code: loginResponseOf(event)!.default_language.code }),
            },
            ...go(({ context }) => ({ to: context.redirect ?? DASHBOARD_PATH })),
            'clearRedirect',
          ],
        },
        {
          guard: 'loggedOut' as const,
          target: '#session.unauthenticated',
          actions: ['clearSession' as const, 'signOut' as const, ...go({ to: ROOT_PATH })],
        },
        { target: fallback },
      ],
    },
    on: {
      'flow.started': { actions: { type: 'forwardRoute' as const, params: { area } } },
      'route.changed': [
        {
          guard: { type: 'eventInArea' as const, params: { area } },
          actions: ['setLocation' as const, { type: 'forwardRoute' as const, params: { area } }],
        },
        { target: 'routing', actions: 'setLocation' as const },
      ],
    },
  };
}

/** Account-blocked / demo-blocked (spec §2, §4): Try again re-boots; Logout only when signed in. */
function blockedState(page: string, tryAgainTo: string, extra: StateConfig['on'] = {}): StateConfig {
  return {
    initial: 'idle' as const,
    on: {
      ...(extra as object),
      'route.changed': [
        { guard: { type: 'eventOnPath' as const, params: { path: page } }, actions: 'setLocation' as const },
        { actions: ['setLocation' as const, ...go({ to: page, replace: true })] },
      ],
    },
    states: {
      idle: {
        on: {
          'blocked.tryAgain': { target: '#session.booting', actions: go({ to: tryAgainTo }) },
          'blocked.logout': { guard: 'isAuthenticated' as const, target: 'loadingLogout' },
        },
      },
      /** The Logout flow's code is loaded on first use (at once when already here); when that fails the screen stays, with the logout error. */
      loadingLogout: {
        tags: ['busy' as const],
        invoke: {
          id: 'loadLogout' as const,
          src: 'loadFlow' as const,
          input: { area: 'blockedLogout' },
          onDone: { target: 'loggingOut' },
          onError: { target: 'idle', actions: { type: 'notify' as const, params: { kind: 'error' as const, key: 'auth:logoutError' } } },
        },
      },
      loggingOut: {
        tags: ['busy' as const],
        invoke: {
          id: 'blockedLogout' as const,
          src: 'blockedLogout' as const,
          input: ({ context }: { context: SessionContext }) => ({ search: context.search }),
          onDone: [
            {
              guard: 'loggedOut' as const,
              target: '#session.unauthenticated',
              actions: ['clearSession' as const, 'signOut' as const, ...go({ to: LOGIN_PATH })],
            },
            { target: 'idle' },
          ],
        },
      },
    },
  };
}

export type SessionMachine = typeof sessionMachine;

/** Navigate and keep the context location in step (the router's echo of it is then a no-op). */
function go(params: NavigateParams | ((args: { context: SessionContext }) => NavigateParams)) {
  return [
    { type: 'navigate' as const, params },
    { type: 'moveTo' as const, params },
  ];
}

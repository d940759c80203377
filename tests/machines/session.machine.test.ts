import { waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { DASHBOARD_PATH } from '../../src/lib/paths';
import { storage } from '../../src/lib/storage';
import { sessionHarness, settle } from '../support/session-harness';
import { loginResponse, moduleData, user } from '../support/session-fixtures';
import type { LogoutResult } from '../../src/machines/blocked-logout.machine';

const signedIn = () => Promise.resolve({ user: user(), expired: false });

function storeSession() {
  storage.set('auth_token', 'stored-token-0123456789');
  storage.setJSON('user_data', user());
  storage.set('store_auth_token', 'store-token-0123456789');
  storage.set('sso_token', 'sso-token-0123456789');
  localStorage.setItem('upline.cache.dashboard', '{"wallet_balance":"10"}');
  localStorage.setItem('upline.cache.payout', '{}');
  localStorage.setItem('upline.cart', '[1]');
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('boot', () => {
  it('sends a guest at / to the login flow', async () => {
    const h = sessionHarness({ path: '/' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.navigations).toEqual([{ to: '/login', replace: true }]);
    expect(h.flowSnapshot('login')?.context.input).toMatchObject({ search: '' });
    expect(h.actor.getSnapshot().context.authenticated).toBe(false);
  });

  it('sends a signed-in member at / to the dashboard, in their language, and keeps their record', async () => {
    const modules = moduleData({ default_language: { id: 2, name: 'Spanish', code: 'es', native_name: 'Español' } });
    const h = sessionHarness({ path: '/', boot: signedIn, bootModules: modules });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    expect(h.navigations).toEqual([{ to: DASHBOARD_PATH, replace: true }]);
    expect(h.languages).toEqual(['es']);
    expect(storage.getJSON('user_data')).toEqual(user());
    expect(storage.getJSON('module_data')).toMatchObject({ company: { name: 'Upline Demo' } });
    expect(h.actor.getSnapshot().context.user?.username).toBe('demo');
  });

  it('keeps a signed-in member on the member page they opened', async () => {
    const h = sessionHarness({ path: '/member/wallet', search: '?tab=payout', boot: signedIn });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    expect(h.navigations).toEqual([]);
  });

  it('gets the page a signed-in member lands on ready as soon as the boot call says who they are', async () => {
    storage.set('auth_token', 'stored-token-0123456789');
    const atRoot = sessionHarness({ path: '/', boot: signedIn });
    await waitFor(atRoot.actor, (s) => s.matches({ authenticated: 'member' }));
    expect(atRoot.prepared).toEqual([{ path: DASHBOARD_PATH, token: 'stored-token-0123456789' }]);
    const atPage = sessionHarness({ path: '/member/wallet', search: '?tab=payout', boot: signedIn });
    await waitFor(atPage.actor, (s) => s.matches({ authenticated: 'member' }));
    expect(atPage.prepared.map((p) => p.path)).toEqual(['/member/wallet']);
  });

  it('gets no member page ready for a guest', async () => {
    const h = sessionHarness({ path: '/member/wallet' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.prepared).toEqual([]);
  });

  it('shows the connection error when the server cannot be reached, and retry boots again', async () => {
    let fail = true;
    const h = sessionHarness({
      boot: () => (fail ? Promise.reject(new ConnectionError()) : Promise.resolve({ user: null, expired: false })),
    });
    await waitFor(h.actor, (s) => s.matches('bootConnectionError'));
    expect(h.actor.getSnapshot().hasTag('error')).toBe(true);
    expect(h.actor.getSnapshot().context.error?.kind).toBe('connection');
    fail = false;
    h.actor.send({ type: 'session.retry' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.bootCalls).toBe(2);
  });

  it('shows the server error on a 500 at boot', async () => {
    const h = sessionHarness({ boot: () => Promise.reject(new ApiError('server', 500, { error_code: 'server_error' })) });
    await waitFor(h.actor, (s) => s.matches('bootServerError'));
    expect(h.actor.getSnapshot().context.error).toMatchObject({ kind: 'server', status: 500 });
  });

  it('goes to the account-blocked screen when the auth check says user_blocked', async () => {
    const h = sessionHarness({ boot: () => Promise.reject(new ApiError('forbidden', 403, { error_code: 'user_blocked' })) });
    await waitFor(h.actor, (s) => s.matches('accountBlocked'));
    expect(h.navigations).toEqual([{ to: '/account-blocked', replace: true }]);
    expect(h.actor.getSnapshot().context.authenticated).toBe(true);
  });

  it('goes to the demo-blocked screen when the demo no longer allows the signed-in member', async () => {
    const modules = moduleData({
      is_demo: true,
      demo_info: { contact_email: null, contact_phone: null, contact_skype: null, user_allowed: false, messenger_name: null, privacy_policy_url: null },
    });
    const h = sessionHarness({ boot: signedIn, bootModules: modules });
    await waitFor(h.actor, (s) => s.matches('demoBlocked'));
    expect(h.navigations).toEqual([{ to: '/demo-blocked', replace: true }]);
  });
});

describe('routes', () => {
  it('sends a guest who opened a member page to login with a redirect back to it', async () => {
    const h = sessionHarness({ path: '/member/wallet', search: '?tab=payout' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.navigations).toEqual([{ to: '/login?redirect=%2Fmember%2Fwallet%3Ftab%3Dpayout', replace: true }]);
    expect(h.actor.getSnapshot().context.redirect).toBe('/member/wallet?tab=payout');
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse() } });
    expect(h.actor.getSnapshot().matches({ authenticated: 'member' })).toBe(true);
    expect(h.navigations.at(-1)).toEqual({ to: '/member/wallet?tab=payout' });
    expect(h.actor.getSnapshot().context.redirect).toBeNull();
  });

  it('ignores a redirect that leads outside the member area', async () => {
    const h = sessionHarness({ path: '/login', search: '?redirect=https%3A%2F%2Fevil.example%2Fmember' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse() } });
    expect(h.navigations.at(-1)).toEqual({ to: DASHBOARD_PATH });
  });

  it('forwards route changes inside an area to the running flow without restarting it', async () => {
    const h = sessionHarness({ path: '/login' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    const flow = h.actor.getSnapshot().children.login;
    h.actor.send({ type: 'route.changed', path: '/login/continue', search: '' });
    h.actor.send({ type: 'route.changed', path: '/login', search: '' });
    expect(h.actor.getSnapshot().children.login).toBe(flow);
    // The flow hears where it started and every move inside its area.
    expect(h.flowSnapshot('login')?.context.routes).toEqual(['/login', '/login/continue', '/login']);
  });

  it('stops the flow when the route leaves its area and starts the new area with its query', async () => {
    const h = sessionHarness({ path: '/login' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    const login = h.actor.getSnapshot().children.login!;
    h.actor.send({ type: 'route.changed', path: '/signup', search: '?referral=demo' });
    expect(h.actor.getSnapshot().matches({ unauthenticated: 'signup' })).toBe(true);
    expect(login.getSnapshot().status).toBe('stopped');
    expect(h.actor.getSnapshot().children.login).toBeUndefined();
    expect(h.flowSnapshot('signup')?.context.input).toMatchObject({ search: '?referral=demo' });
  });

  it('shows a public page without a flow (not found) as a guest without navigating', async () => {
    const h = sessionHarness({ path: '/no-such-page' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'idle' }));
    expect(h.navigations).toEqual([]);
  });

  it('sends a signed-in member away from the guest pages to the dashboard', async () => {
    const h = sessionHarness({ path: '/member/home/dashboard', boot: signedIn });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    for (const path of ['/login', '/password/forgot', '/signup', '/request-demo', '/login/otp']) {
      h.actor.send({ type: 'route.changed', path, search: '' });
      expect(h.navigations.at(-1)).toEqual({ to: DASHBOARD_PATH, replace: true });
    }
    expect(h.actor.getSnapshot().children.login).toBeUndefined();
  });

  it('lets a signed-in member reach the SSO pages, telling SSO logout they are signed in', async () => {
    const h = sessionHarness({ path: '/member/home/dashboard', boot: signedIn });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'route.changed', path: '/sso_logout', search: '?token=abc' });
    expect(h.actor.getSnapshot().matches({ authenticated: 'ssoLogout' })).toBe(true);
    expect(h.flowSnapshot('ssoLogout')?.context.input).toEqual({ search: '?token=abc', authenticated: true });
    h.actor.send({ type: 'route.changed', path: '/sso_login', search: '?token=abc' });
    expect(h.actor.getSnapshot().matches({ authenticated: 'ssoLogin' })).toBe(true);
  });

  it('sends a visitor of the blocked pages who is not blocked to root (and so to login)', async () => {
    const h = sessionHarness({ path: '/account-blocked' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.navigations).toEqual([
      { to: '/', replace: true },
      { to: '/login', replace: true },
    ]);
  });

  it('treats the router echo of its own navigation as a no-op', async () => {
    const h = sessionHarness({ path: '/member/wallet', router: true });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    await settle();
    const flow = h.actor.getSnapshot().children.login;
    await settle();
    expect(h.navigations).toHaveLength(1);
    expect(h.actor.getSnapshot().children.login).toBe(flow);
  });
});

describe('login success (spec §4)', () => {
  async function atLogin() {
    const modules = moduleData();
    const h = sessionHarness({ path: '/login', bootModules: modules });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    return h;
  }

  it('stores the token, user, currency, language and date format, then opens the dashboard', async () => {
    const h = await atLogin();
    const response = loginResponse({ store_token: 'store-token-0123456789', user: user({ date_format: 'd/m/Y' }) });
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response } });
    const s = h.actor.getSnapshot();
    expect(s.matches({ authenticated: 'member' })).toBe(true);
    expect(storage.get('auth_token')).toBe(response.token);
    expect(storage.get('store_auth_token')).toBe('store-token-0123456789');
    expect(storage.get('sso_token')).toBe(response.sso_token);
    expect(storage.getJSON('user_data')).toEqual(response.user);
    const saved = storage.getJSON<ReturnType<typeof moduleData>>('module_data')!;
    expect(saved.default_currency.code).toBe('EUR');
    expect(saved.default_language.code).toBe('es');
    expect(saved.date_format).toBe('d/m/Y');
    expect(s.context.moduleData?.user?.username).toBe('demo');
    expect(h.languages).toEqual(['es']);
    expect(h.navigations.at(-1)).toEqual({ to: DASHBOARD_PATH });
  });

  it('gets the dashboard ready the moment the token arrives: its calls go out with that token', async () => {
    const h = await atLogin();
    const response = loginResponse();
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response } });
    expect(h.prepared).toEqual([{ path: DASHBOARD_PATH, token: response.token }]);
  });

  it('gets the page a sign-in was redirected from ready instead of the dashboard', async () => {
    const h = sessionHarness({ path: '/login', search: '?redirect=%2Fmember%2Fwallet%2Fstatement%3Fpage%3D2' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse() } });
    expect(h.navigations.at(-1)).toEqual({ to: '/member/wallet/statement?page=2' });
    expect(h.prepared.map((p) => p.path)).toEqual(['/member/wallet/statement']);
  });

  it('only navigates for a blocked user: account-blocked screen, nothing stored', async () => {
    const h = await atLogin();
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse({ user_status: 0, token: '' }) } });
    expect(h.actor.getSnapshot().matches('accountBlocked')).toBe(true);
    expect(h.navigations.at(-1)).toEqual({ to: '/account-blocked' });
    expect(storage.get('auth_token')).toBeNull();
    expect(storage.get('user_data')).toBeNull();
    expect(h.languages).toEqual([]);
    expect(h.prepared).toEqual([]);
    expect(h.actor.getSnapshot().context.authenticated).toBe(false);
  });

  it('only navigates for a demo that does not allow the user: demo-blocked screen, nothing stored', async () => {
    const h = await atLogin();
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse({ user_allowed: false, token: '' }) } });
    expect(h.actor.getSnapshot().matches('demoBlocked')).toBe(true);
    expect(h.navigations.at(-1)).toEqual({ to: '/demo-blocked' });
    expect(storage.get('auth_token')).toBeNull();
  });

  it('handles the OTP login flow and the SSO login flow the same way', async () => {
    const h = sessionHarness({ path: '/login/otp' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'otpLogin' }));
    h.toFlow('otpLogin', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse() } });
    expect(h.actor.getSnapshot().matches({ authenticated: 'member' })).toBe(true);

    localStorage.clear();
    const sso = sessionHarness({ path: '/sso_login', search: '?token=abc&redirect=%2Fmember%2Forders' });
    await waitFor(sso.actor, (s) => s.matches({ unauthenticated: 'ssoLogin' }));
    sso.toFlow('ssoLogin', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse() } });
    expect(sso.navigations.at(-1)).toEqual({ to: '/member/orders' });
    expect(storage.get('auth_token')).toBe(loginResponse().token);
  });

  it('stays on the public page when a flow ends without signing in', async () => {
    const h = await atLogin();
    h.toFlow('login', { type: 'stub.finish', output: { type: 'done' } });
    expect(h.actor.getSnapshot().matches({ unauthenticated: 'idle' })).toBe(true);
    expect(h.navigations).toEqual([]);
  });
});

describe('logout (spec §4)', () => {
  async function signedInAt(path = '/member/home/dashboard', logout?: () => Promise<LogoutResult | void>) {
    storeSession();
    const h = sessionHarness({ path, boot: signedIn, bootModules: moduleData(), logout });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'menu.select', id: 'wallet' });
    return h;
  }

  it('calls logout, then clears token, user, session, menu, cached data and cart, and opens login', async () => {
    const h = await signedInAt();
    h.actor.send({ type: 'session.logout' });
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.logoutCalls).toBe(1);
    for (const key of ['auth_token', 'user_data', 'store_auth_token', 'sso_token', 'upline.cache.dashboard', 'upline.cache.payout', 'upline.cart']) {
      expect(localStorage.getItem(key), key).toBeNull();
    }
    const { context } = h.actor.getSnapshot();
    expect(context.user).toBeNull();
    expect(context.menu).toBe('home');
    expect(context.moduleData?.cart).toEqual([]);
    expect(context.moduleData?.user).toBeNull();
    expect(h.navigations.at(-1)).toEqual({ to: '/login' });
  });


  it('opens the storefront single sign-on logout in a new tab when the logout answers one; nothing otherwise', async () => {
    const url = 'https://shop.example.com/index.php?route=account/sso_logout&token=t0k3n';
    const h = await signedInAt('/member/home/dashboard', () => Promise.resolve({ storeLogoutUrl: url }));
    h.actor.send({ type: 'session.logout' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.opened).toEqual([url]);
    const plain = await signedInAt();
    plain.actor.send({ type: 'session.logout' });
    await waitFor(plain.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(plain.opened).toEqual([]);
  });
  it('hides the overlay and shows logoutError when logout fails, keeping the member signed in', async () => {
    const h = await signedInAt('/member/home/dashboard', () => Promise.reject(new ConnectionError()));
    h.actor.send({ type: 'session.logout' });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(h.notes).toEqual([{ kind: 'error', key: 'auth:logoutError' }]);
    expect(storage.get('auth_token')).toBe('stored-token-0123456789');
  });

  it('signs out locally when the server says the session is already gone (401)', async () => {
    const h = await signedInAt('/member/home/dashboard', () => Promise.reject(new ApiError('unauthorized', 401, {})));
    h.actor.send({ type: 'session.logout' });
    await waitFor(h.actor, (s) => s.matches('unauthenticated'));
    expect(storage.get('auth_token')).toBeNull();
  });

  it('signs out on a forced logout (a GET answered 401): menu reset, storage cleared, login', async () => {
    const h = await signedInAt();
    h.actor.send({ type: 'session.forceLogout' });
    const s = h.actor.getSnapshot();
    expect(s.matches({ unauthenticated: 'login' })).toBe(true);
    expect(s.context.menu).toBe('home');
    expect(storage.get('auth_token')).toBeNull();
    expect(localStorage.getItem('upline.cache.dashboard')).toBeNull();
    expect(h.navigations.at(-1)).toEqual({ to: '/login', replace: true });
  });

  it('re-checks a restored session: a revoked token (401) signs the member out and opens login', async () => {
    storeSession();
    const h = sessionHarness({
      path: '/member/home/dashboard',
      boot: signedIn,
      bootModules: moduleData(),
      verify: () => Promise.reject(new ApiError('unauthorized', 401, {})),
    });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'session.verify' });
    await waitFor(h.actor, (s) => s.matches('unauthenticated'));
    expect(storage.get('auth_token')).toBeNull();
    expect(h.navigations.at(-1)).toEqual({ to: '/login', replace: true });
  });

  it.each([
    ['unreachable', () => new ConnectionError()],
    ['failing (500)', () => new ApiError('server', 500, { error_code: 'server_error' })],
  ])('re-checks a restored session: a server that is %s keeps the member in, on the page (no crash)', async (_, failure) => {
    storeSession();
    const h = sessionHarness({
      path: '/member/wallet/statement',
      boot: signedIn,
      bootModules: moduleData(),
      verify: () => Promise.reject(failure()),
    });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'session.verify' });
    await new Promise((r) => setTimeout(r, 0));
    expect(h.actor.getSnapshot().status).toBe('active');
    expect(h.actor.getSnapshot().matches({ authenticated: 'member' })).toBe(true);
    expect(storage.get('auth_token')).not.toBeNull();
  });

  it('re-checks a restored session: a still-valid token keeps the member in and refreshes the user', async () => {
    storeSession();
    const h = sessionHarness({
      path: '/member/home/dashboard',
      boot: signedIn,
      bootModules: moduleData(),
      verify: async () => user({ first_name: 'Renamed' }),
    });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'session.verify' });
    await waitFor(h.actor, (s) => s.context.user?.first_name === 'Renamed');
    expect(h.actor.getSnapshot().matches({ authenticated: 'member' })).toBe(true);
  });

  it('completes the local logout when SSO logout reports the member signed out', async () => {
    const h = await signedInAt();
    h.actor.send({ type: 'route.changed', path: '/sso_logout', search: '?token=abc' });
    h.toFlow('ssoLogout', { type: 'stub.finish', output: { type: 'loggedOut' } });
    expect(h.actor.getSnapshot().matches({ unauthenticated: 'login' })).toBe(true);
    expect(storage.get('auth_token')).toBeNull();
    expect(h.navigations.slice(-2)).toEqual([{ to: '/' }, { to: '/login', replace: true }]);
  });
});

describe('blocked states', () => {
  async function blockedMember() {
    storeSession();
    const h = sessionHarness({ path: '/member/home/dashboard', boot: signedIn });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'session.userBlocked' });
    return h;
  }

  it('a user_blocked answer takes a signed-in member to the account-blocked screen, with Logout offered', async () => {
    const h = await blockedMember();
    expect(h.actor.getSnapshot().matches({ accountBlocked: 'idle' } as never)).toBe(true);
    expect(h.navigations.at(-1)).toEqual({ to: '/account-blocked', replace: true });
    expect(h.actor.getSnapshot().context.authenticated).toBe(true);
  });

  it('logs out from the blocked screen through the blockedLogout flow', async () => {
    const h = await blockedMember();
    h.actor.send({ type: 'blocked.logout' });
    // The overlay shows at once, while the flow's code is made sure of (loaded on first use).
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(h.actor, (s) => s.children.blockedLogout !== undefined);
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    h.toFlow('blockedLogout', { type: 'stub.finish', output: { type: 'loggedOut' } });
    expect(h.actor.getSnapshot().matches({ unauthenticated: 'login' })).toBe(true);
    expect(storage.get('auth_token')).toBeNull();
    expect(h.navigations.at(-1)).toEqual({ to: '/login' });
  });

  it('stays blocked (overlay gone) when the blocked logout fails', async () => {
    const h = await blockedMember();
    h.actor.send({ type: 'blocked.logout' });
    await waitFor(h.actor, (s) => s.children.blockedLogout !== undefined);
    h.toFlow('blockedLogout', { type: 'stub.finish', output: { type: 'failed' } });
    expect(h.actor.getSnapshot().matches({ accountBlocked: 'idle' } as never)).toBe(true);
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(false);
  });

  it('offers no logout to a guest whose login was blocked', async () => {
    const h = sessionHarness({ path: '/login' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse({ user_status: 0 }) } });
    h.actor.send({ type: 'blocked.logout' });
    expect(h.actor.getSnapshot().matches({ accountBlocked: 'idle' } as never)).toBe(true);
    expect(h.actor.getSnapshot().children.blockedLogout).toBeUndefined();
  });

  it('stays blocked with the logout error when the Logout flow cannot be loaded', async () => {
    storeSession();
    const h = sessionHarness({ path: '/member/home/dashboard', boot: signedIn, loadFlow: () => Promise.reject(new Error('offline')) });
    await waitFor(h.actor, (s) => s.matches('authenticated'));
    h.actor.send({ type: 'session.userBlocked' });
    h.actor.send({ type: 'blocked.logout' });
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(h.actor, (s) => !s.hasTag('busy'));
    expect(h.actor.getSnapshot().matches({ accountBlocked: 'idle' } as never)).toBe(true);
    expect(h.actor.getSnapshot().children.blockedLogout).toBeUndefined();
    expect(h.notes.at(-1)).toEqual({ kind: 'error', key: 'auth:logoutError' });
  });

  it('Try again clears the block, goes to root with the redirectedFrom marker and boots again', async () => {
    const h = await blockedMember();
    h.actor.send({ type: 'blocked.tryAgain' });
    expect(h.navigations.at(-1)).toEqual({ to: '/?redirectedFrom=accountBlocked' });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    expect(h.bootCalls).toBe(2);
    expect(h.navigations.at(-1)).toEqual({ to: DASHBOARD_PATH, replace: true });
  });

  it('Try again on the demo-blocked screen carries the demoBlocked marker', async () => {
    const h = sessionHarness({ path: '/login' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    h.toFlow('login', { type: 'stub.finish', output: { type: 'loggedIn', response: loginResponse({ user_allowed: false }) } });
    h.actor.send({ type: 'blocked.tryAgain' });
    expect(h.navigations.at(-1)).toEqual({ to: '/?redirectedFrom=demoBlocked' });
  });

  it('keeps a blocked user on the blocked screen when they navigate elsewhere', async () => {
    const h = await blockedMember();
    h.actor.send({ type: 'route.changed', path: '/member/wallet', search: '' });
    expect(h.actor.getSnapshot().matches('accountBlocked')).toBe(true);
    expect(h.navigations.at(-1)).toEqual({ to: '/account-blocked', replace: true });
  });

  it('shows featureUnavailableInDemo when a protected action is refused in demo mode', async () => {
    const h = sessionHarness({ path: '/member/home/dashboard', boot: signedIn });
    await waitFor(h.actor, (s) => s.matches('authenticated'));
    h.actor.send({ type: 'session.demoBlocked' });
    expect(h.notes).toEqual([{ kind: 'error', key: 'common:featureUnavailableInDemo' }]);
    expect(h.actor.getSnapshot().matches('authenticated')).toBe(true);
  });
});

describe('module data and language', () => {
  it('keeps module data from any answer in context and storage', async () => {
    const h = sessionHarness({ path: '/login' });
    await waitFor(h.actor, (s) => s.matches('unauthenticated'));
    h.actor.send({ type: 'modules.loaded', modules: moduleData({ date_format: 'Y-m-d' }) });
    expect(h.actor.getSnapshot().context.moduleData?.date_format).toBe('Y-m-d');
    expect(storage.getJSON<{ date_format: string }>('module_data')?.date_format).toBe('Y-m-d');
  });

  it('switches the language and remembers it in the module data', async () => {
    const h = sessionHarness({ path: '/login', bootModules: moduleData() });
    await waitFor(h.actor, (s) => s.matches('unauthenticated'));
    h.actor.send({ type: 'language.change', code: 'es' });
    expect(h.languages).toEqual(['es']);
    expect(h.actor.getSnapshot().context.moduleData?.default_language.code).toBe('es');
    expect(storage.getJSON<{ default_language: { code: string } }>('module_data')?.default_language.code).toBe('es');
    expect(h.savedLanguages).toEqual([]);
  });

  it("saves a signed-in member's language choice as their setting", async () => {
    const h = sessionHarness({ path: '/member/home/dashboard', boot: signedIn, bootModules: moduleData() });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'language.change', code: 'es' });
    await settle();
    expect(h.languages).toEqual(['en', 'es']);
    expect(h.savedLanguages).toEqual(['es']);
    expect(h.actor.getSnapshot().matches({ authenticated: 'member' })).toBe(true);
  });
});

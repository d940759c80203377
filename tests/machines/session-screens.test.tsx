import { act, screen, waitFor as waitForDom } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise, waitFor } from 'xstate';
import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { loginMachine } from '../../src/machines/login.machine';
import { ssoLogoutMachine } from '../../src/machines/sso-logout.machine';
import { FlowRoute } from '../../src/app/flow-route';
import { lazyView } from '../../src/app/lazy-view';
import type { NavigateParams } from '../../src/lib/flow';
import { storage } from '../../src/lib/storage';
import { sessionHarness, type HarnessOptions } from '../support/session-harness';
import { stubActors } from '../support/paths';
import { renderApp, renderWithSession } from '../support/render';
import { loginResponse, moduleData, user } from '../support/session-fixtures';

const navigate = (p: NavigateParams) => browserNavigate(p.to, { replace: !!p.replace });

/** A session whose navigations move jsdom's location, with a login flow that just waits. */
function app(options: HarnessOptions & { path: string }) {
  window.history.replaceState(null, '', options.path);
  const [path, query] = options.path.split('?');
  return sessionHarness({
    bootModules: moduleData(),
    flows: { login: stubActors(loginMachine), ...options.flows },
    navigate,
    ...options,
    path,
    search: query ? `?${query}` : '',
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('boot screens', () => {
  it('shows the connection error while the server cannot be reached; Retry boots again', async () => {
    let fail = true;
    const h = app({
      path: '/no-such-page',
      boot: () => (fail ? Promise.reject(new ConnectionError()) : Promise.resolve({ user: null, expired: false })),
    });
    renderApp({ actor: h.actor });
    expect(await screen.findByRole('heading', { name: 'No connection' })).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(h.bootCalls).toBe(2);
  });

  it('shows the server error on a 500', async () => {
    const h = app({ path: '/', boot: () => Promise.reject(new ApiError('server', 500, {})) });
    renderApp({ actor: h.actor });
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  });
});

describe('member area', () => {
  it('takes a signed-in member from / to the dashboard inside the member shell; Logout signs out', async () => {
    storage.set('auth_token', 'stored-token-0123456789');
    const h = app({ path: '/', boot: () => Promise.resolve({ user: user(), expired: false }) });
    renderApp({ actor: h.actor });
    // The member shell shows who is signed in, on the dashboard.
    expect((await screen.findAllByText('Dana Member', {}, { timeout: 15000 })).length).toBeGreaterThan(0);
    expect(window.location.pathname).toBe('/member/home/dashboard');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(h.actor, (s) => s.matches('unauthenticated'));
    await waitForDom(() => expect(window.location.pathname).toBe('/login'));
    expect(storage.get('auth_token')).toBeNull();
    expect(screen.queryByText('Dana Member')).not.toBeInTheDocument();
  });

  it('sends the member area base path to the dashboard', async () => {
    const h = app({ path: '/member', boot: () => Promise.resolve({ user: user(), expired: false }) });
    renderApp({ actor: h.actor });
    expect((await screen.findAllByText('Dana Member', {}, { timeout: 15000 })).length).toBeGreaterThan(0);
    await waitForDom(() => expect(window.location.pathname).toBe('/member/home/dashboard'));
  });

  it('sends a guest from a member page to login, remembering where to return', async () => {
    const h = app({ path: '/member/wallet' });
    renderApp({ actor: h.actor });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    await waitForDom(() => expect(window.location.pathname + window.location.search).toBe('/login?redirect=%2Fmember%2Fwallet'));
  });
});

describe('blocked screens', () => {
  it('account blocked: contact details, Try again and Logout for a signed-in member', async () => {
    storage.set('auth_token', 'stored-token-0123456789');
    const h = app({ path: '/member/home/dashboard', boot: () => Promise.reject(new ApiError('forbidden', 403, { error_code: 'user_blocked' })) });
    renderApp({ actor: h.actor });
    expect(await screen.findByRole('heading', { name: 'Your account is blocked' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/account-blocked');
    expect(screen.getByRole('link', { name: /support@upline\.example/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(h.actor.getSnapshot().children.blockedLogout).toBeDefined();
    act(() => h.toFlow('blockedLogout', { type: 'stub.finish', output: { type: 'loggedOut' } }));
    await waitForDom(() => expect(window.location.pathname).toBe('/login'));
  });

  it('demo blocked after a login the demo does not allow: no Logout for a guest; Try again goes to root', async () => {
    const h = app({ path: '/login' });
    renderApp({ actor: h.actor });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    const child = h.actor.getSnapshot().children.login!;
    // The login flow finishing with a demo-blocked answer (as its done event).
    act(() => h.actor.send({ type: 'xstate.done.actor.login', output: { type: 'loggedIn', response: loginResponse({ user_allowed: false }) } } as never));
    expect(child.getSnapshot().status).not.toBe('active');
    expect(await screen.findByRole('heading', { name: 'Your demo access has ended' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    expect(h.bootCalls).toBe(2);
  });

  it('a visitor who is not blocked is sent from the blocked page to root and on to login', async () => {
    const h = app({ path: '/demo-blocked' });
    renderApp({ actor: h.actor });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'login' }));
    await waitForDom(() => expect(window.location.pathname).toBe('/login'));
    expect(screen.queryByRole('heading', { name: 'Your demo access has ended' })).not.toBeInTheDocument();
  });
});

describe('SSO logout screen', () => {
  it('shows the connection error with a retry that repeats the call', async () => {
    let calls = 0;
    const failing = ssoLogoutMachine.provide({
      actors: { ssoLogout: fromPromise<void, { ssoToken: string }>(() => (calls++, Promise.reject(new ConnectionError()))) },
    });
    const h = app({ path: '/sso_logout?token=abcdefabcdefabcdef', flows: { ssoLogout: failing } });
    renderApp({ actor: h.actor });
    expect(await screen.findByRole('heading', { name: 'No connection' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitForDom(() => expect(calls).toBe(2));
  });
});

describe('flow routes and lazy chunks', () => {
  it('FlowRoute waits for the session to start the flow, then renders it with the flow actor', async () => {
    const h = app({ path: '/login' });
    renderWithSession(<FlowRoute flow="login" render={(actor) => <p>flow {actor.id}</p>} />, { actor: h.actor });
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
    expect(await screen.findByText('flow login')).toBeInTheDocument();
  });

  it('a chunk that fails to load shows the connection error; Retry loads it again', async () => {
    let attempt = 0;
    const View = lazyView(async () => {
      attempt += 1;
      if (attempt === 1) throw new TypeError('Failed to fetch dynamically imported module: /assets/member.js');
      return () => <p>member chunk</p>;
    });
    const h = app({ path: '/' });
    renderWithSession(<View />, { actor: h.actor });
    expect(await screen.findByRole('heading', { name: 'No connection' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('member chunk')).toBeInTheDocument();
    expect(attempt).toBe(2);
  });

  it('a view whose code has already arrived is drawn at once, without the loading screen', async () => {
    const Arrived = () => <p>member chunk</p>;
    const load = vi.fn(async () => Arrived);
    const Ready = lazyView(load, () => Arrived);
    const NotYet = lazyView(load, () => undefined);
    const h = app({ path: '/' });
    const ready = renderWithSession(<Ready />, { actor: h.actor });
    expect(screen.getByText('member chunk')).toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
    ready.unmount();
    renderWithSession(<NotYet />, { actor: h.actor });
    expect(screen.queryByText('member chunk')).not.toBeInTheDocument();
    expect(await screen.findByText('member chunk')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

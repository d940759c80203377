import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { authApi } from '../../src/api/auth';
import { areModulesLoaded, setModulesLoaded } from '../../src/api/client';
import { bootCall } from '../../src/machines/session.machine';
import { ssoLogoutMachine } from '../../src/machines/sso-logout.machine';
import { FLOW_SNAPSHOT_KEY, storage } from '../../src/lib/storage';
import { loadSnapshot, sanitizeSnapshot, saveSnapshot } from '../../src/app/persistence';
import { isRestorable, startSession } from '../../src/app/session-actor';
import type { SessionBindings } from '../../src/app/bindings';
import { sessionHarness } from '../support/session-harness';
import { user } from '../support/session-fixtures';

const roundTrip = <T,>(snapshot: T): T => JSON.parse(JSON.stringify(sanitizeSnapshot(snapshot)));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

describe('persisted snapshot round trip', () => {
  it('restores the session state and the flow step inside it', async () => {
    const h = sessionHarness({ path: '/password/forgot' });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'passwordReset' }));
    h.actor.send({ type: 'route.changed', path: '/password/forgot/otp', search: '' });
    h.toFlow('passwordReset', { type: 'stub.next' });

    const restored = createActor(h.machine, { snapshot: roundTrip(h.actor.getPersistedSnapshot()), input: { path: '/', search: '' } });
    restored.start();
    const s = restored.getSnapshot();
    expect(s.value).toEqual({ unauthenticated: 'passwordReset' });
    expect(s.context.path).toBe('/password/forgot/otp');
    const child = s.children.passwordReset!.getSnapshot() as unknown as { value: unknown; context: { routes: string[] } };
    expect(child.value).toBe('second');
    expect(child.context.routes).toEqual(['/password/forgot', '/password/forgot/otp']);
    // The restored flow keeps hearing route changes inside its area.
    restored.send({ type: 'route.changed', path: '/password/forgot', search: '' });
    expect((restored.getSnapshot().children.passwordReset!.getSnapshot() as unknown as { context: { routes: string[] } }).context.routes).toHaveLength(3);
  });

  it('restores a real flow in its error state, and its retry repeats the call', async () => {
    let calls = 0;
    const failing = ssoLogoutMachine.provide({
      actors: { ssoLogout: fromPromise<void, { ssoToken: string }>(() => (calls++, Promise.reject(new ConnectionError()))) },
    });
    const h = sessionHarness({ path: '/sso_logout', search: '?token=abcdefabcdefabcdef', flows: { ssoLogout: failing } });
    await waitFor(h.actor, (s) => s.matches({ unauthenticated: 'ssoLogout' }));
    await waitFor(h.actor.getSnapshot().children.ssoLogout!, (c) => (c as { value: unknown }).value === 'connectionError');

    const restored = createActor(h.machine, { snapshot: roundTrip(h.actor.getPersistedSnapshot()), input: { path: '/', search: '' } });
    restored.start();
    const child = restored.getSnapshot().children.ssoLogout!;
    expect((child.getSnapshot() as { value: unknown }).value).toBe('connectionError');
    child.send({ type: 'sso.retry' });
    await waitFor(child, (c) => (c as { value: unknown }).value === 'connectionError' && calls === 2);
    expect(calls).toBe(2);
  });
});

describe('sanitizeSnapshot', () => {
  it('drops passwords, codes and tokens but keeps flags, settings and the rest', () => {
    const out = sanitizeSnapshot({
      context: {
        values: { username: 'demo', password: 'secret', password_confirmation: 'secret', otp: '123456' },
        response: { token: 'abc', store_token: 'def', sso_token: null, user: { id: 1 } },
        fields: { login_with_otp: true, otp_verification: false, password_policy: { enabled: true, min_length: 8 }, otp_based_on: 'email', resend_in: 30 },
        error: new ConnectionError(),
        when: new Date('2026-01-02T03:04:05Z'),
      },
    });
    expect(out.context.values).toEqual({ username: 'demo' });
    expect(out.context.response).toEqual({ sso_token: null, user: { id: 1 } });
    expect(out.context.fields).toEqual({
      login_with_otp: true,
      otp_verification: false,
      password_policy: { enabled: true, min_length: 8 },
      otp_based_on: 'email',
      resend_in: 30,
    });
    expect(out.context.error).toMatchObject({ kind: 'connection', message: expect.stringContaining('Network') });
    expect(out.context.when).toBe('2026-01-02T03:04:05.000Z');
  });

  it('saves to and loads from sessionStorage under the flow key, without secrets', () => {
    saveSnapshot({ value: 'x', context: { password: 'p', path: '/login' } });
    expect(sessionStorage.getItem(FLOW_SNAPSHOT_KEY)).not.toContain('"p"');
    expect(loadSnapshot()).toEqual({ value: 'x', context: { path: '/login' } });
    sessionStorage.setItem(FLOW_SNAPSHOT_KEY, '{not json');
    expect(loadSnapshot()).toBeNull();
  });
});

describe('isRestorable', () => {
  const snap = (value: unknown, authenticated: boolean, status = 'active') => ({ status, value, context: { authenticated } });
  it('accepts settled session states whose sign-in matches the stored token', () => {
    expect(isRestorable(snap({ unauthenticated: 'login' }, false), false)).toBe(true);
    expect(isRestorable(snap({ authenticated: 'member' }, true), true)).toBe(true);
    expect(isRestorable(snap({ accountBlocked: 'idle' }, false), false)).toBe(true);
  });
  it('refuses boot states, finished actors and a sign-in that changed since', () => {
    expect(isRestorable(snap('booting', false), false)).toBe(false);
    expect(isRestorable(snap('bootConnectionError', false), false)).toBe(false);
    expect(isRestorable(snap({ authenticated: 'member' }, true, 'stopped'), true)).toBe(false);
    expect(isRestorable(snap({ authenticated: 'member' }, true), false)).toBe(false);
    expect(isRestorable(snap({ unauthenticated: 'login' }, false), true)).toBe(false);
    expect(isRestorable(null, false)).toBe(false);
  });
});

describe('startSession', () => {
  const bindings = (): SessionBindings & { navigations: string[] } => {
    const navigations: string[] = [];
    return { navigations, navigate: (to) => void navigations.push(to), notify: () => {}, changeLanguage: () => {}, openInNewTab: () => {}, prepareMemberPage: () => {}, prefetchMemberArea: () => {} };
  };

  it('lands in the saved state after a reload without booting again, and re-checks the token once', async () => {
    storage.set('auth_token', 'stored-token-0123456789');
    const h = sessionHarness({ path: '/member/home/dashboard', boot: () => Promise.resolve({ user: user(), expired: false }) });
    await waitFor(h.actor, (s) => s.matches({ authenticated: 'member' }));
    h.actor.send({ type: 'menu.select', id: 'wallet' });
    saveSnapshot(h.actor.getPersistedSnapshot());

    const dummy = vi.spyOn(authApi, 'dummy');
    const check = vi.spyOn(authApi, 'authCheck').mockResolvedValue(user());
    const b = bindings();
    const { actor, persister } = startSession({ bindings: b, wireClient: false, location: { path: '/member/home/dashboard', search: '' } });
    expect(actor.getSnapshot().value).toEqual({ authenticated: 'member' });
    expect(actor.getSnapshot().context.menu).toBe('wallet');
    expect(actor.getSnapshot().context.user?.username).toBe('demo');
    expect(dummy).not.toHaveBeenCalled();
    // Not a boot: the flow state stays; the stored token is verified in the background.
    expect(check).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toEqual({ authenticated: 'member' });

    // Later changes are saved again.
    actor.send({ type: 'menu.select', id: 'orders' });
    persister.flush();
    expect((loadSnapshot() as { context: { menu: string } }).context.menu).toBe('orders');
    actor.stop();
  });

  it('discards a saved state that no longer fits the app and boots afresh', async () => {
    sessionStorage.setItem(FLOW_SNAPSHOT_KEY, JSON.stringify({ v: 1, snapshot: { status: 'active', value: { unauthenticated: 'gone' }, context: { authenticated: false }, children: {} } }));
    const dummy = vi.spyOn(authApi, 'dummy').mockResolvedValue({ ok: true });
    const { actor } = startSession({ bindings: bindings(), wireClient: false, location: { path: '/no-such-page', search: '' } });
    expect(actor.getSnapshot().matches('booting')).toBe(true);
    expect(sessionStorage.getItem(FLOW_SNAPSHOT_KEY)).toBeNull();
    await waitFor(actor, (s) => s.matches('unauthenticated'));
    expect(dummy).toHaveBeenCalledTimes(1);
    actor.stop();
  });

  it('does not restore a signed-in state once the token is gone (logged out in another tab)', async () => {
    sessionStorage.setItem(
      FLOW_SNAPSHOT_KEY,
      JSON.stringify({ v: 1, snapshot: { status: 'active', value: { authenticated: 'member' }, context: { authenticated: true }, children: {} } }),
    );
    vi.spyOn(authApi, 'dummy').mockResolvedValue({ ok: true });
    const b = bindings();
    const { actor } = startSession({ bindings: b, wireClient: false, location: { path: '/member/home/dashboard', search: '' } });
    await waitFor(actor, (s) => s.matches('unauthenticated'));
    expect(b.navigations).toEqual(['/login?redirect=%2Fmember%2Fhome%2Fdashboard']);
    actor.stop();
  });
});

describe('bootCall', () => {
  it('a guest: GET /api/auth/dummy (which loads the module data)', async () => {
    setModulesLoaded(true);
    const dummy = vi.spyOn(authApi, 'dummy').mockImplementation(async () => {
      expect(areModulesLoaded()).toBe(false);
      return { ok: true };
    });
    const check = vi.spyOn(authApi, 'authCheck');
    await expect(bootCall()).resolves.toEqual({ user: null, expired: false });
    expect(dummy).toHaveBeenCalledTimes(1);
    expect(check).not.toHaveBeenCalled();
  });

  it('a stored token: GET /api/auth_check gives the member', async () => {
    storage.set('auth_token', 'stored-token-0123456789');
    vi.spyOn(authApi, 'authCheck').mockResolvedValue(user());
    const dummy = vi.spyOn(authApi, 'dummy');
    await expect(bootCall()).resolves.toEqual({ user: user(), expired: false });
    expect(dummy).not.toHaveBeenCalled();
  });

  it('a refused token (401): clears the stored session, then boots as a guest without it', async () => {
    storage.set('auth_token', 'stored-token-0123456789');
    storage.setJSON('user_data', user());
    vi.spyOn(authApi, 'authCheck').mockRejectedValue(new ApiError('unauthorized', 401, {}));
    const dummy = vi.spyOn(authApi, 'dummy').mockImplementation(async () => {
      expect(storage.get('auth_token')).toBeNull();
      return { ok: true };
    });
    await expect(bootCall()).resolves.toEqual({ user: null, expired: true });
    expect(dummy).toHaveBeenCalledTimes(1);
    expect(storage.get('user_data')).toBeNull();
  });

  it('other failures fail the boot (connection or server error screens)', async () => {
    storage.set('auth_token', 'stored-token-0123456789');
    vi.spyOn(authApi, 'authCheck').mockRejectedValue(new ConnectionError());
    await expect(bootCall()).rejects.toBeInstanceOf(ConnectionError);
    expect(storage.get('auth_token')).toBe('stored-token-0123456789');
  });
});

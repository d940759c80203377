import { createActor, fromPromise, toPromise } from 'xstate';
import { blockedLogoutMachine, logoutCall } from '../../src/machines/blocked-logout.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { authApi } from '../../src/api/auth';
import { storage } from '../../src/lib/storage';
import type { NotifyParams } from '../../src/lib/flow';

function start(answer: () => Promise<void>) {
  const notes: NotifyParams[] = [];
  const machine = blockedLogoutMachine.provide({
    actions: { notify: (_, p) => void notes.push(p) },
    actors: { logout: fromPromise<void>(answer) },
  });
  const actor = createActor(machine, { input: { search: '' } });
  actor.start();
  return { actor, notes };
}

describe('blockedLogout machine', () => {
  it('is busy (overlay) while logging out and reports loggedOut', async () => {
    const h = start(() => Promise.resolve());
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'loggedOut' });
    expect(h.notes).toEqual([]);
  });

  it('on failure shows auth:logoutError and reports failed', async () => {
    const h = start(() => Promise.reject(new ConnectionError()));
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'failed' });
    expect(h.notes).toEqual([{ kind: 'error', key: 'auth:logoutError' }]);
  });

  it('treats a 401 (the session is already gone) as logged out', async () => {
    const h = start(() => Promise.reject(new ApiError('unauthorized', 401, {})));
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'loggedOut' });
  });
});

describe('logoutCall', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('calls logout, then the store logout when a store session exists', async () => {
    const order: string[] = [];
    vi.spyOn(authApi, 'logout').mockImplementation(async () => (order.push('logout'), { sso_logout_token: null }));
    vi.spyOn(authApi, 'storeLogout').mockImplementation(async () => (order.push('store'), { message: 'ok' }));
    storage.set('store_auth_token', 'store-token-0123456789');
    await logoutCall();
    expect(order).toEqual(['logout', 'store']);
  });

  it('fails when logout fails, without a store logout', async () => {
    vi.spyOn(authApi, 'logout').mockRejectedValue(new ConnectionError());
    const store = vi.spyOn(authApi, 'storeLogout');
    storage.set('store_auth_token', 'store-token-0123456789');
    await expect(logoutCall()).rejects.toBeInstanceOf(ConnectionError);
    expect(store).not.toHaveBeenCalled();
  });
});

import { createActor, fromPromise, toPromise } from 'xstate';
import { blockedLogoutMachine, logoutCall, type LogoutResult } from '../../src/machines/blocked-logout.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { authApi } from '../../src/api/auth';
import { storage } from '../../src/lib/storage';
import type { NotifyParams } from '../../src/lib/flow';
import { moduleData } from '../support/session-fixtures';

const nothingToOpen: LogoutResult = { storeLogoutUrl: null };
const store = (id: number, url: string) => ({ id, name: `Store ${id}`, address: 'Main street 1', url });

function start(answer: () => Promise<LogoutResult>) {
  const notes: NotifyParams[] = [];
  const opened: string[] = [];
  const machine = blockedLogoutMachine.provide({
    actions: { notify: (_, p) => void notes.push(p), openInNewTab: (_, p) => void (p.url && opened.push(p.url)) },
    actors: { logout: fromPromise<LogoutResult>(answer) },
  });
  const actor = createActor(machine, { input: { search: '' } });
  actor.start();
  return { actor, notes, opened };
}

describe('blockedLogout machine', () => {
  it('is busy (overlay) while logging out and reports loggedOut', async () => {
    const h = start(() => Promise.resolve(nothingToOpen));
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'loggedOut' });
    expect(h.notes).toEqual([]);
    expect(h.opened).toEqual([]);
  });

  it('opens the storefront single sign-on logout the logout answered, in a new tab', async () => {
    const url = 'https://shop.example.com/index.php?route=account/sso_logout&token=t0k3n';
    const h = start(() => Promise.resolve({ storeLogoutUrl: url }));
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'loggedOut' });
    expect(h.opened).toEqual([url]);
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
    await expect(logoutCall()).resolves.toEqual({ storeLogoutUrl: null });
    expect(order).toEqual(['logout', 'store']);
  });

  it("with an sso_logout_token, answers the default storefront's single sign-on logout link with it", async () => {
    vi.spyOn(authApi, 'logout').mockResolvedValue({ sso_logout_token: 'tok/en+1' });
    storage.setJSON('module_data', moduleData({ default_store_id: 2, stores: [store(1, 'https://a.example'), store(2, 'https://shop.example.com/')] }));
    await expect(logoutCall()).resolves.toEqual({ storeLogoutUrl: 'https://shop.example.com/index.php?route=account/sso_logout&token=tok%2Fen%2B1' });
    // No storefront known: nothing to open.
    storage.setJSON('module_data', moduleData({ stores: [] }));
    await expect(logoutCall()).resolves.toEqual({ storeLogoutUrl: null });
  });

  it('fails when logout fails, without a store logout', async () => {
    vi.spyOn(authApi, 'logout').mockRejectedValue(new ConnectionError());
    const store = vi.spyOn(authApi, 'storeLogout');
    storage.set('store_auth_token', 'store-token-0123456789');
    await expect(logoutCall()).rejects.toBeInstanceOf(ConnectionError);
    expect(store).not.toHaveBeenCalled();
  });
});

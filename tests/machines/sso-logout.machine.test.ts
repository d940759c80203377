import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import { ssoLogoutMachine, ssoLogoutCall } from '../../src/machines/sso-logout.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { authApi } from '../../src/api/auth';
import { storage } from '../../src/lib/storage';
import { invalidSsoToken } from '../support/session-fixtures';
import { flowRecorder } from '../support/flow-recorder';

describe('ssoLogout machine (spec §2, §4)', () => {
  function start(search: string, authenticated: boolean, answer: () => Promise<void>) {
    const r = flowRecorder();
    let calls = 0;
    const machine = ssoLogoutMachine.provide({
      actions: r.actions,
      actors: {
        ssoLogout: fromPromise<void, { ssoToken: string }>(() => {
          calls += 1;
          return answer();
        }),
      },
    });
    const actor = createActor(machine, { input: { search, authenticated } });
    actor.start();
    return {
      actor,
      get calls() {
        return calls;
      },
      ...r,
    };
  }

  it('without a token goes to root', () => {
    const h = start('', true, () => Promise.resolve());
    expect(h.navigations).toEqual([{ to: '/', replace: true }]);
    expect(h.calls).toBe(0);
  });

  it('signed in: ssoLogoutSuccess, and a loggedOut output so the session completes the local logout', async () => {
    const h = start('?token=abcdefabcdefabcdef', true, () => Promise.resolve());
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'loggedOut' });
    expect(h.notes).toEqual([{ kind: 'success', key: 'auth:ssoLogoutSuccess' }]);
  });

  it('already signed out: ssoLogoutAlready and root', async () => {
    const h = start('?token=abcdefabcdefabcdef', false, () => Promise.resolve());
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'done' });
    expect(h.notes).toEqual([{ kind: 'info', key: 'auth:ssoLogoutAlready' }]);
    expect(h.navigations).toEqual([{ to: '/', replace: true }]);
  });

  it('validation error: ssoLogoutFailed and root', async () => {
    const h = start('?token=abcdefabcdefabcdef', true, () => Promise.reject(invalidSsoToken()));
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'done' });
    expect(h.notes).toEqual([{ kind: 'error', key: 'auth:ssoLogoutFailed' }]);
    expect(h.navigations).toEqual([{ to: '/', replace: true }]);
  });

  it('connection and server errors keep the screen with a retry that repeats the call', async () => {
    let attempt = 0;
    const h = start('?token=abcdefabcdefabcdef', true, () => {
      attempt += 1;
      return attempt === 1 ? Promise.reject(new ConnectionError()) : attempt === 2 ? Promise.reject(new ApiError('server', 500, {})) : Promise.resolve();
    });
    await waitFor(h.actor, (s) => s.matches('connectionError'));
    expect(h.navigations).toEqual([]);
    h.actor.send({ type: 'sso.retry' });
    await waitFor(h.actor, (s) => s.matches('serverError'));
    h.actor.send({ type: 'sso.retry' });
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'loggedOut' });
    expect(h.calls).toBe(3);
  });
});

describe('ssoLogoutCall', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('logs out of the store session too when one exists, ignoring its failure', async () => {
    const sso = vi.spyOn(authApi, 'ssoLogout').mockResolvedValue({ message: 'ok' });
    const store = vi.spyOn(authApi, 'storeLogout').mockRejectedValue(new ApiError('unauthorized', 401, {}));
    storage.set('store_auth_token', 'store-token-0123456789');
    await expect(ssoLogoutCall('abcdefabcdefabcdef')).resolves.toBeUndefined();
    expect(sso).toHaveBeenCalledWith('abcdefabcdefabcdef');
    expect(store).toHaveBeenCalledTimes(1);
  });

  it('skips the store logout without a store session', async () => {
    vi.spyOn(authApi, 'ssoLogout').mockResolvedValue({ message: 'ok' });
    const store = vi.spyOn(authApi, 'storeLogout');
    await ssoLogoutCall('abcdefabcdefabcdef');
    expect(store).not.toHaveBeenCalled();
  });
});

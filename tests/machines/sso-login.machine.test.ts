import { createActor, fromPromise, toPromise, waitFor } from 'xstate';
import { ssoLoginMachine } from '../../src/machines/sso-login.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';
import type { LoginResponse } from '../../src/schemas/auth.schema';
import { invalidSsoToken, loginResponse } from '../support/session-fixtures';
import { flowRecorder } from '../support/flow-recorder';

describe('ssoLogin machine', () => {
  function start(search: string, answer: (token: string) => Promise<LoginResponse>) {
    const r = flowRecorder();
    const tokens: string[] = [];
    const machine = ssoLoginMachine.provide({
      actions: r.actions,
      actors: {
        ssoLogin: fromPromise<LoginResponse, { ssoToken: string }>(({ input }) => {
          tokens.push(input.ssoToken);
          return answer(input.ssoToken);
        }),
      },
    });
    const actor = createActor(machine, { input: { search } });
    actor.start();
    return { actor, tokens, ...r };
  }

  it('without a token goes to root and ends', async () => {
    const h = start('', () => Promise.resolve(loginResponse()));
    expect(h.actor.getSnapshot().status).toBe('done');
    expect(h.navigations).toEqual([{ to: '/', replace: true }]);
    expect(h.tokens).toEqual([]);
    expect(h.actor.getSnapshot().output).toEqual({ type: 'done' });
  });

  it('exchanges the token and hands the login answer to the session', async () => {
    const response = loginResponse();
    const h = start('?token=abcdefabcdefabcdef&redirect=%2Fmember%2Fwallet', () => Promise.resolve(response));
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    await expect(toPromise(h.actor)).resolves.toEqual({ type: 'loggedIn', response });
    expect(h.tokens).toEqual(['abcdefabcdefabcdef']);
    expect(h.navigations).toEqual([]);
  });

  it('on a refused token shows ssoLoginFailed and goes to login', async () => {
    const h = start('?token=abcdefabcdefabcdef', () => Promise.reject(invalidSsoToken()));
    await toPromise(h.actor);
    expect(h.notes).toEqual([{ kind: 'error', key: 'auth:ssoLoginFailed' }]);
    expect(h.navigations).toEqual([{ to: '/login', replace: true }]);
  });

  it('offers retry on connection and server errors; retry repeats the call', async () => {
    let attempt = 0;
    const h = start('?token=abcdefabcdefabcdef', () => {
      attempt += 1;
      if (attempt === 1) return Promise.reject(new ConnectionError());
      if (attempt === 2) return Promise.reject(new ApiError('server', 500, {}));
      return Promise.resolve(loginResponse());
    });
    await waitFor(h.actor, (s) => s.matches('connectionError'));
    expect(h.actor.getSnapshot().context.error?.kind).toBe('connection');
    h.actor.send({ type: 'sso.retry' });
    await waitFor(h.actor, (s) => s.matches('serverError'));
    h.actor.send({ type: 'sso.retry' });
    await expect(toPromise(h.actor)).resolves.toMatchObject({ type: 'loggedIn' });
    expect(h.tokens).toHaveLength(3);
  });
});


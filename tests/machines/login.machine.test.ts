import { createActor } from 'xstate';
import { authApi } from '../../src/api/auth';
import { loginMachine, type FlowInput } from '../../src/machines/login.machine';
import { apiError, flush, loginFields, COUNTRIES, startControlledFlow } from '../support/auth-flows';
import { loginResponse } from '../support/session-fixtures';

function start(input: FlowInput = { search: '' }) {
  return startControlledFlow(loginMachine, { sources: ['loadLoginFields', 'login', 'loginTwoFactor'], input });
}

async function loaded(fields = loginFields(), input?: FlowInput) {
  const t = start(input);
  t.ctl.resolve('loadFields', { fields, phoneCode: '34' });
  await flush();
  return t;
}

async function atPassword(using: 'username' | 'email' | 'mobile_code' = 'username') {
  const t = await loaded();
  t.actor.send({ type: 'auth.use', using });
  if (using === 'username') t.actor.send({ type: 'auth.change', field: 'username', value: 'jdoe' });
  if (using === 'email') t.actor.send({ type: 'auth.change', field: 'email', value: 'jane@example.com' });
  if (using === 'mobile_code') t.actor.send({ type: 'auth.change', field: 'mobile', value: '600123456' });
  t.actor.send({ type: 'auth.continue' });
  t.actor.send({ type: 'auth.change', field: 'password', value: 'Secret-1' });
  return t;
}

describe('login machine', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('loads the login fields, shows a busy state meanwhile, then asks for the identifier by username', async () => {
    const t = start();
    expect(t.snap().matches('loading')).toBe(true);
    expect(t.snap().hasTag('busy')).toBe(true);
    t.ctl.resolve('loadFields', { fields: loginFields(), phoneCode: '34' });
    await flush();
    expect(t.snap().matches({ identify: 'editing' })).toBe(true);
    expect(t.snap().context.loginUsing).toBe('username');
    expect(t.snap().context.values.mobile_code).toBe('34');
  });

  it('gets the member area ready once the member types, and again on the password step — not when /login is merely opened', async () => {
    const prepareMemberArea = vi.fn();
    const t = startControlledFlow(loginMachine, { sources: ['loadLoginFields', 'login', 'loginTwoFactor'], actions: { prepareMemberArea } });
    t.ctl.resolve('loadFields', { fields: loginFields(), phoneCode: '34' });
    await flush();
    expect(t.snap().matches('identify')).toBe(true);
    expect(prepareMemberArea).not.toHaveBeenCalled();
    t.actor.send({ type: 'auth.change', field: 'username', value: 'j' });
    expect(prepareMemberArea).toHaveBeenCalledTimes(1);
    t.actor.send({ type: 'auth.change', field: 'username', value: 'jdoe' });
    t.actor.send({ type: 'auth.continue' });
    expect(t.snap().matches('credentials')).toBe(true);
    expect(prepareMemberArea).toHaveBeenCalledTimes(3);
  });

  it('goes to connectionError on a network failure and loads again on retry', async () => {
    const t = start();
    t.ctl.reject('loadFields', apiError.connection());
    await flush();
    expect(t.snap().matches('connectionError')).toBe(true);
    expect(t.snap().hasTag('error')).toBe(true);
    t.actor.send({ type: 'load.retry' });
    expect(t.snap().matches('loading')).toBe(true);
    t.ctl.resolve('loadFields', { fields: loginFields(), phoneCode: '1' });
    await flush();
    expect(t.snap().matches('identify')).toBe(true);
  });

  it('goes to serverError on a 500 and retries', async () => {
    const t = start();
    t.ctl.reject('loadFields', apiError.server());
    await flush();
    expect(t.snap().matches('serverError')).toBe(true);
    expect(t.snap().context.error?.status).toBe(500);
    t.actor.send({ type: 'load.retry' });
    expect(t.ctl.callsOf('loadLoginFields')).toHaveLength(2);
  });

  it('offers e-mail only when e-mails are unique and mobile only when phones are unique', async () => {
    const t = await loaded(loginFields({ email_unique: false, phone_unique: true }));
    t.actor.send({ type: 'auth.use', using: 'email' });
    expect(t.snap().context.loginUsing).toBe('username');
    t.actor.send({ type: 'auth.use', using: 'mobile_code' });
    expect(t.snap().context.loginUsing).toBe('mobile_code');
  });

  it('checks the identifier before continuing and keeps what was typed', async () => {
    const t = await loaded();
    t.actor.send({ type: 'auth.use', using: 'email' });
    t.actor.send({ type: 'auth.change', field: 'email', value: 'not-an-email' });
    t.actor.send({ type: 'auth.continue' });
    expect(t.snap().matches({ identify: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors).toEqual({ email: 'validation:invalidEmail' });
    expect(t.snap().context.values.email).toBe('not-an-email');
    expect(t.navigate).not.toHaveBeenCalled();
    t.actor.send({ type: 'auth.change', field: 'email', value: 'jane@example.com' });
    expect(t.snap().context.fieldErrors).toEqual({});
    t.actor.send({ type: 'auth.continue' });
    expect(t.snap().matches({ credentials: 'editing' })).toBe(true);
    expect(t.navigate).toHaveBeenCalledWith({ to: '/login/continue' });
  });

  it('requires a password before calling the server', async () => {
    const t = await atPassword();
    t.actor.send({ type: 'auth.change', field: 'password', value: '' });
    t.actor.send({ type: 'auth.submit' });
    expect(t.snap().matches({ credentials: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.password).toBe('validation:required');
    expect(t.ctl.callsOf('login')).toHaveLength(0);
  });

  it.each([
    ['username', { login_using: 'username', username: 'jdoe', password: 'Secret-1' }],
    ['email', { login_using: 'email', email: 'jane@example.com', password: 'Secret-1' }],
    ['mobile_code', { login_using: 'mobile_code', mobile_code: '34', mobile: '600123456', password: 'Secret-1' }],
  ] as const)('signs in by %s sending only that identifier', async (using, body) => {
    const t = await atPassword(using);
    t.actor.send({ type: 'auth.submit' });
    expect(t.snap().matches('signingIn')).toBe(true);
    expect(t.snap().hasTag('busy')).toBe(true);
    expect(t.ctl.lastInput('login')).toEqual(body);
    const response = loginResponse();
    t.ctl.resolve('login', response);
    await flush();
    expect(t.snap().status).toBe('done');
    expect(t.snap().output).toEqual({ type: 'loggedIn', response });
  });

  it('shows invalid credentials on the password and keeps the identifier and the password', async () => {
    const t = await atPassword('email');
    t.actor.send({ type: 'auth.submit' });
    t.ctl.reject('login', apiError.validation({ password: 'validation:invalidCredentials' }));
    await flush();
    expect(t.snap().matches({ credentials: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.password).toBe('validation:invalidCredentials');
    expect(t.snap().context.values.email).toBe('jane@example.com');
    expect(t.snap().context.values.password).toBe('Secret-1');
    t.actor.send({ type: 'auth.change', field: 'password', value: 'Secret-2' });
    expect(t.snap().context.fieldErrors.password).toBeUndefined();
  });

  it("shows the server's wait when rate limited", async () => {
    const t = await atPassword();
    t.actor.send({ type: 'auth.submit' });
    t.ctl.reject('login', apiError.rateLimited(42));
    await flush();
    expect(t.snap().matches({ credentials: 'rateLimited' })).toBe(true);
    expect(t.snap().context.retryAfter).toBe(42);
  });

  it.each([
    ['connectionError', apiError.connection()],
    ['serverError', apiError.server()],
  ] as const)('shows %s on a failed sign-in and can submit again', async (state, error) => {
    const t = await atPassword();
    t.actor.send({ type: 'auth.submit' });
    t.ctl.reject('login', error);
    await flush();
    expect(t.snap().matches({ credentials: state })).toBe(true);
    expect(t.snap().hasTag('error')).toBe(true);
    t.actor.send({ type: 'auth.submit' });
    expect(t.snap().matches('signingIn')).toBe(true);
    expect(t.snap().context.error).toBeNull();
  });

  it('goes back a step on Back (route.changed to /login) without navigating, keeping the values', async () => {
    const t = await atPassword('email');
    t.navigate.mockClear();
    t.actor.send({ type: 'route.changed', path: '/login', search: '' });
    expect(t.snap().matches('identify')).toBe(true);
    expect(t.snap().context.values.email).toBe('jane@example.com');
    expect(t.navigate).not.toHaveBeenCalled();
    // Forward again
    t.actor.send({ type: 'route.changed', path: '/login/continue', search: '' });
    expect(t.snap().matches('credentials')).toBe(true);
  });

  it('the "change" link goes back to /login', async () => {
    const t = await atPassword();
    t.actor.send({ type: 'auth.back' });
    expect(t.snap().matches('identify')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login' });
  });

  it('sends /login/continue without an identifier back to /login', async () => {
    const t = await loaded();
    t.actor.send({ type: 'route.changed', path: '/login/continue', search: '' });
    expect(t.snap().matches('identify')).toBe(true);
    expect(t.navigate).toHaveBeenCalledWith({ to: '/login', replace: true });
  });

  it('a flow started on /login/continue starts over on /login', async () => {
    const t = await loaded(loginFields(), { search: '', path: '/login/continue' });
    expect(t.snap().matches('identify')).toBe(true);
    expect(t.navigate).toHaveBeenCalledWith({ to: '/login', replace: true });
  });

  it('the real loader picks the phone code of the default country kept in module data', async () => {
    vi.spyOn(authApi, 'loginFields').mockResolvedValue(loginFields());
    localStorage.setItem('module_data', JSON.stringify({ default_country: COUNTRIES[1] }));
    const actor = createActor(loginMachine, { input: { search: '' } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('identify')).toBe(true));
    expect(actor.getSnapshot().context.values.mobile_code).toBe('1');
    actor.stop();
  });

  it('the real sign-in actor posts the body to the API', async () => {
    vi.spyOn(authApi, 'loginFields').mockResolvedValue(loginFields());
    const login = vi.spyOn(authApi, 'login').mockResolvedValue(loginResponse());
    const actor = createActor(loginMachine, { input: { search: '' } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('identify')).toBe(true));
    actor.send({ type: 'auth.change', field: 'username', value: ' jdoe ' });
    actor.send({ type: 'auth.continue' });
    actor.send({ type: 'auth.change', field: 'password', value: 'pw' });
    actor.send({ type: 'auth.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(login).toHaveBeenCalledWith({ login_using: 'username', username: 'jdoe', password: 'pw' });
  });
});

describe('login machine — two-factor step', () => {
  afterEach(() => localStorage.clear());
  const CHALLENGE = { two_factor_required: true as const, challenge: 'chal-1', expires_in: 300 };

  async function atCode() {
    const t = await atPassword();
    t.actor.send({ type: 'auth.submit' });
    t.ctl.resolve('login', CHALLENGE);
    await flush();
    return t;
  }

  it('a challenge instead of a session goes to /login/two-factor and signs in only after the code', async () => {
    const t = await atCode();
    expect(t.snap().matches({ twoFactor: 'editing' })).toBe(true);
    expect(t.snap().status).toBe('active');
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login/two-factor' });
    expect(t.snap().context.challenge).toBe('chal-1');

    t.actor.send({ type: 'auth.change', field: 'totp', value: '123 456' });
    t.actor.send({ type: 'auth.verify' });
    expect(t.snap().matches('verifying')).toBe(true);
    expect(t.snap().hasTag('busy')).toBe(true);
    expect(t.ctl.lastInput('loginTwoFactor')).toEqual({ challenge: 'chal-1', code: '123456' });
    const response = loginResponse();
    t.ctl.resolve('loginTwoFactor', response);
    await flush();
    expect(t.snap().status).toBe('done');
    expect(t.snap().output).toEqual({ type: 'loggedIn', response });
  });

  it('checks the code before calling the server', async () => {
    const t = await atCode();
    t.actor.send({ type: 'auth.verify' });
    expect(t.snap().matches({ twoFactor: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.code).toBe('validation:required');
    t.actor.send({ type: 'auth.change', field: 'totp', value: '12a' });
    t.actor.send({ type: 'auth.verify' });
    expect(t.snap().context.fieldErrors.code).toBe('validation:twoFactorCodeFormat');
    expect(t.ctl.callsOf('loginTwoFactor')).toHaveLength(0);
  });

  it('switches to a recovery code and back, keeping what was typed in each', async () => {
    const t = await atCode();
    t.actor.send({ type: 'auth.change', field: 'totp', value: '111222' });
    t.actor.send({ type: 'auth.useRecovery', recovery: true });
    expect(t.snap().context.secondFactor).toBe('recovery');
    t.actor.send({ type: 'auth.change', field: 'recoveryOtp', value: 'abcde-23456' });
    t.actor.send({ type: 'auth.useRecovery', recovery: false });
    expect(t.snap().context.values.totp).toBe('111222');
    t.actor.send({ type: 'auth.useRecovery', recovery: true });
    t.actor.send({ type: 'auth.verify' });
    expect(t.ctl.lastInput('loginTwoFactor')).toEqual({ challenge: 'chal-1', recovery_code: 'ABCDE23456' });
  });

  it('a wrong code stays on the step with the error and the code typed', async () => {
    const t = await atCode();
    t.actor.send({ type: 'auth.change', field: 'totp', value: '123456' });
    t.actor.send({ type: 'auth.verify' });
    t.ctl.reject('loginTwoFactor', apiError.validation({ code: 'validation:twoFactorCodeInvalid' }));
    await flush();
    expect(t.snap().matches({ twoFactor: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.code).toBe('validation:twoFactorCodeInvalid');
    expect(t.snap().context.values.totp).toBe('123456');
    // Typing again clears the error.
    t.actor.send({ type: 'auth.change', field: 'totp', value: '654321' });
    expect(t.snap().context.fieldErrors.code).toBeUndefined();
  });

  it('an expired challenge goes back to the password step with the reason', async () => {
    const t = await atCode();
    t.actor.send({ type: 'auth.change', field: 'totp', value: '123456' });
    t.actor.send({ type: 'auth.verify' });
    t.ctl.reject('loginTwoFactor', apiError.validation({ challenge: 'validation:twoFactorChallengeExpired' }));
    await flush();
    expect(t.snap().matches({ credentials: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.challenge).toBe('validation:twoFactorChallengeExpired');
    expect(t.snap().context.challenge).toBeNull();
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login/continue', replace: true });
    // The password is still there: signing in again asks for a new challenge.
    t.actor.send({ type: 'auth.submit' });
    expect(t.ctl.callsOf('login')).toHaveLength(2);
  });

  it('throttling, connection and server trouble stay on the step', async () => {
    for (const [error, state] of [
      [apiError.rateLimited(60), 'rateLimited'],
      [apiError.connection(), 'connectionError'],
      [apiError.server(), 'serverError'],
    ] as const) {
      const t = await atCode();
      t.actor.send({ type: 'auth.change', field: 'totp', value: '123456' });
      t.actor.send({ type: 'auth.verify' });
      t.ctl.reject('loginTwoFactor', error);
      await flush();
      expect(t.snap().matches({ twoFactor: state })).toBe(true);
      expect(t.snap().hasTag('error')).toBe(true);
      if (state === 'rateLimited') expect(t.snap().context.retryAfter).toBe(60);
    }
  });

  it('Back abandons the challenge; /login/two-factor without one asks for the password again', async () => {
    const t = await atCode();
    t.actor.send({ type: 'auth.back' });
    expect(t.snap().matches('credentials')).toBe(true);
    expect(t.snap().context.challenge).toBeNull();
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login/continue' });
    t.actor.send({ type: 'route.changed', path: '/login/two-factor', search: '' } as never);
    expect(t.snap().matches('credentials')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login/continue', replace: true });
  });

  it('a flow opened on /login/two-factor without a saved step starts over on /login', async () => {
    const t = await loaded(undefined, { search: '', path: '/login/two-factor' });
    expect(t.snap().matches('identify')).toBe(true);
    expect(t.navigate).toHaveBeenCalledWith({ to: '/login', replace: true });
  });

  it('the codes typed are not part of the saved state; the challenge is', async () => {
    const { sanitizeSnapshot } = await import('../../src/app/persistence');
    const t = await atCode();
    t.actor.send({ type: 'auth.change', field: 'totp', value: '123456' });
    t.actor.send({ type: 'auth.change', field: 'recoveryOtp', value: 'ABCDE-23456' });
    const saved = JSON.stringify(sanitizeSnapshot(t.actor.getPersistedSnapshot()));
    expect(saved).not.toContain('123456');
    expect(saved).not.toContain('ABCDE-23456');
    expect(saved).not.toContain('Secret-1');
    expect(saved).toContain('chal-1');
  });
});

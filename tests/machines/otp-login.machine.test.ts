import { createActor } from 'xstate';
import { authApi } from '../../src/api/auth';
import { otpLoginApi } from '../../src/api/public-flows';
import { otpLoginMachine } from '../../src/machines/otp-login.machine';
import { resendTicker } from '../../src/machines/code-step-parts';
import { apiError, flush, loginFields, otpSent, startControlledFlow } from '../support/auth-flows';
import { loginResponse } from '../support/session-fixtures';

function start(search = '') {
  return startControlledFlow(otpLoginMachine, { sources: ['loadLoginFields', 'sendOtp', 'loginWithOtp'], silentTicker: true, input: { search } });
}

async function loaded(fields = loginFields(), search = '') {
  const t = start(search);
  t.ctl.resolve('loadFields', { fields, phoneCode: '34' });
  await flush();
  return t;
}

async function atCode(resendIn = 3) {
  const t = await loaded();
  t.actor.send({ type: 'otp.change', field: 'email', value: 'jane@example.com' });
  t.actor.send({ type: 'otp.send' });
  t.ctl.resolve('send', otpSent({ resend_in: resendIn }));
  await flush();
  return t;
}

describe('OTP login machine', () => {
  afterEach(() => vi.useRealTimers());

  it('is unavailable when the company does not offer sign-in with a code', async () => {
    const t = await loaded(loginFields({ login_with_otp: false }));
    expect(t.snap().matches('unavailable')).toBe(true);
  });

  it('is unavailable when neither e-mails nor phones are unique', async () => {
    const t = await loaded(loginFields({ email_unique: false, phone_unique: false }));
    expect(t.snap().matches('unavailable')).toBe(true);
  });

  it('load failures offer a retry', async () => {
    const t = start();
    t.ctl.reject('loadFields', apiError.connection());
    await flush();
    expect(t.snap().matches('connectionError')).toBe(true);
    t.actor.send({ type: 'load.retry' });
    t.ctl.reject('loadFields', apiError.server());
    await flush();
    expect(t.snap().matches('serverError')).toBe(true);
  });

  it('prefills the identifier from the link of the password step', async () => {
    const t = await loaded(loginFields(), '?login_using=mobile_code&mobile_code=1&mobile=5551234');
    expect(t.snap().context.loginUsing).toBe('mobile_code');
    expect(t.snap().context.values).toMatchObject({ mobile_code: '1', mobile: '5551234' });
  });

  it('checks the identifier before sending a code', async () => {
    const t = await loaded();
    t.actor.send({ type: 'otp.send' });
    expect(t.snap().matches({ identify: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors).toEqual({ email: 'validation:required' });
    expect(t.ctl.callsOf('sendOtp')).toHaveLength(0);
  });

  it('sends the code to the mobile with its phone code, then shows the masked destination', async () => {
    const t = await loaded(loginFields({ email_unique: false }));
    expect(t.snap().context.loginUsing).toBe('mobile_code');
    t.actor.send({ type: 'otp.change', field: 'mobile', value: '600123456' });
    t.actor.send({ type: 'otp.send' });
    expect(t.snap().hasTag('busy')).toBe(true);
    expect(t.ctl.lastInput('sendOtp')).toEqual({ login_using: 'mobile_code', mobile_code: '34', mobile: '600123456' });
    t.ctl.resolve('send', otpSent({ destination: '+34 ***3456', resend_in: 30 }));
    await flush();
    expect(t.snap().matches({ code: 'editing' })).toBe(true);
    expect(t.snap().context.destination).toBe('+34 ***3456');
    expect(t.snap().context.resendIn).toBe(30);
    expect(t.notify).toHaveBeenCalledWith({ kind: 'success', key: 'auth:otpSent', values: { destination: '+34 ***3456' } });
  });

  it('counts down and allows a resend only when the countdown is over; resend clears the old code', async () => {
    const t = await atCode(2);
    t.actor.send({ type: 'otp.change', field: 'otp', value: '111111' });
    t.actor.send({ type: 'otp.resend' });
    expect(t.snap().matches('code')).toBe(true);
    expect(t.snap().can({ type: 'otp.resend' })).toBe(false);
    t.actor.send({ type: 'otp.tick' });
    expect(t.snap().context.resendIn).toBe(1);
    t.actor.send({ type: 'otp.tick' });
    expect(t.snap().context.resendIn).toBe(0);
    expect(t.snap().can({ type: 'otp.resend' })).toBe(true);
    t.actor.send({ type: 'otp.resend' });
    expect(t.snap().matches('resending')).toBe(true);
    expect(t.ctl.lastInput('sendOtp')).toEqual({ login_using: 'email', email: 'jane@example.com' });
    t.ctl.resolve('resend', otpSent({ resend_in: 60 }));
    await flush();
    expect(t.snap().context.values.otp).toBe('');
    expect(t.snap().context.resendIn).toBe(60);
  });

  it('the real ticker sends a tick every second', async () => {
    vi.useFakeTimers();
    const t = await loaded();
    const machine = otpLoginMachine.provide({
      actors: { ...(t.ctl.actors('loadLoginFields', 'sendOtp', 'loginWithOtp') as object), ticker: resendTicker } as never,
    });
    const actor = createActor(machine, { input: { search: '' } }).start();
    t.ctl.resolve('loadFields', { fields: loginFields(), phoneCode: '34' });
    await flush();
    actor.send({ type: 'otp.change', field: 'email', value: 'jane@example.com' });
    actor.send({ type: 'otp.send' });
    t.ctl.resolve('send', otpSent({ resend_in: 5 }));
    await flush();
    await vi.advanceTimersByTimeAsync(3000);
    expect(actor.getSnapshot().context.resendIn).toBe(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(actor.getSnapshot().context.resendIn).toBe(0);
    actor.stop();
  });

  it('requires six digits before verifying', async () => {
    const t = await atCode();
    t.actor.send({ type: 'otp.change', field: 'otp', value: '12a' });
    t.actor.send({ type: 'otp.verify' });
    expect(t.snap().matches({ code: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.otp).toBe('validation:otpFormat');
  });

  it('verifies the code and ends signed in', async () => {
    const t = await atCode();
    t.actor.send({ type: 'otp.change', field: 'otp', value: '123456' });
    t.actor.send({ type: 'otp.verify' });
    expect(t.ctl.lastInput('loginWithOtp')).toEqual({ login_using: 'email', email: 'jane@example.com', otp: '123456' });
    const response = loginResponse();
    t.ctl.resolve('verify', response);
    await flush();
    expect(t.snap().status).toBe('done');
    expect(t.snap().output).toEqual({ type: 'loggedIn', response });
  });

  it.each([
    ['validation:otpInvalid', { code: 'invalid' }],
    ['validation:otpExpired', { code: 'expired' }],
  ] as const)('shows %s on the code', async (key, state) => {
    const t = await atCode();
    t.actor.send({ type: 'otp.change', field: 'otp', value: '123456' });
    t.actor.send({ type: 'otp.verify' });
    t.ctl.reject('verify', apiError.validation({ otp: key }));
    await flush();
    expect(t.snap().matches(state)).toBe(true);
    expect(t.snap().context.fieldErrors.otp).toBe(key);
    expect(t.snap().context.values.otp).toBe('123456');
  });

  it('after too many wrong codes goes back to sending a new code, identifier kept', async () => {
    const t = await atCode();
    t.actor.send({ type: 'otp.change', field: 'otp', value: '123456' });
    t.actor.send({ type: 'otp.verify' });
    t.ctl.reject('verify', apiError.validation({ otp: 'validation:otpTooManyAttempts' }));
    await flush();
    expect(t.snap().matches({ identify: 'tooManyAttempts' })).toBe(true);
    expect(t.snap().context.values.email).toBe('jane@example.com');
    expect(t.snap().context.values.otp).toBe('');
  });

  it.each([
    ['rateLimited', apiError.rateLimited(12)],
    ['connectionError', apiError.connection()],
    ['serverError', apiError.server()],
  ] as const)('a %s while verifying keeps the code screen', async (state, error) => {
    const t = await atCode();
    t.actor.send({ type: 'otp.change', field: 'otp', value: '123456' });
    t.actor.send({ type: 'otp.verify' });
    t.ctl.reject('verify', error);
    await flush();
    expect(t.snap().matches({ code: state })).toBe(true);
    if (state === 'rateLimited') expect(t.snap().context.retryAfter).toBe(12);
  });

  it.each([
    ['invalid', apiError.validation({ email: 'validation:invalidEmail' })],
    ['rateLimited', apiError.rateLimited(9)],
    ['connectionError', apiError.connection()],
    ['serverError', apiError.server()],
  ] as const)('a failed send shows %s on the identifier step', async (state, error) => {
    const t = await loaded();
    t.actor.send({ type: 'otp.change', field: 'email', value: 'jane@example.com' });
    t.actor.send({ type: 'otp.send' });
    t.ctl.reject('send', error);
    await flush();
    expect(t.snap().matches({ identify: state })).toBe(true);
    expect(t.snap().context.values.email).toBe('jane@example.com');
  });

  it('a rate-limited resend stays on the code screen', async () => {
    const t = await atCode(0);
    t.actor.send({ type: 'otp.resend' });
    t.ctl.reject('resend', apiError.rateLimited(20));
    await flush();
    expect(t.snap().matches({ code: 'rateLimited' })).toBe(true);
    expect(t.snap().context.retryAfter).toBe(20);
  });

  it('"change" goes back to the identifier with it kept', async () => {
    const t = await atCode();
    t.actor.send({ type: 'otp.back' });
    expect(t.snap().matches('identify')).toBe(true);
    expect(t.snap().context.values.email).toBe('jane@example.com');
  });

  it('the real actors call send_otp and login_with_otp', async () => {
    vi.spyOn(authApi, 'loginFields').mockResolvedValue(loginFields());
    const send = vi.spyOn(otpLoginApi, 'sendOtp').mockResolvedValue(otpSent());
    const verify = vi.spyOn(otpLoginApi, 'loginWithOtp').mockResolvedValue(loginResponse());
    const actor = createActor(otpLoginMachine, { input: { search: '' } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('identify')).toBe(true));
    actor.send({ type: 'otp.change', field: 'email', value: 'jane@example.com' });
    actor.send({ type: 'otp.send' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('code')).toBe(true));
    actor.send({ type: 'otp.change', field: 'otp', value: '654321' });
    actor.send({ type: 'otp.verify' });
    await vi.waitFor(() => expect(actor.getSnapshot().status).toBe('done'));
    expect(send).toHaveBeenCalledWith({ login_using: 'email', email: 'jane@example.com' });
    expect(verify).toHaveBeenCalledWith({ login_using: 'email', email: 'jane@example.com', otp: '654321' });
    vi.restoreAllMocks();
  });
});

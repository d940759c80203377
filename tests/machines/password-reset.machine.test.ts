import { createActor } from 'xstate';
import { passwordResetApi } from '../../src/api/public-flows';
import { passwordResetMachine } from '../../src/machines/password-reset.machine';
import { apiError, flush, otpSent, resetFields, startControlledFlow } from '../support/auth-flows';

function start(path?: string) {
  return startControlledFlow(passwordResetMachine, { sources: ['loadResetFields', 'sendResetOtp', 'checkResetOtp', 'resetPassword'], silentTicker: true, input: { search: '', path } });
}

async function loaded(fields = resetFields(), path?: string) {
  const t = start(path);
  t.ctl.resolve('loadFields', { fields, phoneCode: '34' });
  await flush();
  return t;
}

async function atCode() {
  const t = await loaded();
  t.actor.send({ type: 'reset.change', field: 'email', value: 'jane@example.com' });
  t.actor.send({ type: 'reset.send' });
  t.ctl.resolve('send', otpSent({ resend_in: 1 }));
  await flush();
  return t;
}

async function atChoose() {
  const t = await atCode();
  t.actor.send({ type: 'reset.change', field: 'otp', value: '123456' });
  t.actor.send({ type: 'reset.verify' });
  t.ctl.resolve('check', { valid: true });
  await flush();
  return t;
}

describe('password reset machine', () => {
  it.each([
    ['email', ['email']],
    ['mobile', ['mobile_code']],
    ['both', ['email', 'mobile_code']],
  ] as const)('reset_password_based_on=%s offers %j', async (by, offered) => {
    const t = await loaded(resetFields({ reset_password_based_on: by }));
    expect(t.snap().context.resetUsing).toBe(offered[0]);
    t.actor.send({ type: 'reset.use', using: 'mobile_code' });
    expect(t.snap().context.resetUsing).toBe(offered.includes('mobile_code' as never) ? 'mobile_code' : 'email');
  });

  it('load failures offer a retry', async () => {
    const t = start();
    t.ctl.reject('loadFields', apiError.server());
    await flush();
    expect(t.snap().matches('serverError')).toBe(true);
    t.actor.send({ type: 'load.retry' });
    t.ctl.reject('loadFields', apiError.connection());
    await flush();
    expect(t.snap().matches('connectionError')).toBe(true);
  });

  it('sends the reset code and moves to /password/forgot/otp', async () => {
    const t = await loaded();
    t.actor.send({ type: 'reset.use', using: 'mobile_code' });
    t.actor.send({ type: 'reset.change', field: 'mobile', value: '600123456' });
    t.actor.send({ type: 'reset.send' });
    expect(t.snap().hasTag('busy')).toBe(true);
    expect(t.ctl.lastInput('sendResetOtp')).toEqual({ reset_using: 'mobile_code', mobile_code: '34', mobile: '600123456' });
    t.ctl.resolve('send', otpSent({ destination: '+34 ***3456' }));
    await flush();
    expect(t.snap().matches('code')).toBe(true);
    expect(t.navigate).toHaveBeenCalledWith({ to: '/password/forgot/otp' });
    expect(t.notify).toHaveBeenCalledWith({ kind: 'success', key: 'auth:otpSent', values: { destination: '+34 ***3456' } });
  });

  it('checks the identifier first', async () => {
    const t = await loaded();
    t.actor.send({ type: 'reset.change', field: 'email', value: 'nope' });
    t.actor.send({ type: 'reset.send' });
    expect(t.snap().matches({ request: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.email).toBe('validation:invalidEmail');
  });

  it('a valid code moves to /password/reset; an invalid one stays with the message', async () => {
    const t = await atCode();
    t.actor.send({ type: 'reset.change', field: 'otp', value: '999999' });
    t.actor.send({ type: 'reset.verify' });
    expect(t.ctl.lastInput('checkResetOtp')).toEqual({ reset_using: 'email', email: 'jane@example.com', otp: '999999' });
    t.ctl.resolve('check', { valid: false });
    await flush();
    expect(t.snap().matches({ code: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.otp).toBe('validation:otpInvalid');
    t.actor.send({ type: 'reset.change', field: 'otp', value: '123456' });
    t.actor.send({ type: 'reset.verify' });
    t.ctl.resolve('check', { valid: true });
    await flush();
    expect(t.snap().matches('choose')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/reset' });
  });

  it('an expired code is shown on the code step; too many attempts goes back to sending a new code', async () => {
    const t = await atCode();
    t.actor.send({ type: 'reset.change', field: 'otp', value: '123456' });
    t.actor.send({ type: 'reset.verify' });
    t.ctl.reject('check', apiError.validation({ otp: 'validation:otpExpired' }));
    await flush();
    expect(t.snap().matches({ code: 'expired' })).toBe(true);
    t.actor.send({ type: 'reset.verify' });
    t.ctl.reject('check', apiError.validation({ otp: 'validation:otpTooManyAttempts' }));
    await flush();
    expect(t.snap().matches({ request: 'tooManyAttempts' })).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/forgot' });
    expect(t.snap().context.values.email).toBe('jane@example.com');
  });

  it('resend is allowed after the countdown and sends the same identifier', async () => {
    const t = await atCode();
    expect(t.snap().can({ type: 'otp.resend' })).toBe(false);
    t.actor.send({ type: 'otp.tick' });
    t.actor.send({ type: 'otp.resend' });
    expect(t.snap().matches('resending')).toBe(true);
    t.ctl.resolve('resend', otpSent({ resend_in: 45 }));
    await flush();
    expect(t.snap().context.resendIn).toBe(45);
    expect(t.ctl.callsOf('sendResetOtp')).toEqual([
      { reset_using: 'email', email: 'jane@example.com' },
      { reset_using: 'email', email: 'jane@example.com' },
    ]);
  });

  it('checks the new password against the policy and the confirmation', async () => {
    const t = await atChoose();
    t.actor.send({ type: 'reset.change', field: 'password', value: 'short' });
    t.actor.send({ type: 'reset.change', field: 'password_confirmation', value: 'other' });
    t.actor.send({ type: 'reset.submit' });
    expect(t.snap().matches({ choose: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors).toEqual({
      password: 'validation:passwordMinLength',
      password_confirmation: 'validation:passwordMismatch',
    });
    expect(t.ctl.callsOf('resetPassword')).toHaveLength(0);
  });

  it('resets the password with otp, both passwords and the identifier, then shows the success page', async () => {
    const t = await atChoose();
    t.actor.send({ type: 'reset.change', field: 'password', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.change', field: 'password_confirmation', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.submit' });
    expect(t.ctl.lastInput('resetPassword')).toEqual({
      reset_using: 'email',
      email: 'jane@example.com',
      otp: '123456',
      password: 'Better-pass1',
      password_confirmation: 'Better-pass1',
    });
    t.ctl.resolve('reset', { message: 'ok' });
    await flush();
    expect(t.snap().matches('success')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/reset/success' });
    expect(t.snap().context.values.password).toBe('');
  });

  it('a code refused while resetting sends the member back to the code step', async () => {
    const t = await atChoose();
    t.actor.send({ type: 'reset.change', field: 'password', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.change', field: 'password_confirmation', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.submit' });
    t.ctl.reject('reset', apiError.validation({ otp: 'validation:otpExpired' }));
    await flush();
    expect(t.snap().matches({ code: 'expired' })).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/forgot/otp' });
    expect(t.snap().context.values.password).toBe('Better-pass1');
  });

  it('server-side password errors stay next to the field', async () => {
    const t = await atChoose();
    t.actor.send({ type: 'reset.change', field: 'password', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.change', field: 'password_confirmation', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.submit' });
    t.ctl.reject('reset', apiError.validation({ password: 'validation:passwordSpecial' }));
    await flush();
    expect(t.snap().matches({ choose: 'invalid' })).toBe(true);
    expect(t.snap().context.fieldErrors.password).toBe('validation:passwordSpecial');
  });

  it('a restored snapshot without the code asks for the code again', async () => {
    const t = await atChoose();
    t.actor.send({ type: 'reset.change', field: 'otp', value: '' });
    t.actor.send({ type: 'reset.submit' });
    expect(t.snap().matches({ code: 'invalid' })).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/forgot/otp' });
  });

  it('Back goes one step back at a time with values kept; Forward is allowed only to reached steps', async () => {
    const t = await atChoose();
    t.navigate.mockClear();
    t.actor.send({ type: 'route.changed', path: '/password/forgot/otp', search: '' });
    expect(t.snap().matches('code')).toBe(true);
    expect(t.snap().context.values.otp).toBe('123456');
    t.actor.send({ type: 'route.changed', path: '/password/forgot', search: '' });
    expect(t.snap().matches('request')).toBe(true);
    expect(t.navigate).not.toHaveBeenCalled();
    t.actor.send({ type: 'route.changed', path: '/password/forgot/otp', search: '' });
    expect(t.snap().matches('code')).toBe(true);
    t.actor.send({ type: 'route.changed', path: '/password/reset', search: '' });
    expect(t.snap().matches('choose')).toBe(true);
    // editing the code invalidates the check: /password/reset is no longer reachable
    t.actor.send({ type: 'reset.back' });
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/forgot/otp' });
    t.actor.send({ type: 'reset.change', field: 'otp', value: '000000' });
    t.actor.send({ type: 'route.changed', path: '/password/reset', search: '' });
    expect(t.snap().matches('code')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/forgot/otp', replace: true });
  });

  it('a later step opened directly starts over on /password/forgot', async () => {
    const t = await loaded(resetFields(), '/password/reset');
    expect(t.snap().matches('request')).toBe(true);
    expect(t.navigate).toHaveBeenCalledWith({ to: '/password/forgot', replace: true });
  });

  it('the success page stays put on Back', async () => {
    const t = await atChoose();
    t.actor.send({ type: 'reset.change', field: 'password', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.change', field: 'password_confirmation', value: 'Better-pass1' });
    t.actor.send({ type: 'reset.submit' });
    t.ctl.resolve('reset', { message: 'ok' });
    await flush();
    t.actor.send({ type: 'route.changed', path: '/password/reset', search: '' });
    expect(t.snap().matches('success')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/reset/success', replace: true });
  });

  it('the real actors call the reset endpoints', async () => {
    vi.spyOn(passwordResetApi, 'resetFields').mockResolvedValue(resetFields());
    const send = vi.spyOn(passwordResetApi, 'sendResetOtp').mockResolvedValue(otpSent());
    const check = vi.spyOn(passwordResetApi, 'checkResetOtp').mockResolvedValue({ valid: true });
    const reset = vi.spyOn(passwordResetApi, 'resetPassword').mockResolvedValue({ message: 'ok' });
    const actor = createActor(passwordResetMachine, { input: { search: '' } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('request')).toBe(true));
    actor.send({ type: 'reset.change', field: 'email', value: 'jane@example.com' });
    actor.send({ type: 'reset.send' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('code')).toBe(true));
    actor.send({ type: 'reset.change', field: 'otp', value: '123456' });
    actor.send({ type: 'reset.verify' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('choose')).toBe(true));
    actor.send({ type: 'reset.change', field: 'password', value: 'Better-pass1' });
    actor.send({ type: 'reset.change', field: 'password_confirmation', value: 'Better-pass1' });
    actor.send({ type: 'reset.submit' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('success')).toBe(true));
    expect(send).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenCalledWith({ reset_using: 'email', email: 'jane@example.com', otp: '123456' });
    expect(reset).toHaveBeenCalledTimes(1);
    actor.stop();
    vi.restoreAllMocks();
  });
});

import { createActor, waitFor, type ActorRefFrom } from 'xstate';
import { twoFactorApi } from '../../../src/api/two-factor';
import { errorFromStatus } from '../../../src/api/errors';
import { fieldErrorsOf } from '../../../src/machines/form.machine';
import { disableFormSchema, twoFactorForms, twoFactorSettingsMachine } from '../../../src/machines/account/two-factor.machine';
import { apiError } from '../../support/auth-flows';

const unauthenticated = () => errorFromStatus(401, { error_code: 'unauthenticated', message: 'Unauthenticated', errors: {} });
const OFF = { enabled: false, enabled_at: null, recovery_codes_left: 0 };
const ON = { enabled: true, enabled_at: '2026-11-25T10:00:00.000Z', recovery_codes_left: 10 };
const SETUP = { secret: 'ABCD EFGH', otpauth_uri: 'otpauth://totp/Upline:jdoe?secret=ABCDEFGH', qr_code: 'data:image/png;base64,AAAA' };
const CODES = { recovery_codes: Array.from({ length: 10 }, (_, i) => `AAAA${i}-BBBBB`) };

function start() {
  const notify = vi.fn();
  const forceLogout = vi.fn();
  const actor = createActor(
    twoFactorSettingsMachine.provide({ actions: { notify: (_, p) => notify(p), forceLogout: () => forceLogout() } }),
  ).start();
  return { actor, notify, forceLogout, snap: () => actor.getSnapshot() };
}

type FormRef = ActorRefFrom<(typeof twoFactorForms)['setup']>;
const child = (t: ReturnType<typeof start>, id: string) => t.snap().children[id as 'setupForm'] as unknown as FormRef;
const send = (ref: unknown, event: Record<string, unknown>) => (ref as { send(e: unknown): void }).send(event);

afterEach(() => vi.restoreAllMocks());

describe('disableFormSchema', () => {
  it('asks for the code of the chosen kind only', () => {
    expect(fieldErrorsOf(disableFormSchema, { method: 'code', code: '', recovery_code: '' })).toEqual({ code: 'validation:required' });
    expect(fieldErrorsOf(disableFormSchema, { method: 'code', code: '12', recovery_code: '' })).toEqual({ code: 'validation:twoFactorCodeFormat' });
    expect(fieldErrorsOf(disableFormSchema, { method: 'recovery', code: '', recovery_code: 'x' })).toEqual({ recovery_code: 'validation:recoveryCodeFormat' });
    expect(fieldErrorsOf(disableFormSchema, { method: 'recovery', code: '', recovery_code: 'abcde-23456' })).toEqual({});
  });
});

describe('two-factor settings machine', () => {
  it('turns it on: password → key and QR code → first code → recovery codes shown once → status again', async () => {
    const status = vi.spyOn(twoFactorApi, 'status').mockResolvedValueOnce(OFF).mockResolvedValueOnce(ON);
    const setup = vi.spyOn(twoFactorApi, 'setup').mockResolvedValue(SETUP);
    const confirm = vi.spyOn(twoFactorApi, 'confirm').mockResolvedValue(CODES);
    const t = start();
    await waitFor(t.actor, (s) => s.matches('off'));
    t.actor.send({ type: 'twoFactor.start' });
    expect(t.snap().matches({ turningOn: 'password' })).toBe(true);

    const pw = child(t, 'setupForm');
    send(pw, { type: 'twoFactorSetup.submit' });
    expect(pw.getSnapshot().context.fieldErrors.password).toBe('validation:required');
    expect(setup).not.toHaveBeenCalled();
    send(pw, { type: 'twoFactorSetup.change', field: 'password', value: 'Secret-1' });
    send(pw, { type: 'twoFactorSetup.submit' });
    await waitFor(t.actor, (s) => s.matches({ turningOn: 'scan' }));
    expect(setup).toHaveBeenCalledWith('Secret-1');
    expect(t.snap().context.setup).toEqual(SETUP);

    const code = child(t, 'confirmForm');
    send(code, { type: 'twoFactorConfirm.change', field: 'code', value: '123 456' });
    send(code, { type: 'twoFactorConfirm.submit' });
    await waitFor(t.actor, (s) => s.matches('codes'));
    expect(confirm).toHaveBeenCalledWith({ code: '123456' });
    expect(t.snap().context.recoveryCodes).toEqual(CODES.recovery_codes);
    expect(t.snap().context.setup).toBeNull();
    expect(t.notify).toHaveBeenCalledWith({ kind: 'success', key: 'account:twoFactor.enabledToast' });

    t.actor.send({ type: 'twoFactor.done' });
    await waitFor(t.actor, (s) => s.matches('on'));
    expect(t.snap().context.recoveryCodes).toBeNull();
    expect(status).toHaveBeenCalledTimes(2);
  });

  it('a wrong first code stays on the code step with its error and the code typed', async () => {
    vi.spyOn(twoFactorApi, 'status').mockResolvedValue(OFF);
    vi.spyOn(twoFactorApi, 'setup').mockResolvedValue(SETUP);
    vi.spyOn(twoFactorApi, 'confirm').mockRejectedValue(apiError.validation({ code: 'validation:twoFactorCodeInvalid' }));
    const t = start();
    await waitFor(t.actor, (s) => s.matches('off'));
    t.actor.send({ type: 'twoFactor.start' });
    send(child(t, 'setupForm'), { type: 'twoFactorSetup.change', field: 'password', value: 'Secret-1' });
    send(child(t, 'setupForm'), { type: 'twoFactorSetup.submit' });
    await waitFor(t.actor, (s) => s.matches({ turningOn: 'scan' }));
    const code = child(t, 'confirmForm');
    send(code, { type: 'twoFactorConfirm.change', field: 'code', value: '123456' });
    send(code, { type: 'twoFactorConfirm.submit' });
    await waitFor(code, (s) => s.matches('validationError'));
    expect(code.getSnapshot().context.fieldErrors.code).toBe('validation:twoFactorCodeInvalid');
    expect((code.getSnapshot().context.values as unknown as { code: string }).code).toBe('123456');
    expect(t.snap().matches({ turningOn: 'scan' })).toBe(true);
    // Cancelling forgets the key.
    t.actor.send({ type: 'twoFactor.cancel' });
    expect(t.snap().matches('off')).toBe(true);
    expect(t.snap().context.setup).toBeNull();
  });

  it('turns it off with the password and a recovery code', async () => {
    vi.spyOn(twoFactorApi, 'status').mockResolvedValue(ON);
    const disable = vi.spyOn(twoFactorApi, 'disable').mockResolvedValue({ message: 'off' });
    const t = start();
    await waitFor(t.actor, (s) => s.matches('on'));
    t.actor.send({ type: 'twoFactor.disable' });
    const form = child(t, 'disableForm');
    send(form, { type: 'twoFactorDisable.change', field: 'password', value: 'Secret-1' });
    send(form, { type: 'twoFactorDisable.change', field: 'method', value: 'recovery' });
    send(form, { type: 'twoFactorDisable.change', field: 'recovery_code', value: 'abcde-23456' });
    send(form, { type: 'twoFactorDisable.submit' });
    await waitFor(t.actor, (s) => s.matches('off'));
    expect(disable).toHaveBeenCalledWith({ password: 'Secret-1', recovery_code: 'ABCDE23456' });
    expect(t.snap().context.status?.enabled).toBe(false);
    expect(t.notify).toHaveBeenCalledWith({ kind: 'success', key: 'account:twoFactor.disabledToast' });
  });

  it('new recovery codes after the password; a 401 on any form ends the session', async () => {
    vi.spyOn(twoFactorApi, 'status').mockResolvedValue(ON);
    vi.spyOn(twoFactorApi, 'renewRecoveryCodes').mockResolvedValueOnce(CODES).mockRejectedValueOnce(unauthenticated());
    const t = start();
    await waitFor(t.actor, (s) => s.matches('on'));
    t.actor.send({ type: 'twoFactor.renew' });
    send(child(t, 'renewForm'), { type: 'twoFactorRenew.change', field: 'password', value: 'Secret-1' });
    send(child(t, 'renewForm'), { type: 'twoFactorRenew.submit' });
    await waitFor(t.actor, (s) => s.matches('codes'));
    expect(t.snap().context.recoveryCodes).toHaveLength(10);
    t.actor.send({ type: 'twoFactor.done' });
    await waitFor(t.actor, (s) => s.matches('on'));
    t.actor.send({ type: 'twoFactor.renew' });
    send(child(t, 'renewForm'), { type: 'twoFactorRenew.change', field: 'password', value: 'Secret-1' });
    send(child(t, 'renewForm'), { type: 'twoFactorRenew.submit' });
    await waitFor(t.actor, (s) => s.matches('forceLogout'));
    expect(t.forceLogout).toHaveBeenCalledTimes(1);
  });

  it('load failures: connection and server errors retry, a 401 ends the session', async () => {
    const status = vi
      .spyOn(twoFactorApi, 'status')
      .mockRejectedValueOnce(apiError.connection())
      .mockRejectedValueOnce(apiError.server())
      .mockRejectedValueOnce(unauthenticated());
    const t = start();
    await waitFor(t.actor, (s) => s.matches('loadConnectionError'));
    t.actor.send({ type: 'twoFactor.retry' });
    await waitFor(t.actor, (s) => s.matches('loadError'));
    expect(t.snap().hasTag('error')).toBe(true);
    t.actor.send({ type: 'twoFactor.retry' });
    await waitFor(t.actor, (s) => s.matches('forceLogout'));
    expect(t.forceLogout).toHaveBeenCalledTimes(1);
    expect(status).toHaveBeenCalledTimes(3);
  });
});

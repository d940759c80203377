import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/errors';
import { emailChangeMachine } from '../../../src/machines/account/contact-change.machine';
import { walletPasswordMachine, walletPasswordPageMachine } from '../../../src/machines/account/wallet-password.machine';
import { contactApi, walletPasswordApi } from '../../../src/api/contact';
import { fieldErrorsOf } from '../../../src/machines/form.machine';
import { walletPasswordSchema, type EmailSettings } from '../../../src/schemas/contact.schema';

const SENT = { message: 'sent', destination: 'n***@example.com', expires_in: 600, resend_in: 0 };
const POLICY = { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false };

afterEach(() => vi.restoreAllMocks());

function startEmail() {
  const request = vi.spyOn(contactApi, 'requestEmail').mockResolvedValue(SENT);
  const resend = vi.spyOn(contactApi, 'resend').mockResolvedValue(SENT);
  const verify = vi.spyOn(contactApi, 'verify').mockResolvedValue({ email: 'new@example.com', mobile_code: null, mobile: null });
  const machine = emailChangeMachine.provide({ actors: { load: fromPromise(async (): Promise<EmailSettings> => ({ email: 'old@example.com' })) } });
  const actor = createActor(machine).start();
  return { actor, machine, request, resend, verify };
}

describe('emailChangeMachine', () => {
  it('asks for a code with the new address and the password, then verifies the code alone', async () => {
    const { actor, request, verify } = startEmail();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'emailChange.change', field: 'email', value: ' new@example.com ' });
    actor.send({ type: 'emailChange.change', field: 'password', value: 'Account-pass-1' });
    actor.send({ type: 'emailChange.submit' });
    await waitFor(actor, (s) => s.matches('code'));
    expect(request).toHaveBeenCalledWith({ email: 'new@example.com', password: 'Account-pass-1' });
    actor.send({ type: 'emailChange.change', field: 'otp', value: '123456' });
    actor.send({ type: 'emailChange.verify' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(verify).toHaveBeenCalledWith('email', '123456');
    expect(actor.getSnapshot().context.result).toEqual({ email: 'new@example.com', mobile_code: null, mobile: null });
  });

  it('without the password (restored in the code step) a resend asks for a new code of the pending change', async () => {
    const { actor, machine, request, resend } = startEmail();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'emailChange.change', field: 'email', value: 'new@example.com' });
    actor.send({ type: 'emailChange.change', field: 'password', value: 'Account-pass-1' });
    actor.send({ type: 'emailChange.submit' });
    await waitFor(actor, (s) => s.matches('code'));
    // What a reload finds: the saved snapshot without the password and the code.
    const saved = JSON.parse(JSON.stringify(actor.getPersistedSnapshot())) as { context: Record<string, unknown> };
    delete saved.context.password;
    actor.stop();
    const restored = createActor(machine, { snapshot: saved as never }).start();
    expect(restored.getSnapshot().matches('code')).toBe(true);
    restored.send({ type: 'otp.resend' });
    await waitFor(restored, (s) => s.matches('code') && !s.matches('resending'));
    expect(resend).toHaveBeenCalledWith('email');
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('a taken address comes back as its field error with what was typed kept', async () => {
    const { actor, request } = startEmail();
    request.mockRejectedValue(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { email: ['validation:emailTaken'] } }));
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'emailChange.change', field: 'email', value: 'taken@example.com' });
    actor.send({ type: 'emailChange.change', field: 'password', value: 'Account-pass-1' });
    actor.send({ type: 'emailChange.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'validation:emailTaken' });
    expect(actor.getSnapshot().context.values.email).toBe('taken@example.com');
  });

  it('asks for the password and a valid address before sending', async () => {
    const { actor, request } = startEmail();
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'emailChange.change', field: 'email', value: 'nope' });
    actor.send({ type: 'emailChange.submit' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'validation:invalidEmail', password: 'validation:required' });
    expect(request).not.toHaveBeenCalled();
  });
});

describe('walletPasswordMachine', () => {
  it('the page sets the first one with the account password, loads the status again, then changes it with the current one', async () => {
    const set = vi.spyOn(walletPasswordApi, 'set').mockResolvedValue({ is_set: true, password_policy: POLICY, reset_destination: null });
    const change = vi.spyOn(walletPasswordApi, 'change').mockResolvedValue({ is_set: true, password_policy: POLICY, reset_destination: null });
    let isSet = false;
    const status = vi.spyOn(walletPasswordApi, 'status').mockImplementation(async () => ({ is_set: isSet, password_policy: POLICY, reset_destination: null }));
    set.mockImplementation(async () => {
      isSet = true;
      return { is_set: true, password_policy: POLICY, reset_destination: null };
    });
    const notify = vi.fn();
    const page = createActor(walletPasswordPageMachine.provide({ actions: { notify: (_, p) => notify(p) } })).start();
    const actor = page.getSnapshot().children.form!;
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'walletPassword.save', values: { wallet_password: 'Wallet-pass-1', wallet_password_confirmation: 'Wallet-pass-1' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation:required' });
    actor.send({ type: 'walletPassword.change', field: 'password', value: 'Account-pass-1' });
    actor.send({ type: 'walletPassword.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.loaded?.is_set === true);
    expect(set).toHaveBeenCalledWith({ password: 'Account-pass-1', wallet_password: 'Wallet-pass-1', wallet_password_confirmation: 'Wallet-pass-1' });
    expect(status).toHaveBeenCalledTimes(2);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'account:walletPassword.saved' });

    actor.send({ type: 'walletPassword.save', values: { wallet_password: 'Wallet-pass-2', wallet_password_confirmation: 'Wallet-pass-2' } });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ current_wallet_password: 'validation:required' });
    actor.send({ type: 'walletPassword.change', field: 'current_wallet_password', value: 'Wallet-pass-1' });
    actor.send({ type: 'walletPassword.submit' });
    await waitFor(actor, (s) => s.matches('editing') && status.mock.calls.length === 3);
    expect(change).toHaveBeenCalledWith({ current_wallet_password: 'Wallet-pass-1', wallet_password: 'Wallet-pass-2', wallet_password_confirmation: 'Wallet-pass-2' });

    // Forgotten: the reset, and back.
    page.send({ type: 'walletPassword.forgot' });
    expect(page.getSnapshot().value).toBe('resetting');
    expect(page.getSnapshot().children.form).toBeUndefined();
    expect(page.getSnapshot().children.reset).toBeDefined();
    page.send({ type: 'walletPassword.back' });
    expect(page.getSnapshot().value).toBe('changing');
  });

  it('the schema applies the policy and the confirmation', () => {
    const schema = walletPasswordSchema(POLICY, true);
    expect(fieldErrorsOf(schema, { current_wallet_password: '', wallet_password: 'weak', wallet_password_confirmation: 'other' })).toEqual({
      current_wallet_password: 'validation:required',
      wallet_password: 'validation:passwordMinLength',
    });
    expect(fieldErrorsOf(schema, { current_wallet_password: 'x', wallet_password: 'Wallet-pass-1', wallet_password_confirmation: 'Wallet-pass-2' })).toEqual({
      wallet_password_confirmation: 'validation:passwordMismatch',
    });
  });
});

import { fireEvent, screen } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { walletPasswordMachine, walletPasswordResetMachine } from '../../../src/machines/account/wallet-password.machine';
import type { WalletPasswordStatus } from '../../../src/schemas/contact.schema';
import type { PayoutRequestResult, PayoutSettings } from '../../../src/schemas/wallet.schema';
import { WalletPasswordResetView, WalletPasswordView } from '../../../src/views/account/wallet-password.view';
import { renderUi } from '../../support/render-ui';

const POLICY = { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false };
const UNSET: WalletPasswordStatus = { is_set: false, password_policy: POLICY, reset_destination: 'd***@example.org' };
const SET: WalletPasswordStatus = { ...UNSET, is_set: true };
const refusal = (errors: Record<string, string[]>) => new ApiError('badRequest', 422, { error_code: 'validation_error', errors });

function show(status: WalletPasswordStatus, submit: () => Promise<WalletPasswordStatus>, lng = 'en') {
  const request = vi.fn(submit);
  const onForgot = vi.fn();
  const actor = createActor(walletPasswordMachine.provide({ actors: { load: fromPromise(async () => status), submit: fromPromise(request) } })).start();
  renderUi(<WalletPasswordView actor={actor} onForgot={onForgot} />, { lng });
  return { actor, request, onForgot };
}
const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('wallet password page', () => {
  it('not set: asks for the new one twice and the account password; a wrong account password is shown and nothing typed is lost', async () => {
    const { request } = show(UNSET, async () => {
      throw refusal({ password: ['validation:invalidPassword'] });
    });
    expect(await screen.findByText('Not set')).toBeTruthy();
    expect(screen.queryByLabelText('Current wallet password')).toBeNull();
    fireEvent.change(input('New wallet password'), { target: { value: 'Wallet-pass-1' } });
    fireEvent.change(input('Confirm new wallet password'), { target: { value: 'Wallet-pass-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set wallet password' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/Account password/), { target: { value: 'Wrong-pass-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set wallet password' }));
    expect(await screen.findByText('The password is incorrect.')).toBeTruthy();
    expect(input('New wallet password').value).toBe('Wallet-pass-1');
    expect(input('Confirm new wallet password').value).toBe('Wallet-pass-1');
    expect((screen.getByLabelText(/Account password/) as HTMLInputElement).value).toBe('Wrong-pass-1');
  });

  it('set: asks for the current wallet password, checks the policy and the confirmation, and links the reset', async () => {
    const { request, onForgot } = show(SET, async () => {
      throw refusal({ current_wallet_password: ['validation:invalidPassword'] });
    });
    expect(await screen.findByText('Set')).toBeTruthy();
    expect(screen.queryByLabelText(/Account password/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Forgot your wallet password?' }));
    expect(onForgot).toHaveBeenCalledTimes(1);
    fireEvent.change(input('Current wallet password'), { target: { value: 'Wallet-pass-1' } });
    fireEvent.change(input('New wallet password'), { target: { value: 'short' } });
    fireEvent.change(input('Confirm new wallet password'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change wallet password' }));
    expect(await screen.findByText('The password is too short.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
    fireEvent.change(input('New wallet password'), { target: { value: 'Wallet-pass-2' } });
    fireEvent.change(input('Confirm new wallet password'), { target: { value: 'Wallet-pass-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change wallet password' }));
    expect(await screen.findByText('The password is incorrect.')).toBeTruthy();
    expect(input('Current wallet password').value).toBe('Wallet-pass-1');
  });

  it('a server failure offers a retry and keeps what was typed', async () => {
    let fail = true;
    show(SET, async () => {
      if (fail) throw new ApiError('server', 500, {});
      return SET;
    });
    fireEvent.change(await screen.findByLabelText('Current wallet password'), { target: { value: 'Wallet-pass-1' } });
    fireEvent.change(input('New wallet password'), { target: { value: 'Wallet-pass-2' } });
    fireEvent.change(input('Confirm new wallet password'), { target: { value: 'Wallet-pass-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change wallet password' }));
    expect(await screen.findByText('Something went wrong on our side. Try again in a moment; nothing you typed was lost.')).toBeTruthy();
    expect(input('New wallet password').value).toBe('Wallet-pass-2');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(input('New wallet password').value).toBe(''));
  });

  it('reads in Spanish', async () => {
    show(UNSET, async () => SET, 'es');
    expect(await screen.findByText('Sin definir')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Definir contraseña de la billetera' })).toBeTruthy();
  });
});

describe('wallet password reset page', () => {
  it('the new one first, then the code sent to the e-mail; a wrong code is shown and the code kept', async () => {
    const sendCode = vi.fn(async () => ({ message: 'sent', destination: 'd***@example.org', expires_in: 600, resend_in: 30 }));
    let wrong = true;
    const submit = vi.fn(async (): Promise<WalletPasswordStatus> => {
      if (wrong) throw refusal({ otp: ['validation:otpInvalid'] });
      return SET;
    });
    const actor = createActor(
      walletPasswordResetMachine.provide({ actors: { load: fromPromise(async () => SET), sendCode: fromPromise(sendCode), submit: fromPromise(submit) } }),
    ).start();
    renderUi(<WalletPasswordResetView actor={actor} onBack={() => {}} />);
    fireEvent.change(await screen.findByLabelText('New wallet password'), { target: { value: 'Wallet-pass-3' } });
    fireEvent.change(input('Confirm new wallet password'), { target: { value: 'Wallet-pass-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: '222222' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset wallet password' }));
    expect(await screen.findByText('This code is not correct.')).toBeTruthy();
    expect(input('Verification code').value).toBe('222222');
    wrong = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reset wallet password' }));
    expect(await screen.findByText('Your wallet password was reset.')).toBeTruthy();
    expect(sendCode).toHaveBeenCalledTimes(1);
  });

  it('without a wallet password there is nothing to reset', async () => {
    const actor = createActor(walletPasswordResetMachine.provide({ actors: { load: fromPromise(async () => UNSET) } })).start();
    renderUi(<WalletPasswordResetView actor={actor} onBack={() => {}} />);
    expect(await screen.findByText('You have not set a wallet password yet.')).toBeTruthy();
  });

  it('a lost connection on load offers a retry', async () => {
    let fail = true;
    const actor = createActor(
      walletPasswordResetMachine.provide({
        actors: {
          load: fromPromise(async () => {
            if (fail) throw new ConnectionError();
            return SET;
          }),
        },
      }),
    ).start();
    renderUi(<WalletPasswordResetView actor={actor} onBack={() => {}} />);
    const retry = await screen.findByRole('button', { name: /try again|retry/i });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByLabelText('New wallet password')).toBeTruthy();
  });
});

describe('payout request page with a wallet password', () => {
  it('asks for the wallet password instead of the account password, in English and Spanish', async () => {
    const { payoutPage } = await import('../../support/payout-page');
    const { PayoutRequestView } = await import('../../../src/views/wallet/payout-request.view');
    const settings: PayoutSettings = {
      enabled: true, minimum_amount: '10.0000', maximum_amount: '1000.0000', fee_fixed: '1.0000', fee_percent: '2.0000', amount_decimals: 2,
      available_balance: '200.0000', max_requestable: '195.09', kyc_required: false, kyc_status: 'approved', single_pending: true,
      pending_request: null, password_required: true, password_kind: 'wallet',
    };
    const request = vi.fn(async (): Promise<PayoutRequestResult> => {
      throw refusal({ password: ['validation:invalidPassword'] });
    });
    const { page } = payoutPage({ load: async () => settings, submit: request });
    const { unmount } = renderUi(<PayoutRequestView actor={page} />);
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '50' } });
    expect(screen.queryByLabelText('Account password')).toBeNull();
    fireEvent.change(screen.getByLabelText('Wallet password'), { target: { value: 'Wallet-pass-9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request payout' }));
    expect(await screen.findByText('The password is incorrect.')).toBeTruthy();
    expect(input('Wallet password').value).toBe('Wallet-pass-9');
    unmount();
    renderUi(<PayoutRequestView actor={page} />, { lng: 'es' });
    expect(await screen.findByLabelText('Contraseña de la billetera')).toBeTruthy();
  });
});

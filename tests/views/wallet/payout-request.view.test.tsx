import { fireEvent, screen } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { payoutRequestMachine } from '../../../src/machines/payout-request.machine';
import type { PayoutRequestResult, PayoutSettings } from '../../../src/schemas/wallet.schema';
import { PayoutRequestView } from '../../../src/views/wallet/payout-request.view';
import { renderUi } from '../../support/render-ui';

const SETTINGS: PayoutSettings = {
  enabled: true, minimum_amount: '10.0000', maximum_amount: '1000.0000', fee_fixed: '1.0000', fee_percent: '2.0000', amount_decimals: 2,
  available_balance: '200.0000', max_requestable: '195.09', kyc_required: false, kyc_status: 'approved', single_pending: true,
  pending_request: null, password_required: true,
};
const RESULT: PayoutRequestResult = {
  payout: { id: 9, status_id: 1, status: 'pending', total: '50.0000', fee: '2.0000', created_at: '2026-01-01T00:00:00.000Z' },
  wallet_balance: '148.0000',
};

function show(submit: () => Promise<PayoutRequestResult>, settings: () => Promise<PayoutSettings> = async () => SETTINGS) {
  const request = vi.fn(submit);
  const actor = createActor(payoutRequestMachine.provide({ actors: { load: fromPromise(settings), submit: fromPromise(request) } })).start();
  renderUi(<PayoutRequestView actor={actor} />);
  return { actor, request };
}

async function fill(amount: string, password: string) {
  fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: amount } });
  fireEvent.change(screen.getByLabelText('Account password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Request payout' }));
}

describe('payout request view', () => {
  it('a wrong password shows its message and keeps what was typed', async () => {
    show(async () => {
      throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } });
    });
    await fill('50', 'wrong-one');
    expect(await screen.findByText('The password is incorrect.')).toBeTruthy();
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('50');
    expect((screen.getByLabelText('Account password') as HTMLInputElement).value).toBe('wrong-one');
  });

  it('shows the minimum rule before sending', async () => {
    const { request } = show(async () => RESULT);
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request payout' }));
    expect(await screen.findByText('The amount is below the minimum payout.')).toBeTruthy();
    expect(screen.getByText('This field is required.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
  });

  it('a lost connection keeps the request and offers Retry, which sends it again', async () => {
    let fail = true;
    const { request } = show(async () => {
      if (fail) throw new ConnectionError();
      return RESULT;
    });
    await fill('50', 'secret');
    expect(await screen.findByText('Your request was kept. Retrying never pays out twice.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Payout requested' })).toBeTruthy();
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('a refusal without field messages says so', async () => {
    show(async () => {
      throw new ApiError('forbidden', 403, { error_code: 'payout_disabled', message: 'off' });
    });
    await fill('50', 'secret');
    expect(await screen.findByText('The request was refused. Check the form and try again.')).toBeTruthy();
  });

  it('a blocked payout explains why and disables the form', async () => {
    show(async () => RESULT, async () => ({ ...SETTINGS, kyc_required: true, kyc_status: 'pending' }));
    expect(await screen.findByText('Complete your identity verification first.', { exact: false })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Request payout' })).toBeDisabled();
    expect(await screen.findByRole('link', { name: 'Verify your identity' })).toHaveAttribute('href', '/kyc');
  });

  it('settings that fail to load show the error screen with retry', async () => {
    let n = 0;
    show(async () => RESULT, async () => {
      if (n++ === 0) throw new ApiError('server', 500, {});
      return SETTINGS;
    });
    fireEvent.click(await screen.findByRole('button', { name: /retry/i }));
    expect(await screen.findByLabelText('Amount')).toBeTruthy();
  });

  it('after success another payout can be requested on fresh settings', async () => {
    const { actor } = show(async () => RESULT);
    await fill('50', 'secret');
    fireEvent.click(await screen.findByRole('button', { name: 'Request another payout' }));
    expect(await screen.findByLabelText('Amount')).toHaveValue('');
    expect(actor.getSnapshot().value).toBe('editing');
  });
});

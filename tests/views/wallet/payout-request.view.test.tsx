import { fireEvent, screen } from '@testing-library/react';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { PayoutCancelResult, PayoutRequestResult, PayoutSettings } from '../../../src/schemas/wallet.schema';
import { PayoutRequestView } from '../../../src/views/wallet/payout-request.view';
import { renderUi } from '../../support/render-ui';
import { payoutPage } from '../../support/payout-page';

const SETTINGS: PayoutSettings = {
  enabled: true, minimum_amount: '10.0000', maximum_amount: '1000.0000', fee_fixed: '1.0000', fee_percent: '2.0000', amount_decimals: 2,
  available_balance: '200.0000', max_requestable: '195.09', kyc_required: false, kyc_status: 'approved', single_pending: true,
  pending_request: null, password_required: true,
};
const RESULT: PayoutRequestResult = {
  payout: { id: 9, status_id: 1, status: 'pending', total: '50.0000', fee: '2.0000', created_at: '2026-01-01T00:00:00.000Z' },
  wallet_balance: '148.0000',
};

function show(submit: () => Promise<PayoutRequestResult>, settings: () => Promise<PayoutSettings> = async () => SETTINGS, cancel?: (id: number) => Promise<PayoutCancelResult>) {
  const request = vi.fn(submit);
  const load = vi.fn(settings);
  const { page, form } = payoutPage({ load, submit: request, cancel });
  renderUi(<PayoutRequestView actor={page} />);
  return { actor: { getSnapshot: () => form().getSnapshot() }, request, load };
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

  it('a blocked payout explains why, links to the fix, and offers no form that cannot be sent', async () => {
    show(async () => RESULT, async () => ({ ...SETTINGS, kyc_required: true, kyc_status: 'pending' }));
    expect(await screen.findByText('Complete your identity verification first.', { exact: false })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Request payout' })).toBeNull();
    expect(screen.queryByLabelText('Amount')).toBeNull();
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

  it('after success another payout can be requested on fresh settings when several may wait', async () => {
    const { actor } = show(async () => RESULT, async () => ({ ...SETTINGS, single_pending: false }));
    await fill('50', 'secret');
    fireEvent.click(await screen.findByRole('button', { name: 'Request another payout' }));
    expect(await screen.findByLabelText('Amount')).toHaveValue('');
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('after success with one request at a time: no dead-end "another", but the payouts and a cancel', async () => {
    const cancelled: PayoutCancelResult = { payout: { ...RESULT.payout, status: 'cancelled', status_id: 5 }, wallet_balance: '200.0000' };
    let pending = false;
    const cancel = vi.fn(async () => {
      pending = false;
      return cancelled;
    });
    const { load } = show(
      async () => {
        pending = true;
        return RESULT;
      },
      async () => ({ ...SETTINGS, pending_request: pending ? RESULT.payout : null }),
      cancel,
    );
    await fill('50', 'secret');
    await screen.findByRole('heading', { name: 'Payout requested' });
    expect(screen.queryByRole('button', { name: 'Request another payout' })).toBeNull();
    expect(screen.getByRole('link', { name: 'See your payouts' })).toHaveAttribute('href', '/wallet/recent-payouts');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel this request' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the request' }));
    await vi.waitFor(() => expect(cancel).toHaveBeenCalledWith(9));
    // The cancel reloads the settings: the form is back, with nothing pending.
    expect(await screen.findByLabelText('Amount')).toHaveValue('');
    expect(load.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('a pending request is said once, with its cancel; a refused cancel says why', async () => {
    const cancel = vi.fn(async (): Promise<PayoutCancelResult> => {
      throw new ApiError('badRequest', 409, { error_code: 'payout_not_pending', message: 'x' });
    });
    show(async () => RESULT, async () => ({ ...SETTINGS, pending_request: RESULT.payout, max_requestable: '0' }), cancel);
    expect(await screen.findByText(/Only one request can wait at a time/)).toBeTruthy();
    expect(screen.queryByText('You already have a pending payout request.', { exact: false })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel this request' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the request' }));
    expect(await screen.findByText('This request can no longer be cancelled: it was already approved, paid or cancelled.')).toBeTruthy();
  });
});

/** Package payment and over-the-counter views, each state rendered, with faults injected into their calls. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { vi } from 'vitest';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { packagePaymentMachine } from '../../../src/machines/shop/package-payment.machine';
import { otcHistoryListMachine, otcMakePaymentMachine, otcRequestPaymentMachine } from '../../../src/machines/shop/otc.machine';
import { PackagePaymentView } from '../../../src/views/shop/package-payment.view';
import { OtcHistoryView, OtcMakePaymentView, OtcRequestPaymentView } from '../../../src/views/shop/otc.view';
import { columnHeaders, renderUi } from '../../support/render-ui';
import { DEFAULT_FILTERS } from '../../../src/lib/list-filters';
import { OPTIONS, PURCHASE, REQUEST, ROI_OPTIONS, WALLET_RESULT } from '../../support/package-fixtures';

function packagesWith(load: () => Promise<unknown>, pay: () => Promise<unknown> = async () => WALLET_RESULT) {
  const endSession = vi.fn();
  const actor = createActor(
    packagePaymentMachine.provide({
      actors: {
        loadOptions: fromPromise(load) as never,
        createPurchase: fromPromise(async () => PURCHASE) as never,
        payByWallet: fromPromise(pay) as never,
      },
      actions: { endSession },
    }),
  ).start();
  renderUi(<PackagePaymentView actor={actor} />);
  return { actor, endSession };
}

describe('package payment view', () => {
  it('a lost connection shows the connection error; Retry loads the packages with their upgrade prices', async () => {
    let n = 0;
    packagesWith(async () => {
      if (n++ === 0) throw new ConnectionError();
      return OPTIONS;
    });
    expect(await screen.findByText('No connection')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Packages' })).toBeTruthy();
    expect(screen.getByText(/Upgrade for \$150\.00 \(\+100\.00 PV\)/)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Upgrade' })).toHaveLength(2);
  });

  it('a server error offers a retry; a 401 ends the session without an error screen', async () => {
    packagesWith(async () => Promise.reject(new ApiError('server', 500, {})));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    const { endSession } = packagesWith(async () => Promise.reject(new ApiError('unauthorized', 401, {})));
    await waitFor(() => expect(endSession).toHaveBeenCalled());
  });

  it('with roi on, the packages are investments with their return schedule', async () => {
    packagesWith(async () => ROI_OPTIONS);
    expect(await screen.findByRole('heading', { name: 'Investments' })).toBeTruthy();
    expect(screen.getByText(/Returns \$10\.00 a month \(2\.00 %\) for 12 months: \$120\.00 in all/)).toBeTruthy();
  });

  it('upgrade → e-wallet → wrong password shown at the field → paid with the new balance', async () => {
    let n = 0;
    packagesWith(
      async () => OPTIONS,
      async () => {
        if (n++ === 0) throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } });
        return WALLET_RESULT;
      },
    );
    fireEvent.click((await screen.findAllByRole('button', { name: 'Upgrade' }))[0]);
    fireEvent.click(await screen.findByRole('button', { name: /E-wallet/ }));
    expect(screen.getByText('Starter → Business')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Account password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay $150.00' }));
    expect(await screen.findByText(/password/i, { selector: '.mantine-InputWrapper-error' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Account password'), { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pay $150.00' }));
    expect(await screen.findByText(/Balance: \$170\.00/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See the order' }).getAttribute('href')).toContain('/orders/900');
  });
});

describe('over-the-counter views', () => {
  it('request-payment shows the reference and the bank details once created', async () => {
    const actor = createActor(
      otcRequestPaymentMachine.provide({ actors: { load: fromPromise(async () => ({ purpose: 'package', ref_id: '41' })) as never, submit: fromPromise(async () => REQUEST) as never } }),
      { input: { params: { purpose: 'package', ref_id: '41' } } },
    ).start();
    renderUi(<OtcRequestPaymentView actor={actor} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Get payment details' }));
    expect(await screen.findByText('OTC-ABCD-EFGH')).toBeTruthy();
    expect(screen.getByText('0012 3456 7890')).toBeTruthy();
  });

  it('request-payment: a server error keeps what was typed and offers a retry', async () => {
    const actor = createActor(
      otcRequestPaymentMachine.provide({ actors: { load: fromPromise(async () => ({})) as never, submit: fromPromise(async () => Promise.reject(new ApiError('server', 500, {}))) as never } }),
    ).start();
    renderUi(<OtcRequestPaymentView actor={actor} />);
    fireEvent.change(await screen.findByLabelText('Amount'), { target: { value: '75' } });
    fireEvent.click(screen.getByRole('button', { name: 'Get payment details' }));
    expect(await screen.findByText('Something went wrong on our side. Try again.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('75');
  });

  it('make-payment: nothing awaiting says so; a load failure offers a retry', async () => {
    const empty = createActor(otcMakePaymentMachine.provide({ actors: { load: fromPromise(async () => ({ awaiting: [], chosen: null })) as never } })).start();
    renderUi(<OtcMakePaymentView actor={empty} />);
    expect(await screen.findByText('No payment request is waiting for a payment.')).toBeTruthy();
    const broken = createActor(otcMakePaymentMachine.provide({ actors: { load: fromPromise(async () => Promise.reject(new ConnectionError())) as never } })).start();
    renderUi(<OtcMakePaymentView actor={broken} />);
    expect(await screen.findByText('No connection')).toBeTruthy();
  });

  it('make-payment asks for the receipt before sending', async () => {
    const actor = createActor(otcMakePaymentMachine.provide({ actors: { load: fromPromise(async () => ({ awaiting: [REQUEST.request], chosen: '7' })) as never } })).start();
    renderUi(<OtcMakePaymentView actor={actor} />);
    fireEvent.change(await screen.findByLabelText('Bank transaction reference'), { target: { value: 'FCB-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send receipt' }));
    expect(await screen.findByText('Add the receipt.')).toBeTruthy();
  });

  it('payment-history lists statuses and the rejection reason; empty and failed lists say so', async () => {
    const rejected = { ...REQUEST.request, id: 8, status: 'rejected' as const, reason: 'No deposit found' };
    const list = createActor(otcHistoryListMachine.provide({ actors: { fetchPage: fromPromise(async () => ({ items: [REQUEST.request, rejected], next: null, meta: undefined })) as never } }), { input: { filters: DEFAULT_FILTERS } }).start();
    renderUi(<OtcHistoryView actor={list} onFilters={() => {}} />);
    expect(await screen.findByText('Awaiting payment')).toBeTruthy();
    expect(screen.getByText('Rejected')).toBeTruthy();
    expect(screen.getByText(/Reason: No deposit found/)).toBeTruthy();
    // On a desktop the requests are a table: its column headers, the amount right-aligned.
    expect(columnHeaders(screen.getByRole('table', { name: 'Rows' }))).toEqual(['Request', 'Details', 'Amount']);
    expect(screen.getByText('Rejected').closest('[role="row"]')!.querySelector('[data-amount]')!.closest('[role="cell"]')).toHaveStyle({ textAlign: 'right' });

    const none = createActor(otcHistoryListMachine.provide({ actors: { fetchPage: fromPromise(async () => ({ items: [], next: null, meta: undefined })) as never } }), { input: { filters: DEFAULT_FILTERS } }).start();
    renderUi(<OtcHistoryView actor={none} onFilters={() => {}} />);
    expect(await screen.findByText('Nothing here yet')).toBeTruthy();
    const failed = createActor(otcHistoryListMachine.provide({ actors: { fetchPage: fromPromise(async () => Promise.reject(new ConnectionError())) as never } }), { input: { filters: DEFAULT_FILTERS } }).start();
    renderUi(<OtcHistoryView actor={failed} onFilters={() => {}} />);
    expect(await screen.findByText('No connection')).toBeTruthy();
  });
});

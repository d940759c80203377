/**
 * The bank details, payout method and notification settings pages, and the payout request page's
 * method: masked display, translated field errors, failed requests with retry, load failures, Spanish
 * and the dark scheme, and the refusal (with its link) when no method is chosen.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { bankDetailsMachine } from '../../../src/machines/account/bank-details.machine';
import { notificationSettingsMachine } from '../../../src/machines/account/notification-settings.machine';
import { payoutMethodMachine } from '../../../src/machines/account/payout-method.machine';
import type { BankDetailsAnswer } from '../../../src/schemas/bank-details.schema';
import { NOTIFICATION_EVENTS, type NotificationSettings } from '../../../src/schemas/notification-settings.schema';
import type { PayoutMethodAnswer } from '../../../src/schemas/payout-method.schema';
import type { PayoutSettings } from '../../../src/schemas/wallet.schema';
import { BankDetailsView } from '../../../src/views/account/bank-details.view';
import { NotificationSettingsView } from '../../../src/views/account/notification-settings.view';
import { PayoutMethodView } from '../../../src/views/account/payout-method.view';
import { PayoutRequestView } from '../../../src/views/wallet/payout-request.view';
import { payoutPage } from '../../support/payout-page';
import { renderUi } from '../../support/render-ui';

const COUNTRIES = [
  { iso_code_2: 'DE', name: 'Germany', iban: true },
  { iso_code_2: 'US', name: 'United States', iban: false },
];
const SAVED: BankDetailsAnswer = {
  bank_details: { account_holder: 'Ada Lovelace', country: 'DE', kind: 'iban', account_masked: '•••• 3000', routing_code: null, bic: 'COBADEFFXXX', bank_name: 'Commerzbank', updated_at: '2026-01-01T00:00:00.000Z' },
  countries: COUNTRIES,
};

function showBank(load: () => Promise<BankDetailsAnswer>, submit: () => Promise<BankDetailsAnswer> = async () => SAVED, lng = 'en', colorScheme: 'light' | 'dark' = 'light') {
  const request = vi.fn(submit);
  const actor = createActor(bankDetailsMachine.provide({ actors: { load: fromPromise(load), submit: fromPromise(request) } })).start();
  renderUi(<BankDetailsView actor={actor} />, { lng, colorScheme });
  return { actor, request };
}

describe('bank details page', () => {
  it('shows saved details masked to the last four, never the whole number', async () => {
    showBank(async () => SAVED);
    const saved = await screen.findByText('Saved bank account');
    const card = saved.closest('[data-bank-saved]') as HTMLElement;
    expect(within(card).getByText('•••• 3000')).toBeTruthy();
    expect(within(card).getByText('Ada Lovelace')).toBeTruthy();
    expect(document.body.textContent).not.toContain('0532013000');
    // What is not secret is filled in for a change; the number is typed again.
    expect((screen.getByLabelText('Account holder') as HTMLInputElement).value).toBe('Ada Lovelace');
    expect((screen.getByLabelText('IBAN') as HTMLInputElement).value).toBe('');
  });

  it('a checksum error is a translated field error and nothing is sent', async () => {
    const { request } = showBank(
      async () => ({ bank_details: null, countries: COUNTRIES }),
      async () => {
        throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } });
      },
    );
    expect(await screen.findByText('You have not added bank details yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Account holder'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('IBAN'), { target: { value: 'DE89 3704 0044 0532 0130 01' } });
    fireEvent.change(screen.getByLabelText('SWIFT / BIC'), { target: { value: 'NOPE' } });
    fireEvent.change(screen.getByLabelText('Bank name'), { target: { value: 'Commerzbank' } });
    fireEvent.change(screen.getByLabelText('Account password', { exact: false }), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save bank details' }));
    expect(await screen.findByText("This IBAN's check digits do not match. Check it for a typing error.")).toBeTruthy();
    expect(screen.getByText('This is not a valid SWIFT/BIC code (8 or 11 letters and digits).')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('IBAN'), { target: { value: 'DE89 3704 0044 0532 0130 00' } });
    fireEvent.change(screen.getByLabelText('SWIFT / BIC'), { target: { value: 'COBADEFFXXX' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save bank details' }));
    // The country is still to be chosen.
    expect(request).not.toHaveBeenCalled();
    expect(screen.queryByText("This IBAN's check digits do not match. Check it for a typing error.")).toBeNull();
  });

  it('asks for account number and routing code where the country has no IBANs', async () => {
    showBank(async () => ({ bank_details: { ...SAVED.bank_details!, country: 'US', kind: 'account', account_masked: '•••• 6789', routing_code: '021000021' }, countries: COUNTRIES }));
    expect(await screen.findByLabelText('Account number')).toBeTruthy();
    expect(screen.getByLabelText('Routing / sort code')).toBeTruthy();
    expect(screen.queryByLabelText('IBAN')).toBeNull();
    expect(screen.getByText('•••• 6789')).toBeTruthy();
  });

  it('a failed load offers retry; a lost connection on save offers Try again and keeps what was typed', async () => {
    let fail = true;
    const { request } = showBank(
      async () => {
        if (fail) throw new ConnectionError();
        return SAVED;
      },
      async () => {
        throw new ConnectionError();
      },
    );
    fireEvent.click(await screen.findByRole('button', { name: /retry/i }));
    fail = false;
    fireEvent.click(await screen.findByRole('button', { name: /retry/i }));
    fireEvent.change(await screen.findByLabelText('IBAN'), { target: { value: 'DE89370400440532013000' } });
    fireEvent.change(screen.getByLabelText('Account password', { exact: false }), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save bank details' }));
    expect(await screen.findByText('We could not reach the server. Check your connection and try again.')).toBeTruthy();
    expect((screen.getByLabelText('IBAN') as HTMLInputElement).value).toBe('DE89370400440532013000');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(request).toHaveBeenCalledTimes(2));
  });

  it('reads in Spanish and in the dark scheme', async () => {
    showBank(async () => SAVED, undefined, 'es', 'dark');
    expect(await screen.findByText('Cuenta bancaria guardada')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Guardar datos bancarios' })).toBeTruthy();
    expect(document.documentElement.getAttribute('data-mantine-color-scheme')).toBe('dark');
  });
});

const NO_BANK: PayoutMethodAnswer = { offered: ['bank_transfer', 'e_wallet', 'usdt_trc20'], chosen: null, has_bank_details: false };

describe('payout method page', () => {
  it('without bank details a bank transfer says so and links to the bank page', async () => {
    const request = vi.fn();
    const actor = createActor(payoutMethodMachine.provide({ actors: { load: fromPromise(async () => NO_BANK), submit: fromPromise(request) } })).start();
    renderUi(<PayoutMethodView actor={actor} />);
    expect(await screen.findByText('You have not chosen a payout method yet. Payout requests need one.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Bank transfer'));
    expect(screen.getByRole('link', { name: 'Add bank details' }).getAttribute('href')).toContain('/member/account/bank');
    fireEvent.click(screen.getByLabelText('USDT (TRC-20)'));
    fireEvent.change(screen.getByLabelText('USDT (TRC-20) address', { exact: false }), { target: { value: '0xabc' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save payout method' }));
    expect(await screen.findByText('This is not a TRON (TRC-20) address.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
  });

  it('shows the chosen method with its masked destination', async () => {
    const chosen: PayoutMethodAnswer = { ...NO_BANK, chosen: { method: 'e_wallet', destination: 'ad•••@example.com' } };
    const actor = createActor(payoutMethodMachine.provide({ actors: { load: fromPromise(async () => chosen) } })).start();
    renderUi(<PayoutMethodView actor={actor} />, { lng: 'es', colorScheme: 'dark' });
    expect(await screen.findByText('ad•••@example.com')).toBeTruthy();
    expect(screen.getAllByText('Monedero electrónico').length).toBeGreaterThan(0);
  });
});

const ALL_ON: NotificationSettings = { events: NOTIFICATION_EVENTS.map((event) => ({ event, email: true, push: true })) };

describe('notification settings page', () => {
  it('a switch flip is saved at once; a failed save is said and can be retried', async () => {
    const request = vi.fn(async (): Promise<NotificationSettings> => {
      throw new ApiError('server', 500, {});
    });
    const actor = createActor(notificationSettingsMachine.provide({ actors: { load: fromPromise(async () => ALL_ON), submit: fromPromise(request) } })).start();
    renderUi(<NotificationSettingsView actor={actor} channel="email" />);
    const toggle = (await screen.findByRole('switch', { name: 'Payout status' })) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(screen.getByRole('tab', { name: 'E-mail' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(toggle);
    expect(await screen.findByText('Something went wrong on our side. Your change was not saved yet.')).toBeTruthy();
    expect(request).toHaveBeenCalledTimes(1);
    expect((screen.getByRole('switch', { name: 'Payout status' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(request).toHaveBeenCalledTimes(2));
  });

  it('the push tab in Spanish lists every event', async () => {
    const actor = createActor(notificationSettingsMachine.provide({ actors: { load: fromPromise(async () => ALL_ON) } })).start();
    renderUi(<NotificationSettingsView actor={actor} channel="push" />, { lng: 'es', colorScheme: 'dark' });
    expect(await screen.findByRole('switch', { name: 'Nuevo miembro en mi equipo' })).toBeTruthy();
    expect(screen.getAllByRole('switch')).toHaveLength(NOTIFICATION_EVENTS.length);
    expect(screen.getByRole('switch', { name: 'Recordatorios de reuniones' })).toBeTruthy();
  });

  it('without the CRM module the meeting reminder is not offered; every other switch still saves as before', async () => {
    const request = vi.fn(async (): Promise<NotificationSettings> => ALL_ON);
    const actor = createActor(notificationSettingsMachine.provide({ actors: { load: fromPromise(async () => ALL_ON), submit: fromPromise(request) } })).start();
    renderUi(<NotificationSettingsView actor={actor} channel="email" crm={false} />);
    expect(await screen.findByRole('switch', { name: 'Payout status' })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Meeting reminders' })).toBeNull();
    expect(screen.queryByText('A meeting in your CRM agenda starts within 30 minutes.')).toBeNull();
    expect(screen.getAllByRole('switch')).toHaveLength(NOTIFICATION_EVENTS.length - 1);
    fireEvent.click(screen.getByRole('switch', { name: 'Order status' }));
    await vi.waitFor(() => expect(request).toHaveBeenCalledTimes(1));
  });
});

const PAYOUT: PayoutSettings = {
  enabled: true, minimum_amount: '10.0000', maximum_amount: '1000.0000', fee_fixed: '1.0000', fee_percent: '2.0000', amount_decimals: 2,
  available_balance: '200.0000', max_requestable: '195.09', kyc_required: false, kyc_status: 'approved', single_pending: true,
  pending_request: null, password_required: true,
};

describe('payout request page and the payout method', () => {
  it('shows by which method and to where the money goes', async () => {
    const { page } = payoutPage({ load: async (): Promise<PayoutSettings> => ({ ...PAYOUT, payout_method: { method: 'bank_transfer', destination: 'Commerzbank •••• 3000' } }) });
    renderUi(<PayoutRequestView actor={page} />);
    expect(await screen.findByText('Commerzbank •••• 3000')).toBeTruthy();
    expect(screen.getByText('Bank transfer')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Request payout' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('refuses without a method and links to the payout settings', async () => {
    const { page } = payoutPage({ load: async (): Promise<PayoutSettings> => ({ ...PAYOUT, payout_method: null }) });
    renderUi(<PayoutRequestView actor={page} />);
    expect(await screen.findByText('Choose a payout method before requesting a payout.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Choose a payout method' }).getAttribute('href')).toContain('/member/account/payout');
    expect(screen.queryByRole('button', { name: 'Request payout' })).toBeNull();
  });
});

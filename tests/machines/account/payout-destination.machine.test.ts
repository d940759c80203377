/**
 * The bank details, payout method and notification settings forms: the shared schemas' field errors
 * (IBAN checksum and BIC by ibantools, routing code where a country has no IBANs, a bank transfer without
 * bank details, a USDT address), the password step, and the notification switches saving on every flip.
 */
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { fieldErrorsOf, type SubmitInput } from '../../../src/machines/form.machine';
import { bankDetailsMachine } from '../../../src/machines/account/bank-details.machine';
import { payoutMethodMachine } from '../../../src/machines/account/payout-method.machine';
import { notificationSettingsMachine } from '../../../src/machines/account/notification-settings.machine';
import { bankDetailsSchema, type BankDetailsAnswer, type BankDetailsValues } from '../../../src/schemas/bank-details.schema';
import { payoutMethodFormSchema, type PayoutMethodAnswer } from '../../../src/schemas/payout-method.schema';
import { NOTIFICATION_EVENTS, requestOfValues, type NotificationSettings, type NotificationValues } from '../../../src/schemas/notification-settings.schema';

const DE: BankDetailsValues = { account_holder: 'Ada', country: 'DE', iban: 'DE89 3704 0044 0532 0130 00', account_number: '', routing_code: '', bic: 'COBADEFFXXX', bank_name: 'Commerzbank' };

describe('bankDetailsSchema', () => {
  it('names IBAN checksum, format and country problems and a bad BIC as their fields’ i18n keys', () => {
    expect(fieldErrorsOf(bankDetailsSchema, DE)).toEqual({});
    expect(fieldErrorsOf(bankDetailsSchema, { ...DE, iban: 'DE89 3704 0044 0532 0130 01' })).toEqual({ iban: 'account:bank.errors.ibanChecksum' });
    expect(fieldErrorsOf(bankDetailsSchema, { ...DE, iban: 'DE89 3704' })).toEqual({ iban: 'account:bank.errors.ibanFormat' });
    expect(fieldErrorsOf(bankDetailsSchema, { ...DE, iban: 'GB29NWBK60161331926819' })).toEqual({ iban: 'account:bank.errors.ibanCountry' });
    expect(fieldErrorsOf(bankDetailsSchema, { ...DE, bic: 'NOPE' })).toEqual({ bic: 'account:bank.errors.bicInvalid' });
    expect(fieldErrorsOf(bankDetailsSchema, { ...DE, account_holder: '', bic: '' })).toEqual({ account_holder: 'validation:required', bic: 'validation:required' });
  });

  it('asks for account number and routing code where the country has no IBANs', () => {
    const us = { ...DE, country: 'US', iban: '', bic: 'CHASUS33' };
    expect(fieldErrorsOf(bankDetailsSchema, us)).toEqual({ account_number: 'validation:required', routing_code: 'validation:required' });
    expect(fieldErrorsOf(bankDetailsSchema, { ...us, account_number: '12', routing_code: '0210-00021' })).toEqual({ account_number: 'account:bank.errors.accountNumberInvalid' });
    expect(fieldErrorsOf(bankDetailsSchema, { ...us, account_number: '000123456789', routing_code: '021000021' })).toEqual({});
  });
});

describe('payoutMethodFormSchema', () => {
  const loaded = (has_bank_details: boolean): PayoutMethodAnswer => ({ offered: ['bank_transfer', 'e_wallet', 'usdt_trc20'], chosen: null, has_bank_details });
  it('a bank transfer needs bank details; an e-wallet an e-mail; USDT a TRC-20 address', () => {
    expect(fieldErrorsOf(payoutMethodFormSchema(loaded(false)), { method: 'bank_transfer' })).toEqual({ method: 'account:payoutMethod.errors.bankMissing' });
    expect(fieldErrorsOf(payoutMethodFormSchema(loaded(true)), { method: 'bank_transfer' })).toEqual({});
    expect(fieldErrorsOf(payoutMethodFormSchema(loaded(true)), { method: 'e_wallet', email: 'x' })).toEqual({ email: 'validation:invalidEmail' });
    expect(fieldErrorsOf(payoutMethodFormSchema(loaded(true)), { method: 'usdt_trc20', address: '0xabc' })).toEqual({ address: 'account:payoutMethod.errors.addressInvalid' });
    expect(fieldErrorsOf(payoutMethodFormSchema(loaded(true)), { method: 'usdt_trc20', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE' })).toEqual({});
    expect(fieldErrorsOf(payoutMethodFormSchema({ ...loaded(true), offered: ['bank_transfer'] }), { method: 'e_wallet', email: 'a@b.co' })).toEqual({ method: 'validation:invalidChoice' });
  });
});

const ANSWER: BankDetailsAnswer = { bank_details: null, countries: [{ iso_code_2: 'DE', name: 'Germany', iban: true }] };

describe('bankDetailsMachine', () => {
  function start(submit: () => Promise<BankDetailsAnswer>) {
    const calls: Array<SubmitInput<BankDetailsValues, BankDetailsAnswer>> = [];
    const actor = createActor(
      bankDetailsMachine.provide({
        actors: {
          load: fromPromise(async () => ANSWER),
          submit: fromPromise(async ({ input }) => {
            calls.push(input as SubmitInput<BankDetailsValues, BankDetailsAnswer>);
            return submit();
          }),
        },
      }),
    ).start();
    const fill = (values: Partial<BankDetailsValues>) => {
      for (const [field, value] of Object.entries(values)) actor.send({ type: 'bank.change', field: field as keyof BankDetailsValues, value: value! });
    };
    return { actor, calls, fill };
  }

  it('keeps a checksum error on the form without a request; sends the details with the password; forgets the number after saving', async () => {
    const saved: BankDetailsAnswer = { ...ANSWER, bank_details: { account_holder: 'Ada', country: 'DE', kind: 'iban', account_masked: '•••• 3000', routing_code: null, bic: 'COBADEFFXXX', bank_name: 'Commerzbank', updated_at: '2026-01-01T00:00:00.000Z' } };
    const { actor, calls, fill } = start(async () => saved);
    await waitFor(actor, (s) => s.matches('editing'));
    fill({ ...DE, iban: 'DE89 3704 0044 0532 0130 01' });
    actor.send({ type: 'bank.change', field: 'password', value: 'secret' });
    actor.send({ type: 'bank.submit' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ iban: 'account:bank.errors.ibanChecksum' });
    expect(calls).toHaveLength(0);

    fill({ iban: DE.iban });
    actor.send({ type: 'bank.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls[0]).toMatchObject({ password: 'secret', values: { iban: DE.iban, bic: 'COBADEFFXXX' } });
    const after = actor.getSnapshot().context;
    expect(after.result?.bank_details?.account_masked).toBe('•••• 3000');
    expect(after.values.iban).toBe('');
    expect(after.password).toBe('');
  });

  it('a wrong password from the server is the password field’s error and keeps what was typed', async () => {
    const { actor, fill } = start(() => Promise.reject(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } })));
    await waitFor(actor, (s) => s.matches('editing'));
    fill(DE);
    actor.send({ type: 'bank.change', field: 'password', value: 'wrong' });
    actor.send({ type: 'bank.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation:invalidPassword' });
    expect(actor.getSnapshot().context.values.iban).toBe(DE.iban);
  });
});

describe('payoutMethodMachine', () => {
  it('starts on the chosen method and sends the new one with the password', async () => {
    const loaded: PayoutMethodAnswer = { offered: ['bank_transfer', 'e_wallet'], chosen: { method: 'bank_transfer', destination: 'Bank •••• 3000' }, has_bank_details: true };
    const sent: unknown[] = [];
    const actor = createActor(
      payoutMethodMachine.provide({
        actors: {
          load: fromPromise(async () => loaded),
          submit: fromPromise(async ({ input }) => {
            sent.push(input);
            return { ...loaded, chosen: { method: 'e_wallet' as const, destination: 'ad•••@example.com' } };
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.values.method).toBe('bank_transfer');
    actor.send({ type: 'payoutMethod.change', field: 'method', value: 'e_wallet' });
    actor.send({ type: 'payoutMethod.submit' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'validation:required', password: 'validation:required' });
    actor.send({ type: 'payoutMethod.change', field: 'email', value: 'ada@example.com' });
    actor.send({ type: 'payoutMethod.change', field: 'password', value: 'secret' });
    actor.send({ type: 'payoutMethod.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(sent[0]).toMatchObject({ values: { method: 'e_wallet', email: 'ada@example.com' }, password: 'secret' });
    expect(actor.getSnapshot().context.result?.chosen?.method).toBe('e_wallet');
  });
});

describe('notificationSettingsMachine', () => {
  const ALL_ON: NotificationSettings = { events: NOTIFICATION_EVENTS.map((event) => ({ event, email: true, push: true })) };

  it('saves every flip at once; a failed save keeps the flip and retries the same request', async () => {
    const sent: NotificationValues[] = [];
    let fail = true;
    const actor = createActor(
      notificationSettingsMachine.provide({
        actors: {
          load: fromPromise(async () => ALL_ON),
          submit: fromPromise(async ({ input }) => {
            const values = (input as SubmitInput<NotificationValues, NotificationSettings>).values;
            sent.push(values);
            if (fail) throw new ConnectionError();
            return ALL_ON;
          }),
        },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('editing'));
    const values = actor.getSnapshot().context.values;
    expect(values['email.payout_status']).toBe('on');
    actor.send({ type: 'notificationSettings.save', values: { ...values, 'email.payout_status': 'off' } });
    await waitFor(actor, (s) => s.matches('connectionError'));
    expect(actor.getSnapshot().context.values['email.payout_status']).toBe('off');
    fail = false;
    actor.send({ type: 'notificationSettings.retry' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(sent).toHaveLength(2);
    expect(requestOfValues(sent[1]).events.find((e) => e.event === 'payout_status')).toEqual({ event: 'payout_status', email: false, push: true });
  });
});

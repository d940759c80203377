/** Generated path tests of the bank details, payout method and notification settings forms. */
import { ApiError, ConnectionError } from '../../src/api/errors';
import { bankDetailsMachine } from '../../src/machines/account/bank-details.machine';
import { notificationSettingsMachine } from '../../src/machines/account/notification-settings.machine';
import { payoutMethodMachine } from '../../src/machines/account/payout-method.machine';
import { NOTIFICATION_EVENTS } from '../../src/schemas/notification-settings.schema';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

const failures = memberCallFailures('request');
const loadFailures = [
  errorEvent('load', new ConnectionError()),
  errorEvent('load', new ApiError('server', 500, {})),
  errorEvent('load', new ApiError('unauthorized', 401, {})),
];
const BANK = { bank_details: null, countries: [{ iso_code_2: 'DE', name: 'Germany', iban: true }] };

describePaths('bank details form', {
  machine: stubActors(bankDetailsMachine),
  events: [
    doneEvent('load', BANK),
    ...loadFailures,
    { type: 'bank.change', field: 'password', value: 'secret' },
    { type: 'bank.save', values: { account_holder: 'Ada', country: 'DE', iban: 'DE89370400440532013001', bic: 'COBADEFFXXX', bank_name: 'Bank' } },
    { type: 'bank.save', values: { account_holder: 'Ada', country: 'DE', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bank_name: 'Bank' } },
    doneEvent('request', BANK),
    ...failures,
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { iban: ['account:bank.errors.ibanChecksum'] } })),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.password !== '', s.context.values.iban, s.context.loaded !== null]),
});

describePaths('payout method form', {
  machine: stubActors(payoutMethodMachine),
  events: [
    doneEvent('load', { offered: ['bank_transfer', 'e_wallet'], chosen: null, has_bank_details: false }),
    ...loadFailures,
    { type: 'payoutMethod.change', field: 'password', value: 'secret' },
    { type: 'payoutMethod.save', values: { method: 'bank_transfer' } },
    { type: 'payoutMethod.save', values: { method: 'e_wallet', email: 'ada@example.com' } },
    doneEvent('request', { offered: ['bank_transfer', 'e_wallet'], chosen: { method: 'e_wallet', destination: 'ad•••@example.com' }, has_bank_details: false }),
    ...failures,
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } })),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.password !== '', s.context.values.method, s.context.loaded !== null]),
});

const ALL_ON = { events: NOTIFICATION_EVENTS.map((event) => ({ event, email: true, push: true })) };
describePaths('notification settings', {
  machine: stubActors(notificationSettingsMachine),
  events: [
    doneEvent('load', ALL_ON),
    ...loadFailures,
    { type: 'notificationSettings.save', values: { 'email.payout_status': 'off' } },
    { type: 'notificationSettings.save', values: { 'email.payout_status': 'maybe' } },
    doneEvent('request', ALL_ON),
    ...failures,
    errorEvent('request', new ApiError('badRequest', 429, { error_code: 'rate_limited' })),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.values['email.payout_status'] ?? null, s.context.loaded !== null]),
});

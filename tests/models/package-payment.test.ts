/**
 * Generated paths of the package payment flow (choose → method → wallet | card | counter → confirmation)
 * and of the over-the-counter forms (the history is the paged list's shape, walked in paged-list.test.ts).
 */
import { ApiError, ConnectionError } from '../../src/api/errors';
import { packagePaymentMachine } from '../../src/machines/shop/package-payment.machine';
import { otcMakePaymentMachine, otcRequestPaymentMachine } from '../../src/machines/shop/otc.machine';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';
import { OPTIONS, PURCHASE, RECEIPT, REQUEST, WALLET_RESULT } from '../support/package-fixtures';

const refused = new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } });

describePaths('package payment', {
  machine: stubActors(packagePaymentMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.password !== '', Object.keys(s.context.fieldErrors)]),
  events: [
    doneEvent('loadOptions', OPTIONS),
    errorEvent('loadOptions', new ConnectionError()),
    errorEvent('loadOptions', new ApiError('server', 500, {})),
    errorEvent('loadOptions', new ApiError('unauthorized', 401, {})),
    errorEvent('loadOptions', new ApiError('notFound', 404, {})),
    { type: 'packages.retry' },
    { type: 'packages.back' },
    { type: 'packages.again' },
    { type: 'packages.choose', packageId: 2 },
    doneEvent('createPurchase', PURCHASE),
    errorEvent('createPurchase', new ConnectionError()),
    errorEvent('createPurchase', new ApiError('unauthorized', 401, {})),
    errorEvent('createPurchase', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { package_id: ['store:packages.errors.lowerPackage'] } })),
    { type: 'payment.method', method: 'wallet' },
    { type: 'payment.method', method: 'card' },
    { type: 'payment.method', method: 'otc' },
    { type: 'wallet.change', value: 'secret' },
    { type: 'wallet.submit' },
    doneEvent('payByWallet', WALLET_RESULT),
    errorEvent('payByWallet', new ConnectionError()),
    errorEvent('payByWallet', new ApiError('unauthorized', 401, {})),
    errorEvent('payByWallet', refused),
    doneEvent('cardCheckout', { url: 'https://pay.example/session/1' }),
    errorEvent('cardCheckout', new ApiError('notFound', 404, {})),
    errorEvent('cardCheckout', new ApiError('unauthorized', 401, {})),
  ],
});

describePaths('over-the-counter request', {
  machine: stubActors(otcRequestPaymentMachine),
  inputs: [{ params: { purpose: 'package', ref_id: '12' } }],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.values.purpose, s.context.values.amount, s.context.loaded !== null]),
  events: [
    doneEvent('load', { purpose: 'package', ref_id: '12' }),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('server', 500, {})),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    { type: 'otc.change', field: 'purpose', value: 'topup' },
    { type: 'otc.change', field: 'amount', value: '50' },
    doneEvent('request', REQUEST),
    ...memberCallFailures('request'),
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { ref_id: ['store:otc.errors.alreadyRequested'] } })),
  ],
});

describePaths('over-the-counter receipt', {
  machine: stubActors(otcMakePaymentMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.values.transaction_ref, (s.context.values.receipt as File[]).length, s.context.loaded !== null]),
  events: [
    doneEvent('load', { awaiting: [REQUEST.request], chosen: null }),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('server', 500, {})),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    { type: 'otc.change', field: 'transaction_ref', value: 'FCB-1' },
    { type: 'otc.change', field: 'receipt', value: [RECEIPT] },
    { type: 'otc.save', values: { request_id: '7', transaction_ref: 'FCB-2', receipt: [RECEIPT] } },
    doneEvent('request', { ...REQUEST.request, status: 'submitted' }),
    ...memberCallFailures('request'),
    errorEvent('request', new ApiError('badRequest', 413, { error_code: 'validation_error', errors: { receipt: ['account:upload.fileTooLarge'] } })),
  ],
});

import { ApiError, ConnectionError } from '../../src/api/errors';
import { payoutCancelMachine, payoutPageMachine, payoutRequestMachine } from '../../src/machines/payout-request.machine';
import type { PayoutSettings } from '../../src/schemas/wallet.schema';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

const SETTINGS: PayoutSettings = {
  enabled: true, minimum_amount: '10', maximum_amount: '1000', fee_fixed: '1', fee_percent: '2', amount_decimals: 2,
  available_balance: '200', max_requestable: '195.09', kyc_required: false, kyc_status: 'approved', single_pending: true,
  pending_request: null, password_required: false,
};
const RESULT = { payout: { id: 1, status_id: 1, status: 'pending', total: '50', fee: '2', created_at: '2026-01-01T00:00:00.000Z' }, wallet_balance: '148' };

describePaths('payout request machine', {
  machine: stubActors(payoutRequestMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.values, s.context.loaded !== null, s.context.saved]),
  events: [
    doneEvent('load', SETTINGS),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('server', 500, {})),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    { type: 'payout.change', field: 'amount', value: '50' },
    doneEvent('request', RESULT),
    errorEvent('request', new ConnectionError()),
    errorEvent('request', new ApiError('server', 500, {})),
    errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { amount: ['validation:payoutBelowMinimum'] } })),
    errorEvent('request', new ApiError('forbidden', 403, { error_code: 'demo_blocked' })),
    errorEvent('request', new ApiError('unauthorized', 401, {})),
  ],
});

describePaths('payout cancel of the pending request', {
  machine: stubActors(payoutCancelMachine),
  events: [{ type: 'delete.request', id: 1 }, doneEvent('remove'), ...memberCallFailures('remove'), errorEvent('remove', new ApiError('badRequest', 409, { error_code: 'payout_not_pending' }))],
});

describePaths('payout page (request + cancel)', {
  machine: stubActors(payoutPageMachine),
  events: [
    { type: 'payout.changed' },
    ...(['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.dismiss'] as const).map((type) => ({ type, id: 1 })),
    { type: 'page.notify', params: { kind: 'success', key: 'payout:cancel.done' } },
    { type: 'page.forceLogout' },
  ],
});

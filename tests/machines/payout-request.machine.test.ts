import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { fieldErrorsOf, type SubmitInput } from '../../src/machines/form.machine';
import { payoutBlocker, payoutBlockers, payoutFeeCents, payoutFormSchema, payoutRequestMachine, type PayoutForm } from '../../src/machines/payout-request.machine';
import type { PayoutRequestResult, PayoutSettings } from '../../src/schemas/wallet.schema';

const SETTINGS: PayoutSettings = {
  enabled: true,
  minimum_amount: '10.0000',
  maximum_amount: '1000.0000',
  fee_fixed: '1.0000',
  fee_percent: '2.0000',
  amount_decimals: 2,
  available_balance: '200.0000',
  max_requestable: '195.09',
  kyc_required: false,
  kyc_status: 'approved',
  single_pending: true,
  pending_request: null,
  password_required: true,
};

const RESULT: PayoutRequestResult = {
  payout: { id: 9, status_id: 1, status: 'pending', total: '50.0000', fee: '2.0000', created_at: '2026-01-01T00:00:00.000Z' },
  wallet_balance: '148.0000',
};

function start(request: (input: SubmitInput<PayoutForm, PayoutSettings>) => Promise<PayoutRequestResult>) {
  const notify = vi.fn();
  const machine = payoutRequestMachine.provide({
    actors: { load: fromPromise(async () => SETTINGS), submit: fromPromise(({ input }) => request(input as never)) },
    actions: { notify: (_, params) => notify(params) },
  });
  const actor = createActor(machine).start();
  return { actor, notify };
}

describe('payout rules on the client', () => {
  it('fee is fixed + percent, rounded to cents', () => {
    expect(payoutFeeCents(5000n, SETTINGS)).toBe(200n); // 1 + 2% of 50
    expect(payoutFeeCents(1234n, SETTINGS)).toBe(125n); // 1 + 0.2468 → 1.25
  });
  it('checks format, minimum, maximum and balance including the fee', () => {
    const check = (amount: string, s = SETTINGS) => fieldErrorsOf(payoutFormSchema(s), { amount });
    expect(check('')).toEqual({ amount: 'validation:required' });
    expect(check('1.234').amount).toBe('validation:invalidAmount');
    expect(check('5').amount).toBe('validation:payoutBelowMinimum');
    expect(check('1001').amount).toBe('validation:payoutAboveMaximum');
    expect(check('197').amount).toBe('validation:payoutInsufficientBalance');
    expect(check('195')).toEqual({});
    expect(check('50', { ...SETTINGS, pending_request: RESULT.payout })).toEqual({ amount: 'validation:payoutPendingExists' });
  });
  it('blocks requests without KYC, with a pending request, or when disabled', () => {
    expect(payoutBlocker(SETTINGS)).toBeNull();
    expect(payoutBlocker({ ...SETTINGS, kyc_required: true, kyc_status: 'pending' })).toBe('validation:payoutKycRequired');
    expect(payoutBlocker({ ...SETTINGS, pending_request: RESULT.payout })).toBe('validation:payoutPendingExists');
    expect(payoutBlocker({ ...SETTINGS, enabled: false })).toBe('payout:blocked.disabled');
    // Every reason at once, so a member fixes them in one go.
    expect(payoutBlockers({ ...SETTINGS, kyc_required: true, kyc_status: 'not_submitted', payout_method: null })).toEqual([
      'validation:payoutKycRequired',
      'account:payoutMethod.errors.none',
    ]);
    expect(payoutBlockers({ ...SETTINGS, enabled: false, payout_method: null })).toEqual(['payout:blocked.disabled']);
  });
});

describe('payout request machine', () => {
  it('an invalid form is not sent and shows field messages', async () => {
    const request = vi.fn(async () => RESULT);
    const { actor } = start(request);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'payout.change', field: 'amount', value: '5' });
    actor.send({ type: 'payout.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ amount: 'validation:payoutBelowMinimum', password: 'validation:required' });
    expect(request).not.toHaveBeenCalled();
  });

  it('a double submit sends one request; success notifies and clears the form', async () => {
    let release!: (r: PayoutRequestResult) => void;
    const request = vi.fn(() => new Promise<PayoutRequestResult>((r) => (release = r)));
    const { actor, notify } = start(request);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'payout.change', field: 'amount', value: '50' });
    actor.send({ type: 'payout.change', field: 'password', value: 'secret' });
    actor.send({ type: 'payout.submit' });
    actor.send({ type: 'payout.submit' });
    expect(request).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    release(RESULT);
    await waitFor(actor, (s) => s.matches('success'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'payout:requested' });
    expect(actor.getSnapshot().context.values.amount).toBe('');
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it('a retry after a lost connection reuses the idempotency key; an edit starts a new attempt', async () => {
    const keys: string[] = [];
    let fail = 2;
    const { actor } = start(async ({ key }) => {
      keys.push(key!);
      if (fail-- > 0) throw new ConnectionError();
      return RESULT;
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'payout.change', field: 'amount', value: '50' });
    actor.send({ type: 'payout.change', field: 'password', value: 'secret' });
    actor.send({ type: 'payout.submit' });
    await waitFor(actor, (s) => s.matches('connectionError'));
    actor.send({ type: 'payout.retry' });
    await waitFor(actor, (s) => s.matches('connectionError'));
    expect(keys[1]).toBe(keys[0]);
    actor.send({ type: 'payout.change', field: 'amount', value: '60' });
    actor.send({ type: 'payout.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('a wrong password keeps what was typed and shows the field message', async () => {
    const { actor } = start(async () => {
      throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } });
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'payout.change', field: 'amount', value: '50' });
    actor.send({ type: 'payout.change', field: 'password', value: 'wrong' });
    actor.send({ type: 'payout.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation:invalidPassword' });
    expect(actor.getSnapshot().context.values.amount).toBe('50');
    expect(actor.getSnapshot().context.password).toBe('wrong');
  });

  it('settings that fail to load offer retry', async () => {
    let n = 0;
    const machine = payoutRequestMachine.provide({
      actors: {
        load: fromPromise(async () => {
          if (n++ === 0) throw new ApiError('server', 500, {});
          return SETTINGS;
        }),
      },
    });
    const actor = createActor(machine).start();
    await waitFor(actor, (s) => s.matches('loadError'));
    actor.send({ type: 'payout.retry' });
    await waitFor(actor, (s) => s.matches('editing'));
  });
});

/** The package payment flow with stubbed calls: what reaches the server and what the member is sent to. */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { packagePaymentMachine } from '../../../src/machines/shop/package-payment.machine';
import { OPTIONS, PURCHASE, WALLET_RESULT } from '../../support/package-fixtures';

function start(overrides: { pay?: (input: { id: number; password: string }) => Promise<unknown>; card?: () => Promise<{ url: string }>; create?: () => Promise<unknown> } = {}) {
  const redirect = vi.fn();
  const openOtc = vi.fn();
  const endSession = vi.fn();
  const pay = vi.fn(overrides.pay ?? (async () => WALLET_RESULT));
  const machine = packagePaymentMachine.provide({
    actors: {
      loadOptions: fromPromise(async () => OPTIONS),
      createPurchase: fromPromise(async ({ input }: { input: { packageId: number } }) => (overrides.create ? overrides.create() : { ...PURCHASE, package_id: input.packageId })) as never,
      payByWallet: fromPromise(async ({ input }: { input: { id: number; password: string } }) => pay(input)) as never,
      cardCheckout: fromPromise(async () => (overrides.card ? overrides.card() : { url: 'https://pay.example/s/1' })),
    },
    actions: { redirect: (_, p) => redirect(p.url), openOtc: (_, p) => openOtc(p.purchaseId), endSession },
  });
  const actor = createActor(machine).start();
  return { actor, redirect, openOtc, endSession, pay };
}

async function toMethod(actor: ReturnType<typeof start>['actor']) {
  await waitFor(actor, (s) => s.matches('choosing'));
  actor.send({ type: 'packages.choose', packageId: 2 });
  await waitFor(actor, (s) => s.matches('method'));
}

describe('package payment flow', () => {
  it('pays by wallet with the password typed, then confirms with the new balance', async () => {
    const { actor, pay } = start();
    await toMethod(actor);
    actor.send({ type: 'payment.method', method: 'wallet' });
    actor.send({ type: 'wallet.submit' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation:required' });
    actor.send({ type: 'wallet.change', value: 'Demo-pass-2026' });
    actor.send({ type: 'wallet.submit' });
    const s = await waitFor(actor, (x) => x.matches('paid'));
    expect(pay).toHaveBeenCalledWith({ id: 41, password: 'Demo-pass-2026' });
    expect(s.context.result?.wallet_balance).toBe('170.00');
    expect(s.context.password).toBe('');
  });

  it('a wrong password comes back as a field error; a lost connection waits for a retry that pays once', async () => {
    let calls = 0;
    const { actor } = start({
      pay: async () => {
        calls++;
        if (calls === 1) throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } });
        if (calls === 2) throw new ConnectionError();
        return WALLET_RESULT;
      },
    });
    await toMethod(actor);
    actor.send({ type: 'payment.method', method: 'wallet' });
    actor.send({ type: 'wallet.change', value: 'wrong' });
    actor.send({ type: 'wallet.submit' });
    let s = await waitFor(actor, (x) => x.matches('walletConfirm') && !!x.context.error);
    expect(s.context.fieldErrors.password).toBe('validation:invalidPassword');
    actor.send({ type: 'wallet.change', value: 'right' });
    actor.send({ type: 'wallet.submit' });
    s = await waitFor(actor, (x) => x.matches('payFailed'));
    actor.send({ type: 'packages.retry' });
    await waitFor(actor, (x) => x.matches('paid'));
    expect(calls).toBe(3);
  });

  it('by card: goes to the provider page; a missing provider is a failure with a way back', async () => {
    const ok = start();
    await toMethod(ok.actor);
    ok.actor.send({ type: 'payment.method', method: 'card' });
    await waitFor(ok.actor, (x) => x.matches('cardRedirect'));
    expect(ok.redirect).toHaveBeenCalledWith('https://pay.example/s/1');

    const missing = start({ card: async () => Promise.reject(new ApiError('notFound', 404, {})) });
    await toMethod(missing.actor);
    missing.actor.send({ type: 'payment.method', method: 'card' });
    await waitFor(missing.actor, (x) => x.matches('cardFailed'));
    missing.actor.send({ type: 'packages.back' });
    expect(missing.actor.getSnapshot().value).toBe('method');
    expect(missing.redirect).not.toHaveBeenCalled();
  });

  it('over the counter hands the purchase to the request page', async () => {
    const { actor, openOtc } = start();
    await toMethod(actor);
    actor.send({ type: 'payment.method', method: 'otc' });
    expect(actor.getSnapshot().value).toBe('otcHandOff');
    expect(openOtc).toHaveBeenCalledWith(41);
  });

  it('a 401 anywhere ends the session; a refused choice stays on the packages with the reason', async () => {
    const refused = start({ create: async () => Promise.reject(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { package_id: ['store:packages.errors.lowerPackage'] } })) });
    await waitFor(refused.actor, (s) => s.matches('choosing'));
    refused.actor.send({ type: 'packages.choose', packageId: 1 });
    const s = await waitFor(refused.actor, (x) => x.matches('choosing') && !!x.context.error);
    expect(s.context.fieldErrors.package_id).toBe('store:packages.errors.lowerPackage');

    const ended = start({ pay: async () => Promise.reject(new ApiError('unauthorized', 401, {})) });
    await toMethod(ended.actor);
    ended.actor.send({ type: 'payment.method', method: 'wallet' });
    ended.actor.send({ type: 'wallet.change', value: 'x' });
    ended.actor.send({ type: 'wallet.submit' });
    await waitFor(ended.actor, (x) => x.matches('forceLogout'));
    expect(ended.endSession).toHaveBeenCalledTimes(1);
  });
});

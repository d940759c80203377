/**
 * /member/packages/payment: choose a package (buy, upgrade or renew) → a pending purchase is created →
 * choose how to pay → by e-wallet (the wallet or account password, then the confirmation), by card
 * (the provider's page: `redirect` to its URL) or over the counter (`openOtc` hands the purchase to the
 * request-payment page). Every call has its failure states: a 401 ends the session (`endSession`), no
 * answer or a server error waits for a retry, a refusal (field map) is shown where it belongs.
 *
 * A wallet payment is sent once per confirmation; paying an already paid purchase again answers the
 * first payment (the server is idempotent per purchase), so a retry never charges twice.
 */
import { assign, fromPromise, setup } from 'xstate';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo, type FieldErrors } from '../../api/errors';
import { packagesApi } from '../../api/packages';
import type { PackagePaymentOptions, Purchase, WalletPaymentResult } from '../../schemas/packages.schema';

export type PackageMethod = 'wallet' | 'card' | 'otc';

export interface PackagePaymentContext {
  options: PackagePaymentOptions | null;
  purchase: Purchase | null;
  password: string;
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  result: WalletPaymentResult | null;
}

export type PackagePaymentEvent =
  | { type: 'packages.retry' }
  | { type: 'packages.choose'; packageId: number }
  | { type: 'packages.back' }
  | { type: 'packages.again' }
  | { type: 'payment.method'; method: PackageMethod }
  | { type: 'wallet.change'; value: string }
  | { type: 'wallet.submit' };

type ErrorArgs = { event: { error: unknown } };
const failure = (e: unknown) => classifyFailure(e);
const isSessionEnd = (_: unknown, p: { error: unknown }) => endsSession(failure(p.error));
const isTransient = (_: unknown, p: { error: unknown }) => failure(p.error) === 'connection' || failure(p.error) === 'server';
const errorParams = ({ event }: ErrorArgs) => ({ error: event.error });

export const packagePaymentMachine = setup({
  types: {} as { context: PackagePaymentContext; events: PackagePaymentEvent },
  actors: {
    loadOptions: fromPromise<PackagePaymentOptions>(() => packagesApi.options()),
    createPurchase: fromPromise<Purchase, { packageId: number }>(({ input }) => packagesApi.createPurchase(input.packageId)),
    payByWallet: fromPromise<WalletPaymentResult, { id: number; password: string }>(({ input }) => packagesApi.payByWallet(input.id, input.password)),
    cardCheckout: fromPromise<{ url: string }, { id: number }>(({ input }) => packagesApi.cardCheckout('package', input.id)),
  },
  guards: {
    sessionEnded: isSessionEnd,
    transient: isTransient,
    hasPassword: ({ context }) => context.password.trim().length > 0,
    isWallet: (_, p: { method: PackageMethod }) => p.method === 'wallet',
    isCard: (_, p: { method: PackageMethod }) => p.method === 'card',
  },
  actions: {
    setError: assign({ error: (_, p: { error: unknown }) => errorInfo(p.error) }),
    setFieldErrors: assign({ fieldErrors: ({ event }) => errorInfo((event as unknown as { error: unknown }).error).fields }),
    clearErrors: assign({ error: null, fieldErrors: {} }),
    /** Go to the card provider's page (bound to the browser's location at the route). */
    redirect: (_, _params: { url: string }) => {},
    /** Open /member/otc/request-payment for this purchase. */
    openOtc: (_, _params: { purchaseId: number }) => {},
    /** The session ended (401): the root signs the member out. */
    endSession: () => {},
  },
}).createMachine({
  id: 'packagePayment',
  context: { options: null, purchase: null, password: '', fieldErrors: {}, error: null, result: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      entry: 'clearErrors',
      invoke: {
        id: 'loadOptions',
        src: 'loadOptions',
        onDone: { target: 'choosing', actions: assign({ options: ({ event }) => event.output }) },
        onError: [
          { guard: { type: 'sessionEnded', params: errorParams }, target: 'forceLogout', actions: { type: 'setError', params: errorParams } },
          { guard: { type: 'transient', params: errorParams }, target: 'loadError', actions: { type: 'setError', params: errorParams } },
          { target: 'loadError', actions: { type: 'setError', params: errorParams } },
        ],
      },
    },
    loadError: { tags: ['error'], on: { 'packages.retry': 'loading' } },
    choosing: {
      on: { 'packages.choose': { target: 'creating', actions: ['clearErrors', assign({ purchase: null })] } },
    },
    creating: {
      tags: ['busy'],
      invoke: {
        id: 'createPurchase',
        src: 'createPurchase',
        input: ({ event }) => ({ packageId: (event as { packageId: number }).packageId }),
        onDone: { target: 'method', actions: assign({ purchase: ({ event }) => event.output }) },
        onError: [
          { guard: { type: 'sessionEnded', params: errorParams }, target: 'forceLogout', actions: { type: 'setError', params: errorParams } },
          { guard: { type: 'transient', params: errorParams }, target: 'chooseFailed', actions: { type: 'setError', params: errorParams } },
          { target: 'choosing', actions: [{ type: 'setError', params: errorParams }, 'setFieldErrors'] },
        ],
      },
    },
    chooseFailed: { tags: ['error'], on: { 'packages.back': 'choosing' } },
    method: {
      on: {
        'payment.method': [
          { guard: { type: 'isWallet', params: ({ event }) => ({ method: event.method }) }, target: 'walletConfirm', actions: 'clearErrors' },
          { guard: { type: 'isCard', params: ({ event }) => ({ method: event.method }) }, target: 'cardStarting', actions: 'clearErrors' },
          { target: 'otcHandOff' },
        ],
        'packages.back': 'choosing',
      },
    },
    walletConfirm: {
      on: {
        'wallet.change': { actions: assign({ password: ({ event }) => event.value, fieldErrors: {} }) },
        'wallet.submit': [
          { guard: 'hasPassword', target: 'paying', actions: 'clearErrors' },
          { actions: assign({ fieldErrors: { password: 'validation:required' } }) },
        ],
        'packages.back': { target: 'method', actions: assign({ password: '' }) },
      },
    },
    paying: {
      tags: ['busy'],
      invoke: {
        id: 'payByWallet',
        src: 'payByWallet',
        input: ({ context }) => ({ id: context.purchase!.id, password: context.password }),
        onDone: { target: 'paid', actions: assign({ result: ({ event }) => event.output, purchase: ({ event }) => event.output.purchase, password: '' }) },
        onError: [
          { guard: { type: 'sessionEnded', params: errorParams }, target: 'forceLogout', actions: { type: 'setError', params: errorParams } },
          { guard: { type: 'transient', params: errorParams }, target: 'payFailed', actions: { type: 'setError', params: errorParams } },
          { target: 'walletConfirm', actions: [{ type: 'setError', params: errorParams }, 'setFieldErrors'] },
        ],
      },
    },
    payFailed: { tags: ['error'], on: { 'packages.retry': 'paying', 'packages.back': 'walletConfirm' } },
    cardStarting: {
      tags: ['busy'],
      invoke: {
        id: 'cardCheckout',
        src: 'cardCheckout',
        input: ({ context }) => ({ id: context.purchase!.id }),
        onDone: { target: 'cardRedirect', actions: { type: 'redirect', params: ({ event }) => ({ url: event.output.url }) } },
        onError: [
          { guard: { type: 'sessionEnded', params: errorParams }, target: 'forceLogout', actions: { type: 'setError', params: errorParams } },
          { target: 'cardFailed', actions: { type: 'setError', params: errorParams } },
        ],
      },
    },
    cardFailed: { tags: ['error'], on: { 'packages.retry': 'cardStarting', 'packages.back': 'method' } },
    /** The browser is on its way to the provider's page. */
    cardRedirect: { tags: ['busy'], type: 'final' },
    /** The purchase went to the counter's request page. */
    otcHandOff: { type: 'final', entry: { type: 'openOtc', params: ({ context }) => ({ purchaseId: context.purchase!.id }) } },
    paid: { on: { 'packages.again': { target: 'loading', actions: assign({ purchase: null, result: null }) } } },
    forceLogout: { type: 'final', entry: 'endSession' },
  },
});

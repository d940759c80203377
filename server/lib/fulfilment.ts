/**
 * What a payment pays for, and what happens when it is confirmed. A payment — by e-wallet, by card
 * through the payment provider, or over the counter — names a purpose and the id of the thing it pays
 * (an order, a package purchase, a wallet top-up). Each purpose declares here:
 * - `payable`: the amount still due and a description, read for the paying member only (another
 *   member's id → 404, an already paid or cancelled one → 409);
 * - `fulfil`: makes the payment take effect, in the caller's transaction (mark the order paid, give the
 *   member the package, credit the top-up…). Called exactly once per payment: callers hold the
 *   idempotency (payment row, webhook event id, OTC approval) and call it in the same transaction.
 *
 * The card provider, the over-the-counter desk and the wallet checkout all go through `payableOf` and
 * `fulfil`, so a purpose is implemented once whichever way it is paid.
 */
import type { AppContext } from './app-context';
import type { SettingsService } from './settings';
import { HttpError } from './errors';
import type { Executor, Tx } from './ledger';
import type { Units } from './money';
import { orderPurpose } from './order-purpose';

export const PAYMENT_PURPOSES = ['order', 'package', 'topup'] as const;
export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
export const PAYMENT_METHODS = ['wallet', 'card', 'otc'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export type FulfilmentServices = Pick<AppContext, 'database' | 'settings' | 'outbox' | 'config'>;

export interface Payable {
  amount: Units;
  /** Shown to the member (provider page, OTC request, history). */
  description: string;
}

export interface FulfilmentInput {
  memberId: number;
  refId: number;
  amount: Units;
  method: PaymentMethod;
  /** The payment's own reference (provider session id, OTC request id, ledger transaction id). */
  paymentRef: string;
  at: Date;
}

export interface PurposeHandler {
  payable(ex: Executor, memberId: number, refId: number): Promise<Payable>;
  fulfil(tx: Tx, input: FulfilmentInput, services: FulfilmentServices): Promise<void>;
}

const unavailable = (purpose: PaymentPurpose): PurposeHandler => ({
  payable: () => Promise.reject(new HttpError(404, 'not_found', `Nothing to pay for ${purpose}`)),
  fulfil: () => Promise.reject(new Error(`No fulfilment for ${purpose}`)),
});

/** One entry per purpose; each area replaces its `unavailable(...)` with its handler. */
export const PURPOSES: Record<PaymentPurpose, PurposeHandler> = {
  order: orderPurpose,
  package: unavailable('package'),
  topup: unavailable('topup'),
};

export const payableOf = (ex: Executor, purpose: PaymentPurpose, memberId: number, refId: number) => PURPOSES[purpose].payable(ex, memberId, refId);

export const fulfil = (tx: Tx, purpose: PaymentPurpose, input: FulfilmentInput, services: FulfilmentServices) => PURPOSES[purpose].fulfil(tx, input, services);

/**
 * The settings as they are now, read before a payment's transaction opens: a fulfilment reads the
 * modules and the wallet settings inside it, and on the embedded database a read outside the
 * transaction's connection would wait for the transaction to end.
 */
export async function settledServices<S extends FulfilmentServices>(services: S): Promise<S> {
  const all = await services.settings.all();
  const settings = Object.create(services.settings) as SettingsService;
  settings.all = async () => all;
  settings.get = (async (key: keyof typeof all) => all[key]) as SettingsService['get'];
  return { ...services, settings };
}

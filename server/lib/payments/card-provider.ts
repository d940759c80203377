/**
 * A card payment provider: hosted checkout sessions and signed webhook events. The application only ever
 * talks to this interface; `stripe-provider.ts` implements it with the official Stripe SDK (against Stripe, or
 * against the local Stripe-compatible provider of server/payments-stub when no keys are configured).
 */

export interface CardSessionInput {
  /** Amount in the currency's minor unit (cents). */
  amountMinor: number;
  currency: string;
  description: string;
  successUrl: string;
  cancelUrl: string;
  metadata: Record<string, string>;
  /** The provider refuses to create a second session for the same key. */
  idempotencyKey: string;
}

export interface CardSession {
  id: string;
  url: string | null;
  /** open: not paid yet; complete: the checkout finished; expired: can no longer be paid. */
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
  amountMinor: number;
  currency: string;
  metadata: Record<string, string>;
  /** The payment the checkout made (refunds name it); null until paid. */
  paymentIntent: string | null;
}

export interface CardRefundInput {
  paymentIntent: string;
  /** In the currency's minor unit; the whole payment when left out. */
  amountMinor?: number;
  metadata: Record<string, string>;
  /** The provider makes one refund per key, however often it is asked. */
  idempotencyKey: string;
}

export interface CardRefund {
  id: string;
  /** succeeded, or pending while the card network processes it; failed or canceled when it did not happen. */
  status: 'succeeded' | 'pending' | 'failed' | 'canceled' | 'requires_action';
  amountMinor: number;
}

export interface CardEvent {
  id: string;
  type: string;
  /** The checkout session the event is about (null for other objects). */
  sessionId: string | null;
}

export class InvalidSignatureError extends Error {}

export interface CardProvider {
  /** 'stripe' (real keys) or 'local' (the local test provider). */
  readonly kind: 'stripe' | 'local';
  createSession(input: CardSessionInput): Promise<CardSession>;
  retrieveSession(id: string): Promise<CardSession>;
  /** Give a payment's money back to the card. */
  refund(input: CardRefundInput): Promise<CardRefund>;
  /** The event of a webhook delivery, after checking its signature (InvalidSignatureError when forged or stale). */
  verifyEvent(rawBody: Buffer | string, signature: string): CardEvent;
  close?(): Promise<void>;
}

/**
 * The card provider on the official Stripe SDK: Checkout Sessions (mode payment, one line with the amount due)
 * refunds of a payment intent, and webhooks verified by `stripe.webhooks.constructEvent` (the Stripe-Signature scheme). With `api` set it
 * talks to another host speaking the same REST API (the local test provider).
 */
import Stripe from 'stripe';
import { InvalidSignatureError, type CardEvent, type CardProvider, type CardRefund, type CardSession, type CardSessionInput } from './card-provider';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  kind?: CardProvider['kind'];
  /** Another API host (host, port, protocol), e.g. the local test provider. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

function toSession(s: Stripe.Checkout.Session): CardSession {
  return {
    id: s.id,
    url: s.url ?? null,
    status: s.status === 'complete' ? 'complete' : s.status === 'expired' ? 'expired' : 'open',
    paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
    amountMinor: s.amount_total ?? 0,
    currency: s.currency ?? '',
    metadata: (s.metadata ?? {}) as Record<string, string>,
    paymentIntent: typeof s.payment_intent === 'string' ? s.payment_intent : (s.payment_intent?.id ?? null),
  };
}

export function createStripeProvider(o: StripeOptions): CardProvider {
  const stripe = new Stripe(o.secretKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
    ...(o.api ? { host: o.api.host, port: o.api.port, protocol: o.api.protocol } : {}),
  });
  return {
    kind: o.kind ?? 'stripe',
    async createSession(input: CardSessionInput) {
      const s = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount: input.amountMinor, product_data: { name: input.description } } }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.metadata.ref_id,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return toSession(s);
    },
    async retrieveSession(id: string) {
      return toSession(await stripe.checkout.sessions.retrieve(id));
    },
    async refund(input): Promise<CardRefund> {
      const r = await stripe.refunds.create(
        { payment_intent: input.paymentIntent, ...(input.amountMinor !== undefined ? { amount: input.amountMinor } : {}), metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: r.id, status: (r.status ?? 'pending') as CardRefund['status'], amountMinor: r.amount };
    },
    verifyEvent(rawBody, signature): CardEvent {
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, o.webhookSecret);
      } catch (e) {
        throw new InvalidSignatureError((e as Error).message);
      }
      const obj = event.data?.object as { object?: string; id?: string } | undefined;
      return { id: event.id, type: event.type, sessionId: obj?.object === 'checkout.session' && obj.id ? obj.id : null };
    },
  };
}

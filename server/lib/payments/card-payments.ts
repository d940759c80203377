/**
 * Card payments for every purpose (order, package, top-up) through the card provider:
 *
 * - `startCardPayment`: what is due (`payableOf`), a checkout session at the provider, the member sent to its
 *   page; an open session for the same thing and amount is reused.
 * - `confirmCardPayment` (the success page): the session read back from the provider — the URL is never
 *   trusted — and settled when paid.
 * - `handleWebhook`: the signature checked, each event id handled once (payment_events), the session read
 *   back from the provider and settled.
 *
 * Settling marks the card payment paid and fulfils its purpose in one transaction, guarded by the payment's
 * status, so a webhook delivered twice, out of order, or racing the success page fulfils once. A payment that
 * can no longer take effect (sold out meanwhile) is refunded through the provider, once, and the member told.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { CardPaymentStatus } from '../../../src/schemas/shop.schema';
import { HttpError, notFound } from '../errors';
import { fulfil, payableOf, settledServices, type FulfilmentServices, type PaymentPurpose } from '../fulfilment';
import { rowsOf } from '../ledger';
import * as money from '../money';
import { announce } from '../member-notices';
import { orderDetail } from '../orders';
import type { CardProvider, CardSession } from './card-provider';
import { InvalidSignatureError } from './card-provider';

export interface CardPaymentDeps {
  db: Db;
  services: FulfilmentServices;
  provider: () => Promise<CardProvider>;
}

interface PaymentRow {
  session_id: string;
  member_id: number;
  purpose: PaymentPurpose;
  ref_id: number;
  amount: string;
  status: 'open' | 'paid' | 'expired' | 'failed' | 'refunded';
  url: string;
}

/** Where the provider sends the member back when they cancel, by purpose. */
const CANCEL_PATH: Record<PaymentPurpose, string> = {
  order: '/member/shopping/checkout?cancelled=1',
  package: '/member/packages/payment?cancelled=1',
  topup: '/member/otc/request-payment?purpose=topup',
};

const toMinor = (amount: money.Units) => Number(money.roundTo(amount, 2) / 10n ** BigInt(money.SCALE - 2));

const providerDown = (e: unknown) =>
  e instanceof HttpError ? e : new HttpError(502, 'provider_unavailable', `The card payment provider did not answer: ${(e as Error).message ?? 'unknown'}`);

async function currencyCode(db: Db): Promise<string> {
  const [c] = await rowsOf<{ code: string }>(db, sql`SELECT code FROM currencies ORDER BY is_default DESC, id LIMIT 1`);
  return (c?.code ?? 'USD').toLowerCase();
}

/** A provider page for paying `purpose`/`refId` of the member. */
export async function startCardPayment(
  deps: CardPaymentDeps,
  memberId: number,
  purpose: PaymentPurpose,
  refId: number,
  origin: string,
): Promise<{ url: string; session_id: string }> {
  const { db } = deps;
  const due = await payableOf(db, purpose, memberId, refId);
  const amount = money.format(due.amount);
  const [open] = await rowsOf<PaymentRow>(
    db,
    sql`SELECT session_id, url FROM card_payments WHERE member_id = ${memberId} AND purpose = ${purpose} AND ref_id = ${refId}
          AND status = 'open' AND amount = ${amount} AND created_at > now() - interval '12 hours'
        ORDER BY created_at DESC LIMIT 1`,
  );
  if (open) return { url: open.url, session_id: open.session_id };
  let session: CardSession;
  try {
    const provider = await deps.provider();
    session = await provider.createSession({
      amountMinor: toMinor(due.amount),
      currency: await currencyCode(db),
      description: due.description,
      successUrl: `${origin}/member/payment/stripe/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${origin}${CANCEL_PATH[purpose]}`,
      metadata: { purpose, ref_id: String(refId), member_id: String(memberId) },
      idempotencyKey: randomUUID(),
    });
  } catch (e) {
    throw providerDown(e);
  }
  if (!session.url) throw new HttpError(502, 'provider_unavailable', 'The provider gave no payment page');
  await db.execute(
    sql`INSERT INTO card_payments (session_id, member_id, purpose, ref_id, amount, currency, status, url)
        VALUES (${session.id}, ${memberId}, ${purpose}, ${refId}, ${amount}, ${session.currency}, 'open', ${session.url})`,
  );
  return { url: session.url, session_id: session.id };
}

/** Settle a session the provider says is paid: once, whoever (webhook or success page) comes first. */
export async function settleSession(deps: CardPaymentDeps, session: CardSession): Promise<void> {
  if (session.status !== 'complete' || !session.paid) {
    if (session.status === 'expired') await deps.db.execute(sql`UPDATE card_payments SET status = 'expired' WHERE session_id = ${session.id} AND status = 'open'`);
    return;
  }
  // The settings are read before the transaction: on the embedded database a read outside it would wait for it.
  const services = await settledServices(deps.services);
  try {
    await deps.db.transaction(async (tx) => {
      const [p] = await rowsOf<PaymentRow>(
        tx,
        sql`UPDATE card_payments SET status = 'paid', paid_at = now()
            WHERE session_id = ${session.id} AND status IN ('open', 'expired')
            RETURNING member_id, purpose, ref_id, amount::text AS amount`,
      );
      if (!p) return;
      const amount = money.parse(p.amount);
      if (toMinor(amount) !== session.amountMinor) throw new HttpError(409, 'amount_mismatch', 'The provider was paid another amount');
      await fulfil(
        tx,
        p.purpose,
        { memberId: Number(p.member_id), refId: Number(p.ref_id), amount, method: 'card', paymentRef: session.id, at: new Date() },
        services,
      );
    });
  } catch (e) {
    if (!(e instanceof HttpError)) throw e;
    // Paid, but it can no longer take effect (sold out meanwhile, already paid another way): given back.
    await deps.db.execute(
      sql`UPDATE card_payments SET status = 'failed', failure = ${e.errorCode} WHERE session_id = ${session.id} AND status IN ('open', 'expired')`,
    );
  }
  await refundIfFailed(deps, session);
}

/**
 * A paid session whose payment failed and is not refunded yet: the whole amount back through the provider
 * (one refund per session, whatever the number of deliveries: the idempotency key is the session's), then the
 * refund recorded and the member told, once, in one transaction guarded by the status. When the provider does
 * not answer the payment stays failed and the error is thrown: the next delivery of the webhook tries again.
 */
async function refundIfFailed(deps: CardPaymentDeps, session: CardSession): Promise<void> {
  const [p] = await rowsOf<PaymentRow & { failure: string | null }>(
    deps.db,
    sql`SELECT member_id, purpose, ref_id, amount::text AS amount, failure FROM card_payments
        WHERE session_id = ${session.id} AND status = 'failed' AND refund_id IS NULL`,
  );
  if (!p || !session.paymentIntent) return;
  let refund;
  try {
    refund = await (await deps.provider()).refund({
      paymentIntent: session.paymentIntent,
      amountMinor: session.amountMinor,
      metadata: { session_id: session.id, purpose: p.purpose, ref_id: String(p.ref_id), reason: p.failure ?? 'failed' },
      idempotencyKey: `refund-${session.id}`,
    });
  } catch (e) {
    throw providerDown(e);
  }
  if (refund.status === 'failed' || refund.status === 'canceled') throw new HttpError(502, 'refund_failed', 'The provider could not refund the payment');
  const memberId = Number(p.member_id);
  const invoice =
    p.purpose === 'order' ? (await rowsOf<{ invoice_no: string }>(deps.db, sql`SELECT invoice_no FROM orders WHERE id = ${p.ref_id} AND member_id = ${memberId}`))[0]?.invoice_no : null;
  const key = invoice ? 'card_refunded_order' : p.purpose === 'package' ? 'card_refunded_package' : 'card_refunded_top_up';
  await deps.db.transaction(async (tx) => {
    const [done] = await rowsOf(
      tx,
      sql`UPDATE card_payments SET status = 'refunded', refund_id = ${refund.id}, refunded_at = now()
          WHERE session_id = ${session.id} AND status = 'failed' AND refund_id IS NULL RETURNING session_id`,
    );
    if (!done) return;
    // An order that could not be fulfilled is over: it no longer waits for a payment (the cart still holds its lines).
    if (p.purpose === 'order') {
      await tx.execute(sql`UPDATE orders SET status = 'cancelled' WHERE id = ${p.ref_id} AND member_id = ${memberId} AND status = 'pending'`);
    }
    await announce(
      deps.services,
      memberId,
      'order_status',
      {
        key,
        values: { invoice: invoice ?? '', amount: money.format(money.parse(p.amount), 2) },
        link: p.purpose === 'order' ? `/member/orders/${Number(p.ref_id)}` : '/member/home',
      },
      tx as unknown as Db,
    );
  });
}

/** The success page's check: the member's own session, read back from the provider and settled. */
export async function confirmCardPayment(deps: CardPaymentDeps, memberId: number, sessionId: string): Promise<CardPaymentStatus> {
  const { db } = deps;
  const read = async () =>
    (
      await rowsOf<PaymentRow>(
        db,
        sql`SELECT session_id, member_id, purpose, ref_id, amount::text AS amount, status FROM card_payments
            WHERE session_id = ${sessionId} AND member_id = ${memberId}`,
      )
    )[0];
  let row = await read();
  if (!row) throw notFound('Payment not found');
  if (row.status === 'open') {
    let session: CardSession;
    try {
      session = await (await deps.provider()).retrieveSession(sessionId);
    } catch (e) {
      throw providerDown(e);
    }
    try {
      await settleSession(deps, session);
    } catch (e) {
      // A refund the provider did not take now is tried again by the webhook's next delivery; the page shows the payment failed.
      if (!(e instanceof HttpError && (e.errorCode === 'provider_unavailable' || e.errorCode === 'refund_failed'))) throw e;
    }
    row = (await read())!;
  }
  const order = row.purpose === 'order' ? await orderDetail(db, memberId, String(row.ref_id)) : null;
  return {
    session_id: row.session_id,
    purpose: row.purpose,
    ref_id: Number(row.ref_id),
    amount: money.normalize(row.amount),
    status: row.status,
    order,
  };
}

export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';

/** One webhook delivery: refused when its signature is wrong; each event id takes effect once. */
export async function handleWebhook(deps: CardPaymentDeps, rawBody: Buffer | string, signature: string | undefined): Promise<WebhookOutcome> {
  const provider = await deps.provider();
  let event;
  try {
    event = provider.verifyEvent(rawBody, signature ?? '');
  } catch (e) {
    if (e instanceof InvalidSignatureError) throw new HttpError(400, 'invalid_signature', 'The webhook signature is not valid');
    throw e;
  }
  const [seen] = await rowsOf(deps.db, sql`SELECT 1 FROM payment_events WHERE event_id = ${event.id}`);
  if (seen) return 'duplicate';
  const known = event.sessionId ? (await rowsOf(deps.db, sql`SELECT 1 FROM card_payments WHERE session_id = ${event.sessionId}`))[0] : undefined;
  if (known && event.sessionId && (event.type.startsWith('checkout.session.'))) {
    // The event says which session; what the session is now comes from the provider.
    let session: CardSession;
    try {
      session = await provider.retrieveSession(event.sessionId);
    } catch (e) {
      throw providerDown(e);
    }
    await settleSession(deps, session);
  }
  const inserted = await rowsOf(
    deps.db,
    sql`INSERT INTO payment_events (event_id, type, session_id) VALUES (${event.id}, ${event.type}, ${event.sessionId})
        ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
  );
  if (!inserted.length) return 'duplicate';
  return known ? 'handled' : 'ignored';
}

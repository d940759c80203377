/**
 * The order purpose of the payments seam (PURPOSES.order in fulfilment.ts): what is due on a pending product
 * order, and its fulfilment — the order paid, the stock taken (never below zero: a conditional update per
 * line, so of concurrent checkouts of the last items only as many succeed as there are items), the company's
 * bank credited for payments from outside the wallet, the lines leaving the cart, and the member told of the
 * order's new status (by their switches for order status; a counter payment's decision tells them itself).
 */
import { sql } from 'drizzle-orm';
import { HttpError, notFound, type FieldMap } from './errors';
import type { PurposeHandler } from './fulfilment';
import { externalPaymentPosting, post, rowsOf, systemAccounts, type Executor } from './ledger';
import { announce } from './member-notices';
import * as money from './money';
import { clearCartLines } from './shop';

/** The order's payment_method as the orders list shows it. */
export const ORDER_PAYMENT_METHOD = { wallet: 'e_wallet', card: 'card', otc: 'otc' } as const;

export const outOfStock = (errors: FieldMap = { cart: ['store:checkout.errors.outOfStock'] }) =>
  new HttpError(409, 'out_of_stock', 'Not enough stock for this order', errors);

interface PendingOrder {
  id: number;
  invoice_no: string;
  total: string;
  status: string;
  created_at: Date | string;
}

async function memberOrder(ex: Executor, memberId: number, orderId: number): Promise<PendingOrder> {
  const [o] = await rowsOf<PendingOrder>(
    ex,
    sql`SELECT id, invoice_no, total::text AS total, status, created_at FROM orders
        WHERE id = ${orderId} AND member_id = ${memberId} AND order_type = 'repurchase'`,
  );
  if (!o) throw notFound('Order not found');
  return o;
}

/** PURPOSES.order: a product order awaiting payment. */
export const orderPurpose: PurposeHandler = {
  async payable(ex, memberId, refId) {
    const o = await memberOrder(ex, memberId, refId);
    if (o.status !== 'pending') throw new HttpError(409, 'already_paid', 'This order is not awaiting payment');
    return { amount: money.parse(o.total), description: `Order ${o.invoice_no}` };
  },
  async fulfil(tx, input, services) {
    const [o] = await rowsOf<{ id: number; invoice_no: string; total: string; created_at: Date | string }>(
      tx,
      sql`UPDATE orders SET status = 'processing', paid_at = ${input.at.toISOString()}::timestamptz,
            payment_method = ${ORDER_PAYMENT_METHOD[input.method]}
          WHERE id = ${input.refId} AND member_id = ${input.memberId} AND status = 'pending'
          RETURNING id, invoice_no, total::text AS total, created_at`,
    );
    if (!o) throw new HttpError(409, 'already_paid', 'This order is not awaiting payment');
    const lines = await rowsOf<{ product_id: number; quantity: number }>(
      tx,
      sql`SELECT product_id, quantity FROM order_items WHERE order_id = ${input.refId} AND product_id IS NOT NULL ORDER BY product_id`,
    );
    for (const l of lines) {
      const taken = await rowsOf(
        tx,
        sql`UPDATE products SET stock = stock - ${l.quantity} WHERE id = ${l.product_id} AND stock >= ${l.quantity} RETURNING id`,
      );
      if (!taken.length) throw outOfStock();
    }
    if (input.method !== 'wallet') {
      const acc = await systemAccounts(tx);
      await post(tx, externalPaymentPosting({ id: Number(o.id), memberId: input.memberId, total: money.parse(o.total), createdAt: input.at }, acc));
    }
    await clearCartLines(
      tx,
      input.memberId,
      lines.map((l) => Number(l.product_id)),
    );
    if (input.method !== 'otc') {
      await announce(
        services,
        input.memberId,
        'order_status',
        {
          key: 'order_paid',
          values: { invoice: o.invoice_no, amount: money.format(money.parse(o.total), 2) },
          link: `/member/orders/${Number(o.id)}`,
        },
        tx,
      );
    }
  },
};


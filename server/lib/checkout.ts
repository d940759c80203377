/**
 * Checkout (spec §2 /member/shopping/checkout): the member's cart becomes an order shipped to an address of
 * their book (or a new one), paid from the e-wallet, by card through the payment provider, or over the counter.
 *
 * - The order purpose of the payments seam (`orderPurpose`, PURPOSES.order in fulfilment.ts): what is due on a
 *   pending order, and its fulfilment — the order paid, the stock taken (never below zero: a conditional
 *   update per line, so of concurrent checkouts of the last items only as many succeed as there are items),
 *   the lines leave the cart.
 * - A wallet payment (`payFromWallet`) locks the member's wallet row, checks the balance and posts the
 *   purchase in the same transaction as the fulfilment, so concurrent payments never overdraw.
 * - A checkout carries an Idempotency-Key: the same key answers the first order again, never a second one.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { CheckoutRequest, CheckoutResult } from '../../src/schemas/shop.schema';
import type { OrderAddress } from '../../src/schemas/orders.schema';
import { HttpError, validationError, type FieldMap } from './errors';
import { fulfil, payableOf, settledServices, type FulfilmentServices, type PaymentPurpose } from './fulfilment';
import { ORDER_PAYMENT_METHOD, outOfStock } from './order-purpose';
import { isUniqueViolation, lockWallet, accountBalance, post, rowsOf, systemAccounts, walletPurchasePosting, type Tx } from './ledger';
import * as money from './money';
import { readCart } from './shop';
import { checkPayoutPassword } from './wallet-password';

export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * Pay `purpose`/`refId` from the member's wallet inside `tx`: the wallet row locked, the balance checked,
 * the purchase posted and the purpose fulfilled — all or nothing.
 */
export async function payFromWallet(tx: Tx, services: FulfilmentServices, purpose: PaymentPurpose, memberId: number, refId: number, at: Date): Promise<number> {
  const wallet = await lockWallet(tx, memberId);
  const { amount } = await payableOf(tx, purpose, memberId, refId);
  const balance = await accountBalance(tx, wallet);
  if (balance < amount) {
    throw new HttpError(422, 'insufficient_balance', 'The wallet balance is too low', { payment_method: ['store:checkout.errors.insufficientBalance'] });
  }
  const acc = await systemAccounts(tx);
  const transactionId = await post(tx, {
    ...walletPurchasePosting({ id: refId, memberId, total: amount, createdAt: at }, wallet, acc),
    orderId: purpose === 'order' ? refId : null,
    memo: purpose === 'order' ? null : `${purpose} ${refId}`,
  });
  await fulfil(tx, purpose, { memberId, refId, amount, method: 'wallet', paymentRef: `ledger:${transactionId}`, at }, services);
  return transactionId;
}

// ---------------------------------------------------------------------------------------------
// Checkout

const ADDRESS_FIELDS = ['first_name', 'last_name', 'company', 'address_1', 'address_2', 'city', 'postcode', 'country_name', 'zone_name', 'phone', 'email'] as const;

async function shippingAddress(db: Db, memberId: number, body: CheckoutRequest): Promise<OrderAddress> {
  if (body.address_id !== undefined) {
    const [a] = await rowsOf<Record<string, string | null>>(
      db,
      sql`SELECT first_name, last_name, company, address_1, address_2, city, postcode, country_name, zone_name, phone, email
          FROM addresses WHERE id = ${body.address_id} AND member_id = ${memberId} AND deleted_at IS NULL`,
    );
    if (!a) throw validationError({ address_id: ['validation:invalidChoice'] });
    return Object.fromEntries(ADDRESS_FIELDS.map((k) => [k, a[k] || null])) as unknown as OrderAddress;
  }
  if (body.address) {
    const b = body.address;
    const [c] = await rowsOf<{ name: string }>(db, sql`SELECT name FROM countries WHERE id = ${b.country_id}`);
    if (!c) throw validationError({ 'address.country_id': ['validation:invalidChoice'] });
    return {
      first_name: b.first_name,
      last_name: b.last_name || null,
      company: b.company || null,
      address_1: b.address_1,
      address_2: b.address_2 || null,
      city: b.city,
      postcode: b.postcode || null,
      country_name: c.name,
      zone_name: b.zone_name || null,
      phone: b.phone || null,
      email: b.email || null,
    };
  }
  throw validationError({ address_id: ['validation:required'] });
}

async function resultOf(db: Db, memberId: number, orderId: number, cardUrl: (orderId: number) => Promise<string>): Promise<CheckoutResult> {
  const [o] = await rowsOf<{ id: number; invoice_no: string; total: string; status: string; payment_method: string }>(
    db,
    sql`SELECT id, invoice_no, total::text AS total, status, payment_method FROM orders WHERE id = ${orderId} AND member_id = ${memberId}`,
  );
  const head = { order_id: Number(o.id), invoice_no: o.invoice_no, total: money.normalize(o.total) };
  if (o.status !== 'pending') return { ...head, outcome: 'paid', url: null };
  if (o.payment_method === ORDER_PAYMENT_METHOD.card) return { ...head, outcome: 'redirect', url: await cardUrl(Number(o.id)) };
  return { ...head, outcome: 'otc', url: otcUrl(Number(o.id)) };
}

export const otcUrl = (orderId: number) => `/member/otc/request-payment?purpose=order&ref=${orderId}`;

export interface CheckoutDeps {
  db: Db;
  services: FulfilmentServices;
  /** A card checkout's provider page for the order (a new session, or the open one). */
  cardUrl: (orderId: number) => Promise<string>;
  now?: () => Date;
}

/** Turn the member's cart into an order and pay it as asked. A key already used answers its order again. */
export async function checkout(
  deps: CheckoutDeps,
  member: MemberRow,
  body: CheckoutRequest,
  idempotencyKey: string,
): Promise<{ result: CheckoutResult; replayed: boolean }> {
  const { db } = deps;
  const errors: FieldMap = {};
  if (!idempotencyKey) errors.idempotency_key = ['validation:required'];
  else if (!IDEMPOTENCY_KEY.test(idempotencyKey)) errors.idempotency_key = ['validation:invalidFormat'];
  if (body.payment_method === 'wallet' && !body.password) errors.password = ['validation:required'];
  if (Object.keys(errors).length) throw validationError(errors);

  const earlier = await rowsOf<{ id: number }>(db, sql`SELECT id FROM orders WHERE member_id = ${member.id} AND idempotency_key = ${idempotencyKey}`);
  if (earlier.length) return { result: await resultOf(db, member.id, Number(earlier[0].id), deps.cardUrl), replayed: true };

  if (body.payment_method === 'wallet' && !(await checkPayoutPassword(db, member, body.password!))) {
    throw validationError({ password: ['validation:invalidPassword'] });
  }
  const shipping = await shippingAddress(db, member.id, body);

  const at = (deps.now ?? (() => new Date()))();
  // Settings read before the transaction (the embedded database would wait on a read outside it).
  const services = await settledServices(deps.services);
  let orderId: number;
  try {
    orderId = await db.transaction(async (tx) => {
      // One checkout of a member at a time (the wallet row is the member's lock): a cart is ordered once.
      await lockWallet(tx, member.id);
      const cart = await readCart(tx, member.id);
      if (!cart.items.length) throw validationError({ cart: ['store:checkout.errors.emptyCart'] });
      if (!cart.totals.available) {
        throw outOfStock(Object.fromEntries(cart.items.filter((l) => !l.status).map((l) => [`items.${l.id}`, ['store:checkout.errors.outOfStock']])));
      }
      const [o] = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO orders (member_id, invoice_no, order_type, status, total, total_bv, payment_method, billing, shipping, idempotency_key, created_at)
            VALUES (${member.id}, ${`PENDING-${idempotencyKey}-${member.id}`}, 'repurchase', 'pending', ${cart.totals.amount}, ${cart.totals.bv},
                    ${ORDER_PAYMENT_METHOD[body.payment_method]}, ${JSON.stringify(shipping)}::jsonb, ${JSON.stringify(shipping)}::jsonb,
                    ${idempotencyKey}, ${at.toISOString()}::timestamptz)
            RETURNING id`,
      );
      const id = Number(o.id);
      await tx.execute(sql`UPDATE orders SET invoice_no = ${`INV-${at.getUTCFullYear()}-${String(id).padStart(6, '0')}`} WHERE id = ${id}`);
      for (const l of cart.items) {
        await tx.execute(
          sql`INSERT INTO order_items (order_id, product_id, sku, name, price, bv, quantity, image)
              VALUES (${id}, ${l.id}, ${l.sku}, ${l.name}, ${l.price}, ${l.bv}, ${l.quantity}, ${l.image})`,
        );
      }
      if (body.payment_method === 'wallet') await payFromWallet(tx, services, 'order', member.id, id, at);
      return id;
    });
  } catch (e) {
    // The same key sent twice at once: the second insert meets the first one's key.
    if (isUniqueViolation(e)) {
      const again = await rowsOf<{ id: number }>(db, sql`SELECT id FROM orders WHERE member_id = ${member.id} AND idempotency_key = ${idempotencyKey}`);
      if (again.length) return { result: await resultOf(db, member.id, Number(again[0].id), deps.cardUrl), replayed: true };
    }
    throw e;
  }
  return { result: await resultOf(db, member.id, orderId, deps.cardUrl), replayed: false };
}

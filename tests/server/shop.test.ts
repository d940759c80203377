// @vitest-environment node
/**
 * The internal store: catalogue, the cart kept on the server, checkout paid from the wallet, by card through the
 * local Stripe-compatible provider, or over the counter; races on the last items and on the wallet; webhooks
 * forged, replayed and out of order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, get, login, post, rows, TEST_PASSWORD, withSettings } from './helpers';
import { adjustWallet, walletBalance } from '../../server/lib/ledger';
import * as money from '../../server/lib/money';
import { localStubOf } from '../../server/lib/payments/provider-choice';
import { WEBHOOK_PATH } from '../../server/routes/payments.routes';
import { STUB_WEBHOOK_SECRET } from '../../server/payments-stub/stripe-stub';
import Stripe from 'stripe';

let s: TestServer;
let demo: { token: string; user: { id: number } };

const key = () => randomUUID();
const checkoutCall = (token: string, body: unknown, idem: string | null = key()) =>
  call(s.app, 'POST', '/api/shop/checkout', body, { token, headers: idem ? { 'idempotency-key': idem } : {} });

async function productId(sku: string): Promise<number> {
  const [r] = await rows<{ id: number }>(s.database, sql`SELECT id FROM products WHERE sku = ${sku}`);
  return Number(r.id);
}
const stockOf = async (id: number) => Number((await rows<{ stock: number }>(s.database, sql`SELECT stock FROM products WHERE id = ${id}`))[0].stock);
const addressOf = async (memberId: number) => Number((await rows<{ id: number }>(s.database, sql`SELECT id FROM addresses WHERE member_id = ${memberId} ORDER BY id LIMIT 1`))[0].id);
const usId = async () => Number((await rows<{ id: number }>(s.database, sql`SELECT id FROM countries WHERE iso_code_2 = 'US'`))[0].id);
const newAddress = async () => ({ first_name: 'Rae', address_1: '1 Main St', city: 'Springfield', country_id: await usId() });

let offset = 20;
async function shopper(fund = '0') {
  const [m] = await bulkMembers(s.database, 1, offset++);
  // Exactly `fund` in the wallet, whatever the seed paid the member.
  const had = await walletBalance(s.database.db, m.id);
  if (had !== 0n) await adjustWallet(s.database.db, { memberId: m.id, amount: -had, memo: 'test reset' });
  if (money.parse(fund) > 0n) await adjustWallet(s.database.db, { memberId: m.id, amount: money.parse(fund), memo: 'test funds' });
  const session = await login(s.app, m.username);
  return { id: m.id, token: session.token };
}

async function newProduct(stock: number, price = '10.00') {
  const sku = `T-${randomUUID().slice(0, 8)}`;
  const [r] = await rows<{ id: number }>(
    s.database,
    sql`INSERT INTO products (sku, name, price, bv, pv, stock) VALUES (${sku}, ${`Test ${sku}`}, ${price}, '5', '5', ${stock}) RETURNING id`,
  );
  return Number(r.id);
}

beforeAll(async () => {
  s = await startTestServer({ rateLimitScale: 100, logLevel: process.env.SHOP_LOG ?? 'silent' });
  demo = await login(s.app, 'demo');
}, 120_000);
afterAll(() => s?.close());

describe('catalogue', () => {
  it('lists active products newest first, pages by cursor and searches', async () => {
    const first = await get(s.app, '/api/shop/products?limit=5', { token: demo.token });
    expect(first.status).toBe(200);
    expect(first.body.data.items).toHaveLength(5);
    expect(first.body.data.next_page_url).toMatch(/cursor=/);
    const item = first.body.data.items[0];
    expect(item).toMatchObject({ sku: expect.any(String), price: expect.stringMatching(/^\d+(\.\d+)?$/), stock_status: expect.any(String), category: null });
    const next = await get(s.app, first.body.data.next_page_url, { token: demo.token });
    expect(next.body.data.items.map((i: { id: number }) => i.id)).not.toContain(item.id);

    const found = await get(s.app, '/api/shop/products?search=yoga', { token: demo.token });
    expect(found.body.data.items.map((i: { sku: string }) => i.sku)).toEqual(['FIT-MAT']);
    const out = await get(s.app, '/api/shop/products?search=green%20tea', { token: demo.token });
    expect(out.body.data.items[0]).toMatchObject({ stock: 0, stock_status: 'out_of_stock' });
  });

  it('shows categories and filters by one only when product_category is on', async () => {
    expect((await get(s.app, '/api/shop/categories', { token: demo.token })).body.data).toEqual([]);
    await withSettings(s.app, 'modules', { product_category: true }, async () => {
      const cats = (await get(s.app, '/api/shop/categories', { token: demo.token })).body.data;
      expect(cats.map((c: { name: string }) => c.name)).toEqual(['Nutrition', 'Skin care', 'Home', 'Fitness']);
      const fitness = cats.find((c: { name: string }) => c.name === 'Fitness').id;
      const page = await get(s.app, `/api/shop/products?category=${fitness}&limit=100`, { token: demo.token });
      expect(page.body.data.items.length).toBe(4);
      expect(page.body.data.items.every((i: { category: { name: string } }) => i.category.name === 'Fitness')).toBe(true);
    });
  });

  it('answers one product, and 404 for an unknown or malformed id', async () => {
    const id = await productId('SKN-KIT');
    const res = await get(s.app, `/api/shop/products/${id}`, { token: demo.token });
    expect(res.body.data).toMatchObject({ sku: 'SKN-KIT', price: '89.0000', bv: '65.0000', pv: '65.0000', stock_status: 'out_of_stock' });
    expect(res.body.data.images).toHaveLength(3);
    expect((await get(s.app, '/api/shop/products/999999', { token: demo.token })).status).toBe(404);
    expect((await get(s.app, '/api/shop/products/abc', { token: demo.token })).status).toBe(404);
  });

  it('refuses bad list parameters with a field map, and answers 401 without a session', async () => {
    const bad = await get(s.app, '/api/shop/products?category=x&limit=1000', { token: demo.token });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['category', 'limit']));
    expect((await get(s.app, '/api/shop/products')).status).toBe(401);
    expect((await get(s.app, '/api/shop/cart')).status).toBe(401);
  });

  it('is closed (404) when internal_store is off', async () => {
    await withSettings(s.app, 'modules', { internal_store: false }, async () => {
      expect((await get(s.app, '/api/shop/products', { token: demo.token })).status).toBe(404);
      expect((await get(s.app, '/api/shop/cart', { token: demo.token })).status).toBe(404);
    });
  });
});

describe('cart', () => {
  it('holds demo\'s seeded lines with availability and totals, also as loaded_modules.cart', async () => {
    const res = await get(s.app, '/api/shop/cart?load_modules=1', { token: demo.token });
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((l: { sku: string; quantity: number }) => [l.sku, l.quantity])).toEqual([
      ['NUT-VITC-90', 2],
      ['HOM-BOTTLE', 1],
    ]);
    expect(res.body.data.totals).toEqual({ quantity: 3, amount: '71.8000', bv: '46.0000', available: true });
    expect(res.body.loaded_modules.cart).toEqual([
      { id: await productId('NUT-VITC-90'), price: '24.9000', quantity: 2, status: true },
      { id: await productId('HOM-BOTTLE'), price: '22.0000', quantity: 1, status: true },
    ]);
  });

  it('adds, sets quantities, removes and restores at once; the availability follows the stock', async () => {
    const m = await shopper();
    const p = await newProduct(3);
    let cart = await post(s.app, '/api/shop/cart', { product_id: p, quantity: 2 }, { token: m.token });
    expect(cart.status).toBe(200);
    cart = await post(s.app, '/api/shop/cart', { product_id: p }, { token: m.token });
    expect(cart.body.data.items[0]).toMatchObject({ id: p, quantity: 3, status: true, line_total: '30.0000' });
    cart = await call(s.app, 'PUT', `/api/shop/cart/${p}`, { quantity: 4 }, { token: m.token });
    expect(cart.body.data.items[0]).toMatchObject({ quantity: 4, status: false });
    expect(cart.body.data.totals.available).toBe(false);
    cart = await call(s.app, 'DELETE', `/api/shop/cart/${p}`, undefined, { token: m.token });
    expect(cart.body.data.items).toEqual([]);
    expect(cart.body.data.removed.map((l: { id: number }) => l.id)).toEqual([p]);
    cart = await post(s.app, `/api/shop/cart/${p}/restore`, undefined, { token: m.token });
    expect(cart.body.data.items[0]).toMatchObject({ id: p, quantity: 4 });
    expect(cart.body.data.removed).toEqual([]);
  });

  it('refuses bad input with a field map and out-of-stock products with 409', async () => {
    const m = await shopper();
    for (const body of [{}, { product_id: 'x' }, { product_id: 1, quantity: 0 }, { product_id: 1, quantity: 100 }, { product_id: 1, quantity: 1.5 }, { product_id: 1, extra: 1 }]) {
      const res = await post(s.app, '/api/shop/cart', body, { token: m.token });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors).length).toBeGreaterThan(0);
    }
    const out = await post(s.app, '/api/shop/cart', { product_id: await productId('NUT-TEA-20') }, { token: m.token });
    expect(out.status).toBe(409);
    expect(out.body.errors).toEqual({ product_id: ['store:cart.errors.outOfStock'] });
    expect((await post(s.app, '/api/shop/cart', { product_id: 99999999 }, { token: m.token })).status).toBe(404);
    const p = await newProduct(500);
    await post(s.app, '/api/shop/cart', { product_id: p, quantity: 99 }, { token: m.token });
    const tooMany = await post(s.app, '/api/shop/cart', { product_id: p }, { token: m.token });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual({ quantity: ['store:cart.errors.tooMany'] });
  });

  it('another member\'s cart lines are not there (404), and theirs stay as they were', async () => {
    const a = await shopper();
    const b = await shopper();
    const p = await newProduct(10);
    await post(s.app, '/api/shop/cart', { product_id: p }, { token: a.token });
    expect((await call(s.app, 'PUT', `/api/shop/cart/${p}`, { quantity: 2 }, { token: b.token })).status).toBe(404);
    expect((await call(s.app, 'DELETE', `/api/shop/cart/${p}`, undefined, { token: b.token })).status).toBe(404);
    expect((await post(s.app, `/api/shop/cart/${p}/restore`, undefined, { token: b.token })).status).toBe(404);
    expect((await get(s.app, '/api/shop/cart', { token: a.token })).body.data.items[0]).toMatchObject({ id: p, quantity: 1 });
  });
});

describe('checkout', () => {
  it('pays from the wallet: the order is listed, the balance drops, stock and cart update; the same key answers it again', async () => {
    const m = await shopper('100');
    const p = await newProduct(10, '12.50');
    await post(s.app, '/api/shop/cart', { product_id: p, quantity: 2 }, { token: m.token });
    const idem = key();
    const res = await checkoutCall(m.token, { address: await newAddress(), payment_method: 'wallet', password: TEST_PASSWORD }, idem);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ outcome: 'paid', total: '25.0000', url: null, invoice_no: expect.stringMatching(/^INV-\d{4}-\d{6}$/) });
    expect(await walletBalance(s.database.db, m.id)).toBe(money.parse('75'));
    expect(await stockOf(p)).toBe(8);
    expect((await get(s.app, '/api/shop/cart', { token: m.token })).body.data.items).toEqual([]);
    const orders = await get(s.app, '/api/orders/recent_orders', { token: m.token });
    expect(orders.body.data.items[0]).toMatchObject({ id: res.body.data.order_id, status: 'processing', total: '25.0000', order_type: 'repurchase' });
    const detail = await get(s.app, `/api/orders/${res.body.data.order_id}`, { token: m.token });
    expect(detail.body.data).toMatchObject({ payment_method: 'e_wallet', shipping: { first_name: 'Rae', city: 'Springfield', country_name: expect.any(String) } });
    expect(detail.body.data.products[0]).toMatchObject({ quantity: 2, price: '12.5000' });
    const tx = await rows(s.database, sql`SELECT transaction_key FROM ledger_transactions WHERE order_id = ${res.body.data.order_id}`);
    expect(tx.map((t) => t.transaction_key)).toEqual(['wallet_purchase']);

    const again = await checkoutCall(m.token, { address: await newAddress(), payment_method: 'wallet', password: TEST_PASSWORD }, idem);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.order_id).toBe(res.body.data.order_id);
    expect(await walletBalance(s.database.db, m.id)).toBe(money.parse('75'));
  });

  it('refuses what is wrong with a field map and changes nothing', async () => {
    const m = await shopper('5');
    const p = await newProduct(10, '12.50');
    const addr = await newAddress();
    expect((await checkoutCall(m.token, { address: addr, payment_method: 'wallet', password: TEST_PASSWORD }, null)).body.errors).toEqual({ idempotency_key: ['validation:required'] });
    expect((await checkoutCall(m.token, { address: addr, payment_method: 'wallet', password: TEST_PASSWORD }, 'bad key!')).body.errors).toEqual({ idempotency_key: ['validation:invalidFormat'] });
    expect((await checkoutCall(m.token, { address: addr, payment_method: 'wallet' })).body.errors).toEqual({ password: ['validation:required'] });
    expect((await checkoutCall(m.token, { address: addr, payment_method: 'wallet', password: 'Wrong-pass-1' })).body.errors).toEqual({ password: ['validation:invalidPassword'] });
    expect((await checkoutCall(m.token, { payment_method: 'otc' })).body.errors).toEqual({ address_id: ['validation:required'] });
    expect((await checkoutCall(m.token, { address: addr, payment_method: 'cash' })).status).toBe(422);
    expect((await checkoutCall(m.token, { address: { city: '' }, payment_method: 'otc' })).status).toBe(422);
    expect((await checkoutCall(m.token, { address: addr, payment_method: 'otc' })).body.errors).toEqual({ cart: ['store:checkout.errors.emptyCart'] });
    // demo's address is not this member's.
    expect((await checkoutCall(m.token, { address_id: await addressOf(demo.user.id), payment_method: 'otc' })).body.errors).toEqual({ address_id: ['validation:invalidChoice'] });

    await post(s.app, '/api/shop/cart', { product_id: p }, { token: m.token });
    const poor = await checkoutCall(m.token, { address: addr, payment_method: 'wallet', password: TEST_PASSWORD });
    expect(poor.status).toBe(422);
    expect(poor.body.errors).toEqual({ payment_method: ['store:checkout.errors.insufficientBalance'] });
    expect(await walletBalance(s.database.db, m.id)).toBe(money.parse('5'));
    expect(await stockOf(p)).toBe(10);
    expect((await rows(s.database, sql`SELECT 1 FROM orders WHERE member_id = ${m.id} AND idempotency_key IS NOT NULL`)).length).toBe(0);

    await call(s.app, 'PUT', `/api/shop/cart/${p}`, { quantity: 11 }, { token: m.token });
    const short = await checkoutCall(m.token, { address: addr, payment_method: 'otc' });
    expect(short.status).toBe(409);
    expect(short.body.errors).toEqual({ [`items.${p}`]: ['store:checkout.errors.outOfStock'] });
  });

  it('over the counter: a pending order and the request page for it', async () => {
    const m = await shopper();
    const p = await newProduct(10);
    await post(s.app, '/api/shop/cart', { product_id: p }, { token: m.token });
    const res = await checkoutCall(m.token, { address: await newAddress(), payment_method: 'otc' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ outcome: 'otc', url: `/member/otc/request-payment?purpose=order&ref=${res.body.data.order_id}` });
    const detail = await get(s.app, `/api/orders/${res.body.data.order_id}`, { token: m.token });
    expect(detail.body.data).toMatchObject({ status: 'pending', payment_method: 'otc' });
    expect(await stockOf(p)).toBe(10);
  });

  it('20 concurrent checkouts of the last 5 items make exactly 5 orders; stock ends at zero', async () => {
    const p = await newProduct(5);
    const buyers = await Promise.all(Array.from({ length: 20 }, () => shopper('50')));
    for (const b of buyers) await post(s.app, '/api/shop/cart', { product_id: p }, { token: b.token });
    const addr = await newAddress();
    const answers = await Promise.all(buyers.map((b) => checkoutCall(b.token, { address: addr, payment_method: 'wallet', password: TEST_PASSWORD })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(5);
    expect(statuses.filter((x) => x === 409)).toHaveLength(15);
    expect(statuses.every((x) => x < 500)).toBe(true);
    expect(await stockOf(p)).toBe(0);
    const orders = await rows(s.database, sql`SELECT count(*)::int AS n FROM order_items WHERE product_id = ${p}`);
    expect(orders[0].n).toBe(5);
    // The 15 who missed out paid nothing.
    const balances = await Promise.all(buyers.map((b) => walletBalance(s.database.db, b.id)));
    expect(balances.filter((v) => v === money.parse('40'))).toHaveLength(5);
    expect(balances.filter((v) => v === money.parse('50'))).toHaveLength(15);
  });

  it('20 concurrent wallet payments of one member never overdraw', async () => {
    const m = await shopper('100');
    const p = await newProduct(100, '30.00');
    const orders: number[] = [];
    for (let i = 0; i < 20; i++) {
      await post(s.app, '/api/shop/cart', { product_id: p }, { token: m.token });
      const r = await checkoutCall(m.token, { address: await newAddress(), payment_method: 'otc' });
      orders.push(r.body.data.order_id);
      await call(s.app, 'DELETE', `/api/shop/cart/${p}`, undefined, { token: m.token });
    }
    const answers = await Promise.all(
      orders.map((id) => post(s.app, '/api/payments/wallet', { purpose: 'order', ref_id: id, password: TEST_PASSWORD }, { token: m.token })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 422).every((a) => a.body.errors.payment_method[0] === 'store:checkout.errors.insufficientBalance')).toBe(true);
    expect(await walletBalance(s.database.db, m.id)).toBe(money.parse('10'));
    // Paying a paid order again: 409; another member's order: 404.
    const paid = orders[answers.findIndex((a) => a.status === 201)];
    expect((await post(s.app, '/api/payments/wallet', { purpose: 'order', ref_id: paid, password: TEST_PASSWORD }, { token: m.token })).status).toBe(409);
    const other = await shopper('100');
    expect((await post(s.app, '/api/payments/wallet', { purpose: 'order', ref_id: orders[19], password: TEST_PASSWORD }, { token: other.token })).status).toBe(404);
  });
});

describe('card payments through the local provider', () => {
  async function cardCheckout(m: { token: string }, stock = 10) {
    const p = await newProduct(stock, '19.99');
    await post(s.app, '/api/shop/cart', { product_id: p, quantity: 1 }, { token: m.token });
    const res = await checkoutCall(m.token, { address: await newAddress(), payment_method: 'card' });
    expect(res.status).toBe(201);
    expect(res.body.data.outcome).toBe('redirect');
    const url = new URL(res.body.data.url);
    const sessionId = url.pathname.split('/').pop()!;
    return { p, orderId: res.body.data.order_id as number, sessionId, url };
  }

  it('the provider page pays; the success check reads the session back and shows the order paid', async () => {
    const m = await shopper();
    const { p, orderId, sessionId, url } = await cardCheckout(m);
    // Not paid yet: the success page says so, whatever the URL claims.
    const early = await get(s.app, `/api/payments/card/${sessionId}`, { token: m.token });
    expect(early.body.data).toMatchObject({ status: 'open', purpose: 'order', ref_id: orderId, amount: '19.9900' });
    expect(early.body.data.order.status).toBe('pending');

    const pageRes = await fetch(url);
    expect(await pageRes.text()).toContain('Card number');
    const declined = await fetch(url, { method: 'POST', body: new URLSearchParams({ card: '4000 0000 0000 0002', action: 'pay' }), redirect: 'manual' });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await get(s.app, `/api/payments/card/${sessionId}`, { token: m.token })).body.data.status).toBe('open');

    const paid = await fetch(url, { method: 'POST', body: new URLSearchParams({ card: '4242 4242 4242 4242', action: 'pay' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(new RegExp(`/member/payment/stripe/success\\?session_id=${sessionId}$`));
    const done = await get(s.app, `/api/payments/card/${sessionId}`, { token: m.token });
    expect(done.body.data).toMatchObject({ status: 'paid', order: { id: orderId, status: 'processing', payment_method: 'card' } });
    expect(await stockOf(p)).toBe(9);
    const tx = await rows(s.database, sql`SELECT transaction_key FROM ledger_transactions WHERE order_id = ${orderId}`);
    expect(tx.map((t) => t.transaction_key)).toEqual(['order_payment']);
    // Another member's session: 404.
    const other = await shopper();
    expect((await get(s.app, `/api/payments/card/${sessionId}`, { token: other.token })).status).toBe(404);
    expect((await get(s.app, '/api/payments/card/cs_test_unknown', { token: m.token })).status).toBe(404);
  });

  it('a webhook delivered twice, or after the success page, fulfils once; a forged one is refused', async () => {
    const m = await shopper();
    const { p, sessionId } = await cardCheckout(m);
    const stub = await localStubOf(s.app.ctx)!;
    const signer = new Stripe('sk_test_x');
    // A forged event (wrong secret) before payment: refused, nothing changes.
    stub.sessions.get(sessionId)!.status = 'complete';
    stub.sessions.get(sessionId)!.payment_status = 'paid';
    const event = stub.completedEvent(sessionId);
    const forged = signer.webhooks.generateTestHeaderString({ payload: event.body, secret: 'whsec_forged' });
    const hook = (body: string, signature: string) =>
      s.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload: body });
    expect((await hook(event.body, forged)).statusCode).toBe(400);
    expect((await hook(event.body, '')).statusCode).toBe(400);
    expect((await hook(event.body.replace('"livemode":false', '"livemode":true'), event.signature)).statusCode).toBe(400);
    expect(await stockOf(p)).toBe(10);

    const first = await hook(event.body, event.signature);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body).outcome).toBe('handled');
    const second = await hook(event.body, event.signature);
    expect(JSON.parse(second.body).outcome).toBe('duplicate');
    // Another event about the same session, and the success page after: nothing changes twice.
    const later = stub.completedEvent(sessionId);
    expect(JSON.parse((await hook(later.body, later.signature)).body).outcome).toBe('handled');
    await get(s.app, `/api/payments/card/${sessionId}`, { token: m.token });
    expect(await stockOf(p)).toBe(9);
    const payments = await rows(s.database, sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE order_id = (SELECT ref_id FROM card_payments WHERE session_id = ${sessionId})`);
    expect(payments[0].n).toBe(1);
    expect(STUB_WEBHOOK_SECRET).toMatch(/^whsec_/);
  });

  it('POST /api/payments/card: any purpose through payableOf; bad input 422, someone else\'s order 404, a paid one 409', async () => {
    const m = await shopper();
    const p = await newProduct(10);
    await post(s.app, '/api/shop/cart', { product_id: p }, { token: m.token });
    const otc = await checkoutCall(m.token, { address: await newAddress(), payment_method: 'otc' });
    const start = await post(s.app, '/api/payments/card', { purpose: 'order', ref_id: otc.body.data.order_id }, { token: m.token });
    expect(start.status).toBe(201);
    expect(start.body.data.url).toMatch(/^http:\/\/localhost:\d+\/pay\/cs_test_/);
    // The open session is offered again rather than a second one.
    const again = await post(s.app, '/api/payments/card', { purpose: 'order', ref_id: otc.body.data.order_id }, { token: m.token });
    expect(again.body.data.session_id).toBe(start.body.data.session_id);
    const other = await shopper();
    expect((await post(s.app, '/api/payments/card', { purpose: 'order', ref_id: otc.body.data.order_id }, { token: other.token })).status).toBe(404);
    expect((await post(s.app, '/api/payments/card', { purpose: 'gift', ref_id: 1 }, { token: m.token })).status).toBe(422);
    expect((await post(s.app, '/api/payments/card', { purpose: 'order' }, { token: m.token })).status).toBe(422);
    expect((await post(s.app, '/api/payments/card', { purpose: 'order', ref_id: 1 })).status).toBe(401);
    const stub = await localStubOf(s.app.ctx)!;
    await stub.pay(start.body.data.session_id);
    expect((await get(s.app, `/api/payments/card/${start.body.data.session_id}`, { token: m.token })).body.data.status).toBe('paid');
    expect((await post(s.app, '/api/payments/card', { purpose: 'order', ref_id: otc.body.data.order_id }, { token: m.token })).status).toBe(409);
  });

  it('paid after the last item sold out: the order is not fulfilled twice and stock stays at zero', async () => {
    const a = await shopper();
    const b = await shopper('100');
    const { p, sessionId, orderId } = await cardCheckout(a, 1);
    await post(s.app, '/api/shop/cart', { product_id: p }, { token: b.token });
    expect((await checkoutCall(b.token, { address: await newAddress(), payment_method: 'wallet', password: TEST_PASSWORD })).status).toBe(201);
    const stub = await localStubOf(s.app.ctx)!;
    const completed = stub.completedEvent(sessionId);
    await stub.pay(sessionId);
    const res = await get(s.app, `/api/payments/card/${sessionId}`, { token: a.token });
    expect(res.body.data.status).toBe('refunded');
    // The order is cancelled: it can no longer be paid, and the lines stay in the cart to be ordered again.
    expect(res.body.data.order.status).toBe('cancelled');
    const order = await get(s.app, `/api/orders/${orderId}`, { token: a.token });
    expect(order.body.data.status).toBe('cancelled');
    expect((await post(s.app, '/api/payments/card', { purpose: 'order', ref_id: orderId }, { token: a.token })).status).toBe(409);
    expect((await get(s.app, '/api/shop/cart', { token: a.token })).body.data.items.map((l: { id: number }) => l.id)).toEqual([p]);
    expect(await stockOf(p)).toBe(0);
    expect(orderId).toBeGreaterThan(0);
    // The whole amount went back through the provider, and the refund is recorded with the payment.
    const session = stub.sessions.get(sessionId)!;
    const refunds = [...stub.refunds.values()].filter((r) => r.payment_intent === session.payment_intent);
    expect(refunds.map((r) => r.amount)).toEqual([1999]);
    const [pay] = await rows(s.database, sql`SELECT status, failure, refund_id, refunded_at FROM card_payments WHERE session_id = ${sessionId}`);
    expect(pay).toMatchObject({ status: 'refunded', failure: 'out_of_stock', refund_id: refunds[0].id });
    expect(pay.refunded_at).not.toBeNull();
    // The member is told of the refund, never that the order was paid.
    const notices = await rows<{ subject: string }>(s.database, sql`SELECT subject FROM member_notices WHERE member_id = ${a.id} AND event = 'order_status'`);
    expect(notices.map((n) => n.subject)).toEqual([expect.stringMatching(/^Your card payment for order .+ was refunded$/)]);
    // Delivered again (the same event and a new one about the session) and read again: still one refund, one notice.
    const hook = (body: string, signature: string) =>
      s.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload: body });
    const again = stub.completedEvent(sessionId);
    expect((await hook(again.body, again.signature)).statusCode).toBe(200);
    expect((await hook(again.body, again.signature)).statusCode).toBe(200);
    expect((await hook(completed.body, completed.signature)).statusCode).toBe(200);
    expect((await get(s.app, `/api/payments/card/${sessionId}`, { token: a.token })).body.data.status).toBe('refunded');
    expect([...stub.refunds.values()].filter((r) => r.payment_intent === session.payment_intent)).toHaveLength(1);
    expect(await rows(s.database, sql`SELECT 1 FROM member_notices WHERE member_id = ${a.id} AND event = 'order_status'`)).toHaveLength(1);
  });

  it('when the provider does not take the refund, the payment stays failed and the next delivery refunds it once', async () => {
    const a = await shopper();
    const b = await shopper('100');
    const { p, sessionId } = await cardCheckout(a, 1);
    await post(s.app, '/api/shop/cart', { product_id: p }, { token: b.token });
    expect((await checkoutCall(b.token, { address: await newAddress(), payment_method: 'wallet', password: TEST_PASSWORD })).status).toBe(201);
    const stub = await localStubOf(s.app.ctx)!;
    const session = stub.sessions.get(sessionId)!;
    // Paid at the provider, whose refunds are down for now.
    stub.unavailable.add('/v1/refunds');
    await stub.pay(sessionId);
    const hook = (body: string, signature: string) =>
      s.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload: body });
    const event = stub.completedEvent(sessionId);
    const first = await hook(event.body, event.signature);
    expect(first.statusCode).toBe(502);
    expect((await get(s.app, `/api/payments/card/${sessionId}`, { token: a.token })).body.data.status).toBe('failed');
    // The provider answers again: the same event, delivered again, refunds once, concurrent deliveries included.
    stub.unavailable.delete('/v1/refunds');
    const answers = await Promise.all([hook(event.body, event.signature), hook(event.body, event.signature), hook(event.body, event.signature)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect([...stub.refunds.values()].filter((r) => r.payment_intent === session.payment_intent).map((r) => r.amount)).toEqual([1999]);
    expect((await get(s.app, `/api/payments/card/${sessionId}`, { token: a.token })).body.data.status).toBe('refunded');
    expect(await rows(s.database, sql`SELECT 1 FROM member_notices WHERE member_id = ${a.id} AND event = 'order_status'`)).toHaveLength(1);
  });
});

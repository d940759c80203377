/**
 * The internal store (spec §2 Shopping; internal_store on, else every call answers 404): the catalogue
 * (GET /api/shop/products, keyset-paged with search and category, and one product), the member's cart
 * (GET/POST /api/shop/cart, PUT/DELETE /api/shop/cart/{product_id}, POST …/restore), and checkout
 * (POST /api/shop/checkout with an Idempotency-Key). Card payments: payments.routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import {
  cartAddSchema,
  categorySchema,
  cartQuantitySchema,
  cartSchema,
  checkoutRequestSchema,
  checkoutResultSchema,
  MAX_QUANTITY,
  productSchema,
  productsPageSchema,
  productsQuerySchema,
} from '../../src/schemas/shop.schema';
import { requireAuth } from '../lib/auth';
import { demoBlocked, notFound } from '../lib/errors';
import { listEndpoint, unkeyed } from '../lib/list-endpoint';
import { addToCart, categories, productDetail, productRows, readCart, removeFromCart, requireStore, restoreToCart, setQuantity, storeSwitches } from '../lib/shop';
import { checkout } from '../lib/checkout';
import { startCardPayment } from '../lib/payments/card-payments';
import { cardPaymentDeps, originOf, paymentsRoutes } from './payments.routes';

const productParams = z.object({ id: z.string() });

/** A product id of a path: anything but a whole number in range is a product that does not exist. */
function productIdOf(raw: string): number {
  if (!/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2_147_483_647) throw notFound('Product not found');
  return Number(raw);
}

export async function shopRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['shop'];
  const open = async () => {
    await requireStore(ctx.settings);
  };
  const noDemo = async () => {
    if (ctx.isDemo()) throw demoBlocked();
  };
  const payments = cardPaymentDeps(base, ctx);

  listEndpoint(app, ctx, {
    path: '/api/shop/products',
    tags,
    querystring: productsQuerySchema,
    response: productsPageSchema,
    filters: (q) => {
      const search = q.text('search');
      const category = q.single('category');
      if (search && search.length > 64) q.fail('search', 'validation:tooLong');
      if (category !== undefined && !/^[1-9]\d{0,9}$/.test(category)) q.fail('category', 'validation:invalidChoice');
      else if (category !== undefined) q.oneOf('category', [category]);
      return { search, category: category !== undefined && /^[1-9]\d{0,9}$/.test(category) ? Number(category) : undefined };
    },
    rows: async (db, _member, q, f, limit) => {
      const s = await requireStore(ctx.settings);
      return productRows(db, q, { ...f, withCategory: s.categories }, limit);
    },
    item: (r) => unkeyed(r),
  });

  app.get('/api/shop/categories', { preHandler: [requireAuth, open], schema: { tags, response: { 200: envelope(z.array(categorySchema)) } } }, async (req) => {
    const s = await storeSwitches(ctx.settings);
    return ctx.envelope(req, s.categories ? await categories(db) : []);
  });

  app.get(
    '/api/shop/products/:id',
    { preHandler: [requireAuth, open], schema: { tags, params: productParams, response: { 200: envelope(productSchema) } } },
    async (req) => {
      const s = await storeSwitches(ctx.settings);
      return ctx.envelope(req, await productDetail(db, req.params.id, s.categories));
    },
  );

  app.get('/api/shop/cart', { preHandler: [requireAuth, open], schema: { tags, response: { 200: envelope(cartSchema) } } }, async (req) =>
    ctx.envelope(req, await readCart(db, req.member!.id)),
  );

  app.post(
    '/api/shop/cart',
    { preValidation: [requireAuth, open], schema: { tags, body: cartAddSchema, response: { 200: envelope(cartSchema) } } },
    async (req) => ctx.envelope(req, await addToCart(db, req.member!.id, req.body.product_id, req.body.quantity ?? 1, MAX_QUANTITY)),
  );

  app.put(
    '/api/shop/cart/:id',
    { preValidation: [requireAuth, open], schema: { tags, params: productParams, body: cartQuantitySchema, response: { 200: envelope(cartSchema) } } },
    async (req) => ctx.envelope(req, await setQuantity(db, req.member!.id, productIdOf(req.params.id), req.body.quantity)),
  );

  app.delete(
    '/api/shop/cart/:id',
    { preValidation: [requireAuth, open], schema: { tags, params: productParams, response: { 200: envelope(cartSchema) } } },
    async (req) => ctx.envelope(req, await removeFromCart(db, req.member!.id, productIdOf(req.params.id))),
  );

  app.post(
    '/api/shop/cart/:id/restore',
    { preValidation: [requireAuth, open], schema: { tags, params: productParams, response: { 200: envelope(cartSchema) } } },
    async (req) => ctx.envelope(req, await restoreToCart(db, req.member!.id, productIdOf(req.params.id))),
  );

  app.post(
    '/api/shop/checkout',
    {
      preValidation: [requireAuth, open, noDemo],
      schema: {
        tags,
        description:
          'The cart becomes an order shipped to `address_id` (or a new `address`), paid by `payment_method`: wallet (with `password`: the wallet ' +
          'password, else the account password), card (answers the provider page) or otc (answers the over-the-counter request page). ' +
          'Send an `Idempotency-Key` header (per submission; retries reuse it): a key already used answers its order again.',
        body: checkoutRequestSchema,
        response: { 201: envelope(checkoutResultSchema) },
      },
    },
    async (req, reply) => {
      const keyHeader = req.headers['idempotency-key'];
      const idempotencyKey = typeof keyHeader === 'string' ? keyHeader.trim() : '';
      const origin = originOf(req);
      const { result, replayed } = await checkout(
        { db, services: ctx, cardUrl: async (orderId) => (await startCardPayment(payments, req.member!.id, 'order', orderId, origin)).url },
        req.member!,
        req.body,
        idempotencyKey,
      );
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      reply.status(201);
      return ctx.envelope(req, result);
    },
  );

  await paymentsRoutes(base, ctx, payments);
}

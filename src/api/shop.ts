/** The internal store's calls: catalogue, cart, checkout and card payments. */
import * as z from 'zod/mini';
import { get, post, put, del } from './client';
import { queryRecord } from '../lib/search-codec';
import {
  cardPaymentStatusSchema,
  cardSessionSchema,
  cartSchema,
  categorySchema,
  checkoutResultSchema,
  productSchema,
  productsPageSchema,
  productsQuerySchema,
  type CheckoutRequest,
  type ProductFilters,
} from '../schemas/shop.schema';
import { addressSchema } from '../schemas/account.schema';
import { cursorPage } from '../schemas/values.schema';

const addressesPageSchema = cursorPage(addressSchema);

export const shopApi = {
  products: (f: ProductFilters = {}, signal?: AbortSignal) =>
    get(productsPageSchema, '/api/shop/products', queryRecord(productsQuerySchema, f as Record<string, unknown>), { signal }),
  categories: () => get(z.array(categorySchema), '/api/shop/categories'),
  product: (id: number) => get(productSchema, `/api/shop/products/${encodeURIComponent(String(id))}`),
  cart: () => get(cartSchema, '/api/shop/cart'),
  addToCart: (productId: number, quantity = 1) => post(cartSchema, '/api/shop/cart', { product_id: productId, quantity }),
  setQuantity: (productId: number, quantity: number) => put(cartSchema, `/api/shop/cart/${productId}`, { quantity }),
  remove: (productId: number) => del(cartSchema, `/api/shop/cart/${productId}`),
  restore: (productId: number) => post(cartSchema, `/api/shop/cart/${productId}/restore`),
  /** The member's saved addresses (the address book's first page: up to 100). */
  addresses: () => get(addressesPageSchema, '/api/user/addresses', { limit: 100 }),
  checkout: (body: CheckoutRequest, idempotencyKey: string) =>
    post(checkoutResultSchema, '/api/shop/checkout', body, { headers: { 'Idempotency-Key': idempotencyKey } }),
  cardPayment: (purpose: 'order' | 'package' | 'topup', refId: number) => post(cardSessionSchema, '/api/payments/card', { purpose, ref_id: refId }),
  cardStatus: (sessionId: string) => get(cardPaymentStatusSchema, `/api/payments/card/${encodeURIComponent(sessionId)}`),
};

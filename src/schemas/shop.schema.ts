/**
 * The internal store (spec §2 Shopping, §3 Cart item and totals, Store): the catalogue, the cart kept on the
 * server, checkout and card payments. Shared by the server (validation, OpenAPI) and the client.
 */
import * as z from 'zod/mini';
import { idSchema, decimalString } from './common.schema';
import { cursorPage, idText } from './values.schema';
import { addressRequestSchema } from './account.schema';
import { listQueryShape, textParam } from './list-query.schema';
import { orderDetailSchema } from './orders.schema';

export const categorySchema = z.object({ id: idSchema, name: z.string() });
export type Category = z.infer<typeof categorySchema>;

/** Stock as a member sees it: in stock, only a few left, or none. */
export const STOCK_STATUSES = ['in_stock', 'low_stock', 'out_of_stock'] as const;
export type StockStatus = (typeof STOCK_STATUSES)[number];
/** At or below this many left a product is "only a few left". */
export const LOW_STOCK = 5;
export const stockStatusOf = (stock: number): StockStatus => (stock <= 0 ? 'out_of_stock' : stock <= LOW_STOCK ? 'low_stock' : 'in_stock');

export const productSchema = z.object({
  id: idSchema,
  sku: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.nullable(categorySchema),
  price: decimalString,
  bv: decimalString,
  pv: decimalString,
  stock: z.number().check(z.int(), z.nonnegative()),
  stock_status: z.enum(STOCK_STATUSES),
  images: z.array(z.string()),
  created_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const productsPageSchema = cursorPage(productSchema);
export type ProductsPage = z.infer<typeof productsPageSchema>;

/** GET /api/shop/products: the list parameters, a search and a category. */
export const productsQuerySchema = z.looseObject({
  ...listQueryShape,
  search: z.optional(textParam('validation:invalid', z.maxLength(64, { error: 'validation:tooLong' }))),
  category: z.optional(idText('validation:invalidChoice')),
});
export interface ProductFilters {
  search?: string;
  category?: string;
  cursor?: string;
}

/** Most of one product a cart holds. */
export const MAX_QUANTITY = 99;
export const quantitySchema = z.number({ error: 'validation:invalidType' }).check(
  z.int({ error: 'validation:invalidType' }),
  z.minimum(1, { error: 'validation:tooSmall' }),
  z.maximum(MAX_QUANTITY, { error: 'validation:tooBig' }),
);

export const cartLineSchema = z.object({
  /** The product's id (one line per product). */
  id: idSchema,
  sku: z.string(),
  name: z.string(),
  image: z.nullable(z.string()),
  price: decimalString,
  bv: decimalString,
  quantity: z.number().check(z.int(), z.positive()),
  stock: z.number().check(z.int(), z.nonnegative()),
  /** Availability (spec §3): the quantity asked for is in stock. */
  status: z.boolean(),
  line_total: decimalString,
});
export type CartLine = z.infer<typeof cartLineSchema>;

/** Cart totals (spec §3): total quantity, total amount, availability of all items. */
export const cartTotalsSchema = z.object({
  quantity: z.number().check(z.int(), z.nonnegative()),
  amount: decimalString,
  bv: decimalString,
  available: z.boolean(),
});
export const cartSchema = z.object({
  items: z.array(cartLineSchema),
  totals: cartTotalsSchema,
  /** Lines removed lately, to restore at once. */
  removed: z.array(cartLineSchema),
});
export type Cart = z.infer<typeof cartSchema>;

export const cartAddSchema = z.strictObject({ product_id: idSchema, quantity: z.optional(quantitySchema) });
export type CartAdd = z.infer<typeof cartAddSchema>;
export const cartQuantitySchema = z.strictObject({ quantity: quantitySchema });

export const CHECKOUT_METHODS = ['wallet', 'card', 'otc'] as const;
export type CheckoutMethod = (typeof CHECKOUT_METHODS)[number];

/** POST /api/shop/checkout: a saved address or a new one, how to pay, the password for the wallet. */
export const checkoutRequestSchema = z.strictObject({
  address_id: z.optional(idSchema),
  address: z.optional(addressRequestSchema),
  payment_method: z.enum(CHECKOUT_METHODS, { error: 'validation:invalidChoice' }),
  password: z.optional(z.string().check(z.maxLength(128))),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/**
 * What a checkout did: `paid` (the wallet paid it), `redirect` (to the card provider's page at `url`),
 * `otc` (a pending order to pay over the counter at `url`).
 */
export const checkoutResultSchema = z.object({
  order_id: idSchema,
  invoice_no: z.string(),
  total: decimalString,
  outcome: z.enum(['paid', 'redirect', 'otc']),
  url: z.nullable(z.string()),
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

export const PURPOSES = ['order', 'package', 'topup'] as const;
export const cardPaymentRequestSchema = z.strictObject({ purpose: z.enum(PURPOSES, { error: 'validation:invalidChoice' }), ref_id: idSchema });
/** POST /api/payments/wallet: pay a purpose from the e-wallet with the wallet (or account) password. */
export const walletPaymentRequestSchema = z.strictObject({
  purpose: z.enum(PURPOSES, { error: 'validation:invalidChoice' }),
  ref_id: idSchema,
  password: z.string().check(z.minLength(1, { error: 'validation:required' }), z.maxLength(128)),
});
export const walletPaymentResultSchema = z.object({ purpose: z.enum(PURPOSES), ref_id: idSchema, amount: decimalString, transaction_id: idSchema });
export const cardSessionSchema = z.object({ url: z.string(), session_id: z.string() });

/** GET /api/payments/card/:session_id: what the provider says of the session, checked by the server. */
export const cardPaymentStatusSchema = z.object({
  session_id: z.string(),
  purpose: z.enum(PURPOSES),
  ref_id: idSchema,
  amount: decimalString,
  status: z.enum(['open', 'paid', 'expired', 'failed', 'refunded']),
  order: z.nullable(orderDetailSchema),
});
export type CardPaymentStatus = z.infer<typeof cardPaymentStatusSchema>;

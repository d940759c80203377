/** Orders calls of spec §7: the recent-orders page and one order's detail. */
import * as z from 'zod/mini';
import { idSchema, decimalString } from './common.schema';
import { cursorPage } from './values.schema';
import { isoDateTime, ymdSchema } from './wallet.schema';
import { recentOrdersQuery, type QueryParams } from './list-query.schema';

/** Order statuses the server uses (the client may meet others later: show the key). */
export const ORDER_STATUSES = ['pending', 'processing', 'shipped', 'completed', 'cancelled'] as const;
/** registration (joining package), repurchase (products), upgrade (a higher package). */
export const ORDER_TYPES = ['registration', 'repurchase', 'upgrade'] as const;

export const orderAddressSchema = z.object({
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  company: z.nullable(z.string()),
  address_1: z.string(),
  address_2: z.nullable(z.string()),
  city: z.string(),
  postcode: z.nullable(z.string()),
  country_name: z.nullable(z.string()),
  zone_name: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  email: z.nullable(z.string()),
});
export type OrderAddress = z.infer<typeof orderAddressSchema>;

export const orderProductSchema = z.object({
  sku: z.string(),
  name: z.string(),
  /** Unit price. */
  price: decimalString,
  /** Unit business volume. */
  bv: decimalString,
  quantity: z.number().check(z.int(), z.positive()),
  /** Validity end of a package (yyyy-MM-dd); null for products. */
  expiry: z.nullable(ymdSchema),
  image: z.nullable(z.string()),
});
export type OrderProduct = z.infer<typeof orderProductSchema>;

/** What the list and the detail of an order both say about it. */
const orderHead = {
  id: idSchema,
  invoice_no: z.string(),
  status: z.string(),
  order_type: z.string(),
  created_at: isoDateTime,
  total: decimalString,
  total_bv: decimalString,
};

export const orderDetailSchema = z.object({
  ...orderHead,
  billing: orderAddressSchema,
  /** Null for orders with nothing to ship. */
  shipping: z.nullable(orderAddressSchema),
  /** e_wallet | card | bank_transfer */
  payment_method: z.string(),
  products: z.array(orderProductSchema),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const orderSummarySchema = z.object({
  ...orderHead,
  /** Name of the package bought, null for product orders. */
  package: z.nullable(z.string()),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const recentOrdersPageSchema = cursorPage(orderSummarySchema);
export type RecentOrdersPage = z.infer<typeof recentOrdersPageSchema>;

export const recentOrdersQuerySchema = recentOrdersQuery;
export type OrderFilters = QueryParams<typeof recentOrdersQuerySchema>;

/**
 * The member's orders (spec §7 "Orders"): order lines for the recent-orders list and one order's detail.
 * Another member's order reads exactly like an order that does not exist.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { OrderAddress, OrderDetail, OrderSummary } from '../../src/schemas/orders.schema';
import { notFound } from './errors';
import { rowsOf } from './ledger';
import { keyedRow, type Keyed } from './list-endpoint';
import * as money from './money';
import type { ListQuery } from './pagination';

interface OrderRow {
  id: number;
  invoice_no: string;
  status: string;
  order_type: string;
  created_at: Date | string;
  total: string;
  total_bv: string;
  package_name: string | null;
  payment_method: string;
}

export type OrderLine = Keyed<OrderSummary> & { payment_method: string };

export async function orderRows(db: Db, memberId: number, q: ListQuery, limit: number): Promise<OrderLine[]> {
  const rows = await rowsOf<OrderRow>(
    db,
    sql`SELECT id, invoice_no, status, order_type, created_at, total::text AS total, total_bv::text AS total_bv, package_name, payment_method
        FROM orders WHERE member_id = ${memberId} AND ${q.rangeSql(sql`created_at`)} AND ${q.afterCursorSql(sql`created_at`, sql`id`)}
        ORDER BY ${q.orderSql(sql`created_at`, sql`id`)} LIMIT ${limit}`,
  );
  return rows.map((r) =>
    keyedRow(r.id, r.created_at, {
      invoice_no: r.invoice_no,
      status: r.status,
      order_type: r.order_type,
      total: money.normalize(r.total),
      total_bv: money.normalize(r.total_bv),
      package: r.package_name,
      payment_method: r.payment_method,
    }),
  );
}

/** An order line as the recent-orders list shows it. */
export const orderSummary = (o: OrderLine): OrderSummary => ({
  id: o.id,
  invoice_no: o.invoice_no,
  status: o.status,
  order_type: o.order_type,
  created_at: o.created_at,
  total: o.total,
  total_bv: o.total_bv,
  package: o.package,
});

const ADDRESS_KEYS: Array<keyof OrderAddress> = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'postcode',
  'country_name',
  'zone_name',
  'phone',
  'email',
];

function toAddress(v: unknown): OrderAddress {
  const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  const out: Record<string, string | null> = {};
  for (const k of ADDRESS_KEYS) out[k] = typeof o[k] === 'string' ? (o[k] as string) : null;
  return { ...out, first_name: out.first_name ?? '', address_1: out.address_1 ?? '', city: out.city ?? '' } as OrderAddress;
}

const jsonValue = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

/** One of the member's orders with its addresses and products; 404 for anything else (bad id, another member's). */
export async function orderDetail(db: Db, memberId: number, rawId: string): Promise<OrderDetail> {
  if (!/^\d{1,15}$/.test(rawId)) throw notFound('Order not found');
  const id = Number(rawId);
  const [o] = await rowsOf<OrderRow & { billing: unknown; shipping: unknown }>(
    db,
    sql`SELECT id, invoice_no, status, order_type, created_at, total::text AS total, total_bv::text AS total_bv, package_name,
               payment_method, billing, shipping
        FROM orders WHERE id = ${id} AND member_id = ${memberId}`,
  );
  if (!o) throw notFound('Order not found');
  const items = await rowsOf<{ sku: string; name: string; price: string; bv: string; quantity: number; expiry: string | Date | null; image: string | null }>(
    db,
    sql`SELECT sku, name, price::text AS price, bv::text AS bv, quantity, to_char(expiry, 'YYYY-MM-DD') AS expiry, image
        FROM order_items WHERE order_id = ${id} ORDER BY id`,
  );
  return {
    id: Number(o.id),
    invoice_no: o.invoice_no,
    status: o.status,
    order_type: o.order_type,
    created_at: new Date(o.created_at).toISOString(),
    total: money.normalize(o.total),
    total_bv: money.normalize(o.total_bv),
    billing: toAddress(jsonValue(o.billing)),
    shipping: o.shipping === null ? null : toAddress(jsonValue(o.shipping)),
    payment_method: o.payment_method,
    products: items.map((i) => ({
      sku: i.sku,
      name: i.name,
      price: money.normalize(i.price),
      bv: money.normalize(i.bv),
      quantity: Number(i.quantity),
      expiry: i.expiry === null ? null : String(i.expiry),
      image: i.image,
    })),
  };
}

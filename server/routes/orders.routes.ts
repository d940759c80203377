/**
 * Orders calls (spec §7 "Orders"): the member's recent orders (cursor-paged, CSV export) and one
 * order's detail. Someone else's order answers 404, exactly like an order that does not exist.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../app';
import type { Db } from '../db/client';
import { envelope } from '../../src/schemas/common.schema';
import {
  orderDetailSchema,
  recentOrdersPageSchema,
  recentOrdersQuerySchema,
  type OrderAddress,
  type OrderSummary,
} from '../../src/schemas/orders.schema';
import { requireAuth } from '../lib/auth';
import { notFound } from '../lib/errors';
import { rowsOf } from '../lib/ledger';
import * as money from '../lib/money';
import { EXPORT_LIMIT, ListQuery, sendCsv } from '../lib/pagination';

type Keyed<T> = T & { _at: Date; _id: number };

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

export async function orderRows(db: Db, memberId: number, q: ListQuery, limit: number): Promise<Array<Keyed<OrderSummary> & { payment_method: string }>> {
  const rows = await rowsOf<OrderRow>(
    db,
    sql`SELECT id, invoice_no, status, order_type, created_at, total::text AS total, total_bv::text AS total_bv, package_name, payment_method
        FROM orders WHERE member_id = ${memberId} AND ${q.rangeSql(sql`created_at`)} AND ${q.afterCursorSql(sql`created_at`, sql`id`)}
        ORDER BY ${q.orderSql(sql`created_at`, sql`id`)} LIMIT ${limit}`,
  );
  return rows.map((r) => {
    const at = new Date(r.created_at);
    return {
      id: Number(r.id),
      invoice_no: r.invoice_no,
      status: r.status,
      order_type: r.order_type,
      created_at: at.toISOString(),
      total: money.normalize(r.total),
      total_bv: money.normalize(r.total_bv),
      package: r.package_name,
      payment_method: r.payment_method,
      _at: at,
      _id: Number(r.id),
    };
  });
}

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

export async function ordersRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['orders'];

  app.get(
    '/api/orders/recent_orders',
    { preHandler: requireAuth, schema: { tags, querystring: recentOrdersQuerySchema, response: { 200: envelope(recentOrdersPageSchema) } } },
    async (req) => {
      const q = new ListQuery(req.query as Record<string, unknown>).check();
      const rows = await orderRows(db, req.member!.id, q, q.limit + 1);
      const page = q.page('/api/orders/recent_orders', rows, (r) => ({ createdAt: r._at, id: r._id }));
      return ctx.envelope(req, {
        items: page.items.map((o): OrderSummary => ({
          id: o.id,
          invoice_no: o.invoice_no,
          status: o.status,
          order_type: o.order_type,
          created_at: o.created_at,
          total: o.total,
          total_bv: o.total_bv,
          package: o.package,
        })),
        next_page_url: page.next_page_url,
      });
    },
  );

  app.get(
    '/api/orders/recent_orders/export',
    { preHandler: requireAuth, schema: { tags, querystring: recentOrdersQuerySchema, produces: ['text/csv'] } },
    async (req, reply) => {
      const q = new ListQuery(req.query as Record<string, unknown>, { paged: false }).check();
      const rows = await orderRows(db, req.member!.id, q, EXPORT_LIMIT);
      return sendCsv(
        reply,
        'orders',
        ['id', 'invoice_no', 'date', 'type', 'status', 'package', 'payment_method', 'total', 'total_bv'],
        rows.map((r) => [r.id, r.invoice_no, r.created_at, r.order_type, r.status, r.package, r.payment_method, r.total, r.total_bv]),
      );
    },
  );

  app.get(
    '/api/orders/:id',
    {
      preHandler: requireAuth,
      schema: { tags, params: z.object({ id: z.string() }), response: { 200: envelope(orderDetailSchema) } },
    },
    async (req) => {
      const raw = req.params.id;
      if (!/^\d{1,15}$/.test(raw)) throw notFound('Order not found');
      const id = Number(raw);
      const [o] = await rowsOf<OrderRow & { billing: unknown; shipping: unknown }>(
        db,
        sql`SELECT id, invoice_no, status, order_type, created_at, total::text AS total, total_bv::text AS total_bv, package_name,
                   payment_method, billing, shipping
            FROM orders WHERE id = ${id} AND member_id = ${req.member!.id}`,
      );
      if (!o) throw notFound('Order not found');
      const items = await rowsOf<{ sku: string; name: string; price: string; bv: string; quantity: number; expiry: string | Date | null; image: string | null }>(
        db,
        sql`SELECT sku, name, price::text AS price, bv::text AS bv, quantity, to_char(expiry, 'YYYY-MM-DD') AS expiry, image
            FROM order_items WHERE order_id = ${id} ORDER BY id`,
      );
      return ctx.envelope(req, {
        id: Number(o.id),
        invoice_no: o.invoice_no,
        status: o.status,
        order_type: o.order_type,
        created_at: new Date(o.created_at).toISOString(),
        total: money.normalize(o.total),
        total_bv: money.normalize(o.total_bv),
        billing: toAddress(typeof o.billing === 'string' ? JSON.parse(o.billing) : o.billing),
        shipping: o.shipping === null ? null : toAddress(typeof o.shipping === 'string' ? JSON.parse(o.shipping) : o.shipping),
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
      });
    },
  );
}

/**
 * Orders calls (spec §7 "Orders"): the member's recent orders (cursor-paged, CSV export) and one
 * order's detail. Someone else's order answers 404, exactly like an order that does not exist.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { orderDetailSchema, recentOrdersPageSchema, recentOrdersQuerySchema } from '../../src/schemas/orders.schema';
import { requireAuth } from '../lib/auth';
import { listEndpoint } from '../lib/list-endpoint';
import { orderDetail, orderRows, orderSummary } from '../lib/orders';

export async function ordersRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['orders'];

  listEndpoint(app, ctx, {
    path: '/api/orders/recent_orders',
    tags,
    querystring: recentOrdersQuerySchema,
    response: recentOrdersPageSchema,
    rows: (db, member, q, _filters, limit) => orderRows(db, member.id, q, limit),
    item: orderSummary,
    csv: {
      name: 'orders',
      columns: ['id', 'invoice_no', 'date', 'type', 'status', 'package', 'payment_method', 'total', 'total_bv'],
      line: (r) => [r.id, r.invoice_no, r.created_at, r.order_type, r.status, r.package, r.payment_method, r.total, r.total_bv],
    },
  });

  app.get(
    '/api/orders/:id',
    {
      preHandler: requireAuth,
      schema: { tags, params: z.object({ id: z.string() }), response: { 200: envelope(orderDetailSchema) } },
    },
    async (req) => ctx.envelope(req, await orderDetail(db, req.member!.id, req.params.id)),
  );
}

// @vitest-environment node
/** Orders: the recent-orders list (paging, dates, CSV) and one order's detail, only for its owner. */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as money from '../../server/lib/money';
import { apiGet, signedInDemo, parseCsv, sessionOf, walk } from './wallet-support';

const ctx = signedInDemo();

const dbOrders = (member: number, where = sql`TRUE`) =>
  ctx.server.database.rows<{ id: number; order_type: string; total: string; created_at: string }>(
    sql`SELECT id, order_type, total::text AS total, created_at FROM orders WHERE member_id = ${member} AND ${where}`,
  );

describe('recent orders', () => {
  it('needs a signed-in member', async () => {
    for (const url of ['/api/orders/recent_orders', '/api/orders/1', '/api/orders/recent_orders/export']) {
      expect((await apiGet(ctx.server, undefined, url)).status, url).toBe(401);
    }
  });

  it('lists all of demo’s orders once, newest first, and only demo’s', async () => {
    const db = await dbOrders(ctx.demoId);
    expect(db.length).toBeGreaterThan(10);
    const { items, urls } = await walk(ctx.server, ctx.token, '/api/orders/recent_orders?limit=6');
    expect(items.map((o: { id: number }) => o.id).sort((a: number, b: number) => a - b)).toEqual(db.map((o) => Number(o.id)).sort((a, b) => a - b));
    expect(urls.length).toBe(Math.ceil(db.length / 6));
    for (let i = 1; i < items.length; i++) expect(items[i - 1].created_at >= items[i].created_at).toBe(true);
    const types = new Set(items.map((o: { order_type: string }) => o.order_type));
    expect(types).toEqual(new Set(['registration', 'upgrade', 'repurchase']));
    for (const o of items) {
      if (o.order_type === 'repurchase') expect(o.package).toBeNull();
      else expect(typeof o.package).toBe('string');
      expect(o.invoice_no).toMatch(/^INV-\d{4}-\d{6}$/);
    }
  });

  it('filters by date and sorts ascending', async () => {
    const { items } = await walk(ctx.server, ctx.token, '/api/orders/recent_orders?date_range=custom&start_date=2025-01-01&end_date=2025-12-31&sort=asc');
    const db = await dbOrders(ctx.demoId, sql`created_at >= '2025-01-01T00:00:00Z' AND created_at < '2026-01-01T00:00:00Z'`);
    for (let i = 1; i < items.length; i++) expect(items[i - 1].created_at <= items[i].created_at).toBe(true);
    expect(items.map((o: { id: number }) => o.id)).toEqual(items.map((o: { id: number }) => o.id).sort((a: number, b: number) => a - b));
    expect(items).toHaveLength(db.length);
    expect(items.every((o: { created_at: string }) => o.created_at.startsWith('2025-'))).toBe(true);
    const bad = await apiGet(ctx.server, ctx.token, '/api/orders/recent_orders?sort=sideways&start_date=2025-02-30');
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ sort: ['validation:invalidChoice'], start_date: ['validation:invalidDate'] });
  });

  it('exports orders as CSV', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/orders/recent_orders/export');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/csv/);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="orders-.*\.csv"$/);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual(['id', 'invoice_no', 'date', 'type', 'status', 'package', 'payment_method', 'total', 'total_bv']);
    const db = await dbOrders(ctx.demoId);
    expect(rows.length - 1).toBe(db.length);
    expect(money.sum(rows.slice(1).map((r) => money.parse(r[7])))).toBe(money.sum(db.map((o) => money.parse(o.total))));
    expect(rows.slice(1).some((r) => r[6] === 'e_wallet')).toBe(true);
  });
});

describe('order detail', () => {
  it('gives products, addresses and payment that add up to the order', async () => {
    const { items } = await walk(ctx.server, ctx.token, '/api/orders/recent_orders?limit=100');
    for (const type of ['registration', 'upgrade', 'repurchase']) {
      const summary = items.find((o: { order_type: string }) => o.order_type === type);
      const res = await apiGet(ctx.server, ctx.token, `/api/orders/${summary.id}`);
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d).toMatchObject({ id: summary.id, invoice_no: summary.invoice_no, status: summary.status, total: summary.total, total_bv: summary.total_bv });
      expect(d.products.length).toBeGreaterThan(0);
      expect(money.sum(d.products.map((p: { price: string; quantity: number }) => money.times(money.parse(p.price), p.quantity)))).toBe(money.parse(d.total));
      expect(money.sum(d.products.map((p: { bv: string; quantity: number }) => money.times(money.parse(p.bv), p.quantity)))).toBe(money.parse(d.total_bv));
      expect(d.billing.first_name).toBe('Dana');
      expect(d.billing.address_1).toBeTruthy();
      expect(['card', 'bank_transfer', 'e_wallet']).toContain(d.payment_method);
      if (type === 'repurchase') expect(d.products.every((p: { expiry: string | null }) => p.expiry === null)).toBe(true);
      else expect(d.products[0].expiry).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (type === 'upgrade') expect(d.shipping).toBeNull();
      else expect(d.shipping).toEqual(d.billing);
    }
  });

  it('answers 404 for someone else’s order exactly as for a missing one', async () => {
    const [foreign] = await ctx.server.database.rows<{ id: number; member_id: number }>(
      sql`SELECT id, member_id FROM orders WHERE member_id <> ${ctx.demoId} ORDER BY id LIMIT 1`,
    );
    const theirs = await apiGet(ctx.server, ctx.token, `/api/orders/${foreign.id}`);
    const missing = await apiGet(ctx.server, ctx.token, '/api/orders/999999999');
    expect(theirs.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(theirs.body).toEqual(missing.body);
    // The owner does see it, and does not see demo's.
    const ownerToken = await sessionOf(ctx.server, Number(foreign.member_id));
    expect((await apiGet(ctx.server, ownerToken, `/api/orders/${foreign.id}`)).status).toBe(200);
    const [demoOrder] = await dbOrders(ctx.demoId);
    expect((await apiGet(ctx.server, ownerToken, `/api/orders/${demoOrder.id}`)).status).toBe(404);
    const ownerList = await walk(ctx.server, ownerToken, '/api/orders/recent_orders');
    const ownerDb = await dbOrders(Number(foreign.member_id));
    expect(ownerList.items.map((o: { id: number }) => o.id).sort()).toEqual(ownerDb.map((o) => Number(o.id)).sort());
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999999999999', '%27%20OR%201=1']) {
      const res = await apiGet(ctx.server, ctx.token, `/api/orders/${bad}`);
      expect(res.status, bad).toBe(404);
    }
  });
});

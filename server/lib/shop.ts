/**
 * The internal store's catalogue and the member's cart (spec §2 Shopping, §3 Cart item and totals).
 *
 * The cart is kept on the server, one line per member and product, so it follows the member across devices
 * (`loaded_modules.cart`). Removing a line only marks it removed: restoring it brings back its quantity at
 * once; adding the product again starts it afresh. Availability is the stock against the quantity asked for.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { CartItem } from '../../src/schemas/common.schema';
import { stockStatusOf, type Cart, type CartLine, type Category, type Product } from '../../src/schemas/shop.schema';
import { HttpError, notFound } from './errors';
import { rowsOf, type Executor } from './ledger';
import { keyedRow, type Keyed } from './list-endpoint';
import * as money from './money';
import type { ListQuery } from './pagination';
import type { SettingsService } from './settings';

/** How long a removed line can be restored. */
export const RESTORE_WINDOW_MS = 24 * 3600 * 1000;

interface ProductRow {
  id: number;
  sku: string;
  name: string;
  description: string;
  category_id: number | null;
  category_name: string | null;
  price: string;
  bv: string;
  pv: string;
  stock: number;
  images: unknown;
  created_at: Date | string;
}

const imagesOf = (v: unknown): string[] => {
  const list = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
};

function toProduct(r: ProductRow, withCategory: boolean): Omit<Product, 'id' | 'created_at'> {
  const stock = Number(r.stock);
  return {
    sku: r.sku,
    name: r.name,
    description: r.description,
    category: withCategory && r.category_id !== null ? { id: Number(r.category_id), name: r.category_name ?? '' } : null,
    price: money.normalize(r.price),
    bv: money.normalize(r.bv),
    pv: money.normalize(r.pv),
    stock,
    stock_status: stockStatusOf(stock),
    images: imagesOf(r.images),
  };
}

const PRODUCT_COLUMNS = sql`p.id, p.sku, p.name, p.description, p.category_id, c.name AS category_name, p.price::text AS price,
  p.bv::text AS bv, p.pv::text AS pv, p.stock, p.images, p.created_at`;

/** Whether the store is open to members (internal_store) and categories are shown (product_category). */
export async function storeSwitches(settings: SettingsService): Promise<{ open: boolean; categories: boolean }> {
  const m = (await settings.all()).modules;
  return { open: m?.internal_store ?? false, categories: m?.product_category ?? false };
}

/** The store is closed: every store call answers 404, as if it did not exist. */
export async function requireStore(settings: SettingsService) {
  const s = await storeSwitches(settings);
  if (!s.open) throw notFound('The store is closed');
  return s;
}

export async function categories(db: Db): Promise<Category[]> {
  const rows = await rowsOf<{ id: number; name: string }>(db, sql`SELECT id, name FROM product_categories ORDER BY sort_order, name`);
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

export type ProductLine = Keyed<Product>;

/** One page of the catalogue: active products matching the search and category, keyset-paged. */
export async function productRows(
  db: Db,
  q: ListQuery,
  f: { search?: string; category?: number; withCategory: boolean },
  limit: number,
): Promise<ProductLine[]> {
  const like = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await rowsOf<ProductRow>(
    db,
    sql`SELECT ${PRODUCT_COLUMNS} FROM products p LEFT JOIN product_categories c ON c.id = p.category_id
        WHERE p.active
          AND ${like ? sql`(p.name ILIKE ${like} OR p.sku ILIKE ${like} OR p.description ILIKE ${like})` : sql`TRUE`}
          AND ${f.category !== undefined && f.withCategory ? sql`p.category_id = ${f.category}` : sql`TRUE`}
          AND ${q.afterCursorSql(sql`p.created_at`, sql`p.id`)}
        ORDER BY ${q.orderSql(sql`p.created_at`, sql`p.id`)} LIMIT ${limit}`,
  );
  return rows.map((r) => keyedRow(r.id, r.created_at, toProduct(r, f.withCategory)) as ProductLine);
}

/** One active product; anything else (bad id, unknown, withdrawn) → 404. */
export async function productDetail(db: Db, rawId: string, withCategory: boolean): Promise<Product> {
  if (!/^\d{1,15}$/.test(rawId)) throw notFound('Product not found');
  const [r] = await rowsOf<ProductRow>(
    db,
    sql`SELECT ${PRODUCT_COLUMNS} FROM products p LEFT JOIN product_categories c ON c.id = p.category_id WHERE p.id = ${Number(rawId)} AND p.active`,
  );
  if (!r) throw notFound('Product not found');
  return { id: Number(r.id), ...toProduct(r, withCategory), created_at: new Date(r.created_at).toISOString() };
}

// ---------------------------------------------------------------------------------------------
// The cart

interface CartRow {
  id: number;
  sku: string;
  name: string;
  images: unknown;
  price: string;
  bv: string;
  quantity: number;
  stock: number;
  removed_at: Date | string | null;
}

function toLine(r: CartRow): CartLine {
  const quantity = Number(r.quantity);
  const stock = Number(r.stock);
  return {
    id: Number(r.id),
    sku: r.sku,
    name: r.name,
    image: imagesOf(r.images)[0] ?? null,
    price: money.normalize(r.price),
    bv: money.normalize(r.bv),
    quantity,
    stock,
    status: stock >= quantity,
    line_total: money.format(money.parse(r.price) * BigInt(quantity)),
  };
}

async function cartRows(ex: Executor, memberId: number): Promise<CartRow[]> {
  return rowsOf<CartRow>(
    ex,
    sql`SELECT p.id, p.sku, p.name, p.images, p.price::text AS price, p.bv::text AS bv, ci.quantity, p.stock, ci.removed_at
        FROM cart_items ci JOIN products p ON p.id = ci.product_id
        WHERE ci.member_id = ${memberId} AND p.active
          AND (ci.removed_at IS NULL OR ci.removed_at > ${new Date(Date.now() - RESTORE_WINDOW_MS).toISOString()}::timestamptz)
        ORDER BY ci.updated_at, p.id`,
  );
}

/** Cart totals (spec §3): quantity, amount and BV of the lines, and whether every line is available. */
export function cartTotals(items: CartLine[]): Cart['totals'] {
  return {
    quantity: items.reduce((n, l) => n + l.quantity, 0),
    amount: money.format(money.sum(items.map((l) => money.parse(l.line_total)))),
    bv: money.format(money.sum(items.map((l) => money.parse(l.bv) * BigInt(l.quantity)))),
    available: items.every((l) => l.status),
  };
}

export async function readCart(ex: Executor, memberId: number): Promise<Cart> {
  const rows = await cartRows(ex, memberId);
  const items = rows.filter((r) => r.removed_at === null).map(toLine);
  const removed = rows.filter((r) => r.removed_at !== null).map(toLine);
  return { items, totals: cartTotals(items), removed };
}

/** `loaded_modules.cart` (spec §7): the lines with price, quantity and availability. */
export async function cartModule(db: Db, memberId: number): Promise<CartItem[]> {
  const { items } = await readCart(db, memberId);
  return items.map((l) => ({ id: l.id, price: l.price, quantity: l.quantity, status: l.status }));
}

async function activeProduct(ex: Executor, productId: number): Promise<{ stock: number }> {
  const [p] = await rowsOf<{ stock: number }>(ex, sql`SELECT stock FROM products WHERE id = ${productId} AND active`);
  if (!p) throw notFound('Product not found');
  return { stock: Number(p.stock) };
}

const tooMany = () => new HttpError(422, 'validation_error', 'The given data was invalid.', { quantity: ['store:cart.errors.tooMany'] });

/** Add `quantity` of a product (to what the cart already has); an out-of-stock product is refused. */
export async function addToCart(db: Db, memberId: number, productId: number, quantity: number, maxQuantity: number): Promise<Cart> {
  const { stock } = await activeProduct(db, productId);
  if (stock <= 0) throw new HttpError(409, 'out_of_stock', 'This product is out of stock', { product_id: ['store:cart.errors.outOfStock'] });
  const [row] = await rowsOf<{ quantity: number }>(
    db,
    sql`INSERT INTO cart_items (member_id, product_id, quantity) VALUES (${memberId}, ${productId}, ${quantity})
        ON CONFLICT (member_id, product_id) DO UPDATE
          SET quantity = CASE WHEN cart_items.removed_at IS NULL THEN cart_items.quantity + EXCLUDED.quantity ELSE EXCLUDED.quantity END,
              removed_at = NULL, updated_at = now()
          WHERE (CASE WHEN cart_items.removed_at IS NULL THEN cart_items.quantity + EXCLUDED.quantity ELSE EXCLUDED.quantity END) <= ${maxQuantity}
        RETURNING quantity`,
  );
  if (!row) throw tooMany();
  return readCart(db, memberId);
}

/** Set the quantity of a line the cart holds; another product (or another member's line) → 404. */
export async function setQuantity(db: Db, memberId: number, productId: number, quantity: number): Promise<Cart> {
  const rows = await rowsOf(
    db,
    sql`UPDATE cart_items SET quantity = ${quantity}, updated_at = now()
        WHERE member_id = ${memberId} AND product_id = ${productId} AND removed_at IS NULL RETURNING product_id`,
  );
  if (!rows.length) throw notFound('Not in the cart');
  return readCart(db, memberId);
}

export async function removeFromCart(db: Db, memberId: number, productId: number): Promise<Cart> {
  const rows = await rowsOf(
    db,
    sql`UPDATE cart_items SET removed_at = now() WHERE member_id = ${memberId} AND product_id = ${productId} AND removed_at IS NULL RETURNING product_id`,
  );
  if (!rows.length) throw notFound('Not in the cart');
  return readCart(db, memberId);
}

export async function restoreToCart(db: Db, memberId: number, productId: number): Promise<Cart> {
  const rows = await rowsOf(
    db,
    sql`UPDATE cart_items SET removed_at = NULL, updated_at = now()
        WHERE member_id = ${memberId} AND product_id = ${productId} AND removed_at IS NOT NULL
          AND removed_at > ${new Date(Date.now() - RESTORE_WINDOW_MS).toISOString()}::timestamptz RETURNING product_id`,
  );
  if (!rows.length) throw notFound('Nothing to restore');
  return readCart(db, memberId);
}

/** Empty the lines an order took (in the order's transaction). */
export async function clearCartLines(ex: Executor, memberId: number, productIds: number[]): Promise<void> {
  if (!productIds.length) return;
  await ex.execute(
    sql`DELETE FROM cart_items WHERE member_id = ${memberId} AND product_id IN (${sql.join(
      productIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
}

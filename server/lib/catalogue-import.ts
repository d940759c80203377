/**
 * Products added by staff (`npm run operator -- product add FILE`): a JSON file with one product or a list of
 * them, each checked like any input (sku, name, price as a decimal, bv/pv, stock ≥ 0, category by name,
 * images as site paths or https URLs). A known sku updates that product; a new category is created.
 */
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { Executor } from './ledger';
import { rowsOf } from './ledger';
import { issuesToFieldMap, validationError } from './errors';
import * as money from './money';

const decimal = z.string().check(z.refine((v) => money.isDecimal(v) && money.fractionDigits(v) <= 4, { error: 'validation:invalidAmount' }));
const image = z.string().check(z.regex(/^(\/[A-Za-z0-9._\/-]{1,200}|https:\/\/[^\s"'<>]{1,400})$/, { error: 'validation:invalidFormat' }));

export const productImportSchema = z.strictObject({
  sku: z.string().check(z.regex(/^[A-Za-z0-9._-]{1,64}$/, { error: 'validation:invalidFormat' })),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)),
  description: z.optional(z.string().check(z.maxLength(2000))),
  category: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
  price: decimal,
  bv: z.optional(decimal),
  pv: z.optional(decimal),
  stock: z.number().check(z.int(), z.nonnegative(), z.lte(1_000_000)),
  images: z.optional(z.array(image).check(z.maxLength(8))),
  active: z.optional(z.boolean()),
});
export type ProductImport = z.infer<typeof productImportSchema>;

/** The products of a file's JSON text; bad ones are a field map naming their index. */
export function parseProducts(text: string): ProductImport[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw validationError({ _file: ['validation:malformedBody'] });
  }
  const r = z.array(productImportSchema).check(z.minLength(1)).safeParse(Array.isArray(json) ? json : [json]);
  if (!r.success) throw validationError(issuesToFieldMap(r.error.issues as never));
  for (const p of r.data) if (money.parse(p.price) <= 0n) throw validationError({ price: ['validation:invalidAmount'] });
  return r.data;
}

async function categoryId(ex: Executor, name: string | undefined): Promise<number | null> {
  if (!name) return null;
  await ex.execute(sql`INSERT INTO product_categories (name) VALUES (${name}) ON CONFLICT (name) DO NOTHING`);
  const [c] = await rowsOf<{ id: number }>(ex, sql`SELECT id FROM product_categories WHERE name = ${name}`);
  return Number(c.id);
}

/** Insert or update each product by sku; returns the ids with whether each was new. */
export async function upsertProducts(ex: Executor, list: ProductImport[], at = new Date()): Promise<Array<{ id: number; sku: string; created: boolean }>> {
  const out: Array<{ id: number; sku: string; created: boolean }> = [];
  for (const p of list) {
    const cat = await categoryId(ex, p.category);
    const [r] = await rowsOf<{ id: number; created: boolean }>(
      ex,
      sql`INSERT INTO products (sku, name, description, category_id, price, bv, pv, stock, images, active, created_at)
          VALUES (${p.sku}, ${p.name}, ${p.description ?? ''}, ${cat}, ${p.price}, ${p.bv ?? '0'}, ${p.pv ?? '0'}, ${p.stock},
                  ${JSON.stringify(p.images ?? [])}::jsonb, ${p.active ?? true}, ${at.toISOString()}::timestamptz)
          ON CONFLICT (sku) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, category_id = EXCLUDED.category_id,
            price = EXCLUDED.price, bv = EXCLUDED.bv, pv = EXCLUDED.pv, stock = EXCLUDED.stock, images = EXCLUDED.images, active = EXCLUDED.active
          RETURNING id, (xmax = 0) AS created`,
    );
    out.push({ id: Number(r.id), sku: p.sku, created: Boolean(r.created) });
  }
  return out;
}

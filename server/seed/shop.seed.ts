/**
 * The internal store's demo catalogue: four categories, sixteen products with prices, BV/PV and stock (two
 * out of stock, a few nearly sold out), and demo's cart with two products in it.
 */
import { sql } from 'drizzle-orm';
import type { Seeder } from '../seed';
import { upsertProducts, type ProductImport } from '../lib/catalogue-import';

const img = (name: string) => [`/images/products/${name}.svg`];

export const DEMO_CATALOGUE: ProductImport[] = [
  { sku: 'NUT-VITC-90', name: 'Vitamin C 1000 mg, 90 tablets', category: 'Nutrition', price: '24.90', bv: '18', pv: '18', stock: 120, images: img('vitamin-c'), description: 'Daily vitamin C with rose hips, three months\' supply.' },
  { sku: 'NUT-OMEGA-60', name: 'Omega-3 fish oil, 60 capsules', category: 'Nutrition', price: '32.00', bv: '24', pv: '24', stock: 4, images: img('omega-3'), description: 'Purified fish oil with EPA and DHA.' },
  { sku: 'NUT-PROT-1KG', name: 'Whey protein vanilla, 1 kg', category: 'Nutrition', price: '49.50', bv: '35', pv: '35', stock: 60, images: img('protein'), description: 'Thirty servings of whey protein isolate.' },
  { sku: 'NUT-TEA-20', name: 'Green tea detox, 20 bags', category: 'Nutrition', price: '12.00', bv: '8', pv: '8', stock: 0, images: img('green-tea'), description: 'Organic green tea with lemongrass.' },
  { sku: 'SKN-SERUM-30', name: 'Hyaluronic serum, 30 ml', category: 'Skin care', price: '39.00', bv: '28', pv: '28', stock: 35, images: img('serum'), description: 'Light serum for every skin type.' },
  { sku: 'SKN-CREAM-50', name: 'Night repair cream, 50 ml', category: 'Skin care', price: '44.00', bv: '31', pv: '31', stock: 3, images: img('cream'), description: 'Rich night cream with ceramides.' },
  { sku: 'SKN-CLEAN-150', name: 'Gentle foaming cleanser, 150 ml', category: 'Skin care', price: '18.50', bv: '12', pv: '12', stock: 80, images: img('cleanser'), description: 'Soap-free cleanser for morning and evening.' },
  { sku: 'SKN-KIT', name: 'Skin care starter kit', category: 'Skin care', price: '89.00', bv: '65', pv: '65', stock: 0, images: [...img('serum'), ...img('cream'), ...img('cleanser')], description: 'Serum, cream and cleanser together.' },
  { sku: 'HOM-BOTTLE', name: 'Insulated steel bottle, 750 ml', category: 'Home', price: '22.00', bv: '10', pv: '10', stock: 150, images: img('bottle'), description: 'Keeps drinks cold for a day.' },
  { sku: 'HOM-DIFF', name: 'Ultrasonic aroma diffuser', category: 'Home', price: '54.00', bv: '30', pv: '30', stock: 25, images: img('diffuser'), description: 'Quiet diffuser with a soft light.' },
  { sku: 'HOM-OIL-SET', name: 'Essential oil set, 6 × 10 ml', category: 'Home', price: '29.00', bv: '20', pv: '20', stock: 40, images: img('diffuser'), description: 'Lavender, eucalyptus, orange, mint, tea tree and lemon.' },
  { sku: 'FIT-MAT', name: 'Non-slip yoga mat', category: 'Fitness', price: '35.00', bv: '20', pv: '20', stock: 30, images: img('mat'), description: '6 mm mat with a carrying strap.' },
  { sku: 'FIT-BANDS', name: 'Resistance bands, set of 5', category: 'Fitness', price: '19.90', bv: '12', pv: '12', stock: 2, images: img('bands'), description: 'Five strengths, from light to extra heavy.' },
  { sku: 'FIT-SHAKER', name: 'Shaker cup, 600 ml', category: 'Fitness', price: '9.90', bv: '5', pv: '5', stock: 200, images: img('shaker'), description: 'Leak-proof shaker with a mixing ball.' },
  { sku: 'FIT-BUNDLE', name: 'Home workout bundle', category: 'Fitness', price: '59.00', bv: '40', pv: '40', stock: 12, images: [...img('mat'), ...img('bands')], description: 'Mat, bands and a shaker.' },
  { sku: 'NUT-MULTI-60', name: 'Daily multivitamin, 60 tablets', category: 'Nutrition', price: '27.00', bv: '20', pv: '20', stock: 90, images: img('vitamin-c'), description: 'Vitamins and minerals for every day.' },
];

const CATEGORY_ORDER = ['Nutrition', 'Skin care', 'Home', 'Fitness'];
const BASE = Date.UTC(2026, 7, 1, 9);

export const shopSeeder: Seeder = async ({ db, members }) => {
  for (const [i, name] of CATEGORY_ORDER.entries()) {
    await db.execute(sql`INSERT INTO product_categories (name, sort_order) VALUES (${name}, ${i + 1}) ON CONFLICT (name) DO NOTHING`);
  }
  const ids: number[] = [];
  for (const [i, p] of DEMO_CATALOGUE.entries()) {
    const [r] = await upsertProducts(db, [p], new Date(BASE + i * 3600_000));
    ids.push(r.id);
  }
  // demo's cart: vitamin C × 2 and the steel bottle.
  const at = new Date(BASE + 40 * 24 * 3600_000).toISOString();
  await db.execute(
    sql`INSERT INTO cart_items (member_id, product_id, quantity, updated_at)
        VALUES (${members.ids.demo}, ${ids[0]}, 2, ${at}::timestamptz), (${members.ids.demo}, ${ids[8]}, 1, ${at}::timestamptz)`,
  );
};

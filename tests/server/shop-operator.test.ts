// @vitest-environment node
/** `npm run operator -- product add FILE` as staff run it: a real process on a real embedded database folder. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { seed } from '../../server/seed';

const run = promisify(execFile);
let dir: string;

async function operator(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/operator.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

async function products(): Promise<Array<{ sku: string; price: string; stock: number; category: string | null }>> {
  const database = await openDatabase({ dataDir: dir, databaseUrl: null });
  try {
    return await database.rows(
      sql`SELECT p.sku, p.price::text AS price, p.stock, c.name AS category FROM products p LEFT JOIN product_categories c ON c.id = p.category_id WHERE p.sku LIKE 'OP-%' ORDER BY p.sku`,
    );
  } finally {
    await database.close();
  }
}

const file = (name: string, content: unknown) => {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'upline-shop-operator-'));
  const config = loadConfig({ SEED_PASSWORD: 'Demo-pass-2026', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, { dataDir: dir, databaseUrl: null, seedMembers: 20, uploadsDir: null });
  const database = await openDatabase({ dataDir: dir, databaseUrl: null });
  await migrate(database);
  await seed(database, config);
  await database.close();
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('operator: product add', () => {
  it('adds the products of a file (new category created) and updates a known sku', async () => {
    const added = await operator('product', 'add', file('new.json', [
      { sku: 'OP-1', name: 'Protein bar box', price: '19.90', bv: '10', pv: '10', stock: 40, category: 'Snacks', images: ['/images/products/protein.svg'] },
      { sku: 'OP-2', name: 'Gift card', price: '50', stock: 0 },
    ]));
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/added\t\d+\tOP-1/);
    expect(await products()).toEqual([
      { sku: 'OP-1', price: '19.9000', stock: 40, category: 'Snacks' },
      { sku: 'OP-2', price: '50.0000', stock: 0, category: null },
    ]);
    const updated = await operator('product', 'add', file('one.json', { sku: 'OP-2', name: 'Gift card', price: '45', stock: 10 }));
    expect(updated.stdout).toMatch(/updated\t\d+\tOP-2/);
    expect((await products())[1]).toMatchObject({ price: '45.0000', stock: 10 });
  }, 120_000);

  it('refuses a bad file without adding anything, naming what is wrong', async () => {
    const bad = await operator('product', 'add', file('bad.json', [{ sku: 'OP-3', name: 'Bad', price: '-1', stock: -2 }]));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr + bad.stdout).toMatch(/not a valid product file/);
    const notJson = await operator('product', 'add', file('broken.json', '{'));
    expect(notJson.code).not.toBe(0);
    const missing = await operator('product', 'add');
    expect(missing.code).not.toBe(0);
    expect((await products()).map((p) => p.sku)).toEqual(['OP-1', 'OP-2']);
  }, 120_000);
});

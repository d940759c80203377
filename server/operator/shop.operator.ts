/** The store's catalogue as staff keep it: products added or updated from a JSON file. */
import { readFileSync } from 'node:fs';
import { parseProducts, upsertProducts } from '../lib/catalogue-import';
import { HttpError } from '../lib/errors';
import { OperatorUsageError, type OperatorArea } from './registry';

export const shopOperator: OperatorArea = {
  name: 'product',
  summary: 'products of the internal store',
  commands: {
    add: {
      usage: 'FILE',
      summary: 'add products from a JSON file (one product or a list: sku, name, price, bv, pv, stock, category, images); a known sku is updated',
      async run({ database }, { positionals }, io) {
        const file = positionals[0];
        if (!file) throw new OperatorUsageError('give the JSON file of the products');
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          throw new OperatorUsageError(`cannot read ${file}`);
        }
        let list;
        try {
          list = parseProducts(text);
        } catch (e) {
          if (e instanceof HttpError) {
            throw new OperatorUsageError(`${file} is not a valid product file: ${Object.entries(e.errors).map(([k, v]) => `${k} ${v.join(', ')}`).join('; ')}`);
          }
          throw e;
        }
        const done = await database.db.transaction((tx) => upsertProducts(tx, list));
        for (const p of done) io.out(`${p.created ? 'added' : 'updated'}\t${p.id}\t${p.sku}`);
      },
    },
  },
};

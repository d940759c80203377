/**
 * The store's pages made from the factories: the product list (endless, searched and filtered by category,
 * the categories with the first page), one product, and the card payment's result page
 * (/member/payment/stripe/success, checked on the server).
 */
import { shopApi } from '../api/shop';
import type { Category, Product, ProductFilters } from '../schemas/shop.schema';
import { createLoadMachine } from './load.machine';
import { createPagedListMachine, nextFromUrl } from './paged-list.machine';

export interface CatalogueMeta {
  categories: Category[];
}

export const productsListMachine = createPagedListMachine<Product, ProductFilters, CatalogueMeta>('shopProducts', async ({ filters, next, signal }) => {
  const [page, categories] = await Promise.all([
    shopApi.products({ search: filters.search, category: filters.category, cursor: next?.cursor }, signal),
    next ? Promise.resolve(null) : shopApi.categories(),
  ]);
  return { items: page.items, next: nextFromUrl(page.next_page_url), meta: categories ? { categories } : undefined };
});

export const productDetailMachine = createLoadMachine('shopProduct', (id: number) => shopApi.product(id));

export const cardPaymentResultMachine = createLoadMachine('cardPaymentResult', (sessionId: string) => shopApi.cardStatus(sessionId));

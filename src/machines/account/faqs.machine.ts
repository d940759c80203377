/**
 * /member/account/faqs: the company's questions and answers as a paged list; the search (?keyword=) is
 * the list's filter, followed from the URL.
 */
import { accountHubApi } from '../../api/account-hub';
import type { Faq, FaqsQuery } from '../../schemas/account-hub.schema';
import { createPagedListMachine, nextFromUrl } from '../paged-list.machine';

export type FaqsSearch = Pick<FaqsQuery, 'keyword'>;

export const faqsListMachine = createPagedListMachine<Faq, FaqsSearch>('faqsList', async ({ filters, next, signal }) => {
  const p = await accountHubApi.faqs({ ...(filters.keyword?.trim() ? { keyword: filters.keyword.trim() } : {}), ...(next?.cursor ? { cursor: next.cursor } : {}) }, signal);
  return { items: p.items, next: nextFromUrl(p.next_page_url) };
});

/**
 * The account hub's calls: who the member is (GET /api/user/account), the FAQs (GET /api/faqs), the personal
 * data export (GET /api/user/data_export, a file). The account deletion is authApi.deleteAccount.
 */
import * as z from 'zod/mini';
import { get } from './client';
import { download } from './download';
import { accountSummarySchema, faqPageSchema, faqsQuerySchema, type FaqsQuery } from '../schemas/account-hub.schema';

export const accountHubApi = {
  summary: () => get(accountSummarySchema, '/api/user/account'),
  faqs: (query: FaqsQuery, signal?: AbortSignal) => get(faqPageSchema, '/api/faqs', z.parse(faqsQuerySchema, query) as Record<string, string>, { signal }),
  /** Saves the file under the name the server gives it; answers that name. */
  downloadData: () => download('/api/user/data_export'),
};

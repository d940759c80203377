/**
 * Package payment and over-the-counter calls: the page's offer, a purchase and its payment by e-wallet,
 * the card checkout (POST /api/payments/card, every purpose), and the counter desk (request, receipt,
 * history).
 */
import * as z from 'zod/mini';
import { get, post, postMultipart } from './client';
import { download } from './download';
import type { OrderFilters } from '../schemas/orders.schema';
import { queryRecord } from '../lib/search-codec';
import { packagePaymentOptionsSchema, purchaseSchema, walletPaymentResultSchema } from '../schemas/packages.schema';
import { otcHistoryQuerySchema, otcHistoryPageSchema, otcRequestAnswerSchema, otcRequestSchema, type OtcHistoryPage, type OtcMethod, type OtcPurpose } from '../schemas/otc.schema';

/** The card provider's hosted page for one payment. */
export const cardCheckoutSchema = z.object({ url: z.string() });

export type OtcRequestValues = {
  purpose: OtcPurpose;
  ref_id: string;
  amount: string;
  method: OtcMethod;
};

/** The request body: a top-up names its amount, the others what they pay (ref_id). */
export function otcRequestBody(v: OtcRequestValues) {
  return v.purpose === 'topup'
    ? { purpose: v.purpose, amount: v.amount.trim(), method: v.method }
    : { purpose: v.purpose, ref_id: Number(v.ref_id), method: v.method };
}

export function otcPaymentFormData(v: { transaction_ref: string; receipt: readonly File[] }): FormData {
  const form = new FormData();
  form.append('transaction_ref', v.transaction_ref.trim());
  for (const f of v.receipt) form.append('receipt', f, f.name);
  return form;
}

export const packagesApi = {
  options: () => get(packagePaymentOptionsSchema, '/api/packages'),
  createPurchase: (packageId: number) => post(purchaseSchema, '/api/packages/purchases', { package_id: packageId }),
  purchase: (id: number) => get(purchaseSchema, `/api/packages/purchases/${encodeURIComponent(String(id))}`),
  payByWallet: (id: number, password: string) => post(walletPaymentResultSchema, `/api/packages/purchases/${encodeURIComponent(String(id))}/wallet`, { password }),
  cardCheckout: (purpose: OtcPurpose, refId: number) => post(cardCheckoutSchema, '/api/payments/card', { purpose, ref_id: refId }),
};

export const otcApi = {
  request: (v: OtcRequestValues) => post(otcRequestAnswerSchema, '/api/otc/requests', otcRequestBody(v)),
  get: (id: number) => get(otcRequestAnswerSchema, `/api/otc/requests/${encodeURIComponent(String(id))}`),
  awaiting: async (): Promise<OtcHistoryPage['items']> => (await get(otcHistoryPageSchema, '/api/otc/requests', { limit: 100 })).items.filter((r) => r.status === 'awaiting_payment'),
  submitPayment: (id: number, v: { transaction_ref: string; receipt: readonly File[] }) =>
    postMultipart(otcRequestSchema, `/api/otc/requests/${encodeURIComponent(String(id))}/payment`, otcPaymentFormData(v)),
  history: (f: OrderFilters = {}) => get(otcHistoryPageSchema, '/api/otc/requests', queryRecord(otcHistoryQuerySchema, f)),
  downloadHistory: (f: OrderFilters = {}) => download('/api/otc/requests/export', queryRecord(otcHistoryQuerySchema, { ...f, cursor: undefined })),
  downloadReceipt: (id: number, name: string) => download(`/api/uploads/${encodeURIComponent(String(id))}`, undefined, name),
};

export type PackagesApi = typeof packagesApi;
export type OtcApi = typeof otcApi;

/**
 * Over-the-counter payment pages, declared on the factories: request-payment (a form: what to pay —
 * the purchase or order handed over in the URL, or a top-up amount — and how; its result is the
 * reference and the company's bank details), make-payment (a form: which awaiting request, the bank's
 * transaction reference and the receipt file) and payment-history (the paged list of requests).
 */
import * as z from 'zod/mini';
import { otcApi, type OtcRequestValues } from '../../api/packages';
import { nextFromUrl } from '../paged-list.machine';
import { createFormMachine } from '../form.machine';
import { createPagedListMachine } from '../paged-list.machine';
import { toOrderFilters, type ListFilterState } from '../../lib/list-filters';
import { OTC_METHODS, OTC_PURPOSES, type OtcRequest, type OtcRequestAnswer } from '../../schemas/otc.schema';

/** What the URL hands over: `?purpose=package&ref_id=12` from the package page or an order. */
export interface OtcRequestParams {
  purpose?: string;
  ref_id?: string;
}

const required = z.string().check(z.trim(), z.minLength(1, { error: 'validation:required' }));

export const otcRequestSchema = z.object({
  purpose: z.enum(OTC_PURPOSES, { error: 'validation:invalidChoice' }),
  method: z.enum(OTC_METHODS, { error: 'validation:invalidChoice' }),
  ref_id: z.string(),
  amount: z.string(),
}).check(
  z.superRefine((v, ctx) => {
    if (v.purpose === 'topup') {
      if (!/^\d{1,9}(\.\d{1,2})?$/.test(v.amount.trim())) ctx.addIssue({ code: 'custom', path: ['amount'], message: v.amount.trim() ? 'validation:invalidAmount' : 'validation:required' });
    } else if (!/^[1-9]\d{0,14}$/.test(v.ref_id)) ctx.addIssue({ code: 'custom', path: ['ref_id'], message: 'store:otc.errors.nothingToPay' });
  }),
);

export const otcRequestPaymentMachine = createFormMachine({
  id: 'otcRequestPayment',
  domain: 'otc',
  initialValues: { purpose: 'topup', ref_id: '', amount: '', method: 'bank_deposit' } as OtcRequestValues,
  load: async (params: OtcRequestParams | null) => params ?? {},
  valuesFrom: (p, v) => {
    const purpose = (OTC_PURPOSES as readonly string[]).includes(p.purpose ?? '') ? (p.purpose as OtcRequestValues['purpose']) : v.purpose;
    return { ...v, purpose, ref_id: p.ref_id ?? '' };
  },
  schema: otcRequestSchema,
  submit: ({ values }): Promise<OtcRequestAnswer> => otcApi.request(values),
  successKey: 'store:otc.request.created',
});

export type OtcPaymentValues = { request_id: string; transaction_ref: string; receipt: readonly File[] };

export const otcPaymentSchema = z.object({
  request_id: z.string().check(z.minLength(1, { error: 'store:otc.errors.chooseRequest' })),
  transaction_ref: required.check(z.maxLength(64, { error: 'validation:tooLong' })),
  receipt: z.array(z.file()).check(z.minLength(1, { error: 'store:otc.errors.receiptRequired' }), z.maxLength(1, { error: 'account:upload.tooManyFiles' })),
});

export const otcMakePaymentMachine = createFormMachine({
  id: 'otcMakePayment',
  domain: 'otc',
  initialValues: { request_id: '', transaction_ref: '', receipt: [] } as OtcPaymentValues,
  load: async (params: { id?: string } | null): Promise<{ awaiting: OtcRequest[]; chosen: string | null }> => ({ awaiting: await otcApi.awaiting(), chosen: params?.id ?? null }),
  valuesFrom: ({ awaiting, chosen }, v) => {
    const pick = awaiting.find((r) => String(r.id) === chosen) ?? (awaiting.length === 1 ? awaiting[0] : undefined);
    return { ...v, request_id: v.request_id || (pick ? String(pick.id) : '') };
  },
  schema: otcPaymentSchema,
  submit: ({ values }): Promise<OtcRequest> => otcApi.submitPayment(Number(values.request_id), values),
  successKey: 'store:otc.payment.sent',
  clearOnSuccess: true,
});

export const otcHistoryListMachine = createPagedListMachine<OtcRequest, ListFilterState>('otcHistoryList', async ({ filters, next }) => {
  const p = await otcApi.history({ ...toOrderFilters(filters), cursor: next?.cursor });
  return { items: p.items, next: nextFromUrl(p.next_page_url), meta: undefined };
});

export const otcHistoryDownload = (f: ListFilterState) => otcApi.downloadHistory(toOrderFilters(f));

/**
 * Sales and invoices of the member's CRM, on the factories:
 *
 * - the lists of sales and of invoices (`createPagedListMachine`, filters from the URL);
 * - the new sale: one form declaration (`createFormMachine`) whose load is what it chooses from (contacts,
 *   the catalogue) and whose values hold the list of lines (add a line, remove a line: the list changes);
 *   checked with the shared schema, priced by the server; once recorded the page opens the sale;
 * - a sale's page (`createLoadMachine`);
 * - an invoice's page (`invoicePageMachine`): the invoice (a load) and the two actions, mark sent and mark
 *   paid (form declarations without values, like the lead's conversion); a done action loads it again.
 */
import * as z from 'zod/mini';
import { invoiceApi, saleApi } from '../../api/crm-sales';
import {
  EMPTY_SALE,
  saleRequestSchema,
  type Invoice,
  type InvoiceFilters,
  type InvoiceSummary,
  type Sale,
  type SaleChoices,
  type SaleFilters,
  type SaleSummary,
  type SaleValues,
} from '../../schemas/crm-sales.schema';
import { createFormMachine } from '../form.machine';
import { createLoadMachine } from '../load.machine';
import { createPagedListMachine, nextFromUrl } from '../paged-list.machine';
import { createRecordPageMachine } from './leads.machine';

export const salesListMachine = createPagedListMachine<SaleSummary, SaleFilters>('saleList', async ({ filters, next, signal }) => {
  const page = await saleApi.list(filters ?? {}, next?.cursor, signal);
  return { items: page.items, next: nextFromUrl(page.next_page_url) };
});

export const invoicesListMachine = createPagedListMachine<InvoiceSummary, InvoiceFilters>('invoiceList', async ({ filters, next, signal }) => {
  const page = await invoiceApi.list(filters ?? {}, next?.cursor, signal);
  return { items: page.items, next: nextFromUrl(page.next_page_url) };
});

/** The new sale: contacts and catalogue loaded first; the lines are one value (a list of rows). */
export const saleForm = createFormMachine<SaleValues, SaleChoices, Sale>({
  id: 'saleCreate',
  initialValues: EMPTY_SALE,
  load: () => saleApi.choices(),
  valuesFrom: (_choices, values) => values,
  schema: saleRequestSchema,
  submit: ({ values }) => saleApi.create(values),
  successKey: 'crm:sales.recorded',
  clearOnSuccess: true,
});

export const saleDetailMachine = createLoadMachine<Sale, number>('saleDetail', (id) => saleApi.get(id));

export const invoiceDetailLoad = createLoadMachine<Invoice, number>('invoiceDetail', (id) => invoiceApi.get(id));

const action = (id: string, call: (invoice: number) => Promise<Invoice>, successKey: string) =>
  createFormMachine<Record<string, never>, never, Invoice, { values: Record<string, never>; result: Invoice }, 'form', number>({
    id,
    initialValues: {},
    schema: z.object({}),
    submit: ({ params }) => call(params as number),
    successKey,
  });
export const invoiceSentForm = action('invoiceSent', invoiceApi.markSent, 'crm:invoices.markedSent');
export const invoicePaidForm = action('invoicePaid', invoiceApi.markPaid, 'crm:invoices.markedPaid');

/**
 * /crm/invoices/{id}: a record page (`createRecordPageMachine`) of `detail` (the invoice) and the steps
 * `sent` and `paid` (`form.submit` each). A done step loads the invoice again; toasts and a forced logout
 * reach the page.
 */
export const invoicePageMachine = createRecordPageMachine('invoicePage', { detail: invoiceDetailLoad, steps: { sent: invoiceSentForm, paid: invoicePaidForm } });

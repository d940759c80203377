/**
 * Sales and invoices of the member's CRM (/api/crm/sales, /api/crm/invoices): lists with their CSV exports,
 * the new-sale form's choices, recording a sale, an invoice marked sent or paid, and its PDF.
 */
import * as z from 'zod/mini';
import { queryRecord } from '../lib/search-codec';
import {
  invoiceListQuerySchema,
  invoicePageSchema,
  invoiceSchema,
  saleChoicesSchema,
  saleListQuerySchema,
  salePageSchema,
  saleRequestSchema,
  saleSchema,
  type InvoiceFilters,
  type SaleFilters,
  type SaleValues,
} from '../schemas/crm-sales.schema';
import { get, post } from './client';
import { download } from './download';

const SALES = '/api/crm/sales';
const INVOICES = '/api/crm/invoices';
const salePath = (id: number) => `${SALES}/${encodeURIComponent(String(id))}`;
const invoicePath = (id: number) => `${INVOICES}/${encodeURIComponent(String(id))}`;
const saleQuery = (f: SaleFilters, cursor?: string) => queryRecord(saleListQuerySchema, { ...f, ...(cursor ? { cursor } : {}) });
const invoiceQuery = (f: InvoiceFilters, cursor?: string) => queryRecord(invoiceListQuerySchema, { ...f, ...(cursor ? { cursor } : {}) });

export const saleApi = {
  list: (filters: SaleFilters, cursor: string | undefined, signal?: AbortSignal) => get(salePageSchema, SALES, saleQuery(filters, cursor), { signal }),
  download: (filters: SaleFilters) => download(`${SALES}/export`, saleQuery(filters)),
  choices: () => get(saleChoicesSchema, `${SALES}/choices`),
  get: (id: number) => get(saleSchema, salePath(id)),
  /** The form's values as the body: the lines as typed (the server prices them). */
  create: (values: SaleValues) => post(saleSchema, SALES, z.parse(saleRequestSchema, values)),
};

export const invoiceApi = {
  list: (filters: InvoiceFilters, cursor: string | undefined, signal?: AbortSignal) => get(invoicePageSchema, INVOICES, invoiceQuery(filters, cursor), { signal }),
  download: (filters: InvoiceFilters) => download(`${INVOICES}/export`, invoiceQuery(filters)),
  get: (id: number) => get(invoiceSchema, invoicePath(id)),
  markSent: (id: number) => post(invoiceSchema, `${invoicePath(id)}/sent`),
  markPaid: (id: number) => post(invoiceSchema, `${invoicePath(id)}/paid`),
  /** The invoice as a PDF file (saved under its number). */
  pdf: (id: number) => download(`${invoicePath(id)}/pdf`),
};

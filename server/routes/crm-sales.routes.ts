/**
 * Sales and invoices of the member's CRM (spec §2 /crm/sales, /crm/invoices), private to the member:
 *
 *   GET  /api/crm/sales               the member's sales (search, dates, sort; cursor-paged) and /export (CSV)
 *   GET  /api/crm/sales/choices       what the new-sale form chooses from: contacts and the catalogue
 *   POST /api/crm/sales               record a sale; it issues its invoice (201: the sale)
 *   GET  /api/crm/sales/{id}          one sale with its lines
 *   GET  /api/crm/invoices            the member's invoices (search, status with overdue, dates, sort) and /export
 *   GET  /api/crm/invoices/{id}       one invoice with seller, buyer and lines
 *   POST /api/crm/invoices/{id}/sent  mark sent;  POST /api/crm/invoices/{id}/paid  mark paid
 *   GET  /api/crm/invoices/{id}/pdf   the invoice as a PDF (attachment)
 *
 * Another member's sale or invoice answers 404, like one that does not exist.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { envelope } from '../../src/schemas/common.schema';
import {
  invoiceListQuerySchema,
  invoiceSchema,
  invoiceSummarySchema,
  saleChoicesSchema,
  saleListQuerySchema,
  saleRequestSchema,
  saleSchema,
  saleSummarySchema,
  type InvoiceSummary,
  type SaleSummary,
} from '../../src/schemas/crm-sales.schema';
import type { AppContext } from '../lib/app-context';
import { requireAuth } from '../lib/auth';
import { invoiceFilters, invoiceOf, invoiceRows, markInvoice, recordSale, saleChoices, saleFilters, saleOf, saleRows } from '../lib/crm-sales';
import { invoicePdf } from '../lib/invoice-pdf';
import { memberLanguage } from '../lib/i18n';
import { listEndpoint } from '../lib/list-endpoint';
import { companyName } from '../lib/login';
import { sendFile } from '../lib/uploads';
import { pathId } from './crm.routes';

const tags = ['crm'];
const idParams = z.object({ id: z.string() });
const page = <S extends z.ZodMiniType>(item: S) => z.object({ items: z.array(item), next_page_url: z.nullable(z.string()) });

export async function crmSalesRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;

  listEndpoint(app, ctx, {
    path: '/api/crm/sales',
    tags,
    querystring: saleListQuerySchema,
    response: page(saleSummarySchema),
    filters: saleFilters,
    rows: saleRows,
    csv: {
      name: 'sales',
      columns: ['id', 'created_at', 'contact', 'lines', 'total', 'invoice', 'invoice_status'],
      line: (s: SaleSummary) => [s.id, s.created_at, s.contact_name, s.line_count, s.total, s.invoice_number, s.invoice_status],
    },
  });
  app.get('/api/crm/sales/choices', { preHandler: requireAuth, schema: { tags, response: { 200: envelope(saleChoicesSchema) } } }, async (req) =>
    ctx.envelope(req, await saleChoices(db, req.member!)),
  );
  app.post('/api/crm/sales', { preValidation: requireAuth, schema: { tags, body: saleRequestSchema, response: { 201: envelope(saleSchema) } } }, async (req, reply) => {
    const { saleId } = await recordSale(db, req.member!, req.body);
    reply.status(201);
    return ctx.envelope(req, await saleOf(db, req.member!, saleId));
  });
  app.get('/api/crm/sales/:id', { preHandler: requireAuth, schema: { tags, params: idParams, response: { 200: envelope(saleSchema) } } }, async (req) =>
    ctx.envelope(req, await saleOf(db, req.member!, pathId(req))),
  );

  listEndpoint(app, ctx, {
    path: '/api/crm/invoices',
    tags,
    querystring: invoiceListQuerySchema,
    response: page(invoiceSummarySchema),
    filters: invoiceFilters,
    rows: invoiceRows,
    csv: {
      name: 'invoices',
      columns: ['number', 'issued_on', 'due_on', 'contact', 'status', 'total'],
      line: (i: InvoiceSummary) => [i.number, i.issued_on, i.due_on, i.contact_name, i.status, i.total],
    },
  });
  app.get('/api/crm/invoices/:id', { preHandler: requireAuth, schema: { tags, params: idParams, response: { 200: envelope(invoiceSchema) } } }, async (req) =>
    ctx.envelope(req, await invoiceOf(db, req.member!, pathId(req))),
  );
  for (const to of ['sent', 'paid'] as const) {
    app.post(`/api/crm/invoices/:id/${to}`, { preValidation: requireAuth, schema: { tags, params: idParams, response: { 200: envelope(invoiceSchema) } } }, async (req) =>
      ctx.envelope(req, await markInvoice(db, req.member!, pathId(req), to)),
    );
  }
  app.get('/api/crm/invoices/:id/pdf', { preHandler: requireAuth, schema: { tags, params: idParams, produces: ['application/pdf'] } }, async (req, reply) => {
    const invoice = await invoiceOf(db, req.member!, pathId(req));
    const [company, currency] = await Promise.all([companyName(ctx), ctx.settings.currencyByCode(null)]);
    // In the member's language and date format, like the pages they read.
    const member = req.member!;
    const bytes = await invoicePdf({ invoice, company, currency: currency.code, language: memberLanguage(member.languageCode), dateFormat: member.dateFormat });
    return sendFile(reply, { content_type: 'application/pdf', original_name: `${invoice.number}.pdf` }, bytes);
  });
}

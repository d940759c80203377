/**
 * Sales and invoices with their real machines and a faked API: the lists' loading, empty, connection and
 * server failures with retry, and a 401; dense rows with right-aligned amounts on desktops, cards on phones;
 * the new sale — lines added and removed, the running total, a quantity checked before sending, the server's
 * field map under its line, the body sent; an invoice marked sent (loaded again) and its PDF asked for.
 */
import { act, fireEvent, screen, within, waitFor as waitForUi } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { Invoice, InvoiceSummary, Sale, SaleChoices } from '../../../src/schemas/crm-sales.schema';
import { columnHeaders, findTableRows, renderUi, setViewportWidth } from '../../support/render-ui';

const saleApi = vi.hoisted(() => ({ list: vi.fn(), download: vi.fn(), choices: vi.fn(), get: vi.fn(), create: vi.fn() }));
const invoiceApi = vi.hoisted(() => ({ list: vi.fn(), download: vi.fn(), get: vi.fn(), markSent: vi.fn(), markPaid: vi.fn(), pdf: vi.fn() }));
vi.mock('../../../src/api/crm-sales', () => ({ saleApi, invoiceApi }));

const { salesListMachine, invoicesListMachine, saleForm, invoicePageMachine } = await import('../../../src/machines/crm/sales.machine');
const { SalesListView, InvoicesListView, NewSaleView, InvoicePageView } = await import('../../../src/views/crm/sales.view');

const choices: SaleChoices = {
  contacts: [{ id: 4, name: 'Lucía Gómez' }],
  catalogue: [
    { item: 'product:1', kind: 'product', sku: 'NUT-1', name: 'Multivitamin', price: '27.00' },
    { item: 'package:2', kind: 'package', sku: 'PKG-B', name: 'Business', price: '250.00' },
  ],
};
const summary = (over: Partial<InvoiceSummary> = {}): InvoiceSummary => ({
  id: 9, number: 'INV-000009', sale_id: 3, contact_id: 4, contact_name: 'Lucía Gómez', status: 'overdue', issued_on: '2026-10-01', due_on: '2026-10-31', total: '1331.00', created_at: '2026-10-01T10:00:00.000Z', ...over,
});
const line = { kind: 'product', item_id: 1, sku: 'NUT-1', name: 'Multivitamin', quantity: 3, unit_price: '27.00', amount: '81.00' };
const invoice = (over: Partial<Invoice> = {}): Invoice => ({
  ...summary({ status: 'draft', total: '81.00' }), sent_at: null, paid_at: null, seller: { name: 'Demo Member', email: 'demo@upline.example' },
  buyer: { name: 'Lucía Gómez', company: 'Globex', email: 'lucia@example.com', phone: '', city: 'Madrid' }, notes: '', lines: [line], ...over,
});
const page = <T,>(items: T[]) => ({ items, next_page_url: null });

beforeEach(() => {
  for (const f of [...Object.values(saleApi), ...Object.values(invoiceApi)]) f.mockReset();
  setViewportWidth(1280);
});

describe('the lists', () => {
  it('invoices: a server failure offers a retry; then dense rows with the amount right-aligned and the status', async () => {
    invoiceApi.list.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(page([summary()]));
    const actor = createActor(invoicesListMachine, { input: { filters: { status: 'overdue' } } }).start();
    renderUi(<InvoicesListView actor={actor} filters={{ status: 'overdue' }} onFilters={vi.fn()} onDownload={vi.fn()} currency={null} datePattern={null} />);
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    const [row] = await findTableRows();
    expect(columnHeaders()).toEqual(['Invoice', 'Contact', 'Issued', 'Due', 'Total', 'Status']);
    expect(within(row).getByRole('link', { name: 'Open invoice INV-000009 to Lucía Gómez' })).toHaveAttribute('href', '/crm/invoices/9');
    const amount = row.querySelector('[data-amount]') as HTMLElement;
    expect(amount).toHaveTextContent('1,331.00');
    expect(amount.style.textAlign).toBe('right');
    expect(within(row).getByText('Overdue')).toBeTruthy();
    expect(invoiceApi.list).toHaveBeenLastCalledWith({ status: 'overdue' }, undefined, expect.anything());
  });

  it('sales on a 360 px phone in Spanish: a connection failure, retry, then the empty state with its action', async () => {
    setViewportWidth(360);
    saleApi.list.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce(page([]));
    const actor = createActor(salesListMachine, { input: { filters: {} } }).start();
    renderUi(<SalesListView actor={actor} filters={{}} onFilters={vi.fn()} onDownload={vi.fn()} currency={null} datePattern={null} />, { lng: 'es', colorScheme: 'dark' });
    fireEvent.click(await screen.findByRole('button', { name: /inténtalo|reintentar/i }));
    expect(await screen.findByText('Aún no hay ventas')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Registrar una venta' })[0]).toHaveAttribute('href', '/crm/sales/new');
  });

  it('a sale on a phone is a card; a search writes the filters; a 401 ends in the forced logout state', async () => {
    setViewportWidth(360);
    saleApi.list.mockResolvedValueOnce(page([{ id: 3, contact_id: 4, contact_name: 'Lucía Gómez', total: '81.00', line_count: 1, invoice_id: 9, invoice_number: 'INV-000009', invoice_status: 'sent', created_at: '2026-10-01T10:00:00.000Z' }]));
    const onFilters = vi.fn();
    const actor = createActor(salesListMachine, { input: { filters: {} } }).start();
    renderUi(<SalesListView actor={actor} filters={{}} onFilters={onFilters} onDownload={vi.fn()} currency={null} datePattern={null} />);
    const card = await screen.findByRole('listitem');
    expect(card).toHaveTextContent('1 line');
    expect(card.querySelector('[data-amount]')).toHaveTextContent('81.00');
    // The search stays in view; the dates and the order wait behind the one Filters button.
    const filtersButton = screen.getByRole('button', { name: 'Filters' });
    expect(filtersButton).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByLabelText('Created from')).not.toBeVisible();
    fireEvent.click(filtersButton);
    await waitForUi(() => expect(screen.getByLabelText('Created from')).toBeVisible());
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search sales' }), { target: { value: 'INV-9' } });
    fireEvent.submit(screen.getByRole('search'));
    expect(onFilters).toHaveBeenCalledWith({ q: 'INV-9' });
    saleApi.list.mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    act(() => actor.send({ type: 'list.refresh' }));
    await waitFor(actor, (s) => s.matches('forceLogout'));
  });
});

describe('the new sale', () => {
  const start = () => {
    const notify = vi.fn();
    const apply = vi.fn();
    const actor = createActor(saleForm.provide({ actions: { notify: (_, p) => notify(p), apply: (_, p) => apply(p) } })).start();
    renderUi(<NewSaleView actor={actor} currency={null} />);
    return { actor, notify, apply };
  };

  it('loads its choices (a connection failure offers a retry); lines are added and removed; the total runs; the body is sent', async () => {
    saleApi.choices.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce(choices);
    const sale = { id: 3 } as Sale;
    saleApi.create.mockResolvedValueOnce(sale);
    const { actor, notify, apply } = start();
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    await screen.findByRole('heading', { name: 'Record a sale' });
    act(() => {
      actor.send({ type: 'form.change', field: 'contact_id', value: '4' });
      actor.send({ type: 'form.change', field: 'lines', value: [{ item: 'product:1', quantity: '3' }] });
    });
    expect(document.querySelector('[data-running-total]')).toHaveTextContent('Total: $81.00');
    fireEvent.click(screen.getByRole('button', { name: 'Add a line' }));
    expect(screen.getByRole('button', { name: 'Remove line 2' })).toBeEnabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity (line 2)' }), { target: { value: '2' } });
    act(() => actor.send({ type: 'form.change', field: 'lines', value: [...actor.getSnapshot().context.values.lines.slice(0, 1), { item: 'package:2', quantity: '2' }] }));
    expect(document.querySelector('[data-running-total]')).toHaveTextContent('Total: $581.00');
    fireEvent.click(screen.getByRole('button', { name: 'Remove line 1' }));
    expect(document.querySelector('[data-running-total]')).toHaveTextContent('Total: $500.00');
    expect(screen.getByRole('button', { name: 'Remove line 1' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Record the sale' }));
    await waitFor(actor, (s) => s.matches('success'));
    expect(saleApi.create).toHaveBeenCalledWith({ contact_id: '4', due_days: '30', notes: '', lines: [{ item: 'package:2', quantity: '2' }] });
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'crm:sales.recorded' });
    expect(apply).toHaveBeenCalledWith(expect.objectContaining({ result: sale }));
  });

  it('a quantity of 0 is refused under its line before sending; the server’s field map shows under its line; nothing typed is lost', async () => {
    saleApi.choices.mockResolvedValueOnce(choices);
    saleApi.create.mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { 'lines.0.item': ['validation:invalidChoice'] } }));
    const { actor } = start();
    await screen.findByRole('heading', { name: 'Record a sale' });
    act(() => {
      actor.send({ type: 'form.change', field: 'contact_id', value: '4' });
      actor.send({ type: 'form.change', field: 'lines', value: [{ item: 'product:1', quantity: '0' }] });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Record the sale' }));
    expect(await screen.findByText('This number is too small.')).toBeTruthy();
    expect(saleApi.create).not.toHaveBeenCalled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity (line 1)' }), { target: { value: '5' } });
    expect(screen.queryByText('This number is too small.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Record the sale' }));
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ 'lines.0.item': 'validation:invalidChoice' });
    expect(within(document.querySelector('[data-sale-line="0"]') as HTMLElement).getByText('Choose one of the options.')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Quantity (line 1)' })).toHaveValue('5');
  });

  it('a 401 while loading its choices ends in the forced logout', async () => {
    saleApi.choices.mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('forceLogout'));
  });
});

describe('an invoice', () => {
  it('a server failure offers a retry; mark sent calls the server and loads it again; the PDF is asked for', async () => {
    invoiceApi.get.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(invoice()).mockResolvedValueOnce(invoice({ status: 'sent', sent_at: '2026-10-02T10:00:00.000Z' }));
    invoiceApi.markSent.mockResolvedValueOnce(invoice({ status: 'sent' }));
    const onPdf = vi.fn();
    const actor = createActor(invoicePageMachine, { input: { params: 9 } }).start();
    renderUi(<InvoicePageView actor={actor} currency={null} datePattern={null} onPdf={onPdf} />);
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByRole('heading', { name: 'INV-000009' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Lines' })).toHaveTextContent('Multivitamin');
    expect(document.querySelector('[data-total]')).toHaveTextContent('$81.00');
    fireEvent.click(screen.getByRole('button', { name: 'Mark as sent' }));
    expect(await screen.findByText('Sent', { selector: '[data-invoice-status] *' })).toBeTruthy();
    expect(invoiceApi.markSent).toHaveBeenCalledWith(9);
    expect(screen.queryByRole('button', { name: 'Mark as sent' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(onPdf).toHaveBeenCalledWith(expect.objectContaining({ id: 9 }));
  });

  it('another member’s invoice (404) says not found; a refused action says why', async () => {
    invoiceApi.get.mockRejectedValueOnce(new ApiError('notFound', 404, {}));
    const actor = createActor(invoicePageMachine, { input: { params: 77 } }).start();
    renderUi(<InvoicePageView actor={actor} currency={null} datePattern={null} onPdf={vi.fn()} />);
    expect(await screen.findByText('Not found')).toBeTruthy();
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { orderDetailMachine } from '../../../src/machines/order-detail.machine';
import { binaryHistoryListMachine, ordersListMachine, pvHistoryListMachine } from '../../../src/machines/wallet-lists.machine';
import { OrderDetailView, OrdersListView } from '../../../src/views/orders/orders.view';
import { BinaryHistoryView, PvHistoryView } from '../../../src/views/history/history-lists.view';
import { VIRTUALISE_FROM } from '../../../src/views/components/paged-list/paged-list';
import type { OrderDetail, OrderSummary } from '../../../src/schemas/orders.schema';
import type { BinaryHistoryEntry, PvHistoryEntry } from '../../../src/schemas/history.schema';
import { columnHeaders, findTableRows, renderUi, tableRows } from '../../support/render-ui';

const ORDER: OrderDetail = {
  id: 7,
  invoice_no: 'INV-2025-000007',
  status: 'completed',
  order_type: 'repurchase',
  created_at: '2025-01-02T01:00:00.000Z',
  total: '274.5000',
  total_bv: '165.0000',
  billing: { first_name: 'Dana', last_name: 'Demo', company: null, address_1: '12 Calle Mayor', address_2: null, city: 'Madrid', postcode: '28013', country_name: 'Spain', zone_name: 'Madrid', phone: null, email: 'demo@upline.example' },
  shipping: null,
  payment_method: 'card',
  products: [
    { sku: 'BIZ', name: 'Business', price: '250.0000', bv: '150.0000', quantity: 1, expiry: '2026-01-02', image: null },
    { sku: 'SHK', name: 'Shake', price: '12.2500', bv: '7.5000', quantity: 2, expiry: null, image: null },
  ],
};

function detailWith(load: () => Promise<OrderDetail>) {
  const actor = createActor(orderDetailMachine.provide({ actors: { load: fromPromise<unknown>(load) } }), { input: { params: 7 } }).start();
  renderUi(<OrderDetailView actor={actor} />);
  return actor;
}

describe('order detail view', () => {
  it('shows the invoice, billing address, nothing to ship, the payment method and each product line', async () => {
    detailWith(async () => ORDER);
    expect(await screen.findByRole('heading', { name: 'Order INV-2025-000007' })).toBeTruthy();
    expect(screen.getByText(/12 Calle Mayor/)).toBeTruthy();
    expect(screen.getByText('Nothing to ship.')).toBeTruthy();
    expect(columnHeaders(screen.getByRole('table', { name: 'Products' }))).toEqual(['Product', 'Details', 'Amount']);
    const lines = tableRows();
    expect(lines).toHaveLength(2);
    expect(within(lines[1]).getByText('Shake')).toBeTruthy();
    // Quantity × price, and the line total.
    expect(within(lines[1]).getByText(/2 × \$12\.25/)).toBeTruthy();
    expect(within(lines[1]).getByText('$24.50')).toBeTruthy();
    expect(screen.getByText(/\$274\.50 · BV 165\.00/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to orders' })).toBeTruthy();
  });

  it('a 404 says the order was not found, with a way back, and no retry', async () => {
    const actor = detailWith(async () => Promise.reject(new ApiError('notFound', 404, { error_code: 'not_found', message: 'Not found', errors: {} })));
    expect(await screen.findByText('Order not found')).toBeTruthy();
    expect(actor.getSnapshot().context.error?.kind).toBe('notFound');
    expect(screen.getByRole('link', { name: 'Back to orders' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /retry/i })).toBeNull();
  });

  it('a connection error offers retry that loads the order', async () => {
    let n = 0;
    detailWith(async () => (++n === 1 ? Promise.reject(new ConnectionError()) : ORDER));
    await waitFor(() => expect(document.querySelector('[data-error-kind="connection"]')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(await screen.findByRole('heading', { name: 'Order INV-2025-000007' })).toBeTruthy();
  });
});

describe('orders list view', () => {
  it('links every order to its detail page', async () => {
    const summary: OrderSummary = { id: 7, invoice_no: 'INV-2025-000007', status: 'completed', order_type: 'repurchase', created_at: '2025-01-02T01:00:00.000Z', total: '274.5000', total_bv: '165.0000', package: null };
    const actor = createActor(ordersListMachine.provide({ actors: { fetchPage: fromPromise<unknown>(async () => ({ items: [summary], next: null })) } }), {
      input: { filters: { sort: 'desc', types: [] } },
    }).start();
    renderUi(<OrdersListView actor={actor} onFilters={() => {}} />);
    const link = await screen.findByRole('link', { name: 'Order INV-2025-000007' });
    expect(link.getAttribute('href')).toMatch(/\/orders\/7$/);
    expect(screen.getByText('That is all: 1 entry.')).toBeTruthy();
  });
});

const bin = (id: number, patch: Partial<BinaryHistoryEntry>): BinaryHistoryEntry => ({
  id, pv_added: '0.0000', pv_deducted_left: '0.0000', pv_deducted_right: '0.0000', total_left: '1000.0000', total_right: '800.0000',
  carry_left: '300.0000', carry_right: '100.0000', leg: null, bonus_generated: '0.0000', bonus_to_pay: '0.0000', capping_limit: null,
  created_at: '2026-10-31T10:00:00.000Z', from_username: null, ...patch,
});
const binaryMeta = { types: ['left_volume', 'right_volume', 'pairing'], labels: { left_volume: 'Left volume', right_volume: 'Right volume', pairing: 'Pairing' } };

function binaryWith(items: BinaryHistoryEntry[]) {
  const actor = createActor(binaryHistoryListMachine.provide({ actors: { fetchPage: fromPromise<unknown>(async () => ({ items, next: null, meta: binaryMeta })) } }), {
    input: { filters: { sort: 'desc', types: [] } },
  }).start();
  renderUi(<BinaryHistoryView actor={actor} onFilters={() => {}} />);
}

describe('binary history view: derived facts', () => {
  it('volume rows name their leg and show what was added', async () => {
    binaryWith([bin(1, { leg: 'L', pv_added: '115.0000', from_username: 'william597' }), bin(2, { leg: 'R', pv_added: '60.0000' })]);
    const rows = await findTableRows();
    expect(within(rows[0]).getByText('Volume added to the left leg')).toBeTruthy();
    expect(within(rows[0]).getByText('+115.00')).toBeTruthy();
    expect(within(rows[0]).getByText(/from william597/)).toBeTruthy();
    expect(within(rows[1]).getByText('Volume added to the right leg')).toBeTruthy();
    expect(within(rows[0]).queryByText('Pairing deduction')).toBeNull();
  });

  it('a pairing row is a deduction showing the larger deducted side, both sides and the bonus; a 2:1 pair is marked', async () => {
    binaryWith([
      bin(1, { pv_deducted_left: '200.0000', pv_deducted_right: '100.0000', bonus_generated: '20.0000', bonus_to_pay: '15.0000' }),
      bin(2, { pv_deducted_left: '100.0000', pv_deducted_right: '100.0000', bonus_generated: '10.0000', bonus_to_pay: '10.0000' }),
    ]);
    const [twoToOne, even] = await findTableRows();
    expect(within(twoToOne).getByText('Pairing deduction')).toBeTruthy();
    expect(within(twoToOne).getByText('−200.00')).toBeTruthy();
    expect(within(twoToOne).getByText('Deducted L 200.00 / R 100.00')).toBeTruthy();
    expect(within(twoToOne).getByText('2:1 pair')).toBeTruthy();
    expect(within(twoToOne).getByText('Bonus $20.00, paid $15.00')).toBeTruthy();
    expect(within(even).getByText('−100.00')).toBeTruthy();
    expect(within(even).queryByText('2:1 pair')).toBeNull();
    expect(within(even).getByText('Carry L 300.00 / R 100.00 · totals L 1,000.00 / R 800.00')).toBeTruthy();
  });
});

describe('PV history view', () => {
  it('shows each entry with its type, PV and TV and the running totals', async () => {
    const entry: PvHistoryEntry = { id: 1, pv: '50.0000', tv: '75.0000', total_pv: '500.0000', total_tv: '9000.0000', type: 'repurchase', created_at: '2026-10-31T10:00:00.000Z', from_username: 'ava354' };
    const actor = createActor(
      pvHistoryListMachine.provide({ actors: { fetchPage: fromPromise<unknown>(async () => ({ items: [entry], next: null, meta: { types: ['repurchase'], labels: { repurchase: 'Repurchase' } } })) } }),
      { input: { filters: { sort: 'desc', types: [] } } },
    ).start();
    renderUi(<PvHistoryView actor={actor} onFilters={() => {}} />);
    const [row] = await findTableRows();
    expect(columnHeaders()).toEqual(['Entry', 'Details', 'PV / TV']);
    expect(within(row).getByText('PV 50.00 · TV 75.00').closest('[role="cell"]')).toHaveStyle({ textAlign: 'right' });
    expect(within(row).getByText('Totals: PV 500.00 · TV 9,000.00')).toBeTruthy();
    expect(within(row).getByText(/from ava354/)).toBeTruthy();
  });
});

describe('long lists', () => {
  it(`from ${VIRTUALISE_FROM} loaded rows on, only the rows near the viewport are in the page`, async () => {
    // The page has no layout here: give each windowed row the height a browser would measure.
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.hasAttribute('data-index') ? 60 : 0;
    });
    const items = Array.from({ length: VIRTUALISE_FROM + 300 }, (_, i) => bin(i + 1, { leg: 'L', pv_added: `${i + 1}.0000` }));
    binaryWith(items);
    await screen.findByText(`That is all: ${items.length} entries.`);
    const shown = tableRows().length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(60);
    expect(screen.getByRole('table', { name: 'Rows' }).getAttribute('data-list-count')).toBe(String(items.length));
    // The first rows are the ones in view.
    expect(tableRows()[0].textContent).toContain('+1.00');
    vi.restoreAllMocks();
  });
});

import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { transactionsListMachine } from '../../src/machines/wallet-lists.machine';
import { TransactionsListView } from '../../src/views/wallet/wallet-lists.view';
import type { Transaction } from '../../src/schemas/wallet.schema';
import { columnHeaders, findTableRows, renderUi, setViewportWidth, tableRows } from '../support/render-ui';

const tx = (id: number): Transaction => ({
  id, transaction_group: 'commission', transaction_type: 'bonus', transaction_key: 'binary_bonus', amount: '10.0000', cash_flow: 'credit',
  created_at: '2026-01-02T10:00:00.000Z', level: null, from_user: 'alice', rank_name: null,
});
const meta = { types: ['binary_bonus'], labels: { binary_bonus: 'Binary bonus' } };

function listWith(pages: Array<() => Promise<unknown>>) {
  let i = 0;
  const machine = transactionsListMachine.provide({ actors: { fetchPage: fromPromise(() => pages[Math.min(i++, pages.length - 1)]()) } });
  const actor = createActor(machine, { input: { filters: { sort: 'desc', types: [] } } }).start();
  const onFilters = vi.fn();
  renderUi(<TransactionsListView actor={actor} onFilters={onFilters} onDownload={() => {}} />);
  return { actor, onFilters };
}

describe('transactions list view: the list statuses', () => {
  it('shows a skeleton, then rows with a Load more button, then the end of the list', async () => {
    let release!: () => void;
    const first = () => new Promise((r) => (release = () => r({ items: [tx(1), tx(2)], next: { cursor: 'c' }, meta })));
    listWith([first, async () => ({ items: [tx(3)], next: null, meta })]);
    expect(screen.getByLabelText('Loading the list')).toBeTruthy();
    await act(async () => release());
    await screen.findByRole('button', { name: 'Load more' });
    expect(tableRows()).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('That is all: 3 entries.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows the empty state', async () => {
    listWith([async () => ({ items: [], next: null, meta })]);
    expect(await screen.findByText('Nothing here yet')).toBeTruthy();
  });

  it('a connection error with no data offers retry that loads again', async () => {
    const { actor } = listWith([async () => Promise.reject(new ConnectionError()), async () => ({ items: [tx(1)], next: null, meta })]);
    await waitFor(() => expect(actor.getSnapshot().value).toBe('networkErrorNoData'));
    expect(document.querySelector('[data-error-kind="connection"]')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(await screen.findByText('Binary bonus', { selector: 'p' })).toBeTruthy();
  });

  it('a server error while loading more keeps the rows and retry continues', async () => {
    const { actor } = listWith([
      async () => ({ items: [tx(1)], next: { cursor: 'c' }, meta }),
      async () => Promise.reject(new ApiError('server', 500, {})),
      async () => ({ items: [tx(2)], next: null, meta }),
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('The server could not answer')).toBeTruthy();
    expect(actor.getSnapshot().value).toBe('serverErrorMoreData');
    expect(tableRows()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('That is all: 2 entries.')).toBeTruthy();
  });

  it('changing the sort hands new filters to the page (the URL)', async () => {
    const { onFilters } = listWith([async () => ({ items: [tx(1)], next: null, meta })]);
    await screen.findByText('That is all: 1 entry.');
    fireEvent.click(screen.getAllByLabelText('Sort')[0]);
    fireEvent.click(await screen.findByRole('option', { name: 'Oldest first' }));
    expect(onFilters).toHaveBeenCalledWith(expect.objectContaining({ sort: 'asc' }));
  });
});

describe('transactions list view on a phone', () => {
  afterEach(() => setViewportWidth(1024));

  it('the filters wait behind one Filters button that counts what is set; it opens them', async () => {
    setViewportWidth(360);
    let i = 0;
    const machine = transactionsListMachine.provide({ actors: { fetchPage: fromPromise(async (): Promise<unknown> => (i++, { items: [tx(1)], next: null, meta })) } });
    const actor = createActor(machine, { input: { filters: { sort: 'asc', types: ['binary_bonus'], range: 'this_month' } } }).start();
    renderUi(<TransactionsListView actor={actor} onFilters={() => {}} onDownload={() => {}} />);
    const button = await screen.findByRole('button', { name: 'Filters, 3 set' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getAllByLabelText('Sort')[0]).not.toBeVisible();
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(screen.getAllByLabelText('Sort')[0]).toBeVisible());
  });

  it('wider screens show the filters at once', async () => {
    setViewportWidth(1024);
    const machine = transactionsListMachine.provide({ actors: { fetchPage: fromPromise(async (): Promise<unknown> => ({ items: [tx(1)], next: null, meta })) } });
    const actor = createActor(machine, { input: { filters: { sort: 'desc', types: [] } } }).start();
    renderUi(<TransactionsListView actor={actor} onFilters={() => {}} onDownload={() => {}} />);
    expect((await screen.findAllByLabelText('Sort'))[0]).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Filters/ })).toBeNull();
  });

  it('a desktop shows a table: column headers over dense rows, the amount right-aligned in its column; a phone shows cards', async () => {
    setViewportWidth(1280);
    const machine = transactionsListMachine.provide({ actors: { fetchPage: fromPromise(async (): Promise<unknown> => ({ items: [tx(1)], next: null, meta })) } });
    const first = renderUi(<TransactionsListView actor={createActor(machine, { input: { filters: { sort: 'desc', types: [] } } }).start()} onFilters={() => {}} onDownload={() => {}} />);
    const [row] = await findTableRows();
    const table = screen.getByRole('table', { name: 'Rows' });
    expect(columnHeaders(table)).toEqual(['Transaction', 'Details', 'Amount']);
    const [, , amountHeader] = within(table).getAllByRole('columnheader');
    expect(amountHeader.style.textAlign).toBe('right');
    expect(row).toHaveAttribute('data-dense-row');
    expect(row.style.display).toBe('grid');
    // The header row lays its titles out in the rows' grid, so each stands over its cells.
    expect(amountHeader.parentElement!.style.gridTemplateColumns).toBe(row.style.gridTemplateColumns);
    const cells = within(row).getAllByRole('cell');
    expect(cells).toHaveLength(3);
    expect(cells[2]).toHaveTextContent('+$10.00');
    expect(cells[2].style.textAlign).toBe('right');
    expect(screen.getByText('+$10.00').style.textAlign).toBe('right');
    expect(screen.queryByRole('list', { name: 'Rows' })).toBeNull();
    first.unmount();
    setViewportWidth(360);
    try {
      renderUi(<TransactionsListView actor={createActor(machine, { input: { filters: { sort: 'desc', types: [] } } }).start()} onFilters={() => {}} onDownload={() => {}} />);
      const card = await screen.findByRole('listitem');
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.queryByRole('columnheader')).toBeNull();
      expect(card).not.toHaveAttribute('data-dense-row');
      expect(card).toHaveTextContent('Binary bonus');
      expect(card).toHaveTextContent('+$10.00');
    } finally {
      setViewportWidth(1280);
    }
  });
});

/**
 * The leads screens with their real machines and a faked API: the list (rows, empty and filtered-empty
 * states, filters written to the URL, connection and server failures with retry, a 401 signs out), the
 * board (columns with counts and values, a move shown at once, put back when the save fails), the lead's
 * page (details, timeline, a note) and the form (field errors from the schema and from the server).
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { Board, Lead } from '../../../src/schemas/crm.schema';
import { columnHeaders, findTableRows, renderUi, setViewportWidth } from '../../support/render-ui';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  download: vi.fn(),
  get: vi.fn(),
  create: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
  restore: vi.fn(),
  board: vi.fn(),
  move: vi.fn(),
  timeline: vi.fn(),
  addNote: vi.fn(),
}));
vi.mock('../../../src/api/crm', () => ({ leadApi: api }));

const { leads, leadBoardMachine, leadPageMachine } = await import('../../../src/machines/crm/leads.machine');
const { LeadsListView, LeadPageView, Timeline } = await import('../../../src/views/crm/leads.view');
const { RecordFormView } = await import('../../../src/views/crm/record-form.view');
const { LeadBoardView } = await import('../../../src/views/crm/lead-board.view');

const LEAD: Lead = {
  id: 7,
  name: 'Marta Ruiz',
  company: 'Globex',
  email: 'marta@example.com',
  phone: '34911222333',
  source: 'event',
  status: 'qualified',
  interest: 'customer',
  estimated_value: '1250.50',
  next_follow_up: '2026-12-01',
  lost_reason: '',
  contact_id: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
};
const page = (items: Lead[]) => ({ items, next_page_url: null });
const retry = () => screen.findByRole('button', { name: /try again|retry/i });

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
});

function showList(filters = {}) {
  const onFilters = vi.fn();
  const actor = createActor(leads.list, { input: { filters } }).start();
  renderUi(<LeadsListView actor={actor} filters={filters} onFilters={onFilters} onDownload={() => {}} currency={null} datePattern={null} />);
  return { actor, onFilters };
}

describe('leads list', () => {
  afterEach(() => setViewportWidth(1024));

  it('on a desktop: a table of the leads under their column headers, the value right-aligned, the name opening the lead', async () => {
    setViewportWidth(1280);
    api.list.mockResolvedValueOnce(page([LEAD, { ...LEAD, id: 8, name: 'Ana Gil', company: '', next_follow_up: null }]));
    showList();
    const [row, second] = await findTableRows();
    expect(columnHeaders(screen.getByRole('table', { name: 'Rows' }))).toEqual(['Name', 'Company', 'Source', 'Status', 'Next follow-up', 'Estimated value']);
    const cells = within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['Marta Ruiz', 'Globex', 'Event', 'Qualified', 'Dec 1, 2026', '$1,250.50']);
    expect(within(row).getAllByRole('cell')[5]).toHaveStyle({ textAlign: 'right' });
    expect(within(screen.getByRole('table')).getAllByRole('columnheader')[5]).toHaveStyle({ textAlign: 'right' });
    expect(within(second).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Ana Gil', '—', 'Event', 'Qualified', 'No follow-up', '$1,250.50']);
    // The row's way in is a real link: reached by Tab, opened by Enter.
    expect(within(row).getByRole('link', { name: 'Open Marta Ruiz' })).toHaveAttribute('href', '/crm/leads/7');
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });

  it('on a phone: each lead is a card with its status, value and follow-up, linking to its page', async () => {
    setViewportWidth(360);
    api.list.mockResolvedValueOnce(page([LEAD]));
    showList();
    const link = await screen.findByRole('link', { name: 'Open Marta Ruiz' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(link.closest('[role="listitem"]')).not.toBeNull();
    expect(link).toHaveAttribute('href', '/crm/leads/7');
    const row = link.closest('[data-lead-id]') as HTMLElement;
    expect(row).toHaveTextContent('Qualified');
    expect(row).toHaveTextContent('$1,250.50');
    expect(row).toHaveTextContent('Globex · Event');
    expect(row).toHaveTextContent(/Next follow-up: Dec 1, 2026/);
    expect(api.list).toHaveBeenCalledWith({}, undefined, expect.anything());
  });

  it('says when there are no leads, and when none match the filters', async () => {
    api.list.mockResolvedValueOnce(page([]));
    const { onFilters } = showList({ status: 'won', q: 'zz' });
    expect(await screen.findByText('No leads match')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onFilters).toHaveBeenCalledWith({});
    expect(api.list).toHaveBeenCalledWith({ status: 'won', q: 'zz' }, undefined, expect.anything());
  });

  it('writes a search to the URL', async () => {
    api.list.mockResolvedValueOnce(page([]));
    const { onFilters } = showList({ status: 'new' });
    await screen.findByText('No leads match');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search leads' }), { target: { value: '  marta ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(onFilters).toHaveBeenCalledWith({ status: 'new', q: 'marta' });
  });

  it('a connection failure and a server failure each show a retry that loads again', async () => {
    api.list.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(page([LEAD]));
    showList();
    fireEvent.click(await retry());
    await vi.waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
    fireEvent.click(await retry());
    expect(await screen.findByRole('link', { name: 'Open Marta Ruiz' })).toBeTruthy();
  });

  it('a 401 ends the list in the forced logout', async () => {
    api.list.mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const { actor } = showList();
    await waitFor(actor, (s) => s.matches('forceLogout'));
  });
});

const card = (id: number, status: string, value: string) => ({ id, name: `Lead ${id}`, company: '', status, estimated_value: value, next_follow_up: null });
const BOARD: Board = {
  columns: ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'].map((status) => ({
    status,
    total: status === 'new' ? 2 : 0,
    value: status === 'new' ? '30.00' : '0.00',
    cards: status === 'new' ? [card(1, 'new', '10.00'), card(2, 'new', '20.00')] : [],
  })),
};

describe('leads board', () => {
  function showBoard() {
    const notify = vi.fn();
    const actor = createActor(leadBoardMachine.provide({ actions: { notify: (_, p) => notify(p) } })).start();
    renderUi(<LeadBoardView actor={actor} currency={null} datePattern={null} />);
    return { actor, notify };
  }
  const column = (status: string) => document.querySelector(`[data-column="${status}"]`) as HTMLElement;

  it('shows a column per status with its count and value; a move shows at once and is saved', async () => {
    api.board.mockResolvedValueOnce(BOARD);
    api.move.mockResolvedValueOnce({ ...LEAD, id: 2, status: 'contacted' });
    const { actor, notify } = showBoard();
    expect(await screen.findByRole('region', { name: 'New: 2 leads, $30.00' })).toBeTruthy();
    expect(within(column('new')).getByRole('link', { name: 'Lead 2' })).toHaveAttribute('href', '/crm/leads/2');
    expect(within(column('new')).getByRole('button', { name: 'Move Lead 2 (New)' })).toBeTruthy();
    act(() => actor.send({ type: 'board.move', move: { id: 2, to: 'contacted', index: 0 } }));
    expect(within(column('contacted')).getByRole('link', { name: 'Lead 2' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Contacted: 1 leads, $20.00' })).toBeTruthy();
    expect(api.move).toHaveBeenCalledWith(2, { status: 'contacted' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'crm:board.moved' });
  });

  it('a move the server refuses goes back to where it was, with an error toast', async () => {
    api.board.mockResolvedValueOnce(BOARD);
    api.move.mockRejectedValueOnce(new ConnectionError());
    const { actor, notify } = showBoard();
    await screen.findByRole('region', { name: 'New: 2 leads, $30.00' });
    act(() => actor.send({ type: 'board.move', move: { id: 1, to: 'won', index: 0 } }));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(within(column('new')).getByRole('link', { name: 'Lead 1' })).toBeTruthy();
    expect(within(column('won')).queryByRole('link', { name: 'Lead 1' })).toBeNull();
    expect(notify).toHaveBeenCalledWith({ kind: 'error', key: 'crm:board.moveFailed' });
  });

  it('a failed load shows a retry', async () => {
    api.board.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(BOARD);
    showBoard();
    fireEvent.click(await retry());
    expect(await screen.findByRole('region', { name: 'New: 2 leads, $30.00' })).toBeTruthy();
  });
});

describe("a lead's page", () => {
  function showLead() {
    const actor = createActor(leadPageMachine, { input: { params: 7 } }).start();
    renderUi(<LeadPageView actor={actor} currency={null} datePattern={null} />);
    return actor;
  }

  it('shows the details and the timeline; a note is added and the timeline loads again', async () => {
    api.get.mockResolvedValue(LEAD);
    api.timeline.mockResolvedValueOnce({ items: [] }).mockResolvedValueOnce({ items: [{ kind: 'note', id: 1, at: '2026-11-02T10:00:00.000Z', text: 'Sent the prices.' }] });
    api.addNote.mockResolvedValueOnce({ kind: 'note', id: 1, at: '2026-11-02T10:00:00.000Z', text: 'Sent the prices.' });
    showLead();
    expect(await screen.findByRole('heading', { name: 'Marta Ruiz' })).toBeTruthy();
    expect(screen.getByText('$1,250.50')).toBeTruthy();
    expect(screen.getByText('Nothing here yet. Add a note after each conversation.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/crm/leads/edit/7');
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'New note' }), { target: { value: 'Sent the prices.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Sent the prices.')).toBeTruthy();
    expect(api.addNote).toHaveBeenCalledWith(7, 'Sent the prices.');
  });

  it('a lead of someone else is not found', async () => {
    api.get.mockRejectedValueOnce(new ApiError('notFound', 404, { error_code: 'not_found' }));
    api.timeline.mockResolvedValue({ items: [] });
    showLead();
    expect(await screen.findByText('Lead not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to leads' })).toHaveAttribute('href', '/crm/leads');
  });

  it('a connection failure offers a retry that loads the lead', async () => {
    api.get.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce(LEAD);
    api.timeline.mockResolvedValue({ items: [] });
    showLead();
    fireEvent.click(await retry());
    expect(await screen.findByRole('heading', { name: 'Marta Ruiz' })).toBeTruthy();
  });
});

describe('lead form', () => {
  const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) }) as HTMLInputElement;

  it('shows the schema’s errors and the server’s field map under their fields, keeping what was typed', async () => {
    api.create.mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { email: ['validation:invalidEmail'] } }));
    const actor = createActor(leads.formPage, { input: {} }).start();
    renderUi(<RecordFormView actor={actor} area="leads" backTo="/crm/leads" fields={[{ name: 'name', kind: 'text', required: true }, { name: 'email', kind: 'email' }, { name: 'estimated_value', kind: 'text' }]} />);
    await screen.findByRole('heading', { name: 'New lead' });
    fireEvent.click(screen.getByRole('button', { name: 'Save lead' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    fireEvent.change(field('Name'), { target: { value: 'Marta Ruiz' } });
    fireEvent.change(field('Estimated value'), { target: { value: '12.345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save lead' }));
    expect(await screen.findByText(/valid amount/i)).toBeTruthy();
    fireEvent.change(field('Estimated value'), { target: { value: '12.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save lead' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(api.create).toHaveBeenCalledWith(expect.objectContaining({ name: 'Marta Ruiz', estimated_value: '12.50', status: 'new', source: 'website' }));
    expect(field('Name').value).toBe('Marta Ruiz');
  });
});

describe('a timeline with a contact’s sales', () => {
  const items = [
    { kind: 'sale', id: 12, at: '2026-11-20T10:00:00.000Z', text: 'INV-000012', amount: '1234.50' },
    { kind: 'note', id: 3, at: '2026-11-02T10:00:00.000Z', text: 'Sent the prices.' },
  ];

  it('links each sale to its page, with its invoice number and total; notes stay text', () => {
    renderUi(<Timeline items={items} datePattern={null} />);
    const list = screen.getByRole('list', { name: 'Timeline' });
    const sale = within(list).getByRole('link', { name: 'Sale INV-000012 · $1,234.50' });
    expect(sale).toHaveAttribute('href', '/crm/sales/12');
    expect(within(list).getAllByRole('link')).toHaveLength(1);
    expect(within(list).getByText('Sent the prices.')).toBeTruthy();
    expect(within(list).getByText('Sale')).toBeTruthy();
  });

  it('speaks Spanish', () => {
    renderUi(<Timeline items={items} datePattern={null} />, { lng: 'es' });
    expect(screen.getByRole('link', { name: /^Venta INV-000012 · / })).toHaveAttribute('href', '/crm/sales/12');
  });
});

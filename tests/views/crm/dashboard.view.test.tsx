/**
 * The CRM's dashboard, analytics and phone hub with their real load machines and a faked API: what to do
 * next, each item linking to its record; a member with no CRM records is invited to add the first lead;
 * connection and server failures offer a retry that loads again; a 401 ends in the forced logout; the
 * analytics chart switches to its table with the month's figures, and a period change goes to the URL;
 * the hub lists every area with counts, in Spanish and the dark scheme too.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { CrmAnalytics, CrmDashboard } from '../../../src/schemas/crm-dashboard.schema';
import { renderUi } from '../../support/render-ui';

const api = vi.hoisted(() => ({ dashboard: vi.fn(), analytics: vi.fn(), counts: vi.fn() }));
vi.mock('../../../src/api/crm-dashboard', () => ({ crmDashboardApi: api }));

const { crmAnalyticsMachine, crmCountsMachine, crmDashboardMachine } = await import('../../../src/machines/crm/dashboard.machine');
const { CrmAnalyticsView, CrmDashboardView, CrmIndexView } = await import('../../../src/views/crm/dashboard.view');

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
});

const STATUSES = ['new', 'contacted', 'qualified', 'proposal', 'won', 'lost'];
const EMPTY: CrmDashboard = {
  today: '2026-11-27',
  follow_ups: { overdue: [], overdue_total: 0, today: [], today_total: 0 },
  meetings: { today: [], upcoming: [], upcoming_total: 0 },
  by_status: STATUSES.map((status) => ({ status, count: 0, value: '0.00' })),
  pipeline: { value: '0.00', count: 0 },
  won_this_month: { count: 0, value: '0.00' },
  sales_this_month: { count: 0, total: '0.00' },
  has_records: false,
};
const FULL: CrmDashboard = {
  ...EMPTY,
  has_records: true,
  follow_ups: {
    overdue: [{ id: 11, name: 'Late Person', company: 'Globex', status: 'qualified', estimated_value: '200.25', next_follow_up: '2026-11-25' }],
    overdue_total: 1,
    today: [{ id: 12, name: 'Today Person', company: '', status: 'contacted', estimated_value: '100.50', next_follow_up: '2026-11-27' }],
    today_total: 1,
  },
  meetings: {
    today: [
      {
        id: 31,
        title: 'Morning review',
        starts_at: '2026-11-27T11:00:00.000Z',
        date: '2026-11-27',
        time: '12:00',
        time_zone: 'Europe/Madrid',
        duration_minutes: 30,
        place: 'Café Central',
        link: '',
        invitees: [
          { kind: 'contact', id: 5, name: 'Carla Contact' },
          { kind: 'lead', id: 12, name: 'Today Person' },
        ],
      },
    ],
    upcoming: [],
    upcoming_total: 0,
  },
  by_status: STATUSES.map((status, i) => ({ status, count: i + 1, value: `${(i + 1) * 10}.00` })),
  pipeline: { value: '300.75', count: 10 },
  won_this_month: { count: 2, value: '300.20' },
  sales_this_month: { count: 3, total: '1234.56' },
};

function showDashboard(lng = 'en') {
  const actor = createActor(crmDashboardMachine, { input: {} }).start();
  renderUi(<CrmDashboardView actor={actor} />, { lng });
  return actor;
}

describe('CRM dashboard', () => {
  it('shows what to do next, each item linking to its record', async () => {
    api.dashboard.mockResolvedValue(FULL);
    showDashboard();
    const followUps = await screen.findByRole('region', { name: 'Follow-ups' });
    expect(within(followUps).getByRole('link', { name: 'Late Person' })).toHaveAttribute('href', '/crm/leads/11');
    expect(within(followUps).getByRole('link', { name: 'Today Person' })).toHaveAttribute('href', '/crm/leads/12');
    expect(within(followUps).getByText('Overdue (1)')).toBeTruthy();
    const meetings = screen.getByRole('region', { name: 'Meetings' });
    expect(within(meetings).getByRole('link', { name: 'Morning review' })).toHaveAttribute('href', '/crm/meetings/edit/31');
    expect(within(meetings).getByRole('link', { name: 'Carla Contact' })).toHaveAttribute('href', '/crm/contacts/5');
    expect(within(meetings).getByRole('link', { name: 'Today Person' })).toHaveAttribute('href', '/crm/leads/12');
    expect(document.querySelector('[data-figure="pipeline"]')).toHaveTextContent('300.75');
    expect(document.querySelector('[data-figure="pipeline"]')).toHaveTextContent('10 open leads');
    expect(document.querySelector('[data-figure="won"]')).toHaveTextContent('2');
    const sales = document.querySelector('[data-figure="sales"]')!;
    expect(sales).toHaveTextContent('Sales this month');
    expect(sales).toHaveTextContent('$1,234.56');
    expect(sales).toHaveTextContent('3 sales');
    expect(within(sales as HTMLElement).getByRole('link')).toHaveAttribute('href', '/crm/sales');
    expect(document.querySelector('[data-status-count="won"]')).toHaveAttribute('href', '/crm/leads?status=won');
    expect(document.querySelector('[data-status-count="won"]')).toHaveTextContent('5');
  });

  it('invites a member without CRM records to add the first lead', async () => {
    api.dashboard.mockResolvedValue(EMPTY);
    showDashboard();
    expect(await screen.findByText('Your CRM is empty')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add your first lead' })).toHaveAttribute('href', '/crm/leads/new');
    expect(screen.queryByRole('region', { name: 'Follow-ups' })).toBeNull();
  });

  it('shows a loader, then a connection error and a server error, each retried', async () => {
    let answer!: (d: CrmDashboard) => void;
    api.dashboard
      .mockRejectedValueOnce(new ConnectionError())
      .mockRejectedValueOnce(new ApiError('server', 500, {}))
      .mockReturnValueOnce(new Promise((r) => (answer = r)));
    const actor = showDashboard();
    expect(await screen.findByText('No connection')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('status', { name: 'Loading…' })).toBeTruthy();
    act(() => answer(FULL));
    expect(await screen.findByRole('region', { name: 'Follow-ups' })).toBeTruthy();
    expect(api.dashboard).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().value).toBe('loaded');
  });

  it('a 401 ends in the forced logout, showing nothing of the CRM', async () => {
    api.dashboard.mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const actor = showDashboard();
    await waitFor(actor, (s) => s.value === 'forceLogout');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByText('Your CRM is empty')).toBeNull();
  });

  it('speaks Spanish', async () => {
    api.dashboard.mockResolvedValue(EMPTY);
    showDashboard('es');
    expect(await screen.findByText('Tu CRM está vacío')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Añade tu primer prospecto' })).toBeTruthy();
  });
});

const months = ['2026-09', '2026-10', '2026-11'];
const ANALYTICS: CrmAnalytics = {
  period: '3m',
  months,
  leads_by_source: months.map((month, i) => ({ month, values: { website: i, referral: 0, social: 0, event: i === 2 ? 7 : 0, advert: 0, other: 0 } })),
  leads_by_status: months.map((month, i) => ({ month, values: { new: i + 7, contacted: 0, qualified: 0, proposal: 0, won: 1, lost: 0 } })),
  conversion: { won: 2, closed: 3, win_rate: '66.7', leads: 12, to_contact: 3, contact_rate: '25.0' },
  sales_per_month: [
    { month: '2026-09', total: '0.00', count: 0 },
    { month: '2026-10', total: '99.90', count: 1 },
    { month: '2026-11', total: '1500.05', count: 4 },
  ],
};

describe('CRM analytics', () => {
  it('shows the rates and a chart with its table alternative; a period goes to the URL', async () => {
    api.analytics.mockResolvedValue(ANALYTICS);
    const onFilters = vi.fn();
    const actor = createActor(crmAnalyticsMachine, { input: { params: { period: '3m' } } }).start();
    renderUi(<CrmAnalyticsView actor={actor} filters={{ period: '3m' }} onFilters={onFilters} />);
    expect(await screen.findByText('66.7 %')).toBeTruthy();
    expect(screen.getByText('2 won of 3 closed')).toBeTruthy();
    expect(screen.getByText('25.0 %')).toBeTruthy();
    expect(api.analytics).toHaveBeenCalledWith({ period: '3m' });
    const bySource = screen.getByRole('region', { name: 'Leads by source' });
    expect(within(bySource).getByRole('img', { name: 'Leads by source: 10 leads over 3 months' })).toBeTruthy();
    fireEvent.click(within(bySource).getByText('Table'));
    const table = within(bySource).getByRole('table');
    const november = within(table).getByRole('row', { name: /November 2026/ });
    expect(within(november).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2', '0', '0', '7', '0', '0']);
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Month', 'Website', 'Referral', 'Social media', 'Event', 'Advert', 'Other']);
    // Sales per month: the totals in the member's currency, with the table alternative.
    const sales = screen.getByRole('region', { name: 'Sales per month' });
    expect(within(sales).getByRole('img', { name: 'Sales per month: 5 sales over 3 months' })).toBeTruthy();
    fireEvent.click(within(sales).getByText('Table'));
    const salesTable = within(sales).getByRole('table');
    expect(within(salesTable).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Month', 'Sales total']);
    expect(within(within(salesTable).getByRole('row', { name: /November 2026/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['$1,500.05']);
    expect(within(within(salesTable).getByRole('row', { name: /October 2026/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['$99.90']);
    fireEvent.click(screen.getByText('12 months'));
    expect(onFilters).toHaveBeenLastCalledWith({});
    fireEvent.click(screen.getByText('24 months'));
    expect(onFilters).toHaveBeenLastCalledWith({ period: '24m' });
  });

  it('says when the period has no leads, and retries a failed load', async () => {
    api.analytics.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce({ ...ANALYTICS, conversion: { won: 0, closed: 0, win_rate: null, leads: 0, to_contact: 0, contact_rate: null } });
    const actor = createActor(crmAnalyticsMachine, { input: { params: {} } }).start();
    renderUi(<CrmAnalyticsView actor={actor} filters={{}} onFilters={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No leads in this period')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Leads by source' })).toBeNull();
    // The period's sales still show.
    expect(screen.getByRole('region', { name: 'Sales per month' })).toBeTruthy();
  });

  it('shows no chart at all for a period without leads or sales, in Spanish', async () => {
    api.analytics.mockResolvedValueOnce({
      ...ANALYTICS,
      conversion: { won: 0, closed: 0, win_rate: null, leads: 0, to_contact: 0, contact_rate: null },
      sales_per_month: months.map((month) => ({ month, total: '0.00', count: 0 })),
    });
    const actor = createActor(crmAnalyticsMachine, { input: { params: {} } }).start();
    renderUi(<CrmAnalyticsView actor={actor} filters={{}} onFilters={vi.fn()} />, { lng: 'es' });
    expect(await screen.findByText('No hay prospectos en este periodo')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Ventas por mes' })).toBeNull();
    expect(document.querySelector('[data-chart-box]')).toBeNull();
  });

  it('names the sales chart in Spanish', async () => {
    api.analytics.mockResolvedValueOnce(ANALYTICS);
    const actor = createActor(crmAnalyticsMachine, { input: { params: {} } }).start();
    renderUi(<CrmAnalyticsView actor={actor} filters={{}} onFilters={vi.fn()} />, { lng: 'es' });
    const sales = await screen.findByRole('region', { name: 'Ventas por mes' });
    expect(within(sales).getByRole('img', { name: 'Ventas por mes: 5 ventas en 3 meses' })).toBeTruthy();
  });
});

describe('CRM hub', () => {
  it('lists every area with counts where there are some, in Spanish and the dark scheme', async () => {
    api.counts.mockResolvedValue({ leads: 9, open_leads: 7, contacts: 4, upcoming_meetings: 2, calls: 0, sales: 5, invoices: 1 });
    const actor = createActor(crmCountsMachine, { input: {} }).start();
    renderUi(<CrmIndexView actor={actor} />, { lng: 'es', colorScheme: 'dark' });
    const nav = await screen.findByRole('navigation', { name: 'CRM' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/crm/dashboard',
      '/crm/dashboard/analytics',
      '/crm/leads',
      '/crm/contacts',
      '/crm/sales',
      '/crm/invoices',
      '/crm/meetings',
      '/crm/calls',
    ]);
    expect(await within(nav).findByLabelText('7 prospectos abiertos')).toBeTruthy();
    expect(within(nav).getByLabelText('2 reuniones próximas')).toBeTruthy();
    expect(within(nav).getByLabelText('0 llamadas')).toBeTruthy();
    expect(within(nav).getByLabelText('5 ventas')).toBeTruthy();
    expect(within(nav).getByLabelText('1 factura')).toBeTruthy();
  });

  it('keeps the areas usable when the counts fail, with a retry', async () => {
    api.counts.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce({ leads: 1, open_leads: 1, contacts: 0, upcoming_meetings: 0, calls: 0, sales: 0, invoices: 0 });
    const actor = createActor(crmCountsMachine, { input: {} }).start();
    renderUi(<CrmIndexView actor={actor} />);
    expect(await screen.findByText('The counts could not be loaded.')).toBeTruthy();
    expect(screen.getAllByRole('link')).toHaveLength(8);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('1 open lead')).toBeTruthy();
  });
});

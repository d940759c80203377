import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { createPagedListMachine } from '../../../src/machines/paged-list.machine';
import { ConnectionError, ApiError } from '../../../src/api/errors';
import type { ReportMember } from '../../../src/schemas/network.schema';
import { DownlineReportView, reportFiltersFrom, reportFiltersQuery, type ReportFilters } from '../../../src/views/network/downline-report.view';
import { renderUi, setViewportWidth } from '../../support/render-ui';

const member = (i: number): ReportMember => ({
  id: i,
  parent_id: 1,
  sponsor_username: 'demo',
  placement_username: 'up' + i,
  status: 1,
  email: null,
  username: `user${i}`,
  avatar: null,
  pv: '40',
  tv: '0',
  cv: '0',
  created_at: '2026-02-01T10:00:00.000Z',
  rank_id: null,
  rank_name: 'Bronze',
  rank_icon: null,
  first_name: 'User',
  last_name: String(i),
  level: 2,
  total_earnings: '99.9',
  total_left: '0',
  total_right: '0',
  carry_left: '0',
  carry_right: '0',
});

function setup(pages: Array<() => Promise<{ items: ReportMember[]; next: { page: number } | null }>>, filters: ReportFilters = { sort: 'desc' }, lng = 'en') {
  const calls: unknown[] = [];
  let i = 0;
  const machine = createPagedListMachine<ReportMember, ReportFilters>('downlineReport', (args) => {
    calls.push({ filters: args.filters, next: args.next });
    return pages[Math.min(i++, pages.length - 1)]();
  });
  const actor = createActor(machine, { input: { filters } }).start();
  const onFilters = vi.fn();
  renderUi(<DownlineReportView actor={actor} onFilters={onFilters} />, { lng });
  return { actor, calls, onFilters };
}

describe('DownlineReportView', () => {
  it('loads, shows members, loads more with the next page and says when everyone is shown', async () => {
    const { calls } = setup([
      () => Promise.resolve({ items: [member(1), member(2)], next: { page: 2 } }),
      () => Promise.resolve({ items: [member(3)], next: null }),
    ]);
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(await screen.findByText('user1')).toBeInTheDocument();
    expect(screen.getAllByText('$99.90')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('user3')).toBeInTheDocument();
    expect(screen.getByText('That is everyone.')).toBeInTheDocument();
    expect(calls[1]).toEqual({ filters: { sort: 'desc' }, next: { page: 2 } });
  });

  it('writes the joining date in the member\'s language, as the wallet does (Spanish: "feb 1, 2026")', async () => {
    setup([() => Promise.resolve({ items: [member(1)], next: null })], { sort: 'desc' }, 'es');
    expect(await screen.findByText('user1')).toBeInTheDocument();
    expect(screen.getByText(/^feb 1, 2026/)).toBeInTheDocument();
  });

  it('on a phone the boxes wait behind one Filters button that counts the filters set', async () => {
    setViewportWidth(360);
    try {
      setup([() => Promise.resolve({ items: [member(1)], next: null })], { sort: 'asc', username: 'user1', level: 2 });
      expect(await screen.findByText('user1')).toBeInTheDocument();
      // One card per member instead of a table wider than the phone, with the earnings and every detail.
      expect(screen.queryByRole('table')).toBeNull();
      const card = screen.getByRole('listitem');
      expect(card).toHaveAttribute('data-member', 'user1');
      expect(within(card).getByText('$99.90')).toBeInTheDocument();
      expect(within(card).getByText(/Level 2 · Sponsor: .* · PV /)).toBeInTheDocument();
      const button = screen.getByRole('button', { name: 'Filters, 3 set' });
      expect(button).toHaveAttribute('aria-expanded', 'false');
      await userEvent.click(button);
      expect(button).toHaveAttribute('aria-expanded', 'true');
      await waitFor(() => expect(screen.getByRole('textbox', { name: 'Username' })).toBeVisible());
    } finally {
      setViewportWidth(1280);
    }
  });

  it('an empty result says so', async () => {
    setup([() => Promise.resolve({ items: [], next: null })]);
    expect(await screen.findByText('No members match.')).toBeInTheDocument();
  });

  it('errors: no data → retry screen; more data → rows stay with a retry', async () => {
    const { actor } = setup([
      () => Promise.reject(new ConnectionError()),
      () => Promise.resolve({ items: [member(1)], next: { page: 2 } }),
      () => Promise.reject(new ApiError('server', 500, {})),
      () => Promise.resolve({ items: [member(2)], next: null }),
    ]);
    await waitFor(() => expect(document.querySelector('[data-error-kind="connection"]')).not.toBeNull());
    await userEvent.click(screen.getByRole('button', { name: /retry/i }));
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(document.querySelector('[data-error-kind="server"]')).not.toBeNull());
    expect(screen.getByText('user1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(await screen.findByText('user2')).toBeInTheDocument();
    act(() => actor.stop());
  });

  it('the form hands username, level and sort over as filters (for the URL)', async () => {
    const { onFilters } = setup([() => Promise.resolve({ items: [member(1)], next: null })]);
    await screen.findByText('user1');
    await userEvent.type(screen.getByLabelText('Username'), 'ali');
    await userEvent.type(screen.getByLabelText('Level'), '3x{Enter}');
    expect(onFilters).toHaveBeenLastCalledWith({ sort: 'desc', username: 'ali', level: 3 });
    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'asc');
    expect(onFilters).toHaveBeenLastCalledWith({ sort: 'asc', username: 'ali', level: 3 });
  });

  it('filters round-trip through the query string; bad values are dropped', () => {
    expect(reportFiltersFrom('?username=bo&level=2&sort=asc')).toEqual({ username: 'bo', level: 2, sort: 'asc' });
    expect(reportFiltersFrom('?level=-1&sort=sideways')).toEqual({ sort: 'desc' });
    expect(reportFiltersQuery({ username: 'bo', level: 2, sort: 'asc' })).toBe('?username=bo&level=2&sort=asc');
    expect(reportFiltersQuery({ sort: 'desc' })).toBe('');
  });
});

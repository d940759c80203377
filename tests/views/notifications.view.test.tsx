import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { notificationsMachine, type NotificationsData } from '../../src/machines/notifications.machine';
import { createPagedListMachine, type PageResult } from '../../src/machines/paged-list.machine';
import { PAYOUT_LINK } from '../../src/schemas/home.schema';
import type { MarkNotificationsRead, NotificationCounts, NotificationHistoryItem, NotificationsShow, NotificationsTab, NotificationsUrl } from '../../src/schemas/home.schema';
import { NotificationsView } from '../../src/views/home/notifications.view';
import { renderUi } from '../support/render-ui';

const at = '2026-03-09T14:05:00.000Z';
const data: NotificationsData = {
  lists: {
    orders: [
      { id: 1, invoice_no: 'INV-1', name: 'completed', status_color: 'green', updated_at: at, total: '24.5000', plan: null },
      { id: 2, invoice_no: 'INV-2', name: 'shipped', status_color: 'blue', updated_at: at, total: '10.0000', plan: 'Elite' },
    ],
    payouts: [{ id: 7, invoice_no: 'PAY-7', status_id: 3, name: 'paid', updated_at: at, total: '100.0000' }],
    messages: [],
  },
  counts: { order_count: 2, payout_count: 1, message_count: 0, total_count: 3 },
};

function setup(
  opts: {
    load?: (show: NotificationsShow) => Promise<NotificationsData>;
    mark?: (r: MarkNotificationsRead) => Promise<NotificationCounts>;
    url?: NotificationsUrl;
    setUrl?: (next: NotificationsUrl) => void;
    /** One page of a tab's history ("All"), after the cursor. */
    history?: (tab: NotificationsTab, cursor: string | undefined) => Promise<PageResult<NotificationHistoryItem>>;
  } = {},
) {
  const pages: Array<[NotificationsTab, string | undefined]> = [];
  const marks: MarkNotificationsRead[] = [];
  const badge: number[] = [];
  const loads: Array<NotificationsShow | undefined> = [];
  const actor = createActor(
    notificationsMachine.provide({
      actors: {
        load: fromPromise<NotificationsData, NotificationsShow>(async ({ input }) => {
          loads.push(input);
          return (opts.load ?? (async () => data))(input);
        }),
        markRead: fromPromise<NotificationCounts, MarkNotificationsRead>(async ({ input }) => {
          marks.push(input);
          return opts.mark ? opts.mark(input) : { order_count: 1, payout_count: 1, message_count: 0, total_count: 2 };
        }),
        history: createPagedListMachine<NotificationHistoryItem, { tab: NotificationsTab }>('notificationHistory', async ({ filters, next }) => {
          pages.push([filters.tab, next?.cursor]);
          return (opts.history ?? (async () => ({ items: [], next: null })))(filters.tab, next?.cursor);
        }),
      },
      actions: { countsChanged: (_, p) => badge.push(p.counts.total_count) },
    }),
    { input: { show: opts.url?.show } },
  ).start();
  renderUi(<NotificationsView actor={actor} url={opts.url} setUrl={opts.setUrl} />);
  return { actor, marks, badge, loads, pages };
}

describe('notifications page', () => {
  it('shows a labelled skeleton under the title while loading', () => {
    setup({ load: () => new Promise<never>(() => {}) });
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading your figures…' })).toBeInTheDocument();
  });

  it('shows the unread total, a count per tab, and the orders with status, amount and date', async () => {
    const { badge } = setup();
    expect(await screen.findByText('3 unread notifications')).toBeInTheDocument();
    expect(within(screen.getByRole('tab', { name: /Orders/ })).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByRole('tab', { name: /Payouts/ })).getByText('1')).toBeInTheDocument();
    const orders = screen.getAllByText(/^INV-/).map((el) => el.textContent);
    expect(orders).toEqual(['INV-1', 'INV-2']);
    expect(screen.getByText('Completed')).toBeInTheDocument();
    expect(screen.getByText(/^Elite · \$10\.00 · Mar \d+, 2026 \d+:\d\d [AP]M$/)).toBeInTheDocument();
    // The shell's badge hears the counts the page loaded.
    expect(badge).toEqual([3]);
  });

  it('each order, payout and message links to what it is about', async () => {
    setup({
      load: async () => ({
        ...data,
        lists: { ...data.lists, messages: [{ id: 3, thread_id: 41, subject: 'Welcome aboard', body: 'Hi', updated_at: at, first_name: 'Ana', last_name: null, avatar: null }] },
        counts: { ...data.counts, message_count: 1, total_count: 4 },
      }),
    });
    expect(await screen.findByRole('link', { name: 'INV-2' })).toHaveAttribute('href', '/member/orders/2');
    await userEvent.click(screen.getByRole('tab', { name: /Payouts/ }));
    expect(await screen.findByRole('link', { name: 'PAY-7' })).toHaveAttribute('href', PAYOUT_LINK);
    await userEvent.click(screen.getByRole('tab', { name: /Messages/ }));
    expect(await screen.findByRole('link', { name: 'Welcome aboard' })).toHaveAttribute('href', '/member/mail/conversation/41');
  });

  it('marking one item read keeps it listed, shown as read and still linked; updates the counts and tells the badge', async () => {
    const { marks, badge } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as read: INV-1' }));
    expect(await screen.findByText('2 unread notifications')).toBeInTheDocument();
    expect(marks).toEqual([{ kind: 'order', ids: [1] }]);
    const read = screen.getByRole('link', { name: 'INV-1' }).closest('[data-notification]') as HTMLElement;
    expect(read).toHaveAttribute('data-read');
    expect(within(read).getByText('Read')).toBeInTheDocument();
    expect(within(read).queryByRole('button', { name: /Mark as read/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark as read: INV-2' })).toBeInTheDocument();
    expect(badge).toEqual([3, 2]);
  });

  it('the open tab is the URL’s: a link with ?tab= opens it, a tab change writes it (orders: no tab)', async () => {
    const writes: NotificationsUrl[] = [];
    setup({ url: { tab: 'payouts' }, setUrl: (next) => writes.push(next) });
    expect(await screen.findByRole('tab', { name: /Payouts/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('link', { name: 'PAY-7' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: /Messages/ }));
    await userEvent.click(screen.getByRole('tab', { name: /Orders/ }));
    expect(writes).toEqual([{ tab: 'messages' }, { tab: undefined }]);
  });

  it('"All" (the URL\'s show=all) lists each tab\'s whole history, read items marked, a page at a time with Load more; "Unread" writes the URL back', async () => {
    const writes: NotificationsUrl[] = [];
    const order = (id: number, read: boolean) => ({ ...data.lists.orders[0], id, invoice_no: `INV-${id}`, read });
    const { loads, pages } = setup({
      url: { show: 'all' },
      setUrl: (next) => writes.push(next),
      history: async (tab, cursor) => {
        if (tab !== 'orders') return { items: [], next: null };
        return cursor ? { items: [order(3, true)], next: null } : { items: [order(1, false), order(9, true)], next: { cursor: 'c2' } };
      },
    });
    const old = (await screen.findByRole('link', { name: 'INV-9' })).closest('[data-notification]') as HTMLElement;
    expect(loads).toEqual(['all']);
    expect(old).toHaveAttribute('data-read');
    expect(within(old).getByText('Read')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark as read: INV-1' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'All' })).toBeChecked();
    // The next page comes on Load more, below the rows already shown.
    expect(screen.queryByRole('link', { name: 'INV-3' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'INV-3' })).toBeInTheDocument();
    expect(screen.getAllByText(/^INV-/).map((el) => el.textContent)).toEqual(['INV-1', 'INV-9', 'INV-3']);
    expect(pages.filter(([tab]) => tab === 'orders')).toEqual([['orders', undefined], ['orders', 'c2']]);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    // Marking the whole kind shows every loaded history item as read.
    await userEvent.click(screen.getByRole('button', { name: 'Mark all in this list as read' }));
    await waitFor(() => expect(screen.getAllByText(/^INV-/).map((c) => c.closest('[data-notification]')?.hasAttribute('data-read'))).toEqual([true, true, true]));
    // Every tab's history is a list of its own, its first page asked once; an empty one says so.
    expect(pages.map(([tab]) => tab).sort()).toEqual(['messages', 'notices', 'orders', 'orders', 'payouts']);
    const payouts = document.querySelector('[role="tabpanel"][id$="payouts"]') as HTMLElement;
    expect(within(payouts).getByText('Updates about your payouts will appear here.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Unread' }));
    expect(writes).toEqual([{ show: undefined }]);
  });

  it('"All": a history page that fails shows the error with Retry and keeps nothing half-loaded', async () => {
    let fail = true;
    setup({
      url: { show: 'all' },
      history: async (tab) => {
        if (fail) throw new ConnectionError();
        return { items: tab === 'orders' ? [{ ...data.lists.orders[0], read: true }] : [], next: null };
      },
    });
    const panel = await screen.findByRole('tabpanel');
    expect(await within(panel).findByText('No connection')).toBeInTheDocument();
    fail = false;
    await userEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await within(panel).findByRole('link', { name: 'INV-1' })).toBeInTheDocument();
  });

  it('an empty list says so; "mark everything" leaves every item listed as read', async () => {
    setup({ mark: async () => ({ order_count: 0, payout_count: 0, message_count: 0, total_count: 0 }) });
    await userEvent.click(await screen.findByRole('tab', { name: /Messages/ }));
    expect(await screen.findByText('New messages will appear here.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Mark everything as read' }));
    expect(await screen.findByText('0 unread notifications')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: /Orders/ }));
    const cards = await screen.findAllByText(/^INV-/);
    expect(cards.map((c) => c.closest('[data-notification]')?.hasAttribute('data-read'))).toEqual([true, true]);
    expect(screen.queryByRole('button', { name: /Mark as read/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark everything as read' })).not.toBeInTheDocument();
  });

  it('a failed mark keeps the lists and shows a dismissable message', async () => {
    setup({ mark: async () => { throw new ApiError('server', 500, {}); } });
    await userEvent.click(await screen.findByRole('tab', { name: /Payouts/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Mark as read: PAY-7' }));
    expect(await screen.findByText('We could not mark that as read. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('PAY-7')).toBeInTheDocument();
    expect(screen.getByText('3 unread notifications')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('We could not mark that as read. Please try again.')).not.toBeInTheDocument();
  });

  it('connection and server errors show their views; Retry loads the lists', async () => {
    let failure: Error | null = new ConnectionError();
    setup({
      load: async () => {
        if (failure) throw failure;
        return data;
      },
    });
    expect(await screen.findByText('No connection')).toBeInTheDocument();
    failure = new ApiError('server', 500, {});
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    failure = null;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('3 unread notifications')).toBeInTheDocument();
  });
});

describe('notices (the push channel of the notification settings)', () => {
  const withNotices: NotificationsData = {
    lists: {
      ...data.lists,
      notices: [{ id: 31, event: 'team_member_joined', subject: 'New member in your team: Rita Recruit', body: 'Rita Recruit (rita) joined your team.', link: '/member/referral/joinings', updated_at: at }],
    },
    counts: { ...data.counts, notice_count: 1, total_count: 4 },
  };

  it('has its own tab with the count, the notice, a link to the matter, and marks it read', async () => {
    const { marks } = setup({ load: async () => withNotices, mark: async () => ({ ...withNotices.counts, notice_count: 0, total_count: 3 }) });
    expect(await screen.findByText('4 unread notifications')).toBeInTheDocument();
    const tab = screen.getByRole('tab', { name: /Notices/ });
    expect(within(tab).getByText('1')).toBeInTheDocument();
    await userEvent.click(tab);
    expect(await screen.findByText('New member in your team: Rita Recruit')).toBeInTheDocument();
    expect(screen.getByText('New member in my team')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open' }).getAttribute('href')).toContain('/member/referral/joinings');
    const card = screen.getByText('New member in your team: Rita Recruit').closest('[data-notification]') as HTMLElement;
    await userEvent.click(within(card).getByRole('button', { name: 'Mark as read: New member in your team: Rita Recruit' }));
    expect(marks).toEqual([{ kind: 'notice', ids: [31] }]);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { notificationsMachine, withRead } from '../../src/machines/notifications.machine';
import { createPagedListMachine } from '../../src/machines/paged-list.machine';
import type { MarkNotificationsRead, NotificationHistoryItem, Notifications, NotificationsTab } from '../../src/schemas/home.schema';

const lists = {
  orders: [{ id: 1 }, { id: 2 }],
  payouts: [{ id: 7 }],
  messages: [{ id: 9 }],
} as unknown as Notifications;
const counts = { order_count: 2, payout_count: 1, message_count: 1, total_count: 4 };

describe('notifications machine', () => {
  it('loads lists and counts, tells the badge, and marking one order read keeps it listed as read and takes the new counts', async () => {
    const countsChanged = vi.fn();
    const markRead = vi.fn(async (_req: unknown) => ({ ...counts, order_count: 1, total_count: 3 }));
    const actor = createActor(
      notificationsMachine.provide({
        actors: { load: fromPromise(async () => ({ lists, counts })), markRead: fromPromise(({ input }) => markRead(input as never)) },
        actions: { countsChanged: (_, p) => countsChanged(p.counts.total_count) },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    expect(countsChanged).toHaveBeenLastCalledWith(4);
    actor.send({ type: 'notifications.markRead', request: { kind: 'order', ids: [1] } });
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && s.context.data!.counts.total_count === 3);
    expect(markRead).toHaveBeenCalledWith({ kind: 'order', ids: [1] });
    expect(actor.getSnapshot().context.data!.lists.orders.map((o) => o.id)).toEqual([1, 2]);
    expect(actor.getSnapshot().context.read).toEqual(['order:1']);
    expect(countsChanged).toHaveBeenLastCalledWith(3);
  });

  it('a failed mark keeps the lists and offers dismiss; a failed load gives connectionError and retry recovers', async () => {
    let fail = true;
    const actor = createActor(
      notificationsMachine.provide({
        actors: {
          load: fromPromise(async () => {
            if (fail) throw new ConnectionError();
            return { lists, counts };
          }),
          markRead: fromPromise<typeof counts, MarkNotificationsRead>(async () => {
            throw new ApiError('server', 500, {});
          }),
        },
      }),
      { input: {} },
    ).start();
    await waitFor(actor, (s) => s.matches('connectionError'));
    fail = false;
    actor.send({ type: 'load.retry' });
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    actor.send({ type: 'notifications.markRead', request: { kind: 'all' } });
    await waitFor(actor, (s) => s.matches({ loaded: 'markError' }));
    expect(actor.getSnapshot().context.data!.counts.total_count).toBe(4);
    actor.send({ type: 'notifications.dismissError' });
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true);
  });

  it('starts on the show it is given and loads the other one on notifications.show, forgetting its own marks', async () => {
    const shows: unknown[] = [];
    const markRead = vi.fn(async () => counts);
    const actor = createActor(
      notificationsMachine.provide({
        actors: {
          load: fromPromise(async ({ input }) => {
            shows.push(input);
            return { lists, counts };
          }),
          markRead: fromPromise(async () => markRead()),
          history: createPagedListMachine<NotificationHistoryItem, { tab: NotificationsTab }>('notificationHistory', async () => ({ items: [], next: null })),
        },
      }),
      { input: { show: 'all' } },
    ).start();
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    actor.send({ type: 'notifications.markRead', request: { kind: 'payout' } });
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }) && s.context.read.includes('payout:7'));
    // With "All" each tab's history is a paged list of its own.
    expect(Object.keys(actor.getSnapshot().children).sort()).toEqual(['history.messages', 'history.notices', 'history.orders', 'history.payouts']);
    actor.send({ type: 'notifications.show', show: 'unread' });
    await waitFor(actor, (s) => s.matches({ loaded: 'idle' }));
    expect(shows).toEqual(['all', 'unread']);
    expect(actor.getSnapshot().context).toMatchObject({ show: 'unread', read: [] });
    // Only the unread lists now: the history lists are gone.
    expect(Object.keys(actor.getSnapshot().children)).toEqual([]);
  });

  it('withRead adds only the named ids, or the whole kind, or everything, once each', () => {
    // A whole kind marked: its listed items, and the kind's "every item" key for the history lists.
    expect(withRead([], lists, { kind: 'payout' })).toEqual(['payout:7', 'payout:*']);
    expect(withRead(['order:1'], lists, { kind: 'order', ids: [2] })).toEqual(['order:1', 'order:2']);
    expect(withRead(['order:1'], lists, { kind: 'all' }).sort()).toEqual(['message:*', 'message:9', 'notice:*', 'order:*', 'order:1', 'order:2', 'payout:*', 'payout:7']);
  });
});

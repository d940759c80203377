/**
 * /member/notifications (spec §3 Notifications, §7 Home): the unread orders, payouts and messages
 * with their counts, and marking them read (one item, or every item of a kind). The lists load with
 * the generic load statuses (loading, loaded, connectionError, forceLogout, error); marking happens
 * inside `loaded` so the lists stay on screen. A marked item stays listed, shown as read (`read` keeps
 * their keys, `order:12`), so nothing vanishes under the member's eyes; the view's "Unread" / "All"
 * filter decides whether read items show. After a mark the answer's counts replace the old ones and the
 * named action `countsChanged` tells the shell (its badge) the new counts. `show` (the URL's) lists the
 * unread items or all of them, read ones marked (the history); `notifications.show` loads the other.
 * The history is not capped: with `show: 'all'` each tab's list is a paged list of its own (children
 * `history.orders`, `history.payouts`, `history.messages`, `history.notices`, started once the counts are in,
 * stopped when the lists load again), loading more as the member scrolls.
 */
import { assign, enqueueActions, fromPromise, setup, stopChild } from 'xstate';
import { homeApi } from '../api/home';
import { errorInfo, type ErrorInfo } from '../api/errors';
import { NOTIFICATION_TABS } from '../schemas/home.schema';
import type { MarkNotificationsRead, NotificationCounts, NotificationHistoryItem, Notifications, NotificationsShow, NotificationsTab } from '../schemas/home.schema';
import { createPagedListMachine, nextFromUrl } from './paged-list.machine';

export interface NotificationsData {
  lists: Notifications;
  counts: NotificationCounts;
}

export interface NotificationsContext {
  data: NotificationsData | null;
  error: ErrorInfo | null;
  /** The mark request in flight or last failed (kept for retry). */
  mark: MarkNotificationsRead | null;
  markError: ErrorInfo | null;
  /** The items marked read on this page (`kind:id`). */
  read: string[];
  /** Unread items only, or all of them. */
  show: NotificationsShow;
}

export type NotificationsEvent =
  | { type: 'load.retry' }
  | { type: 'load.refresh' }
  | { type: 'notifications.markRead'; request: MarkNotificationsRead }
  | { type: 'notifications.dismissError' }
  | { type: 'notifications.show'; show: NotificationsShow };

/** With `show: 'all'` the lists are the history children's: only the counts are loaded here. */
const NO_LISTS: Notifications = { orders: [], payouts: [], messages: [], notices: [] };

export async function loadNotifications(show: NotificationsShow = 'unread'): Promise<NotificationsData> {
  const [lists, counts] = await Promise.all([show === 'all' ? NO_LISTS : homeApi.notifications(show), homeApi.notificationsCount()]);
  return { lists, counts };
}

/** One tab's whole history (the "All" list): every item of its kind, read ones marked, newest first, paged. */
export const notificationHistoryMachine = createPagedListMachine<NotificationHistoryItem, { tab: NotificationsTab }>(
  'notificationHistory',
  async ({ filters, next, signal }) => {
    const page = await homeApi.notificationHistory(filters.tab, next?.cursor, signal);
    return { items: page.items, next: nextFromUrl(page.next_page_url) };
  },
);

/** The id of a tab's history child. */
export const historyId = (tab: NotificationsTab) => `history.${tab}` as const;

const LIST_OF = { order: 'orders', payout: 'payouts', message: 'messages', notice: 'notices' } as const;

/** The key of one listed item in `read`. */
export const readKey = (kind: keyof typeof LIST_OF, id: number) => `${kind}:${id}`;

/** The key saying every item of a kind there was at a mark is read (the history lists' items included). */
export const allReadKey = (kind: keyof typeof LIST_OF) => `${kind}:*`;

/**
 * The read keys after a mark request: the named ids, or every listed item of the kind (or of all kinds)
 * together with the kind's `allReadKey`.
 */
export function withRead(read: string[], lists: Notifications, request: MarkNotificationsRead): string[] {
  const kinds = request.kind === 'all' ? (['order', 'payout', 'message', 'notice'] as const) : [request.kind];
  const out = new Set(read);
  for (const kind of kinds) {
    const ids = request.ids ?? ((lists[LIST_OF[kind]] ?? []) as { id: number }[]).map((i) => i.id);
    for (const id of ids) out.add(readKey(kind, id));
    if (!request.ids) out.add(allReadKey(kind));
  }
  return [...out];
}

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    input: {} as { show?: NotificationsShow } | undefined,
    children: {} as { 'history.orders': 'history'; 'history.payouts': 'history'; 'history.messages': 'history'; 'history.notices': 'history' },
  },
  actors: {
    history: notificationHistoryMachine,
    load: fromPromise<NotificationsData, NotificationsShow>(({ input }) => loadNotifications(input)),
    markRead: fromPromise<NotificationCounts, MarkNotificationsRead>(({ input }) => homeApi.markNotificationsRead(input)),
  },
  actions: {
    /** Bound by the page: the new counts for the menu badge. */
    countsChanged: (_, _params: { counts: NotificationCounts }) => {},
  },
  guards: {
    isConnectionError: ({ event }) => errorInfo((event as unknown as { error: unknown }).error).kind === 'connection',
    isUnauthorized: ({ event }) => errorInfo((event as unknown as { error: unknown }).error).kind === 'unauthorized',
  },
}).createMachine({
  id: 'notifications',
  context: ({ input }) => ({ data: null, error: null, mark: null, markError: null, read: [], show: input?.show ?? 'unread' }),
  // Another choice of unread / all loads the lists again, whatever the page is doing.
  on: { 'notifications.show': { target: '.loading', actions: assign({ show: ({ event }) => event.show }) } },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      // The history lists start again with the lists (or go, when only the unread are shown).
      entry: NOTIFICATION_TABS.map((tab) => stopChild(historyId(tab))),
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => context.show,
        onDone: {
          target: 'loaded',
          actions: [
            assign({ data: ({ event }) => event.output, error: null, read: [] }),
            { type: 'countsChanged', params: ({ event }) => ({ counts: event.output.counts }) },
            enqueueActions(({ context, enqueue }) => {
              if (context.show !== 'all') return;
              for (const tab of NOTIFICATION_TABS) enqueue.spawnChild('history', { id: historyId(tab), input: { filters: { tab } } });
            }),
          ],
        },
        onError: [
          { guard: 'isConnectionError', target: 'connectionError', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
          { guard: 'isUnauthorized', target: 'forceLogout', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
          { target: 'error', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
        ],
      },
    },
    loaded: {
      initial: 'idle',
      on: { 'load.refresh': { target: 'loading' } },
      states: {
        idle: {
          on: {
            'notifications.markRead': { target: 'marking', actions: assign({ mark: ({ event }) => event.request, markError: null }) },
          },
        },
        marking: {
          tags: ['busy'],
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => context.mark!,
            onDone: {
              target: 'idle',
              actions: [
                assign({
                  read: ({ context }) => (context.data && context.mark ? withRead(context.read, context.data.lists, context.mark) : context.read),
                  data: ({ context, event }) => (context.data ? { ...context.data, counts: event.output } : context.data),
                  mark: null,
                }),
                { type: 'countsChanged', params: ({ event }) => ({ counts: event.output }) },
              ],
            },
            onError: { target: 'markError', actions: assign({ markError: ({ event }) => errorInfo(event.error) }) },
          },
        },
        markError: {
          tags: ['error'],
          on: {
            'notifications.markRead': { target: 'marking', actions: assign({ mark: ({ event }) => event.request, markError: null }) },
            'notifications.dismissError': { target: 'idle', actions: assign({ mark: null, markError: null }) },
          },
        },
      },
    },
    connectionError: { tags: ['error'], on: { 'load.retry': 'loading', 'load.refresh': 'loading' } },
    error: { tags: ['error'], on: { 'load.retry': 'loading', 'load.refresh': 'loading' } },
    forceLogout: { tags: ['error'] },
  },
});

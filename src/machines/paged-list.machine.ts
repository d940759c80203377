/**
 * Endless list of spec §4 "List statuses": initialLoading, noItems, noMoreItems, networkErrorNoData,
 * networkErrorMoreData, serverErrorNoData, serverErrorMoreData, readyToLoadMore — plus loadingMore
 * (a next page in flight, tag busy) and forceLogout (a 401: the client hook signs the member out).
 *
 * One machine serves every paged list (cursor paging and page-number paging alike, both carried by
 * PageRef); the page loader is given per list:
 *
 *   const transactionsList = createPagedListMachine('transactions', ({ filters, next }) =>
 *     walletApi.transactions({ ...filters, cursor: next?.cursor }).then((p) => ({ items: p.items, next: nextFromUrl(p.next_page_url) })));
 *
 * A filter change (list.setFilters) or a refresh starts again from the first page; the answer of a
 * request started before it is ignored (the invoked request is stopped and its signal aborted).
 * An error while loading more keeps the rows already loaded.
 */
import { assign, fromPromise, setup } from 'xstate';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo } from '../api/errors';
import { factoryStamp } from './factory-registry';

export type PageRef = { cursor?: string; page?: number; after?: string };

export interface PageResult<T, M = unknown> {
  items: T[];
  next: PageRef | null;
  /** Page-level data besides the rows (labels, filter options); the latest answer's is kept. */
  meta?: M;
}

/** Reads cursor / page / after from a next_page_url (null → no next page). */
export function nextFromUrl(nextPageUrl: string | null | undefined): PageRef | null {
  if (!nextPageUrl) return null;
  const at = nextPageUrl.indexOf('?');
  const query = at >= 0 ? nextPageUrl.slice(at + 1).split('#')[0] : '';
  const params = new URLSearchParams(query);
  const ref: PageRef = {};
  const cursor = params.get('cursor');
  const page = params.get('page');
  const after = params.get('after');
  if (cursor) ref.cursor = cursor;
  if (page && /^\d+$/.test(page)) ref.page = Number(page);
  if (after) ref.after = after;
  return Object.keys(ref).length ? ref : null;
}

export interface PagedListInput<F> {
  filters: F;
}

export interface PagedListContext<T, F, M = unknown> {
  items: T[];
  next: PageRef | null;
  filters: F;
  error: ErrorInfo | null;
  /** `meta` of the latest page (kept across a reload of the list until a new answer brings one). */
  meta: M | null;
}

export type PagedListEvent<F> =
  | { type: 'list.loadMore' }
  | { type: 'list.retry' }
  | { type: 'list.refresh' }
  | { type: 'list.setFilters'; filters: F };

export interface FetchPageArgs<F> {
  filters: F;
  next: PageRef | null;
  /** Aborted when the answer is no longer wanted (filters changed, page left). */
  signal?: AbortSignal;
}

export function createPagedListMachine<T, F, M = unknown>(
  id: string,
  fetchPage: (args: FetchPageArgs<F>) => Promise<PageResult<T, M>>,
) {
  type Ctx = PagedListContext<T, F, M>;
  const pageOutput = (event: unknown) => (event as { output: PageResult<T, M> }).output;
  const failure = (event: unknown) => errorInfo((event as { error: unknown }).error);

  const failureTransitions = (network: string, server: string) => [
    {
      guard: { type: 'isConnectionError' as const, params: ({ event }: { event: unknown }) => ({ error: (event as { error: unknown }).error }) },
      target: network,
      actions: 'setError' as const,
    },
    {
      guard: { type: 'endsSession' as const, params: ({ event }: { event: unknown }) => ({ error: (event as { error: unknown }).error }) },
      target: 'forceLogout',
      actions: 'setError' as const,
    },
    { target: server, actions: 'setError' as const },
  ];

  const restart = {
    'list.refresh': { target: '#' + id + '.initialLoading', actions: 'reset' as const },
    'list.setFilters': { target: '#' + id + '.initialLoading', actions: ['takeFilters', 'reset'] as const },
  };

  return setup({
    types: {
      context: {} as Ctx,
      events: {} as PagedListEvent<F>,
      input: {} as PagedListInput<F>,
    },
    actors: {
      // Loosely typed: xstate's invoke typing cannot resolve generic actor types.
      fetchPage: fromPromise<unknown, unknown>(({ input, signal }) => {
        const { filters, next } = input as { filters: F; next: PageRef | null };
        return fetchPage({ filters, next, signal });
      }),
    },
    actions: {
      reset: assign({ items: () => [] as T[], next: () => null, error: () => null }),
      takeFilters: assign({
        filters: ({ context, event }) => (event.type === 'list.setFilters' ? event.filters : context.filters),
      }),
      setFirstPage: assign({
        items: ({ event }) => pageOutput(event).items,
        next: ({ event }) => pageOutput(event).next,
        meta: ({ context, event }) => pageOutput(event).meta ?? context.meta,
        error: () => null,
      }),
      appendPage: assign({
        items: ({ context, event }) => context.items.concat(pageOutput(event).items),
        next: ({ event }) => pageOutput(event).next,
        meta: ({ context, event }) => pageOutput(event).meta ?? context.meta,
        error: () => null,
      }),
      setError: assign({ error: ({ event }) => failure(event) }),
    },
    guards: {
      isConnectionError: (_, params: { error: unknown }) => classifyFailure(params.error) === 'connection',
      endsSession: (_, params: { error: unknown }) => endsSession(classifyFailure(params.error)),
      hasNoItems: ({ context }) => context.items.length === 0 && context.next === null,
      hasNoNextPage: ({ context }) => context.next === null,
    },
  }).createMachine({
    id,
    meta: factoryStamp('createPagedListMachine'),
    context: ({ input }) => ({ items: [], next: null, filters: input.filters, error: null, meta: null }),
    initial: 'initialLoading',
    states: {
      initialLoading: {
        tags: ['busy'],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }: { context: Ctx }) => ({ filters: context.filters, next: null }),
          onDone: { target: 'settled', actions: 'setFirstPage' },
          onError: failureTransitions('networkErrorNoData', 'serverErrorNoData'),
        },
        on: {
          'list.refresh': { target: 'initialLoading', reenter: true, actions: 'reset' },
          'list.setFilters': { target: 'initialLoading', reenter: true, actions: ['takeFilters', 'reset'] },
        },
      },
      loadingMore: {
        tags: ['busy'],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }: { context: Ctx }) => ({ filters: context.filters, next: context.next }),
          onDone: { target: 'settled', actions: 'appendPage' },
          onError: failureTransitions('networkErrorMoreData', 'serverErrorMoreData'),
        },
        on: restart,
      },
      /** Decides which status a fresh answer leaves the list in. */
      settled: {
        always: [
          { guard: 'hasNoItems', target: 'noItems' },
          { guard: 'hasNoNextPage', target: 'noMoreItems' },
          { target: 'readyToLoadMore' },
        ],
      },
      readyToLoadMore: {
        on: { 'list.loadMore': 'loadingMore', ...restart },
      },
      noItems: { on: restart },
      noMoreItems: { on: restart },
      networkErrorNoData: {
        tags: ['error'],
        on: { 'list.retry': 'initialLoading', ...restart },
      },
      serverErrorNoData: {
        tags: ['error'],
        on: { 'list.retry': 'initialLoading', ...restart },
      },
      networkErrorMoreData: {
        tags: ['error'],
        on: { 'list.retry': 'loadingMore', 'list.loadMore': 'loadingMore', ...restart },
      },
      serverErrorMoreData: {
        tags: ['error'],
        on: { 'list.retry': 'loadingMore', 'list.loadMore': 'loadingMore', ...restart },
      },
      forceLogout: {
        tags: ['error'],
      },
    },
  });
}

/** The generic machine; provide `fetchPage` per use. */
export const pagedListMachine = createPagedListMachine<unknown, unknown>('pagedList', () =>
  Promise.reject(new Error('No page loader provided')),
);

import { createActor, waitFor } from 'xstate';
import { createPagedListMachine, nextFromUrl, type PageRef, type PageResult } from '../../src/machines/paged-list.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';

type Row = { id: number };
type Filters = { sort: 'asc' | 'desc' };

function controlled() {
  const calls: Array<{ filters: Filters; next: PageRef | null; signal?: AbortSignal; resolve: (v: PageResult<Row, { labels: string }>) => void; reject: (e: unknown) => void }> = [];
  const fetchPage = ({ filters, next, signal }: { filters: Filters; next: PageRef | null; signal?: AbortSignal }) =>
    new Promise<PageResult<Row, { labels: string }>>((resolve, reject) => calls.push({ filters, next, signal, resolve, reject }));
  return { calls, machine: createPagedListMachine('rows', fetchPage) };
}

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i }));

describe('nextFromUrl', () => {
  it('reads the cursor of a next_page_url', () => {
    expect(nextFromUrl('http://x/api/wallet/transactions?sort=desc&cursor=eyJpZCI6MTB9')).toEqual({ cursor: 'eyJpZCI6MTB9' });
    expect(nextFromUrl('/api/network/pv_history?cursor=a%2Bb%3D')).toEqual({ cursor: 'a+b=' });
  });
  it('reads page numbers and after markers', () => {
    expect(nextFromUrl('/api/network/downline_report?page=3&sort=asc')).toEqual({ page: 3 });
    expect(nextFromUrl('/x?after=42')).toEqual({ after: '42' });
  });
  it('gives null at the end of a list or without any paging parameter', () => {
    expect(nextFromUrl(null)).toBeNull();
    expect(nextFromUrl(undefined)).toBeNull();
    expect(nextFromUrl('')).toBeNull();
    expect(nextFromUrl('/api/wallet/transactions?sort=desc')).toBeNull();
  });
});

describe('paged list machine (spec §4 list statuses)', () => {
  it('loads the first page, then appends the next one by its cursor until there is none', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    expect(actor.getSnapshot().value).toBe('initialLoading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(calls[0]).toMatchObject({ filters: { sort: 'desc' }, next: null });
    calls[0].resolve({ items: rows(1, 2), next: { cursor: 'c2' }, meta: { labels: 'L' } });
    await waitFor(actor, (s) => s.matches('readyToLoadMore'));
    expect(actor.getSnapshot().context.meta).toEqual({ labels: 'L' });
    actor.send({ type: 'list.loadMore' });
    expect(actor.getSnapshot().value).toBe('loadingMore');
    expect(actor.getSnapshot().context.items).toHaveLength(2);
    expect(calls[1].next).toEqual({ cursor: 'c2' });
    calls[1].resolve({ items: rows(3, 2), next: null });
    await waitFor(actor, (s) => s.matches('noMoreItems'));
    expect(actor.getSnapshot().context.items.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(actor.getSnapshot().context.meta).toEqual({ labels: 'L' });
  });

  it('an empty first page is noItems', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    calls[0].resolve({ items: [], next: null });
    await waitFor(actor, (s) => s.matches('noItems'));
  });

  it('network and server failures on the first page have no data; retry loads the first page again', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    calls[0].reject(new ConnectionError());
    await waitFor(actor, (s) => s.matches('networkErrorNoData'));
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    actor.send({ type: 'list.retry' });
    calls[1].reject(new ApiError('server', 500, {}));
    await waitFor(actor, (s) => s.matches('serverErrorNoData'));
    expect(actor.getSnapshot().context.error).toMatchObject({ kind: 'server', status: 500 });
    actor.send({ type: 'list.retry' });
    expect(calls[2].next).toBeNull();
    calls[2].resolve({ items: rows(1, 1), next: null });
    await waitFor(actor, (s) => s.matches('noMoreItems'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a failure while loading more keeps the rows and retry asks for the same page', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    calls[0].resolve({ items: rows(1, 3), next: { cursor: 'p2' } });
    await waitFor(actor, (s) => s.matches('readyToLoadMore'));
    actor.send({ type: 'list.loadMore' });
    calls[1].reject(new ConnectionError());
    await waitFor(actor, (s) => s.matches('networkErrorMoreData'));
    expect(actor.getSnapshot().context.items).toHaveLength(3);
    actor.send({ type: 'list.retry' });
    expect(calls[2].next).toEqual({ cursor: 'p2' });
    calls[2].reject(new ApiError('server', 503, {}));
    await waitFor(actor, (s) => s.matches('serverErrorMoreData'));
    expect(actor.getSnapshot().context.items).toHaveLength(3);
    actor.send({ type: 'list.loadMore' });
    expect(calls[3].next).toEqual({ cursor: 'p2' });
    calls[3].resolve({ items: rows(4, 1), next: { cursor: 'p3' } });
    await waitFor(actor, (s) => s.matches('readyToLoadMore'));
    expect(actor.getSnapshot().context.items.map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });

  it('a 401 goes to forceLogout and stays there', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    calls[0].reject(new ApiError('unauthorized', 401, {}));
    await waitFor(actor, (s) => s.matches('forceLogout'));
    actor.send({ type: 'list.retry' });
    actor.send({ type: 'list.refresh' });
    expect(actor.getSnapshot().value).toBe('forceLogout');
    expect(calls).toHaveLength(1);
  });

  it('a filter change resets paging and ignores the answer of the stale request', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    calls[0].resolve({ items: rows(1, 2), next: { cursor: 'p2' } });
    await waitFor(actor, (s) => s.matches('readyToLoadMore'));
    actor.send({ type: 'list.loadMore' });
    actor.send({ type: 'list.setFilters', filters: { sort: 'asc' } });
    expect(calls[1].signal?.aborted).toBe(true);
    expect(actor.getSnapshot().value).toBe('initialLoading');
    expect(actor.getSnapshot().context).toMatchObject({ items: [], next: null, filters: { sort: 'asc' } });
    expect(calls[2]).toMatchObject({ filters: { sort: 'asc' }, next: null });
    calls[1].resolve({ items: rows(100, 5), next: { cursor: 'stale' } });
    calls[2].resolve({ items: rows(50, 1), next: null });
    await waitFor(actor, (s) => s.matches('noMoreItems'));
    expect(actor.getSnapshot().context.items).toEqual([{ id: 50 }]);
  });

  it('changing filters twice while the first page loads keeps only the latest answer', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    actor.send({ type: 'list.setFilters', filters: { sort: 'asc' } });
    expect(calls[0].signal?.aborted).toBe(true);
    calls[0].resolve({ items: rows(1, 9), next: null });
    await Promise.resolve();
    expect(actor.getSnapshot().value).toBe('initialLoading');
    calls[1].resolve({ items: [], next: null });
    await waitFor(actor, (s) => s.matches('noItems'));
  });

  it('refresh reloads from the first page with the same filters', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'desc' } } }).start();
    calls[0].resolve({ items: rows(1, 1), next: null });
    await waitFor(actor, (s) => s.matches('noMoreItems'));
    actor.send({ type: 'list.refresh' });
    expect(calls[1]).toMatchObject({ filters: { sort: 'desc' }, next: null });
    calls[1].resolve({ items: rows(7, 2), next: null });
    await waitFor(actor, (s) => s.matches('noMoreItems'));
    expect(actor.getSnapshot().context.items.map((r) => r.id)).toEqual([7, 8]);
  });

  it('page-number paging works through the same PageRef', async () => {
    const { calls, machine } = controlled();
    const actor = createActor(machine, { input: { filters: { sort: 'asc' } } }).start();
    calls[0].resolve({ items: rows(1, 1), next: nextFromUrl('/api/network/downline_report?page=2') });
    await waitFor(actor, (s) => s.matches('readyToLoadMore'));
    actor.send({ type: 'list.loadMore' });
    expect(calls[1].next).toEqual({ page: 2 });
  });
});

/**
 * The replay's sandbox: the API client, given it as its transport, answers a GET from the snapshot's
 * recorded answers and refuses every other call without sending anything; the event trail gives each
 * page's state at every step.
 */
import * as z from 'zod/mini';
import { get, post, setTransport } from '../../src/api/client';
import { ConnectionError } from '../../src/api/errors';
import { pageSnapshotsAt, sandboxTransport, statePaths } from '../../src/replay/sandbox';

const trail = {
  pages: [{ key: 'wallet.transactions', id: 'wallet.transactions', path: '/wallet/transactions', snapshot: { value: { loaded: 'idle' }, context: { page: 3 } } }],
  events: [
    { at: 't1', actor: 'wallet.transactions', type: 'list.next', event: {}, value: 'loading', snapshot: { value: 'loading', context: { page: 2 } } },
    { at: 't2', actor: 'root', type: 'route.changed', event: {}, value: 'x' },
    { at: 't3', actor: 'wallet.transactions', type: 'list.next', event: {}, value: { loaded: 'idle' }, snapshot: { value: { loaded: 'idle' }, context: { page: 3 } } },
  ],
  answers: [{ at: 't0', path: '/api/wallet/transactions', query: 'cursor=c2&type=payout', data: { data: { items: [{ id: 7 }] } } }],
};

afterEach(() => setTransport(null));

describe('replay sandbox', () => {
  it('answers a recorded GET, refuses anything else, and sends nothing', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const refused: unknown[] = [];
    setTransport(sandboxTransport(trail, (r) => refused.push(r)));
    const items = z.object({ items: z.array(z.object({ id: z.number() })) });
    // Query order does not matter; what the call carries on every request (route, load_modules) is left out.
    expect(await get(items, '/api/wallet/transactions', { type: 'payout', cursor: 'c2' })).toEqual({ items: [{ id: 7 }] });
    await expect(get(items, '/api/wallet/transactions', { cursor: 'c3' })).rejects.toBeInstanceOf(ConnectionError);
    await expect(post(items, '/api/wallet/transfer', { amount: '5' })).rejects.toBeInstanceOf(ConnectionError);
    expect(refused).toEqual([
      { method: 'GET', path: '/api/wallet/transactions', query: 'cursor=c3' },
      { method: 'POST', path: '/api/wallet/transfer', query: '' },
    ]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('gives each page its state at a step of the trail', () => {
    expect(pageSnapshotsAt(trail, 3).get('wallet.transactions')).toMatchObject({ context: { page: 3 } });
    expect(pageSnapshotsAt(trail, 1).get('wallet.transactions')).toMatchObject({ value: 'loading', context: { page: 2 } });
    expect(pageSnapshotsAt(trail, 2).get('wallet.transactions')).toMatchObject({ value: 'loading' });
    expect(statePaths({ loaded: 'idle' })).toEqual(['loaded', 'loaded.idle']);
    expect(statePaths('editing')).toEqual(['editing']);
  });
});

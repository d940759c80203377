import { createActor, fromPromise, waitFor } from 'xstate';
import { createLoadMachine, loadMachine } from '../../src/machines/load.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';

function controlled<T>() {
  const calls: Array<{ params: unknown; resolve: (v: T) => void; reject: (e: unknown) => void }> = [];
  const loader = (params: unknown) =>
    new Promise<T>((resolve, reject) => {
      calls.push({ params, resolve, reject });
    });
  return { calls, loader };
}

describe('load machine (spec §4 generic data load)', () => {
  it('loads on start and keeps the data', async () => {
    const c = controlled<{ total: string }>();
    const actor = createActor(createLoadMachine('summary', c.loader), { input: { params: { month: '2026-01' } } });
    actor.start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(c.calls[0].params).toEqual({ month: '2026-01' });
    c.calls[0].resolve({ total: '10' });
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.data).toEqual({ total: '10' });
  });

  it('waits in initial until load.start when autoStart is off', () => {
    const c = controlled<number>();
    const actor = createActor(createLoadMachine('n', c.loader), { input: { autoStart: false } });
    actor.start();
    expect(actor.getSnapshot().matches('initial')).toBe(true);
    expect(c.calls).toHaveLength(0);
    actor.send({ type: 'load.start', params: 3 });
    expect(c.calls[0].params).toBe(3);
  });

  it('network failure → connectionError; retry loads again', async () => {
    const c = controlled<number>();
    const actor = createActor(createLoadMachine('n', c.loader), { input: {} });
    actor.start();
    c.calls[0].reject(new ConnectionError());
    await waitFor(actor, (s) => s.matches('connectionError'));
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    actor.send({ type: 'load.retry' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    c.calls[1].resolve(1);
    await waitFor(actor, (s) => s.matches('loaded'));
  });

  it('401 → forceLogout; anything else → error', async () => {
    const c = controlled<number>();
    const a = createActor(createLoadMachine('n', c.loader), { input: {} });
    a.start();
    c.calls[0].reject(new ApiError('unauthorized', 401, {}));
    await waitFor(a, (s) => s.matches('forceLogout'));
    const b = createActor(createLoadMachine('n', c.loader), { input: {} });
    b.start();
    c.calls[1].reject(new ApiError('notFound', 404, {}));
    await waitFor(b, (s) => s.matches('error'));
    expect(b.getSnapshot().context.error).toMatchObject({ kind: 'notFound', status: 404 });
  });

  it('refresh keeps the shown data while loading, with new params when given', async () => {
    const c = controlled<number>();
    const actor = createActor(createLoadMachine('n', c.loader), { input: { params: 'a' } });
    actor.start();
    c.calls[0].resolve(1);
    await waitFor(actor, (s) => s.matches('loaded'));
    actor.send({ type: 'load.refresh', params: 'b' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.data).toBe(1);
    expect(c.calls[1].params).toBe('b');
    c.calls[1].resolve(2);
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.data).toBe(2);
  });

  it('the generic machine takes its loader through provide', async () => {
    const actor = createActor(loadMachine.provide({ actors: { load: fromPromise<unknown, unknown>(async () => 'hello') } }), { input: {} });
    actor.start();
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(actor.getSnapshot().context.data).toBe('hello');
  });
});

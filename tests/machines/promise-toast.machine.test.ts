import { createActor, fromPromise, toPromise } from 'xstate';
import { promiseToastMachine, type PromiseToastNotifyParams } from '../../src/machines/promise-toast.machine';
import { ConnectionError } from '../../src/api/errors';

function start(task: () => Promise<unknown>) {
  const toasts: PromiseToastNotifyParams[] = [];
  const machine = promiseToastMachine.provide({
    actions: { notify: (_, p) => void toasts.push(p) },
    actors: { task: fromPromise(task) },
  });
  const actor = createActor(machine, {
    input: { id: 'export', keys: { loading: 'wallet:exporting', success: 'wallet:exported', error: 'wallet:exportFailed' } },
  });
  actor.start();
  return { actor, toasts };
}

describe('promise toast machine (spec §4)', () => {
  it('starts as a loading toast that becomes success', async () => {
    const h = start(() => Promise.resolve('file.csv'));
    expect(h.toasts).toEqual([{ id: 'export', kind: 'loading', key: 'wallet:exporting', values: undefined }]);
    await expect(toPromise(h.actor)).resolves.toEqual({ ok: true, result: 'file.csv', error: null });
    expect(h.toasts.map((t) => [t.id, t.kind, t.key])).toEqual([
      ['export', 'loading', 'wallet:exporting'],
      ['export', 'success', 'wallet:exported'],
    ]);
  });

  it('becomes an error toast when the task fails', async () => {
    const h = start(() => Promise.reject(new ConnectionError()));
    const output = await toPromise(h.actor);
    expect(output.ok).toBe(false);
    expect(output.error?.kind).toBe('connection');
    expect(h.toasts.at(-1)).toMatchObject({ id: 'export', kind: 'error', key: 'wallet:exportFailed' });
  });
});

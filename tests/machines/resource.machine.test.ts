import { createActor, waitFor } from 'xstate';
import * as z from 'zod/mini';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { createDeleteMachine, createResource, UNDO_WINDOW_MS } from '../../src/machines/resource.machine';

type Address = { id: number; street: string; city: string };
type AddressValues = { street: string; city: string };
const schema = z.object({
  street: z.string().check(z.trim(), z.minLength(1, 'validation:required')),
  city: z.string().check(z.trim(), z.minLength(1, 'validation:required')),
});

/** Asks to delete record `id` and confirms. */
function deleteConfirmed(actor: { send: (e: { type: 'delete.request'; id: number } | { type: 'delete.confirm' }) => void }, id: number) {
  actor.send({ type: 'delete.request', id });
  actor.send({ type: 'delete.confirm' });
}

/** An in-memory address book behind the resource's calls. */
function addressBook() {
  const rows = new Map<number, Address>([
    [1, { id: 1, street: '1 Main St', city: 'Springfield' }],
    [2, { id: 2, street: '2 Elm St', city: 'Shelbyville' }],
  ]);
  const bin = new Map<number, Address>();
  let nextId = 3;
  const api = {
    list: async ({ filters }: { filters: { city?: string } }) => ({
      items: [...rows.values()].filter((a) => !filters.city || a.city === filters.city),
      next: null,
    }),
    get: async (id: number) => {
      const row = rows.get(id);
      if (!row) throw new ApiError('notFound', 404, {});
      return row;
    },
    create: async (v: AddressValues) => {
      const row = { id: nextId++, ...v };
      rows.set(row.id, row);
      return row;
    },
    update: async (id: number, v: AddressValues) => {
      const row = { id, ...v };
      rows.set(id, row);
      return row;
    },
    remove: async (id: number) => {
      bin.set(id, rows.get(id)!);
      rows.delete(id);
    },
    restore: async (id: number) => {
      rows.set(id, bin.get(id)!);
      bin.delete(id);
    },
  };
  const resource = createResource({
    id: 'address',
    api,
    schema,
    initialValues: { street: '', city: '' } as AddressValues,
    valuesOf: (a: Address) => ({ street: a.street, city: a.city }),
  });
  return { rows, resource };
}

describe('resource factory', () => {
  it('lists with filters, shows a record, creates and edits through the shared schema', async () => {
    const { rows, resource } = addressBook();
    const list = createActor(resource.list, { input: { filters: { city: 'Springfield' } } }).start();
    await waitFor(list, (s) => s.matches('noMoreItems'));
    expect(list.getSnapshot().context.items.map((a) => a.id)).toEqual([1]);

    const detail = createActor(resource.detail, { input: { params: 2 } }).start();
    await waitFor(detail, (s) => s.matches('loaded'));
    expect(detail.getSnapshot().context.data?.street).toBe('2 Elm St');

    const create = createActor(resource.create).start();
    create.send({ type: 'form.change', field: 'street', value: '3 Oak St' });
    create.send({ type: 'form.submit' });
    expect(create.getSnapshot().context.fieldErrors).toEqual({ city: 'validation:required' });
    create.send({ type: 'form.change', field: 'city', value: 'Ogdenville' });
    create.send({ type: 'form.submit' });
    await waitFor(create, (s) => s.matches('success'));
    expect(rows.get(3)).toEqual({ id: 3, street: '3 Oak St', city: 'Ogdenville' });
    expect(create.getSnapshot().context.values.street).toBe('');

    const edit = createActor(resource.edit, { input: { params: 1 } }).start();
    await waitFor(edit, (s) => s.matches('editing'));
    expect(edit.getSnapshot().context.values).toMatchObject({ street: '1 Main St', city: 'Springfield' });
    edit.send({ type: 'form.change', field: 'city', value: 'Capital City' });
    edit.send({ type: 'form.submit' });
    await waitFor(edit, (s) => s.matches('success'));
    expect(rows.get(1)?.city).toBe('Capital City');
  });

  it('an unknown record is an error screen for detail and edit alike', async () => {
    const { resource } = addressBook();
    const detail = createActor(resource.detail, { input: { params: 99 } }).start();
    await waitFor(detail, (s) => s.matches('error'));
    const edit = createActor(resource.edit, { input: { params: 99 } }).start();
    await waitFor(edit, (s) => s.matches('loadError'));
  });

  it('delete asks first, then can be undone within the window', async () => {
    vi.useFakeTimers();
    try {
      const { rows, resource } = addressBook();
      const removed = vi.fn();
      const restored = vi.fn();
      const notify = vi.fn();
      const actor = createActor(
        resource.remove.provide({ actions: { removed: (_, p) => removed(p), restored: (_, p) => restored(p), notify: (_, p) => notify(p) } }),
      ).start();
      actor.send({ type: 'delete.request', id: 2 });
      expect(actor.getSnapshot().value).toBe('confirming');
      actor.send({ type: 'delete.cancel' });
      expect(actor.getSnapshot().value).toBe('idle');
      expect(rows.has(2)).toBe(true);

      actor.send({ type: 'delete.request', id: 2 });
      actor.send({ type: 'delete.confirm' });
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('deleted'));
      expect(rows.has(2)).toBe(false);
      expect(removed).toHaveBeenCalledWith({ id: 2 });
      expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'common:resource.deletedUndo' });

      actor.send({ type: 'delete.undo' });
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('idle'));
      expect(rows.get(2)?.street).toBe('2 Elm St');
      expect(restored).toHaveBeenCalledWith({ id: 2 });

      deleteConfirmed(actor, 1);
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('deleted'));
      await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS);
      expect(actor.getSnapshot().value).toBe('idle');
      expect(actor.getSnapshot().can({ type: 'delete.undo' })).toBe(false);
      expect(rows.has(1)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('without restore there is no undo', async () => {
    const actor = createActor(createDeleteMachine<number>('noteDelete', { remove: async () => undefined })).start();
    deleteConfirmed(actor, 5);
    await waitFor(actor, (s) => s.matches('deleted'));
    expect(actor.getSnapshot().can({ type: 'delete.undo' })).toBe(false);
  });

  it('delete failures are classified as everywhere: retry, refusal, demo toast, forced logout', async () => {
    const answers: unknown[] = [new ConnectionError(), new ApiError('server', 500, {}), new ApiError('notFound', 404, {})];
    const notify = vi.fn();
    const forceLogout = vi.fn();
    const machine = createDeleteMachine<number>('noteDelete', {
      remove: async () => {
        throw answers.shift();
      },
    }).provide({ actions: { notify: (_, p) => notify(p), forceLogout: () => forceLogout() } });
    const actor = createActor(machine).start();
    deleteConfirmed(actor, 5);
    await waitFor(actor, (s) => s.matches('connectionError'));
    actor.send({ type: 'delete.retry' });
    await waitFor(actor, (s) => s.matches('serverError'));
    actor.send({ type: 'delete.retry' });
    await waitFor(actor, (s) => s.matches('refused'));
    expect(actor.getSnapshot().context.failure).toBe('refused');
    actor.send({ type: 'delete.dismiss' });
    expect(actor.getSnapshot().context.target).toBeNull();

    answers.push(new ApiError('forbidden', 403, { error_code: 'demo_blocked' }), new ApiError('unauthorized', 401, {}));
    deleteConfirmed(actor, 5);
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notify).toHaveBeenCalledWith({ kind: 'error', key: 'common:featureUnavailableInDemo' });
    deleteConfirmed(actor, 5);
    await waitFor(actor, (s) => s.matches('forceLogout'));
    expect(forceLogout).toHaveBeenCalledTimes(1);
  });

  it('a failed undo can be tried again or left', async () => {
    let fail = true;
    const machine = createDeleteMachine<number>('noteDelete', {
      remove: async () => undefined,
      restore: async () => {
        if (fail) throw new ConnectionError();
      },
    });
    const actor = createActor(machine).start();
    deleteConfirmed(actor, 5);
    await waitFor(actor, (s) => s.matches('deleted'));
    actor.send({ type: 'delete.undo' });
    await waitFor(actor, (s) => s.matches('restoreError'));
    fail = false;
    actor.send({ type: 'delete.undo' });
    await waitFor(actor, (s) => s.matches('idle'));
  });
});

describe('resource form page saved in the tab (as MemberPage saves it: on every page snapshot)', () => {
  /** Opens the form page, saves `street`, and answers the page's last saved snapshot and the created rows. */
  async function saveAndLeave(params?: number) {
    const { rows, resource } = addressBook();
    const saved = vi.fn();
    const machine = resource.formPage.provide({ actions: { saved } });
    const page = createActor(machine, { input: params ? { params } : {} }).start();
    let stored = page.getPersistedSnapshot();
    page.subscribe(() => (stored = page.getPersistedSnapshot()));
    const form = () => page.getSnapshot().children.form!;
    if (params) await waitFor(form(), (s) => s.matches('editing'));
    form().send({ type: 'form.change', field: 'street', value: '9 Pine St' });
    form().send({ type: 'form.change', field: 'city', value: 'Ogdenville' });
    form().send({ type: 'form.submit' });
    await vi.waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
    page.stop();
    return { rows, machine, stored };
  }

  it('a new record page opened again is a fresh, editable form that saves a second record', async () => {
    const { rows, machine, stored } = await saveAndLeave();
    const again = createActor(machine, { input: {}, snapshot: stored }).start();
    const form = again.getSnapshot().children.form!;
    expect(form.getSnapshot().value).toBe('editing');
    expect(form.getSnapshot().context.values).toMatchObject({ street: '', city: '' });
    expect(form.getSnapshot().context.saved).toBe(false);
    form.send({ type: 'form.change', field: 'street', value: '10 Birch St' });
    form.send({ type: 'form.change', field: 'city', value: 'Ogdenville' });
    form.send({ type: 'form.submit' });
    await waitFor(form, (s) => s.matches('success'));
    expect([...rows.values()].map((a) => a.street)).toEqual(['1 Main St', '2 Elm St', '9 Pine St', '10 Birch St']);
  });

  it('an edit page opened again is not stuck in the save it left: it can be changed and saved again', async () => {
    const { rows, machine, stored } = await saveAndLeave(2);
    const again = createActor(machine, { input: { params: 2 }, snapshot: stored }).start();
    const form = again.getSnapshot().children.form!;
    expect(form.getSnapshot().hasTag('busy')).toBe(false);
    form.send({ type: 'form.change', field: 'street', value: '22 Elm St' });
    form.send({ type: 'form.submit' });
    await waitFor(form, (s) => s.matches('success'));
    expect(rows.get(2)?.street).toBe('22 Elm St');
  });
});

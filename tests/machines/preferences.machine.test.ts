import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../src/api/errors';
import type { SubmitInput } from '../../src/machines/form.machine';
import { preferencesMachine } from '../../src/machines/preferences.machine';
import type { User } from '../../src/schemas/common.schema';
import type { PreferencesRequest } from '../../src/schemas/preferences.schema';

type Input = SubmitInput<PreferencesRequest, never>;

function start(save: (values: PreferencesRequest) => Promise<User>) {
  const apply = vi.fn();
  const notify = vi.fn();
  const actor = createActor(
    preferencesMachine.provide({
      actors: { submit: fromPromise(({ input }) => save((input as Input).values)) },
      actions: { apply: (_, p) => apply(p), notify: (_, p) => notify(p) },
    }),
  ).start();
  return { actor, apply, notify };
}

describe('preferences machine', () => {
  it('saves, then applies the saved values with the updated user and notifies success', async () => {
    const { actor, apply, notify } = start(async (values) => ({ id: 1, date_format: values.date_format ?? null }) as never);
    actor.send({ type: 'preferences.save', values: { date_format: 'd/m/Y H:i' } });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('success'));
    expect(apply).toHaveBeenCalledWith({ values: { date_format: 'd/m/Y H:i' }, user: { id: 1, date_format: 'd/m/Y H:i' } });
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'dashboard:preferences.saved' });
  });

  it('a second choice sends only that choice, as a refresh of the saved form', async () => {
    const sent: PreferencesRequest[] = [];
    const { actor } = start(async (values) => {
      sent.push(values);
      return { id: 1 } as never;
    });
    actor.send({ type: 'preferences.save', values: { currency: 'EUR' } });
    await waitFor(actor, (s) => s.matches('success'));
    actor.send({ type: 'preferences.save', values: { date_format: 'Y-m-d H:i' } });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    await waitFor(actor, (s) => s.matches('success'));
    expect(sent).toEqual([{ currency: 'EUR' }, { date_format: 'Y-m-d H:i' }]);
  });

  it('connection error keeps the values; retry repeats the same request', async () => {
    const calls: unknown[] = [];
    let fail = true;
    const { actor } = start(async (values) => {
      calls.push(values);
      if (fail) throw new ConnectionError();
      return { id: 1 } as never;
    });
    actor.send({ type: 'preferences.save', values: { currency: 'EUR' } });
    await waitFor(actor, (s) => s.matches('connectionError'));
    fail = false;
    actor.send({ type: 'preferences.retry' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls).toEqual([{ currency: 'EUR' }, { currency: 'EUR' }]);
  });

  it('a refused choice (422) is a validation error with the field; dismiss goes back', async () => {
    const { actor } = start(async () => {
      throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { currency: ['validation:invalidChoice'] } });
    });
    actor.send({ type: 'preferences.save', values: { currency: 'XXX' } });
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(actor.getSnapshot().context.error?.fields).toEqual({ currency: 'validation:invalidChoice' });
    actor.send({ type: 'preferences.dismiss' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a choice the shared schema refuses is never sent', () => {
    const save = vi.fn();
    const { actor } = start(save);
    actor.send({ type: 'preferences.save', values: { currency: '' } });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ currency: 'validation:required' });
    expect(save).not.toHaveBeenCalled();
  });
});

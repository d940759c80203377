import { createActor, waitFor } from 'xstate';
import { createRequestMachine } from '../../src/machines/request.machine';
import { ApiError, ConnectionError } from '../../src/api/errors';

function start(answers: Array<() => Promise<unknown>>) {
  const sent: unknown[] = [];
  let i = 0;
  const machine = createRequestMachine('form', (values: { name: string }) => {
    sent.push(values);
    return answers[i++]();
  });
  const actor = createActor(machine);
  actor.start();
  return { actor, sent };
}

const validation = () =>
  new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { name: ['validation:required', 'validation:tooLong'] } });

describe('request machine (spec §4 request statuses)', () => {
  it('initial → connecting → success with the answer', async () => {
    const h = start([() => Promise.resolve({ ok: 1 })]);
    expect(h.actor.getSnapshot().matches('initial')).toBe(true);
    h.actor.send({ type: 'request.submit', values: { name: 'A' } });
    expect(h.actor.getSnapshot().matches('connecting')).toBe(true);
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(h.actor, (s) => s.matches('success'));
    expect(h.actor.getSnapshot().context.data).toEqual({ ok: 1 });
    expect(h.sent).toEqual([{ name: 'A' }]);
  });

  it('validation error keeps the first message per field and the typed values', async () => {
    const h = start([() => Promise.reject(validation())]);
    h.actor.send({ type: 'request.submit', values: { name: '' } });
    await waitFor(h.actor, (s) => s.matches('validationError'));
    expect(h.actor.getSnapshot().context.error?.fields).toEqual({ name: 'validation:required' });
    expect(h.actor.getSnapshot().context.values).toEqual({ name: '' });
  });

  it('connection and server errors; retry repeats the same request', async () => {
    const h = start([() => Promise.reject(new ConnectionError()), () => Promise.reject(new ApiError('server', 500, {})), () => Promise.resolve(1)]);
    h.actor.send({ type: 'request.submit', values: { name: 'A' } });
    await waitFor(h.actor, (s) => s.matches('connectionError'));
    h.actor.send({ type: 'request.retry' });
    await waitFor(h.actor, (s) => s.matches('serverError'));
    h.actor.send({ type: 'request.retry' });
    await waitFor(h.actor, (s) => s.matches('success'));
    expect(h.sent).toEqual([{ name: 'A' }, { name: 'A' }, { name: 'A' }]);
  });

  it('a request after a success is a refresh, with its own error variants', async () => {
    const h = start([
      () => Promise.resolve(1),
      () => Promise.reject(validation()),
      () => Promise.reject(new ConnectionError()),
      () => Promise.reject(new ApiError('server', 503, {})),
      () => Promise.resolve(2),
    ]);
    h.actor.send({ type: 'request.submit', values: { name: 'A' } });
    await waitFor(h.actor, (s) => s.matches('success'));
    h.actor.send({ type: 'request.submit', values: { name: 'B' } });
    expect(h.actor.getSnapshot().matches('refreshing')).toBe(true);
    expect(h.actor.getSnapshot().hasTag('refreshing')).toBe(true);
    await waitFor(h.actor, (s) => s.matches('validationErrorOnRefresh'));
    h.actor.send({ type: 'request.retry' });
    await waitFor(h.actor, (s) => s.matches('connectionErrorOnRefresh'));
    h.actor.send({ type: 'request.retry' });
    await waitFor(h.actor, (s) => s.matches('serverErrorOnRefresh'));
    expect(h.actor.getSnapshot().context.data).toBe(1);
    h.actor.send({ type: 'request.retry' });
    await waitFor(h.actor, (s) => s.matches('success'));
    expect(h.actor.getSnapshot().context.data).toBe(2);
  });

  it('reset clears everything', async () => {
    const h = start([() => Promise.reject(new ConnectionError())]);
    h.actor.send({ type: 'request.submit', values: { name: 'A' } });
    await waitFor(h.actor, (s) => s.matches('connectionError'));
    h.actor.send({ type: 'request.reset' });
    expect(h.actor.getSnapshot().matches('initial')).toBe(true);
    expect(h.actor.getSnapshot().context).toEqual({ values: null, data: null, error: null });
  });
});

import { createActor, waitFor } from 'xstate';
import * as z from 'zod/mini';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { createFormMachine, fieldErrorsOf, type SubmitInput } from '../../src/machines/form.machine';
import type { OtpSent } from '../../src/schemas/auth.schema';

type Values = { email: string; note: string };
const schema = z.object({
  email: z.string().check(z.trim(), z.minLength(1, 'validation:required'), z.email('validation:invalidEmail')),
  note: z.string().check(z.maxLength(10)),
});
const validation = (errors: Record<string, string[]>) => new ApiError('badRequest', 422, { error_code: 'validation_error', errors });
const SENT: OtpSent = { message: 'sent', destination: 'n***@example.com', expires_in: 600, resend_in: 2 };

type Options = Partial<Parameters<typeof createFormMachine<Values, { passwordRequired: boolean }, { ok: boolean }>>[0]>;

/** A form whose calls are recorded; `answers` decides each submission (a value or a thrown error). */
function form(options: Options = {}, answers: Array<unknown> = [{ ok: true }]) {
  const calls: SubmitInput<Values, { passwordRequired: boolean }>[] = [];
  const codes: SubmitInput<Values, { passwordRequired: boolean }>[] = [];
  const notify = vi.fn();
  const apply = vi.fn();
  const forceLogout = vi.fn();
  let n = 0;
  const machine = createFormMachine({
    id: 'test',
    initialValues: { email: '', note: '' } as Values,
    schema,
    submit: async (input) => {
      calls.push(input);
      const answer = answers[Math.min(n++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer as { ok: boolean };
    },
    sendCode: async (input) => {
      codes.push(input);
      return SENT;
    },
    successKey: 'account:saved',
    ...options,
  }).provide({
    actions: { notify: (_, p) => notify(p), apply: (_, p) => apply(p), forceLogout: () => forceLogout() },
  });
  const actor = createActor(machine).start();
  const type = (field: 'email' | 'note' | 'password' | 'otp', value: string) => actor.send({ type: 'form.change', field, value });
  return { actor, calls, codes, notify, apply, forceLogout, type };
}

describe('fieldErrorsOf: the shared schema gives i18n keys per field', () => {
  it("uses the schema's own key, else the key of the problem's kind", () => {
    expect(fieldErrorsOf(schema, { email: '', note: '' })).toEqual({ email: 'validation:required' });
    expect(fieldErrorsOf(schema, { email: 'nope', note: 'x'.repeat(11) })).toEqual({ email: 'validation:invalidEmail', note: 'validation:tooLong' });
    const strict = z.strictObject({ size: z.enum(['s', 'm']), count: z.number().check(z.minimum(1)) });
    expect(fieldErrorsOf(strict, { size: 'xl', count: 0, extra: 1 })).toEqual({
      size: 'validation:invalidChoice',
      count: 'validation:tooSmall',
      '': 'validation:unknownField',
    });
    expect(fieldErrorsOf(strict, { count: 2 })).toEqual({ size: 'validation:required' });
  });
});

describe('form machine', () => {
  it('checks the values with the schema before sending; nothing typed is lost', () => {
    const { actor, calls, type } = form();
    type('email', 'not-an-email');
    type('note', 'hello');
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'validation:invalidEmail' });
    expect(actor.getSnapshot().context.values).toMatchObject({ email: 'not-an-email', note: 'hello' });
    type('email', 'a@example.com');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
    expect(calls).toEqual([]);
  });

  it('success applies the answer and notifies; the values stay unless the form clears on success', async () => {
    const { actor, apply, notify, type } = form();
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('connecting');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('success'));
    expect(apply).toHaveBeenCalledWith({ values: { email: 'a@example.com', note: '' }, result: { ok: true } });
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'account:saved' });
    expect(actor.getSnapshot().context.values.email).toBe('a@example.com');

    const cleared = form({ clearOnSuccess: true });
    cleared.type('email', 'a@example.com');
    cleared.actor.send({ type: 'form.submit' });
    await waitFor(cleared.actor, (s) => s.matches('success'));
    expect(cleared.actor.getSnapshot().context.values.email).toBe('');
  });

  it("the server's field map becomes field errors (validationError); an edit goes back to editing", async () => {
    const { actor, type } = form({}, [validation({ email: ['validation:emailTaken'] })]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'validation:emailTaken' });
    expect(actor.getSnapshot().context.failure).toBe('validation');
    expect(actor.getSnapshot().can({ type: 'form.retry' })).toBe(false);
    type('email', 'b@example.com');
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({});
  });

  it('connection and server trouble offer retry with the same values; dismiss keeps them', async () => {
    const { actor, calls, type } = form({}, [new ConnectionError(), new ApiError('server', 500, {}), { ok: true }]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('connectionError'));
    actor.send({ type: 'form.retry' });
    await waitFor(actor, (s) => s.matches('serverError'));
    actor.send({ type: 'form.dismiss' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.values.email).toBe('a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls.map((c) => c.values.email)).toEqual(['a@example.com', 'a@example.com', 'a@example.com']);
  });

  it('sending again after a success is a refresh, with the on-refresh error statuses', async () => {
    const { actor, type } = form({}, [{ ok: true }, new ConnectionError(), new ApiError('server', 500, {}), validation({ note: ['validation:tooLong'] })]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    await waitFor(actor, (s) => s.matches('connectionErrorOnRefresh'));
    actor.send({ type: 'form.retry' });
    await waitFor(actor, (s) => s.matches('serverErrorOnRefresh'));
    actor.send({ type: 'form.retry' });
    await waitFor(actor, (s) => s.matches('validationErrorOnRefresh'));
  });

  it('save { values } sends exactly those values at once', async () => {
    const { actor, calls } = form();
    actor.send({ type: 'form.save', values: { email: 'z@example.com' } });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls[0].values).toEqual({ email: 'z@example.com', note: '' });
  });

  it('loads first (with the load statuses), edits what was loaded, and reset loads again', async () => {
    let loads = 0;
    const { actor } = form({
      load: async () => {
        loads += 1;
        if (loads === 1) throw new ConnectionError();
        if (loads === 2) throw new ApiError('server', 500, {});
        return { passwordRequired: false };
      },
      valuesFrom: (_, values) => ({ ...values, email: 'loaded@example.com' }),
    });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('loadConnectionError'));
    actor.send({ type: 'form.retry' });
    await waitFor(actor, (s) => s.matches('loadError'));
    actor.send({ type: 'form.retry' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.values.email).toBe('loaded@example.com');
    expect(actor.getSnapshot().context.loaded).toEqual({ passwordRequired: false });
    actor.send({ type: 'form.reset' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('editing'));
    expect(loads).toBe(4);
  });
});

describe('composable steps', () => {
  it('password: required, kept apart from the values, sent with the request, gone after success', async () => {
    const { actor, calls, type } = form({ steps: { password: true } }, [validation({ password: ['validation:invalidPassword'] }), { ok: true }]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation:required' });
    type('password', 'wrong');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation:invalidPassword' });
    expect(actor.getSnapshot().context.password).toBe('wrong');
    type('password', 'right');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls.map((c) => c.password)).toEqual(['wrong', 'right']);
    expect(calls[1].values).toEqual({ email: 'a@example.com', note: '' });
    expect(actor.getSnapshot().context.password).toBe('');
  });

  it('password: the loaded settings may switch it off', async () => {
    const { actor, calls, type } = form({ load: async () => ({ passwordRequired: false }), steps: { password: (l) => !!l?.passwordRequired } });
    await waitFor(actor, (s) => s.matches('editing'));
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls[0].password).toBeNull();
  });

  it('one-time code: sends a code for the values, checks its format, verifies it, and can resend after the countdown', async () => {
    vi.useFakeTimers();
    try {
      const { actor, calls, codes, notify, type } = form({ steps: { code: true } }, [validation({ otp: ['validation:otpInvalid'] }), { ok: true }]);
      type('email', 'a@example.com');
      actor.send({ type: 'form.submit' });
      await vi.waitFor(() => expect(actor.getSnapshot().matches({ code: 'editing' })).toBe(true));
      expect(codes[0].values).toEqual({ email: 'a@example.com', note: '' });
      expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'auth:otpSent', values: { destination: 'n***@example.com' } });
      expect(actor.getSnapshot().context.resendIn).toBe(2);
      expect(actor.getSnapshot().can({ type: 'otp.resend' })).toBe(false);

      type('otp', '12');
      actor.send({ type: 'form.verify' });
      expect(actor.getSnapshot().matches({ code: 'invalid' })).toBe(true);
      expect(actor.getSnapshot().context.fieldErrors.otp).toBe('validation:otpFormat');
      expect(calls).toEqual([]);

      type('otp', '111111');
      actor.send({ type: 'form.verify' });
      expect(actor.getSnapshot().value).toBe('verifying');
      await vi.waitFor(() => expect(actor.getSnapshot().matches({ code: 'invalid' })).toBe(true));
      expect(actor.getSnapshot().context.fieldErrors.otp).toBe('validation:otpInvalid');

      await vi.advanceTimersByTimeAsync(2000);
      expect(actor.getSnapshot().context.resendIn).toBe(0);
      actor.send({ type: 'otp.resend' });
      expect(actor.getSnapshot().value).toBe('resending');
      await vi.waitFor(() => expect(actor.getSnapshot().matches({ code: 'editing' })).toBe(true));
      expect(codes).toHaveLength(2);
      expect(actor.getSnapshot().context.values.otp).toBe('');

      type('otp', '222222');
      actor.send({ type: 'form.verify' });
      await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('success'));
      expect(calls.map((c) => c.code)).toEqual(['111111', '222222']);
      expect(calls[1].values).toEqual({ email: 'a@example.com', note: '' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('one-time code: too many wrong codes asks for a new one; cancel goes back to the form', async () => {
    const { actor, type } = form({ steps: { code: true } }, [validation({ otp: ['validation:otpTooManyAttempts'] })]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('code'));
    type('otp', '111111');
    actor.send({ type: 'form.verify' });
    await waitFor(actor, (s) => s.matches({ code: 'tooManyAttempts' }));
    expect(actor.getSnapshot().context.resendIn).toBe(0);
    expect(actor.getSnapshot().can({ type: 'otp.resend' })).toBe(true);
    actor.send({ type: 'form.cancel' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.values.email).toBe('a@example.com');
  });

  it('idempotency: one key per attempt; a retry reuses it, an edit or a refusal starts a new one', async () => {
    const { actor, calls, type } = form({ steps: { idempotent: true } }, [
      new ConnectionError(),
      new ConnectionError(),
      validation({ note: ['validation:tooLong'] }),
      { ok: true },
    ]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('connectionError'));
    actor.send({ type: 'form.retry' });
    await waitFor(actor, (s) => s.matches('connectionError'));
    type('note', 'edited');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    const keys = calls.map((c) => c.key);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set(keys).size).toBe(3);
    expect(actor.getSnapshot().context.idempotencyKey).toBeNull();
  });

  it('idempotency: off, no key is sent', async () => {
    const { actor, calls, type } = form();
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls[0].key).toBeNull();
  });

  it('demo blocked: the featureUnavailableInDemo toast, and the form stays as it was', async () => {
    const { actor, notify, type } = form({}, [new ApiError('forbidden', 403, { error_code: 'demo_blocked' })]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(notify).toHaveBeenCalledWith({ kind: 'error', key: 'common:featureUnavailableInDemo' });
    expect(actor.getSnapshot().context.failure).toBe('demoBlocked');
    expect(actor.getSnapshot().context.values.email).toBe('a@example.com');
  });

  it('401: forced logout, from the load and from a submission', async () => {
    const submitted = form({}, [new ApiError('unauthorized', 401, {})]);
    submitted.type('email', 'a@example.com');
    submitted.actor.send({ type: 'form.submit' });
    await waitFor(submitted.actor, (s) => s.matches('forceLogout'));
    expect(submitted.forceLogout).toHaveBeenCalledTimes(1);
    expect(submitted.actor.getSnapshot().hasTag('error')).toBe(true);
    expect(submitted.actor.getSnapshot().can({ type: 'form.submit' })).toBe(false);

    const loaded = form({ load: () => Promise.reject(new ApiError('unauthorized', 401, {})) });
    await waitFor(loaded.actor, (s) => s.matches('forceLogout'));
    expect(loaded.forceLogout).toHaveBeenCalledTimes(1);
  });

  it('401 while verifying a code is a forced logout too', async () => {
    const { actor, forceLogout, type } = form({ steps: { code: true } }, [new ApiError('unauthorized', 401, {})]);
    type('email', 'a@example.com');
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('code'));
    type('otp', '111111');
    actor.send({ type: 'form.verify' });
    await waitFor(actor, (s) => s.matches('forceLogout'));
    expect(forceLogout).toHaveBeenCalled();
  });
});

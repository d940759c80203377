import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/errors';
import { fieldErrorsOf, type SubmitInput } from '../../../src/machines/form.machine';
import { passwordChangeMachine } from '../../../src/machines/account/password-change.machine';
import { passwordChangeSchema, type PasswordChangeRequest, type PasswordChangeSettings } from '../../../src/schemas/account.schema';

const POLICY = { enabled: true, min_length: 10, lowercase: true, uppercase: true, number: true, special: true };

describe('passwordChangeSchema: the company policy and the confirmation', () => {
  it('names the first unmet rule of the new password and a different confirmation', () => {
    const schema = passwordChangeSchema(POLICY);
    expect(fieldErrorsOf(schema, { current_password: 'x', password: 'Abcdefghij1', password_confirmation: 'Abcdefghij1' })).toEqual({
      password: 'validation:passwordSpecial',
    });
    expect(fieldErrorsOf(schema, { current_password: 'x', password: 'Abc-1', password_confirmation: 'Abc-1' })).toEqual({
      password: 'validation:passwordMinLength',
    });
    expect(fieldErrorsOf(schema, { current_password: 'x', password: 'Abcdefghi-1', password_confirmation: 'Abcdefghi-2' })).toEqual({
      password_confirmation: 'validation:passwordMismatch',
    });
    expect(fieldErrorsOf(schema, { current_password: '', password: '', password_confirmation: '' })).toEqual({
      current_password: 'validation:required',
      password: 'validation:required',
      password_confirmation: 'validation:required',
    });
    expect(fieldErrorsOf(schema, { current_password: 'x', password: 'Abcdefghi-1', password_confirmation: 'Abcdefghi-1' })).toEqual({});
  });

  it('a policy switched off asks only for some password', () => {
    const schema = passwordChangeSchema({ ...POLICY, enabled: false });
    expect(fieldErrorsOf(schema, { current_password: 'x', password: 'a', password_confirmation: 'a' })).toEqual({});
  });
});

function start(submit: (values: PasswordChangeRequest) => Promise<{ message: string }>) {
  const calls: PasswordChangeRequest[] = [];
  const notify = vi.fn();
  const actor = createActor(
    passwordChangeMachine.provide({
      actors: {
        load: fromPromise(async (): Promise<PasswordChangeSettings> => ({ password_policy: POLICY })),
        submit: fromPromise(({ input }) => {
          const { values } = input as SubmitInput<PasswordChangeRequest, PasswordChangeSettings>;
          calls.push(values);
          return submit(values);
        }),
      },
      actions: { notify: (_, p) => notify(p) },
    }),
  ).start();
  const type = (field: keyof PasswordChangeRequest, value: string) => actor.send({ type: 'passwordChange.change', field, value });
  const fill = (current: string, password: string, confirmation = password) => {
    type('current_password', current);
    type('password', password);
    type('password_confirmation', confirmation);
  };
  return { actor, calls, notify, fill };
}

describe('passwordChangeMachine', () => {
  it('loads the policy, keeps the new password among the values and checks it before sending', async () => {
    const { actor, calls, fill } = start(async () => ({ message: 'ok' }));
    await waitFor(actor, (s) => s.matches('editing'));
    fill('Old-pass-1', 'weakpass1');
    expect(actor.getSnapshot().context.values.password).toBe('weakpass1');
    expect(actor.getSnapshot().context.password).toBe('');
    actor.send({ type: 'passwordChange.submit' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'validation:passwordMinLength' });
    expect(calls).toEqual([]);
  });

  it('sends the three values; success empties the form and asks for the success toast', async () => {
    const { actor, calls, notify, fill } = start(async () => ({ message: 'ok' }));
    await waitFor(actor, (s) => s.matches('editing'));
    fill('Old-pass-1', 'Better-pass-22');
    actor.send({ type: 'passwordChange.submit' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(calls).toEqual([{ current_password: 'Old-pass-1', password: 'Better-pass-22', password_confirmation: 'Better-pass-22' }]);
    expect(actor.getSnapshot().context.values).toMatchObject({ current_password: '', password: '', password_confirmation: '' });
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'account:password.changed' });
  });

  it('a wrong current password is its field error and every value stays', async () => {
    const { actor, fill } = start(async () => {
      throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { current_password: ['validation:invalidPassword'] } });
    });
    await waitFor(actor, (s) => s.matches('editing'));
    fill('Wrong-pass-1', 'Better-pass-22');
    actor.send({ type: 'passwordChange.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    const c = actor.getSnapshot().context;
    expect(c.fieldErrors).toEqual({ current_password: 'validation:invalidPassword' });
    expect(c.values).toMatchObject({ current_password: 'Wrong-pass-1', password: 'Better-pass-22', password_confirmation: 'Better-pass-22' });
  });
});

import { fireEvent, screen } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { SubmitInput } from '../../../src/machines/form.machine';
import { passwordChangeMachine } from '../../../src/machines/account/password-change.machine';
import type { PasswordChangeRequest, PasswordChangeSettings } from '../../../src/schemas/account.schema';
import { PasswordView } from '../../../src/views/account/password.view';
import { renderUi } from '../../support/render-ui';

const SETTINGS: PasswordChangeSettings = {
  password_policy: { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false },
};
const CHANGED = { message: 'Your password was changed.' };

function show(submit: (values: PasswordChangeRequest) => Promise<{ message: string }>, settings: () => Promise<PasswordChangeSettings> = async () => SETTINGS) {
  const request = vi.fn(submit);
  const notify = vi.fn();
  const actor = createActor(
    passwordChangeMachine.provide({
      actors: {
        load: fromPromise(settings),
        submit: fromPromise(({ input }) => request((input as SubmitInput<PasswordChangeRequest, PasswordChangeSettings>).values)),
      },
      actions: { notify: (_, p) => notify(p) },
    }),
  ).start();
  renderUi(<PasswordView actor={actor} />);
  return { actor, request, notify };
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const submitButton = () => screen.getByRole('button', { name: 'Change password' });

async function fill(current: string, password: string, confirmation = password) {
  fireEvent.change(await screen.findByLabelText('Current password'), { target: { value: current } });
  fireEvent.change(field('New password'), { target: { value: password } });
  fireEvent.change(field('Confirm new password'), { target: { value: confirmation } });
  fireEvent.click(submitButton());
}

describe('change password page', () => {
  it('checks the policy and the confirmation before sending, with the rules listed', async () => {
    const { request } = show(async () => CHANGED);
    await fill('', 'short', 'other');
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(screen.getByText('The password is too short.')).toBeTruthy();
    expect(screen.getByText('At least 8 characters')).toBeTruthy();
    expect(screen.getByText('An uppercase letter').closest('li')).not.toHaveAttribute('data-met');
    expect(screen.getByText('A lowercase letter').closest('li')).toHaveAttribute('data-met');
    expect(request).not.toHaveBeenCalled();

    fireEvent.change(field('Current password'), { target: { value: 'Old-pass-1' } });
    fireEvent.change(field('New password'), { target: { value: 'Better-pass-2' } });
    fireEvent.click(submitButton());
    expect(await screen.findByText('The passwords do not match.')).toBeTruthy();
    expect(request).not.toHaveBeenCalled();
  });

  it('a wrong current password is a message on that field and keeps what was typed', async () => {
    show(async () => {
      throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { current_password: ['validation:invalidPassword'] } });
    });
    await fill('Wrong-pass-1', 'Better-pass-2');
    expect(await screen.findByText('The password is incorrect.')).toBeTruthy();
    expect(field('Current password').closest('.mantine-PasswordInput-root')).toHaveTextContent('The password is incorrect.');
    expect(field('Current password').value).toBe('Wrong-pass-1');
    expect(field('New password').value).toBe('Better-pass-2');
    expect(field('Confirm new password').value).toBe('Better-pass-2');
  });

  it('disables the form while the change is sent', async () => {
    let answer: (v: { message: string }) => void = () => {};
    show(() => new Promise((resolve) => (answer = resolve)));
    await fill('Old-pass-1', 'Better-pass-2');
    await vi.waitFor(() => expect(submitButton()).toBeDisabled());
    expect(field('Current password')).toBeDisabled();
    answer(CHANGED);
    expect(await screen.findByText('Your password was changed. Other devices have been signed out.')).toBeTruthy();
  });

  it('after success the form is empty and the success toast is asked for', async () => {
    const { request, notify } = show(async () => CHANGED);
    await fill('Old-pass-1', 'Better-pass-2');
    expect(await screen.findByRole('status')).toHaveTextContent('Your password was changed.');
    expect(request).toHaveBeenCalledWith({ current_password: 'Old-pass-1', password: 'Better-pass-2', password_confirmation: 'Better-pass-2' });
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'account:password.changed' });
    expect(field('Current password').value).toBe('');
    expect(field('New password').value).toBe('');
    expect(field('Confirm new password').value).toBe('');
    expect(submitButton()).toBeEnabled();
  });

  it('a lost connection keeps the form and Try again sends the same change', async () => {
    let fail = true;
    const { request } = show(async () => {
      if (fail) throw new ConnectionError();
      return CHANGED;
    });
    await fill('Old-pass-1', 'Better-pass-2');
    expect(await screen.findByText('We could not reach the server. Check your connection and try again.')).toBeTruthy();
    expect(field('New password').value).toBe('Better-pass-2');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password was changed.');
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('a server error says so and offers to try again', async () => {
    const { request } = show(async () => {
      throw new ApiError('server', 500, { error_code: 'server_error', message: 'boom' });
    });
    await fill('Old-pass-1', 'Better-pass-2');
    expect(await screen.findByText('Something went wrong on our side. Try again in a moment; nothing you typed was lost.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/Something went wrong/)).toBeNull();
    expect(field('Current password').value).toBe('Old-pass-1');
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('too many attempts says to wait', async () => {
    show(async () => {
      throw new ApiError('badRequest', 429, { error_code: 'rate_limited', message: 'Too many attempts. Try again in 60 s.' });
    });
    await fill('Old-pass-1', 'Better-pass-2');
    expect(await screen.findByText('Too many attempts. Wait a few minutes before trying again.')).toBeTruthy();
  });

  it('a policy that fails to load shows the error screen with retry', async () => {
    let fail = true;
    show(async () => CHANGED, async () => {
      if (fail) throw new ConnectionError();
      return SETTINGS;
    });
    const retry = await screen.findByRole('button', { name: /retry|try again/i });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByLabelText('Current password')).toBeTruthy();
  });
});

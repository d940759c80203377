import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { passwordResetMachine } from '../../src/machines/password-reset.machine';
import { PasswordForgotOtpView } from '../../src/views/public/password-forgot-otp.view';
import { PasswordForgotView } from '../../src/views/public/password-forgot.view';
import { PasswordResetSuccessView } from '../../src/views/public/password-reset-success.view';
import { PasswordResetView } from '../../src/views/public/password-reset.view';
import { apiError, otpSent, resetFields } from '../support/auth-flows';
import { startAuthFlow } from '../support/auth-flow-view';
import { renderUi } from '../support/render-ui';

function setup() {
  return startAuthFlow(passwordResetMachine, { sources: ['loadResetFields', 'sendResetOtp', 'checkResetOtp', 'resetPassword'], silentTicker: true });
}

type T = ReturnType<typeof setup>;

async function toCode(t: T) {
  await t.answer(() => t.ctl.resolve('loadFields', { fields: resetFields(), phoneCode: '34' }));
  await act(async () => {
    t.actor.send({ type: 'reset.change', field: 'email', value: 'jane@example.com' });
    t.actor.send({ type: 'reset.send' });
  });
  await t.answer(() => t.ctl.resolve('send', otpSent({ destination: 'j***@example.com', resend_in: 30 })));
}

async function toChoose(t: T) {
  await toCode(t);
  await act(async () => {
    t.actor.send({ type: 'reset.change', field: 'otp', value: '123456' });
    t.actor.send({ type: 'reset.verify' });
  });
  await t.answer(() => t.ctl.resolve('check', { valid: true }));
}

describe('password reset views', () => {
  it('loader, then connection error with retry', async () => {
    const t = setup();
    renderUi(<PasswordForgotView actor={t.actor} />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    await t.answer(() => t.ctl.reject('loadFields', apiError.connection()));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(t.ctl.callsOf('loadResetFields')).toHaveLength(2);
  });

  it('asks by e-mail or mobile when the company allows both, and sends the code', async () => {
    const t = setup();
    renderUi(<PasswordForgotView actor={t.actor} />);
    await t.answer(() => t.ctl.resolve('loadFields', { fields: resetFields({ reset_password_based_on: 'both' }), phoneCode: '34' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Mobile' }));
    await userEvent.type(screen.getByRole('textbox', { name: /Mobile number/ }), '600123456{Enter}');
    expect(t.ctl.lastInput('sendResetOtp')).toEqual({ reset_using: 'mobile_code', mobile_code: '34', mobile: '600123456' });
    expect(screen.getByRole('button', { name: 'Send reset code' })).toHaveAttribute('data-loading');
  });

  it('asks only the e-mail when resets go by e-mail', async () => {
    const t = setup();
    renderUi(<PasswordForgotView actor={t.actor} />);
    await t.answer(() => t.ctl.resolve('loadFields', { fields: resetFields({ reset_password_based_on: 'email' }), phoneCode: '34' }));
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
  });

  it('shows a rate limit from the server while asking for a code', async () => {
    const t = setup();
    renderUi(<PasswordForgotView actor={t.actor} />);
    await t.answer(() => t.ctl.resolve('loadFields', { fields: resetFields({ reset_password_based_on: 'email' }), phoneCode: '34' }));
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'jane@example.com{Enter}');
    await t.answer(() => t.ctl.reject('send', apiError.rateLimited(1)));
    expect(screen.getByRole('alert')).toHaveTextContent('Please try again in 1 second.');
  });

  it('code step: destination, countdown, invalid code message, then the new password step', async () => {
    const t = setup();
    renderUi(<PasswordForgotOtpView actor={t.actor} />);
    await toCode(t);
    expect(screen.getByText('Enter the 6-digit code we sent to j***@example.com.')).toBeInTheDocument();
    expect(screen.getByText('You can ask for a new code in 30 seconds')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: /Verification code/ }), '999999{Enter}');
    expect(t.ctl.lastInput('checkResetOtp')).toEqual({ reset_using: 'email', email: 'jane@example.com', otp: '999999' });
    await t.answer(() => t.ctl.resolve('check', { valid: false }));
    expect(screen.getByText('This code is not correct.')).toBeInTheDocument();
    const code = screen.getByRole('textbox', { name: /Verification code/ });
    await userEvent.clear(code);
    await userEvent.type(code, '123456{Enter}');
    await t.answer(() => t.ctl.resolve('check', { valid: true }));
    expect(screen.getByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/reset' });
  });

  it('Back from the code step returns to the request with the e-mail kept', async () => {
    const t = setup();
    renderUi(<PasswordForgotOtpView actor={t.actor} />);
    await toCode(t);
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveValue('jane@example.com');
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/password/forgot' });
  });

  it('new password: live policy checklist, mismatch error, then the reset body', async () => {
    const t = setup();
    renderUi(<PasswordResetView actor={t.actor} />);
    await toChoose(t);
    const rules = screen.getByLabelText('Your password needs:');
    expect(within(rules).getAllByRole('listitem')).toHaveLength(4);
    expect(within(rules).getByText(/At least 8 characters/)).toHaveTextContent('missing');
    await userEvent.type(screen.getByLabelText(/^New password/), 'Better-pass1');
    expect(within(rules).getByText(/At least 8 characters/)).toHaveTextContent('done');
    expect(within(rules).getByText(/A number/)).toHaveTextContent('done');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'Better-pass2{Enter}');
    expect(screen.getByText('The passwords do not match.')).toBeInTheDocument();
    expect(t.ctl.callsOf('resetPassword')).toHaveLength(0);
    const confirm = screen.getByLabelText(/^Confirm password/);
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'Better-pass1{Enter}');
    expect(t.ctl.lastInput('resetPassword')).toEqual({
      reset_using: 'email',
      email: 'jane@example.com',
      otp: '123456',
      password: 'Better-pass1',
      password_confirmation: 'Better-pass1',
    });
    expect(screen.getByRole('button', { name: 'Reset password' })).toHaveAttribute('data-loading');
    await t.answer(() => t.ctl.resolve('reset', { message: 'ok' }));
    expect(screen.getByRole('heading', { name: 'Password changed' })).toBeInTheDocument();
  });

  it('server errors on the new password show next to it', async () => {
    const t = setup();
    renderUi(<PasswordResetView actor={t.actor} />);
    await toChoose(t);
    await userEvent.type(screen.getByLabelText(/^New password/), 'Better-pass1');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'Better-pass1{Enter}');
    await t.answer(() => t.ctl.reject('reset', apiError.validation({ password: 'validation:passwordSpecial' })));
    expect(screen.getByText('The password needs a special character.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^New password/)).toHaveValue('Better-pass1');
  });

  it('success page signs in from /login', async () => {
    const t = setup();
    renderUi(<PasswordResetSuccessView actor={t.actor} />);
    await toChoose(t);
    await act(async () => {
      t.actor.send({ type: 'reset.change', field: 'password', value: 'Better-pass1' });
      t.actor.send({ type: 'reset.change', field: 'password_confirmation', value: 'Better-pass1' });
      t.actor.send({ type: 'reset.submit' });
    });
    await t.answer(() => t.ctl.resolve('reset', { message: 'ok' }));
    expect(screen.getByText(/You can now sign in/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login' });
  });
});

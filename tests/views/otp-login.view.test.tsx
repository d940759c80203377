import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { otpLoginMachine } from '../../src/machines/otp-login.machine';
import { LoginOtpView } from '../../src/views/public/login-otp.view';
import { apiError, loginFields, otpSent } from '../support/auth-flows';
import { loginResponse } from '../support/session-fixtures';
import { startAuthFlow } from '../support/auth-flow-view';
import { renderUi } from '../support/render-ui';

function setup(search = '') {
  return startAuthFlow(otpLoginMachine, { sources: ['loadLoginFields', 'sendOtp', 'loginWithOtp'], silentTicker: true, search });
}

async function loaded(fields = loginFields(), search = '') {
  const t = setup(search);
  renderUi(<LoginOtpView actor={t.actor} />);
  await t.answer(() => t.ctl.resolve('loadFields', { fields, phoneCode: '34' }));
  return t;
}

async function atCode(resendIn = 2) {
  const t = await loaded();
  await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'jane@example.com{Enter}');
  await t.answer(() => t.ctl.resolve('send', otpSent({ destination: 'j***@example.com', resend_in: resendIn })));
  return t;
}

describe('LoginOtpView', () => {
  it('loader, then a server error with retry', async () => {
    const t = setup();
    renderUi(<LoginOtpView actor={t.actor} />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    await t.answer(() => t.ctl.reject('loadFields', apiError.server()));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(t.ctl.callsOf('loadLoginFields')).toHaveLength(2);
  });

  it('says when code sign-in is not offered and links to password sign-in', async () => {
    await loaded(loginFields({ login_with_otp: false }));
    expect(screen.getByText(/not available/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in with your password' })).toHaveAttribute('href', '/login');
  });

  it('offers e-mail and mobile only (no username) and is prefilled from the link', async () => {
    await loaded(loginFields(), '?login_using=email&email=jane%40example.com');
    expect(screen.getByRole('radio', { name: 'E-mail' })).toBeChecked();
    expect(screen.queryByRole('radio', { name: 'Username' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveValue('jane@example.com');
  });

  it('sends the code for a mobile with its phone code', async () => {
    const t = await loaded();
    await userEvent.click(screen.getByRole('radio', { name: 'Mobile' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /Code/ }), '1');
    await userEvent.type(screen.getByRole('textbox', { name: /Mobile number/ }), '5551234{Enter}');
    expect(screen.getByRole('button', { name: 'Send code' })).toHaveAttribute('data-loading');
    expect(t.ctl.lastInput('sendOtp')).toEqual({ login_using: 'mobile_code', mobile_code: '1', mobile: '5551234' });
  });

  it('shows the masked destination and a countdown, then the resend button', async () => {
    const t = await atCode(2);
    expect(screen.getByText('Enter the 6-digit code we sent to j***@example.com.')).toBeInTheDocument();
    expect(screen.getByText('You can ask for a new code in 2 seconds')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a new code' })).not.toBeInTheDocument();
    await act(async () => t.actor.send({ type: 'otp.tick' }));
    expect(screen.getByText('You can ask for a new code in 1 second')).toBeInTheDocument();
    await act(async () => t.actor.send({ type: 'otp.tick' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(t.ctl.callsOf('sendOtp')).toHaveLength(2);
    expect(t.notify).toHaveBeenCalledWith({ kind: 'success', key: 'auth:otpSent', values: { destination: 'j***@example.com' } });
  });

  it('typing the code and pressing Enter verifies it and signs in', async () => {
    const t = await atCode();
    await userEvent.type(screen.getByRole('textbox', { name: /Verification code/ }), '12a3456{Enter}');
    expect(t.ctl.lastInput('loginWithOtp')).toEqual({ login_using: 'email', email: 'jane@example.com', otp: '123456' });
    await t.answer(() => t.ctl.resolve('verify', loginResponse()));
    expect(t.actor.getSnapshot().output).toMatchObject({ type: 'loggedIn' });
  });

  it('shows an expired code next to the field', async () => {
    const t = await atCode();
    await userEvent.type(screen.getByRole('textbox', { name: /Verification code/ }), '123456{Enter}');
    await t.answer(() => t.ctl.reject('verify', apiError.validation({ otp: 'validation:otpExpired' })));
    expect(screen.getByText('This code has expired. Ask for a new one.')).toBeInTheDocument();
  });

  it('after too many wrong codes explains a new code is needed, identifier kept', async () => {
    const t = await atCode();
    await userEvent.type(screen.getByRole('textbox', { name: /Verification code/ }), '123456{Enter}');
    await t.answer(() => t.ctl.reject('verify', apiError.validation({ otp: 'validation:otpTooManyAttempts' })));
    expect(screen.getByRole('alert')).toHaveTextContent('can no longer be used');
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveValue('jane@example.com');
    expect(screen.getByRole('button', { name: 'Send code' })).toBeEnabled();
  });

  it('"Use a different e-mail or number" goes back to the identifier', async () => {
    await atCode();
    await userEvent.click(screen.getByRole('button', { name: 'Use a different e-mail or number' }));
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveValue('jane@example.com');
  });
});

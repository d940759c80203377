import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loginMachine } from '../../src/machines/login.machine';
import { LoginContinueView } from '../../src/views/public/login-continue.view';
import { LoginView } from '../../src/views/public/login.view';
import { apiError, loginFields } from '../support/auth-flows';
import { loginResponse } from '../support/session-fixtures';
import { startAuthFlow } from '../support/auth-flow-view';
import { renderUi } from '../support/render-ui';

function setup() {
  return startAuthFlow(loginMachine, { sources: ['loadLoginFields', 'login'] });
}

async function loadedView(fields = loginFields(), lng = 'en') {
  const t = setup();
  renderUi(<LoginView actor={t.actor} />, { lng });
  await t.answer(() => t.ctl.resolve('loadFields', { fields, phoneCode: '34' }));
  return t;
}

describe('LoginView', () => {
  it('shows a loader while the login fields load', () => {
    const t = setup();
    renderUi(<LoginView actor={t.actor} />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('shows the connection error with a retry that loads again', async () => {
    const t = setup();
    renderUi(<LoginView actor={t.actor} />);
    await t.answer(() => t.ctl.reject('loadFields', apiError.connection()));
    expect(screen.getByRole('heading', { name: 'No connection' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(t.ctl.callsOf('loadLoginFields')).toHaveLength(2);
    await t.answer(() => t.ctl.resolve('loadFields', { fields: loginFields(), phoneCode: '34' }));
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows the server error view on a 500', async () => {
    const t = setup();
    renderUi(<LoginView actor={t.actor} />);
    await t.answer(() => t.ctl.reject('loadFields', apiError.server()));
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
  });

  it('offers username, e-mail and mobile when the company allows them, and the links to the other flows', async () => {
    await loadedView();
    const group = screen.getByRole('radiogroup', { name: 'Sign in with' });
    expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual(['username', 'email', 'mobile_code']);
    expect(screen.getByRole('textbox', { name: /Username/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/password/forgot');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('link', { name: 'Request a demo' })).toHaveAttribute('href', '/request-demo');
  });

  it('offers only the username when neither e-mails nor phones are unique', async () => {
    await loadedView(loginFields({ email_unique: false, phone_unique: false }));
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Username/ })).toBeInTheDocument();
  });

  it('switching to mobile shows the phone code select (default country) and the number', async () => {
    await loadedView();
    await userEvent.click(screen.getByRole('radio', { name: 'Mobile' }));
    expect(screen.getByRole('combobox', { name: /Code/ })).toHaveValue('34');
    expect(screen.getByRole('textbox', { name: /Mobile number/ })).toBeInTheDocument();
  });

  it('shows the client-side error next to the field when continuing without an identifier', async () => {
    const t = await loadedView();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('This field is required.')).toBeInTheDocument();
    expect(t.navigate).not.toHaveBeenCalled();
  });

  it('Enter on the identifier continues to the password step, which signs in with the right body', async () => {
    const t = await loadedView();
    await userEvent.click(screen.getByRole('radio', { name: 'E-mail' }));
    await userEvent.type(screen.getByRole('textbox', { name: /E-mail/ }), 'jane@example.com{Enter}');
    expect(t.navigate).toHaveBeenCalledWith({ to: '/login/continue' });
    expect(screen.getByRole('heading', { name: 'Enter your password' })).toBeInTheDocument();
    expect(screen.getByText('jane@example.com')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Password/), 'Secret-1{Enter}');
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute('data-loading');
    expect(t.ctl.lastInput('login')).toEqual({ login_using: 'email', email: 'jane@example.com', password: 'Secret-1' });
    await t.answer(() => t.ctl.resolve('login', loginResponse()));
    expect(t.actor.getSnapshot().status).toBe('done');
  });
});

describe('LoginContinueView', () => {
  async function atPassword(using: 'username' | 'email' = 'email') {
    const t = setup();
    renderUi(<LoginContinueView actor={t.actor} />);
    await t.answer(() => t.ctl.resolve('loadFields', { fields: loginFields(), phoneCode: '34' }));
    await act(async () => {
      t.actor.send({ type: 'auth.use', using });
      t.actor.send({ type: 'auth.change', field: using, value: using === 'email' ? 'jane@example.com' : 'jdoe' });
      t.actor.send({ type: 'auth.continue' });
    });
    return t;
  }

  it('shows invalid credentials under the password and keeps what was typed', async () => {
    const t = await atPassword();
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await t.answer(() => t.ctl.reject('login', apiError.validation({ password: 'validation:invalidCredentials' })));
    expect(screen.getByText('The username or password is incorrect.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveValue('wrong');
    expect(screen.getByText('jane@example.com')).toBeInTheDocument();
  });

  it("shows the rate limit with the server's wait", async () => {
    const t = await atPassword();
    await userEvent.type(screen.getByLabelText(/^Password/), 'pw{Enter}');
    await t.answer(() => t.ctl.reject('login', apiError.rateLimited(42)));
    expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts. Please try again in 42 seconds.');
  });

  it('says a long wait (a locked account) in minutes', async () => {
    const t = await atPassword();
    await userEvent.type(screen.getByLabelText(/^Password/), 'pw{Enter}');
    await t.answer(() => t.ctl.reject('login', apiError.rateLimited(900)));
    expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts. Please try again in 15 min.');
  });

  it('keeps the form on a connection failure and says so', async () => {
    const t = await atPassword();
    await userEvent.type(screen.getByLabelText(/^Password/), 'pw{Enter}');
    await t.answer(() => t.ctl.reject('login', apiError.connection()));
    expect(screen.getByRole('alert')).toHaveTextContent('We could not reach the server');
    expect(screen.getByLabelText(/^Password/)).toHaveValue('pw');
  });

  it('offers the one-time code sign-in for an e-mail, prefilled', async () => {
    await atPassword('email');
    expect(screen.getByRole('link', { name: 'Sign in with a one-time code' })).toHaveAttribute(
      'href',
      '/login/otp?login_using=email&email=jane%40example.com',
    );
  });

  it('does not offer the code sign-in for a username', async () => {
    await atPassword('username');
    expect(screen.queryByRole('link', { name: 'Sign in with a one-time code' })).not.toBeInTheDocument();
  });

  it('"Change" goes back to the identifier step', async () => {
    const t = await atPassword();
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login' });
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toHaveValue('jane@example.com');
  });

  it('renders in Spanish', async () => {
    const t = setup();
    renderUi(<LoginView actor={t.actor} />, { lng: 'es' });
    await t.answer(() => t.ctl.resolve('loadFields', { fields: loginFields(), phoneCode: '34' }));
    expect(screen.getByRole('heading', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeInTheDocument();
  });
});

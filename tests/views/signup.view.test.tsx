import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { signupMachine } from '../../src/machines/signup.machine';
import type { SignupData } from '../../src/schemas/auth.schema';
import { SignupOtpView } from '../../src/views/public/signup-otp.view';
import { SignupSuccessView } from '../../src/views/public/signup-success.view';
import { SignupView } from '../../src/views/public/signup.view';
import { apiError, signupData, signupResponse } from '../support/auth-flows';
import { startAuthFlow } from '../support/auth-flow-view';
import { renderUi } from '../support/render-ui';

function setup(search = '') {
  return startAuthFlow(signupMachine, { sources: ['loadSignupData', 'validateReferral', 'signup', 'verifySignup', 'resendSignupVerification'], silentTicker: true, search });
}

type T = ReturnType<typeof setup>;

async function loaded(t: T, data: SignupData, storeRegisterUrl: string | null = null) {
  await t.answer(() => t.ctl.resolve('loadData', { data, phoneCode: '34', storeRegisterUrl }));
}

async function ready(data: SignupData, search = '', view = SignupView) {
  const t = setup(search);
  const View = view;
  renderUi(<View actor={t.actor} />);
  await loaded(t, data);
  await t.answer(() => t.ctl.resolve('validateReferral', { default_leg: 'L', referral_id: 5 }));
  return t;
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

describe('SignupView', () => {
  it('loader, then server error with retry', async () => {
    const t = setup();
    renderUi(<SignupView actor={t.actor} />);
    expect(screen.getByRole('status')).toBeInTheDocument();
    await t.answer(() => t.ctl.reject('loadData', apiError.server()));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(t.ctl.callsOf('loadSignupData')).toHaveLength(2);
  });

  it('signup closed', async () => {
    const t = setup();
    renderUi(<SignupView actor={t.actor} />);
    await loaded(t, signupData({ show_signup_page: false }));
    expect(screen.getByRole('heading', { name: 'Signup is closed' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
  });

  it('signup in the storefront links to its registration page', async () => {
    const t = setup();
    renderUi(<SignupView actor={t.actor} />);
    await loaded(t, signupData({ signup_location: 'store' }), 'https://shop.example.com/index.php?route=account/register');
    expect(screen.getByRole('link', { name: 'Register in the store' })).toHaveAttribute(
      'href',
      'https://shop.example.com/index.php?route=account/register',
    );
  });

  it('prefills the sponsor from the link, read-only when the link sponsor is enforced', async () => {
    await ready(signupData({ enforce_link_sponsor: true }), '?referral=alice');
    const sponsor = field(/Sponsor username/);
    expect(sponsor).toHaveValue('alice');
    expect(sponsor).toHaveAttribute('readonly');
    expect(screen.getByText('Your sponsor is set by your invitation.')).toBeInTheDocument();
  });

  it('shows the sponsor check while it runs and an unknown sponsor next to the field', async () => {
    const t = setup();
    renderUi(<SignupView actor={t.actor} />);
    await loaded(t, signupData());
    expect(screen.getByText('Checking the sponsor…')).toBeInTheDocument();
    await t.answer(() => t.ctl.reject('validateReferral', apiError.validation({ referral: 'validation:invalidReferral' })));
    expect(screen.getByText('We could not find this sponsor.')).toBeInTheDocument();
  });

  it('binary plan: asks placement and position (default leg preselected), terms when the company has them', async () => {
    await ready(signupData({ compensation_plan: 'binary' }));
    expect(field(/Placement username/)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Left' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /I accept the terms and conditions and the privacy policy/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'terms and conditions' })).toHaveAttribute('href', 'https://example.com/terms');
  });

  it('unilevel plan: no placement, no position; no terms without company URLs', async () => {
    await ready(signupData({ compensation_plan: 'unilevel', company_terms_url: null, company_privacy_url: null }));
    expect(screen.queryByRole('textbox', { name: /Placement username/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: 'Left' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('shows client-side errors next to the fields and the live password checklist', async () => {
    const t = await ready(signupData());
    await userEvent.type(screen.getByLabelText(/^Password/), 'abc');
    expect(screen.getByText(/At least 8 characters/)).toHaveTextContent('missing');
    expect(screen.getByText(/A lowercase letter/)).toHaveTextContent('done');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getAllByText('This field is required.').length).toBeGreaterThanOrEqual(2);
    expect(screen.getByText('The password is too short.')).toBeInTheDocument();
    expect(screen.getByText('Please accept to continue.')).toBeInTheDocument();
    expect(t.ctl.callsOf('signup')).toHaveLength(0);
    expect(screen.getByLabelText(/^Password/)).toHaveValue('abc');
  });

  it('sends only what spec §5 allows: minimal binary form', async () => {
    const t = await ready(signupData({ compensation_plan: 'binary', otp_verification: false }));
    await userEvent.type(field(/First name/), 'Ann');
    await userEvent.type(screen.getByLabelText(/^Password/), 'Good-pass1');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'Good-pass1');
    await userEvent.click(screen.getByRole('radio', { name: 'Right' }));
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(t.ctl.lastInput('signup')).toEqual({ referral: 'company', first_name: 'Ann', password: 'Good-pass1', position: 'R' });
    expect(screen.getByRole('button', { name: 'Create account' })).toHaveAttribute('data-loading');
  });

  it('sends every given field for a matrix plan (placement, no position) with the link referral as key', async () => {
    const t = await ready(signupData({ compensation_plan: 'matrix', company_terms_url: null, company_privacy_url: null }), '?referral=alice');
    await userEvent.type(field(/First name/), 'Ann');
    await userEvent.type(field(/Last name/), 'Lee');
    await userEvent.type(field(/E-mail/), 'ann@example.com');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /Code/ }), '1');
    await userEvent.type(field(/Mobile number/), '5551234');
    await userEvent.type(field(/^Username/), 'annlee');
    await userEvent.type(field(/Placement username/), 'bob');
    await userEvent.type(screen.getByLabelText(/^Password/), 'Good-pass1');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'Good-pass1{Enter}');
    expect(t.ctl.lastInput('signup')).toEqual({
      referral: 'alice',
      referral_key: 'alice',
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.com',
      mobile_code: '1',
      mobile: '5551234',
      username: 'annlee',
      password: 'Good-pass1',
      placement: 'bob',
    });
  });

  it('shows uniqueness errors from the server next to the fields, values kept', async () => {
    const t = await ready(signupData({ compensation_plan: 'unilevel', otp_verification: false, company_terms_url: null, company_privacy_url: null }));
    await userEvent.type(field(/First name/), 'Ann');
    await userEvent.type(field(/E-mail/), 'taken@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'Good-pass1');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'Good-pass1{Enter}');
    await t.answer(() => t.ctl.reject('signup', apiError.validation({ email: 'validation:emailTaken' })));
    expect(screen.getByText('This e-mail is already registered.')).toBeInTheDocument();
    expect(field(/E-mail/)).toHaveValue('taken@example.com');
  });

  it('goes to the code step, verifies and shows the welcome page', async () => {
    const t = await ready(signupData({ compensation_plan: 'unilevel', company_terms_url: null, company_privacy_url: null }));
    await userEvent.type(field(/First name/), 'Ann');
    await userEvent.type(field(/E-mail/), 'ann@example.com');
    await userEvent.type(screen.getByLabelText(/^Password/), 'Good-pass1');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'Good-pass1{Enter}');
    await t.answer(() => t.ctl.resolve('signup', signupResponse({ username: 'annlee', destination: 'a***@example.com' })));
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/signup/otp' });
    expect(screen.getByRole('heading', { name: 'Confirm your account' })).toBeInTheDocument();
    expect(screen.getByText('Enter the 6-digit code we sent to a***@example.com.')).toBeInTheDocument();
    expect(screen.getByText('You can ask for a new code in 30 seconds')).toBeInTheDocument();
    await userEvent.type(field(/Verification code/), '123456{Enter}');
    expect(t.ctl.lastInput('verifySignup')).toEqual({ key: 'key-abc', otp: '123456' });
    await t.answer(() => t.ctl.resolve('verify', { message: 'ok' }));
    expect(screen.getByRole('heading', { name: 'Welcome aboard!' })).toBeInTheDocument();
    expect(screen.getByText('Your account is ready. Your username is annlee.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/login' });
  });
});

describe('SignupOtpView and SignupSuccessView', () => {
  async function atVerify(view: typeof SignupOtpView) {
    const t = await ready(signupData({ otp_verification: false, company_terms_url: null, company_privacy_url: null }), '', view);
    await act(async () => {
      for (const [f, v] of [
        ['first_name', 'Ann'],
        ['password', 'Good-pass1'],
        ['password_confirmation', 'Good-pass1'],
      ] as const)
        t.actor.send({ type: 'signup.change', field: f, value: v });
      t.actor.send({ type: 'signup.submit' });
    });
    await t.answer(() => t.ctl.resolve('signup', signupResponse()));
    return t;
  }

  it('an expired code is shown next to the field; resend appears after the countdown', async () => {
    const t = await atVerify(SignupOtpView);
    await userEvent.type(field(/Verification code/), '123456{Enter}');
    await t.answer(() => t.ctl.reject('verify', apiError.validation({ otp: 'validation:otpExpired' })));
    expect(screen.getByText('This code has expired. Ask for a new one.')).toBeInTheDocument();
    await act(async () => {
      for (let i = 0; i < 30; i++) t.actor.send({ type: 'otp.tick' });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(t.ctl.lastInput('resendSignupVerification')).toEqual({ key: 'key-abc' });
  });

  it('the success view shows the welcome text after verification', async () => {
    const t = await atVerify(SignupSuccessView);
    await act(async () => {
      t.actor.send({ type: 'signup.change', field: 'otp', value: '123456' });
      t.actor.send({ type: 'otp.verify' });
    });
    await t.answer(() => t.ctl.resolve('verify', { message: 'ok' }));
    expect(screen.getByText('Your account is ready. Your username is newbie.')).toBeInTheDocument();
  });
});

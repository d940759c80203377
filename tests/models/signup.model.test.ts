import type { EventFromLogic, SnapshotFrom } from 'xstate';
import { REFERRAL_DEBOUNCE_MS, signupErrors, signupMachine } from '../../src/machines/signup.machine';
import { otpError } from '../../src/lib/code-and-password';
import { apiError, describeGeneratedPaths, otpSent, signupData, signupResponse } from '../support/auth-flows';

type Snap = SnapshotFrom<typeof signupMachine>;
type Ev = EventFromLogic<typeof signupMachine>;

const FAILURES = [apiError.rateLimited(30), apiError.connection(), apiError.server()];
const DATA = signupData({ otp_verification: false, company_terms_url: null, company_privacy_url: null });
const loadedWith = (over: Parameters<typeof signupData>[0]) => ({ data: { ...DATA, ...over }, phoneCode: '34', storeRegisterUrl: null });

function events(): Ev[] {
  const ev = (e: object) => e as Ev;
  const change = (field: string, value: string) => ev({ type: 'signup.change', field, value });
  return [
    ev({ type: 'xstate.done.actor.loadData', output: loadedWith({}) }),
    ev({ type: 'xstate.done.actor.loadData', output: loadedWith({ show_signup_page: false }) }),
    ev({ type: 'xstate.done.actor.loadData', output: loadedWith({ signup_location: 'store' }) }),
    ev({ type: 'xstate.error.actor.loadData', error: apiError.connection() }),
    ev({ type: 'xstate.error.actor.loadData', error: apiError.server() }),
    { type: 'load.retry' },
    change('referral', 'bob'),
    change('referral', ''),
    change('first_name', 'Ann'),
    change('password', 'Good-pass1'),
    change('password_confirmation', 'Good-pass1'),
    change('otp', '123456'),
    { type: 'signup.terms', accepted: true },
    { type: 'signup.sponsorBlur' },
    { type: 'signup.submit' },
    { type: 'signup.signIn' },
    { type: 'signup.again' },
    { type: 'otp.verify' },
    { type: 'otp.resend' },
    { type: 'otp.tick' },
    { type: 'route.changed', path: '/signup', search: '' },
    { type: 'route.changed', path: '/signup/otp', search: '' },
    { type: 'route.changed', path: '/signup/success', search: '' },
    ev({ type: 'xstate.after.referralDebounce.signup.form.sponsor.pending' }),
    ev({ type: 'xstate.done.actor.validateReferral', output: { default_leg: 'L', referral_id: 4 } }),
    ev({ type: 'xstate.error.actor.validateReferral', error: apiError.validation({ referral: 'validation:invalidReferral' }) }),
    ev({ type: 'xstate.error.actor.validateReferral', error: apiError.connection() }),
    ev({ type: 'xstate.done.actor.signup', output: signupResponse({ otp_required: true }) }),
    ev({ type: 'xstate.done.actor.signup', output: signupResponse({ otp_required: false, key: null }) }),
    ...[apiError.validation({ email: 'validation:emailTaken' }), ...FAILURES].map((error) => ev({ type: 'xstate.error.actor.signup', error })),
    ev({ type: 'xstate.done.actor.verify', output: { message: 'ok' } }),
    ...[
      apiError.validation({ otp: 'validation:otpTooManyAttempts' }),
      apiError.validation({ otp: 'validation:otpExpired' }),
      apiError.validation({ otp: 'validation:otpInvalid' }),
      ...FAILURES,
    ].map((error) => ev({ type: 'xstate.error.actor.verify', error })),
    ev({ type: 'xstate.done.actor.resend', output: otpSent({ resend_in: 1 }) }),
    ...FAILURES.map((error) => ev({ type: 'xstate.error.actor.resend', error })),
  ];
}

/** Only what the guards of the current step read, so the graph stays small. */
const serialize = (s: Snap) => {
  const c = s.context;
  if (s.matches('loading')) return JSON.stringify({ value: s.value, path: c.path });
  if (s.matches('form'))
    return JSON.stringify({
      value: s.value,
      referral: c.values.referral === '' ? 'empty' : c.values.referral === c.referralChecked ? 'checked' : 'unchecked',
      referralError: !!c.fieldErrors.referral,
      filled: (['first_name', 'password', 'password_confirmation'] as const).map((f) => c.values[f] !== ''),
      valid: Object.keys(signupErrors(c)).length === 0,
    });
  if (s.matches('verify') || s.matches('verifying') || s.matches('resending'))
    return JSON.stringify({ value: s.value, otp: otpError(c.values.otp) === null, counting: c.resendIn > 0 });
  return JSON.stringify({ value: s.value });
};

describeGeneratedPaths('signup machine — generated paths', signupMachine, {
  events,
  serialize,
  expectedStates: ['signup.form.sponsor.pending', 'signup.verify.tooManyAttempts', 'signup.store'],
  sources: ['loadSignupData', 'validateReferral', 'signup', 'verifySignup', 'resendSignupVerification'],
  silentTicker: true,
  delays: { referralDebounce: REFERRAL_DEBOUNCE_MS },
});

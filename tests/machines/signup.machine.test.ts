import { createActor } from 'xstate';
import { signupApi } from '../../src/api/public-flows';
import { signupBody, signupMachine, type SignupInput, type SignupValues } from '../../src/machines/signup.machine';
import type { SignupData } from '../../src/schemas/auth.schema';
import { apiError, flush, otpSent, signupData, signupResponse, startControlledFlow } from '../support/auth-flows';

function start(search = '', path?: string) {
  return startControlledFlow(signupMachine, { sources: ['loadSignupData', 'validateReferral', 'signup', 'verifySignup', 'resendSignupVerification'], silentTicker: true, input: { search, path } });
}

async function loaded(data: SignupData = signupData(), search = '', path?: string) {
  const t = start(search, path);
  t.ctl.resolve('loadData', { data, phoneCode: '34', storeRegisterUrl: 'https://shop.example.com/index.php?route=account/register' });
  await flush();
  return t;
}

async function ready(data: SignupData = signupData(), search = '') {
  const t = await loaded(data, search);
  t.ctl.resolve('validateReferral', { default_leg: 'L', referral_id: 9 });
  await flush();
  return t;
}

function fill(t: Awaited<ReturnType<typeof loaded>>, values: Partial<SignupValues>) {
  for (const [field, value] of Object.entries(values)) t.actor.send({ type: 'signup.change', field: field as keyof SignupValues, value: value as string });
}

const VALID = { first_name: 'Ann', email: 'ann@example.com', password: 'Good-pass1', password_confirmation: 'Good-pass1' };

describe('signup machine', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('asks signup_data for the link referral and validates it; the default leg preselects the position', async () => {
    const t = start('?referral=alice');
    expect(t.snap().hasTag('busy')).toBe(true);
    expect(t.ctl.lastInput('loadSignupData')).toEqual({ referral: 'alice' });
    t.ctl.resolve('loadData', { data: signupData({ default_leg: null }), phoneCode: '34', storeRegisterUrl: null });
    await flush();
    expect(t.snap().matches({ form: { sponsor: 'checking', status: 'editing' } })).toBe(true);
    expect(t.snap().context.values.referral).toBe('alice');
    expect(t.ctl.lastInput('validateReferral')).toEqual({ referral: 'alice' });
    t.ctl.resolve('validateReferral', { default_leg: 'R', referral_id: 12 });
    await flush();
    expect(t.snap().matches({ form: { sponsor: 'valid' } })).toBe(true);
    expect(t.snap().context.referralId).toBe(12);
    expect(t.snap().context.values.position).toBe('R');
  });

  it('without a link the default sponsor is prefilled', async () => {
    const t = await loaded(signupData({ default_sponsor: 'company' }));
    expect(t.ctl.lastInput('loadSignupData')).toEqual({ referral: null });
    expect(t.snap().context.values.referral).toBe('company');
    expect(t.snap().context.sponsorLocked).toBe(false);
  });

  it('shows "signup is closed" when show_signup_page is off', async () => {
    const t = await loaded(signupData({ show_signup_page: false }));
    expect(t.snap().matches('closed')).toBe(true);
  });

  it('sends visitors to the storefront when signup lives there', async () => {
    const t = await loaded(signupData({ signup_location: 'store' }));
    expect(t.snap().matches('store')).toBe(true);
    expect(t.snap().context.storeRegisterUrl).toBe('https://shop.example.com/index.php?route=account/register');
  });

  it('load failures offer a retry', async () => {
    const t = start();
    t.ctl.reject('loadData', apiError.connection());
    await flush();
    expect(t.snap().matches('connectionError')).toBe(true);
    t.actor.send({ type: 'load.retry' });
    t.ctl.reject('loadData', apiError.server());
    await flush();
    expect(t.snap().matches('serverError')).toBe(true);
  });

  it('an enforced default sponsor cannot be changed', async () => {
    const t = await ready(signupData({ enforce_default_sponsor: true, default_sponsor: 'company' }), '?referral=alice');
    expect(t.snap().context.values.referral).toBe('company');
    expect(t.snap().context.sponsorLocked).toBe(true);
    fill(t, { referral: 'mallory' });
    expect(t.snap().context.values.referral).toBe('company');
  });

  it('an enforced link sponsor is locked, unless it does not exist', async () => {
    const t = await loaded(signupData({ enforce_link_sponsor: true }), '?referral=ghost');
    expect(t.snap().context.sponsorLocked).toBe(true);
    t.ctl.reject('validateReferral', apiError.validation({ referral: 'validation:invalidReferral' }));
    await flush();
    expect(t.snap().matches({ form: { sponsor: 'invalid' } })).toBe(true);
    expect(t.snap().context.fieldErrors.referral).toBe('validation:invalidReferral');
    expect(t.snap().context.sponsorLocked).toBe(false);
  });

  it('re-validates the sponsor 400 ms after typing stops, or at once on blur', async () => {
    vi.useFakeTimers();
    const t = await ready();
    fill(t, { referral: 'bo' });
    await vi.advanceTimersByTimeAsync(200);
    fill(t, { referral: 'bob' });
    await vi.advanceTimersByTimeAsync(399);
    expect(t.snap().matches({ form: { sponsor: 'pending' } })).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.snap().matches({ form: { sponsor: 'checking' } })).toBe(true);
    expect(t.ctl.callsOf('validateReferral')).toEqual([{ referral: 'company' }, { referral: 'bob' }]);
    t.ctl.resolve('validateReferral', { default_leg: 'L', referral_id: 3 });
    await flush();
    fill(t, { referral: 'carol' });
    t.actor.send({ type: 'signup.sponsorBlur' });
    expect(t.snap().matches({ form: { sponsor: 'checking' } })).toBe(true);
    expect(t.ctl.lastInput('validateReferral')).toEqual({ referral: 'carol' });
  });

  it('an empty sponsor is required without asking the server', async () => {
    const t = await ready();
    fill(t, { referral: '' });
    t.actor.send({ type: 'signup.sponsorBlur' });
    expect(t.snap().matches({ form: { sponsor: 'invalid' } })).toBe(true);
    expect(t.snap().context.fieldErrors.referral).toBe('validation:required');
    expect(t.ctl.callsOf('validateReferral')).toHaveLength(1);
  });

  it('a sponsor that cannot be checked now stays unverified and is checked again on blur', async () => {
    const t = await loaded();
    t.ctl.reject('validateReferral', apiError.connection());
    await flush();
    expect(t.snap().matches({ form: { sponsor: 'unverified' } })).toBe(true);
    t.actor.send({ type: 'signup.sponsorBlur' });
    expect(t.snap().matches({ form: { sponsor: 'checking' } })).toBe(true);
  });

  it('checks the whole form before submitting and keeps everything typed', async () => {
    const t = await ready();
    fill(t, { password: 'weak', password_confirmation: 'other', placement: 'x' });
    t.actor.send({ type: 'signup.submit' });
    expect(t.snap().matches({ form: { status: 'invalid' } })).toBe(true);
    expect(t.snap().context.fieldErrors).toEqual({
      first_name: 'validation:required',
      email: 'validation:required',
      password: 'validation:passwordMinLength',
      password_confirmation: 'validation:passwordMismatch',
      placement: 'validation:invalidUsername',
      terms: 'validation:termsRequired',
    });
    expect(t.snap().context.values.password).toBe('weak');
    expect(t.ctl.callsOf('signup')).toHaveLength(0);
  });

  it('mobile (with its phone code) is required when the code goes to the phone', async () => {
    const t = await ready(signupData({ otp_based_on: 'mobile', company_terms_url: null, company_privacy_url: null }));
    fill(t, { ...VALID, mobile_code: '' });
    t.actor.send({ type: 'signup.submit' });
    expect(t.snap().context.fieldErrors).toEqual({ mobile_code: 'validation:required', mobile: 'validation:required' });
  });

  it('an invalid sponsor blocks the submission', async () => {
    const t = await loaded();
    t.ctl.reject('validateReferral', apiError.validation({ referral: 'validation:invalidReferral' }));
    await flush();
    fill(t, VALID);
    t.actor.send({ type: 'signup.terms', accepted: true });
    t.actor.send({ type: 'signup.submit' });
    expect(t.snap().matches({ form: { status: 'invalid' } })).toBe(true);
    expect(t.ctl.callsOf('signup')).toHaveLength(0);
  });

  it('submits, then goes to the code step when the answer asks for one', async () => {
    const t = await ready(signupData(), '?referral=alice');
    fill(t, VALID);
    t.actor.send({ type: 'signup.terms', accepted: true });
    t.actor.send({ type: 'signup.submit' });
    expect(t.snap().hasTag('busy')).toBe(true);
    expect(t.ctl.lastInput('signup')).toEqual({
      referral: 'alice',
      referral_key: 'alice',
      first_name: 'Ann',
      email: 'ann@example.com',
      password: 'Good-pass1',
      position: 'L',
    });
    t.ctl.resolve('signup', signupResponse());
    await flush();
    expect(t.snap().matches({ verify: 'editing' })).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/signup/otp' });
    expect(t.snap().context.result?.username).toBe('newbie');
  });

  it('goes straight to success when no code is needed', async () => {
    const t = await ready(signupData({ otp_verification: false, company_terms_url: null, company_privacy_url: null }));
    fill(t, { first_name: 'Ann', password: 'Good-pass1', password_confirmation: 'Good-pass1' });
    t.actor.send({ type: 'signup.submit' });
    t.ctl.resolve('signup', signupResponse({ otp_required: false, key: null }));
    await flush();
    expect(t.snap().matches('success')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/signup/success' });
  });

  it('shows uniqueness errors from the server next to the fields, values kept', async () => {
    const t = await ready();
    fill(t, VALID);
    t.actor.send({ type: 'signup.terms', accepted: true });
    t.actor.send({ type: 'signup.submit' });
    t.ctl.reject('signup', apiError.validation({ email: 'validation:emailTaken', username: 'validation:usernameTaken' }));
    await flush();
    expect(t.snap().matches({ form: { status: 'invalid', sponsor: 'valid' } })).toBe(true);
    expect(t.snap().context.fieldErrors).toMatchObject({ email: 'validation:emailTaken', username: 'validation:usernameTaken' });
    expect(t.snap().context.values.email).toBe('ann@example.com');
  });

  it.each([
    ['rateLimited', apiError.rateLimited(15)],
    ['connectionError', apiError.connection()],
    ['serverError', apiError.server()],
  ] as const)('a %s on submit keeps the form', async (state, error) => {
    const t = await ready();
    fill(t, VALID);
    t.actor.send({ type: 'signup.terms', accepted: true });
    t.actor.send({ type: 'signup.submit' });
    t.ctl.reject('signup', error);
    await flush();
    expect(t.snap().matches({ form: { status: state } })).toBe(true);
    expect(t.snap().context.values.first_name).toBe('Ann');
  });

  describe('code step', () => {
    async function atVerify() {
      const t = await ready();
      fill(t, VALID);
      t.actor.send({ type: 'signup.terms', accepted: true });
      t.actor.send({ type: 'signup.submit' });
      t.ctl.resolve('signup', signupResponse());
      await flush();
      return t;
    }

    it('verifies with the key and the code, then shows success', async () => {
      const t = await atVerify();
      fill(t, { otp: '123456' });
      t.actor.send({ type: 'otp.verify' });
      expect(t.ctl.lastInput('verifySignup')).toEqual({ key: 'key-abc', otp: '123456' });
      t.ctl.resolve('verify', { message: 'ok' });
      await flush();
      expect(t.snap().matches('success')).toBe(true);
      expect(t.navigate).toHaveBeenLastCalledWith({ to: '/signup/success' });
    });

    it('resends with the key after the countdown', async () => {
      const t = await atVerify();
      expect(t.snap().can({ type: 'otp.resend' })).toBe(false);
      for (let i = 0; i < 30; i++) t.actor.send({ type: 'otp.tick' });
      t.actor.send({ type: 'otp.resend' });
      expect(t.ctl.lastInput('resendSignupVerification')).toEqual({ key: 'key-abc' });
      t.ctl.resolve('resend', otpSent({ resend_in: 60, destination: 'a***@example.com' }));
      await flush();
      expect(t.snap().context.resendIn).toBe(60);
      expect(t.notify).toHaveBeenCalledWith({ kind: 'success', key: 'auth:otpSent', values: { destination: 'a***@example.com' } });
    });

    it.each([
      ['validation:otpInvalid', 'invalid'],
      ['validation:otpExpired', 'expired'],
      ['validation:otpTooManyAttempts', 'tooManyAttempts'],
    ] as const)('%s is shown on the code step', async (key, state) => {
      const t = await atVerify();
      fill(t, { otp: '123456' });
      t.actor.send({ type: 'otp.verify' });
      t.ctl.reject('verify', apiError.validation({ otp: key }));
      await flush();
      expect(t.snap().matches({ verify: state })).toBe(true);
      if (state === 'tooManyAttempts') expect(t.snap().can({ type: 'otp.resend' })).toBe(true);
    });

    it('Back from the code step stays on it (the account exists already)', async () => {
      const t = await atVerify();
      t.actor.send({ type: 'route.changed', path: '/signup', search: '' });
      expect(t.snap().matches('verify')).toBe(true);
      expect(t.navigate).toHaveBeenLastCalledWith({ to: '/signup/otp', replace: true });
    });
  });

  it('a later step opened directly starts over on /signup', async () => {
    const t = await loaded(signupData(), '', '/signup/otp');
    expect(t.snap().matches('form')).toBe(true);
    expect(t.navigate).toHaveBeenCalledWith({ to: '/signup', replace: true });
  });

  describe('request body (spec §5)', () => {
    const base: SignupValues = {
      referral: ' alice ',
      first_name: ' Ann ',
      last_name: '',
      email: '',
      mobile_code: '34',
      mobile: '',
      username: '',
      password: 'Good-pass1',
      password_confirmation: 'Good-pass1',
      placement: 'pl',
      position: 'R',
      otp: '',
    };

    it('sends referral, first_name and password always; optional fields only when given', () => {
      expect(signupBody({ data: signupData({ compensation_plan: 'unilevel' }), values: base, linkReferral: null })).toEqual({
        referral: 'alice',
        first_name: 'Ann',
        password: 'Good-pass1',
      });
      expect(
        signupBody({
          data: signupData({ compensation_plan: 'unilevel' }),
          values: { ...base, last_name: 'Lee', email: 'ann@example.com', mobile: '600123456', username: 'annlee' },
          linkReferral: null,
        }),
      ).toEqual({
        referral: 'alice',
        first_name: 'Ann',
        password: 'Good-pass1',
        last_name: 'Lee',
        email: 'ann@example.com',
        mobile_code: '34',
        mobile: '600123456',
        username: 'annlee',
      });
    });

    it('placement for binary and matrix, position only for binary, referral_key from the link', () => {
      expect(signupBody({ data: signupData({ compensation_plan: 'binary' }), values: base, linkReferral: 'alice' })).toMatchObject({
        placement: 'pl',
        position: 'R',
        referral_key: 'alice',
      });
      const matrix = signupBody({ data: signupData({ compensation_plan: 'matrix' }), values: base, linkReferral: null });
      expect(matrix.placement).toBe('pl');
      expect('position' in matrix).toBe(false);
      expect('referral_key' in matrix).toBe(false);
    });
  });

  it('the real loader finds the storefront registration link in module data', async () => {
    localStorage.setItem('module_data', JSON.stringify({ stores: [{ id: 2, name: 'Shop', address: '', url: 'https://shop.example.com' }], default_store_id: 2, default_country: null }));
    const data = vi.spyOn(signupApi, 'signupData').mockResolvedValue(signupData({ signup_location: 'store' }));
    const actor = createActor(signupMachine, { input: { search: '?referral=alice' } }).start();
    await vi.waitFor(() => expect(actor.getSnapshot().matches('store')).toBe(true));
    expect(data).toHaveBeenCalledWith('alice');
    expect(actor.getSnapshot().context.storeRegisterUrl).toBe('https://shop.example.com/index.php?route=account/register');
    actor.stop();
  });
});

describe('signup machine — a member signs up a recruit', () => {
  const member = (extra: object = {}) =>
    startControlledFlow(signupMachine, {
      sources: ['loadSignupData', 'validateReferral', 'signup', 'verifySignup', 'resendSignupVerification'],
      silentTicker: true,
      input: { search: '?referral=someone', basePath: '/member/signup', member: { sponsor: 'demo', placement: 'ann7', position: 'R', ...extra } } as SignupInput,
    });

  it('keeps the member as sponsor, prefills the slot, and ignores the public signup switches', async () => {
    const t = member();
    // The invitation link's referral does not apply: the member is the sponsor.
    expect(t.ctl.lastInput('loadSignupData')).toEqual({ referral: null });
    t.ctl.resolve('loadData', { data: signupData({ show_signup_page: false, signup_location: 'store', default_sponsor: 'company', default_leg: 'L' }), phoneCode: '34', storeRegisterUrl: null });
    await flush();
    expect(t.snap().matches('form')).toBe(true);
    expect(t.snap().context.sponsorLocked).toBe(true);
    expect(t.snap().context.values).toMatchObject({ referral: 'demo', placement: 'ann7', position: 'R' });
    t.actor.send({ type: 'signup.change', field: 'referral', value: 'mallory' });
    expect(t.snap().context.values.referral).toBe('demo');
    // An unknown sponsor answer cannot unlock the field.
    t.ctl.reject('validateReferral', apiError.validation({ referral: 'validation:invalidReferral' }));
    await flush();
    expect(t.snap().context.sponsorLocked).toBe(true);
  });

  it('sends placement and position, and after success starts over for another recruit on the signup page', async () => {
    const t = member();
    t.ctl.resolve('loadData', { data: signupData({ otp_verification: false, company_terms_url: null, company_privacy_url: null }), phoneCode: '34', storeRegisterUrl: null });
    await flush();
    t.ctl.resolve('validateReferral', { default_leg: 'L', referral_id: 2 });
    await flush();
    fill(t, VALID);
    t.actor.send({ type: 'signup.submit' });
    expect(t.ctl.lastInput('signup')).toMatchObject({ referral: 'demo', placement: 'ann7', position: 'R', first_name: 'Ann' });
    t.ctl.resolve('signup', signupResponse({ otp_required: false, key: null, username: 'ann8' }));
    await flush();
    expect(t.snap().matches('success')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/member/signup/success' });
    t.actor.send({ type: 'signup.again' });
    expect(t.snap().matches('loading')).toBe(true);
    expect(t.navigate).toHaveBeenLastCalledWith({ to: '/member/signup', replace: true });
    expect(t.snap().context.values).toMatchObject({ referral: 'demo', placement: '', position: '', first_name: '', password: '' });
    expect(t.snap().context.result).toBeNull();
  });
});

/**
 * Signup under a sponsor (/signup?referral=…, spec §3, §4, §5, §7): load signup_data, validate the
 * sponsor (again on change, debounced, and on blur), fill the form, submit; when the answer asks
 * for a one-time code → /signup/otp (verify, resend) → /signup/success; otherwise straight to success.
 * A signed-in member signing up a recruit (/member/signup) runs the same flow with `member` input: the
 * sponsor is the member (fixed), placement and position may come prefilled from the genealogy's empty
 * slot, the company's public-signup switches do not apply, and from success another recruit can follow.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { signupApi } from '../api/public-flows';
import { errorInfo, type ErrorInfo, type FieldErrors } from '../api/errors';
import type {
  OtpSent,
  ReferralValidation,
  SignupData,
  SignupRequest,
  SignupResponse,
} from '../schemas/auth.schema';
import type { ModuleData } from '../schemas/common.schema';
import { storage } from '../lib/storage';
import { storefrontBase, storefrontRegisterLink } from '../lib/links';
import { collectErrors, emailError, hasErrors, isEmpty, mobileError, phoneCodeError, pickPhoneCode, requiredError, usernameError, withoutField } from '../lib/validation';
import { confirmationError, passwordError } from '../lib/code-and-password';
import { flowCallbacks, formActions, formGuards, loadErrors, loadErrorStates, stepStates, submitErrors } from './flow-parts';
import { codeActions, codeErrors, codeExhaustedUpdate, codeGuards, codeSentUpdate, codeStep, codeStepOn, sendCodeState, resendTicker, type CodeContext, type CodeStepEvent } from './code-step-parts';
import { LOGIN_PATH, storedDefaultCountry, type FlowInput } from './login.machine';
import type { FormFlowEvent } from '../lib/flow';

export const SIGNUP_PATH = '/signup';
/** Until the first resend answer says otherwise, another code may be asked for after this many seconds. */
export const SIGNUP_RESEND_SECONDS = 30;
export const REFERRAL_DEBOUNCE_MS = 400;

export interface SignupValues {
  referral: string;
  first_name: string;
  last_name: string;
  email: string;
  mobile_code: string;
  mobile: string;
  username: string;
  password: string;
  password_confirmation: string;
  placement: string;
  position: '' | 'L' | 'R';
  /** A matrix place (1-based) under `placement`, picked from the free places; '' for any free one. */
  slot?: string;
  otp: string;
}
export type SignupField = keyof SignupValues;

export interface MemberSignupInput {
  /** The signed-in member, the recruit's sponsor (absent: signup_data's default sponsor, which for a signed-in member is the member). */
  sponsor?: string;
  /** Prefilled placement (a username of the member's tree) and position. */
  placement?: string | null;
  position?: 'L' | 'R' | null;
  /** A matrix place under `placement` (1-based), from the genealogy's empty place. */
  slot?: number | null;
}

export interface SignupInput extends FlowInput {
  /** Where the flow lives: '/signup' (default) or the member area's signup path. */
  basePath?: string;
  /** A member signs up a recruit under themselves. */
  member?: MemberSignupInput;
}

export interface SignupContext extends CodeContext {
  base: string;
  /** A member's signup of a recruit (sponsor fixed), or null for a visitor's own. */
  member: MemberSignupInput | null;
  path: string | null;
  /** The sponsor username of the invitation link (?referral=), if any. */
  linkReferral: string | null;
  data: SignupData | null;
  storeRegisterUrl: string | null;
  values: SignupValues;
  termsAccepted: boolean;
  positionTouched: boolean;
  /** Sponsor cannot be changed (enforced default sponsor, or enforced link sponsor). */
  sponsorLocked: boolean;
  /** The sponsor value the last validation was about, and its id. */
  referralChecked: string | null;
  referralId: number | null;
  result: SignupResponse | null;
}

export type SignupEvent =
  | FormFlowEvent
  | { type: 'signup.change'; field: SignupField; value: string }
  | { type: 'signup.terms'; accepted: boolean }
  | { type: 'signup.sponsorBlur' }
  | { type: 'signup.submit' }
  | { type: 'signup.signIn' }
  | { type: 'signup.again' }
  | { type: 'otp.verify' }
  | CodeStepEvent;

export interface LoadedSignupData {
  data: SignupData;
  phoneCode: string;
  storeRegisterUrl: string | null;
}

export const signupPaths = (base: string) => ({ form: base, otp: `${base}/otp`, success: `${base}/success` });

export function referralFromSearch(search: string): string | null {
  const v = new URLSearchParams(search).get('referral');
  return v && v.trim() ? v.trim() : null;
}

/** The storefront's registration page (route account/register) of the default store, if known. */
export function storeRegistrationUrl(modules: ModuleData | null | undefined): string | null {
  const base = storefrontBase(modules);
  return base ? storefrontRegisterLink(base) : null;
}

export const asksPlacement = (data: SignupData | null) => data?.compensation_plan === 'binary' || data?.compensation_plan === 'matrix';
export const asksPosition = (data: SignupData | null) => data?.compensation_plan === 'binary';
export const needsEmail = (data: SignupData | null) => !!data?.otp_verification && data.otp_based_on === 'email';
export const needsMobile = (data: SignupData | null) => !!data?.otp_verification && data.otp_based_on === 'mobile';
export const asksTerms = (data: SignupData | null) => !!(data?.company_terms_url || data?.company_privacy_url);

/** Client-side checks of the whole form, keyed by the API's field names. */
export function signupErrors(ctx: Pick<SignupContext, 'data' | 'values' | 'termsAccepted'>): FieldErrors {
  const v = ctx.values;
  const d = ctx.data;
  const hasMobile = !isEmpty(v.mobile);
  return collectErrors({
    referral: requiredError(v.referral),
    first_name: requiredError(v.first_name),
    email: emailError(v.email, needsEmail(d)),
    mobile_code: hasMobile || needsMobile(d) ? phoneCodeError(v.mobile_code) : null,
    mobile: mobileError(v.mobile, needsMobile(d)),
    username: usernameError(v.username, false),
    password: passwordError(d?.password_policy, v.password),
    password_confirmation: confirmationError(v.password, v.password_confirmation),
    placement: asksPlacement(d) ? usernameError(v.placement, false) : null,
    position: asksPosition(d) && v.position !== 'L' && v.position !== 'R' ? 'validation:required' : null,
    terms: asksTerms(d) && !ctx.termsAccepted ? 'validation:termsRequired' : null,
  });
}

/**
 * The signup body (spec §5): referral, first_name and password always; last_name, e-mail, phone
 * code + phone and username only when given; placement only for binary or matrix plans, position
 * only for binary; referral_key is the invitation link's sponsor when there is one.
 */
export function signupBody(ctx: Pick<SignupContext, 'data' | 'values' | 'linkReferral'>): SignupRequest {
  const v = ctx.values;
  const body: SignupRequest = {
    referral: v.referral.trim(),
    first_name: v.first_name.trim(),
    password: v.password ?? '',
  };
  if (ctx.linkReferral) body.referral_key = ctx.linkReferral;
  if (!isEmpty(v.last_name)) body.last_name = v.last_name.trim();
  if (!isEmpty(v.email)) body.email = v.email.trim();
  if (!isEmpty(v.mobile)) {
    body.mobile_code = v.mobile_code.trim();
    body.mobile = v.mobile.trim();
  }
  if (!isEmpty(v.username)) body.username = v.username.trim();
  if (asksPlacement(ctx.data) && !isEmpty(v.placement)) body.placement = v.placement.trim();
  if (asksPosition(ctx.data) && (v.position === 'L' || v.position === 'R')) body.position = v.position;
  if (ctx.data?.compensation_plan === 'matrix' && body.placement && /^[1-9]\d?$/.test(v.slot ?? '')) body.slot = Number(v.slot);
  return body;
}

const EMPTY_VALUES: SignupValues = {
  referral: '',
  first_name: '',
  last_name: '',
  email: '',
  mobile_code: '',
  mobile: '',
  username: '',
  password: '',
  password_confirmation: '',
  placement: '',
  position: '',
  otp: '',
};

/** The form's first values: a member's recruit starts with the member as sponsor and the chosen place. */
const startValues = (member: MemberSignupInput | null): SignupValues =>
  member ? { ...EMPTY_VALUES, referral: member.sponsor ?? '', placement: member.placement ?? '', position: member.position ?? '', slot: member.slot ? String(member.slot) : '' } : { ...EMPTY_VALUES };

const resendBody = (c: Pick<SignupContext, 'result'>) => ({ key: c.result?.key ?? '' });

type Ev = { event: SignupEvent };
const isReferralChange = ({ event }: Ev) => event.type === 'signup.change' && event.field === 'referral';

export const signupMachine = setup({
  types: {
    context: {} as SignupContext,
    events: {} as SignupEvent,
    input: {} as SignupInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadSignupData: fromPromise<LoadedSignupData, { referral: string | null }>(async ({ input }) => {
      const data = await signupApi.signupData(input.referral ?? undefined);
      const modules = storage.getJSON<ModuleData>('module_data');
      return {
        data,
        phoneCode: pickPhoneCode(data.countries, storedDefaultCountry()),
        storeRegisterUrl: storeRegistrationUrl(modules),
      };
    }),
    validateReferral: fromPromise<ReferralValidation, { referral: string }>(({ input }) => signupApi.validateReferral(input.referral)),
    signup: fromPromise<SignupResponse, SignupRequest>(({ input }) => signupApi.signup(input)),
    verifySignup: fromPromise<{ message: string }, { key: string; otp: string }>(({ input }) => signupApi.verifySignup(input)),
    resendSignupVerification: fromPromise<OtpSent, { key: string }>(({ input }) => signupApi.resendSignupVerification(input.key)),
    ticker: resendTicker,
  },
  delays: {
    referralDebounce: REFERRAL_DEBOUNCE_MS,
  },
  actions: {
    ...flowCallbacks,
    ...formActions<SignupContext, SignupEvent>(),
    ...codeActions<SignupContext, SignupEvent>(),
    rememberPath: assign({ path: ({ event, context }) => (event.type === 'route.changed' ? event.path : context.path) }),
    applyData: assign(({ context }, out: LoadedSignupData) => {
      const d = out.data;
      const referral = d.enforce_default_sponsor || context.member ? d.default_sponsor : (context.linkReferral ?? d.default_sponsor);
      return {
        data: d,
        storeRegisterUrl: out.storeRegisterUrl,
        error: null,
        sponsorLocked: context.member !== null || d.enforce_default_sponsor || (d.enforce_link_sponsor && context.linkReferral !== null),
        referralId: d.referral_id,
        values: {
          ...context.values,
          referral: context.values.referral || referral,
          mobile_code: context.values.mobile_code || out.phoneCode,
          position: context.values.position || d.default_leg || (asksPosition(d) ? 'L' : ''),
        },
      };
    }),
    change: assign(({ context, event }) => {
      if (event.type !== 'signup.change') return {};
      const touched = event.field === 'position' ? true : context.positionTouched;
      const cleared = event.field === 'password' ? ['password', 'password_confirmation'] : [event.field];
      return {
        values: { ...context.values, [event.field]: event.value },
        positionTouched: touched,
        fieldErrors: withoutField(context.fieldErrors, ...cleared),
      };
    }),
    setTerms: assign(({ context, event }) => {
      if (event.type !== 'signup.terms') return {};
      return { termsAccepted: event.accepted, fieldErrors: withoutField(context.fieldErrors, 'terms') };
    }),
    referralValid: assign(({ context }, r: ReferralValidation) => ({
      referralChecked: context.values.referral,
      referralId: r.referral_id,
      fieldErrors: withoutField(context.fieldErrors, 'referral'),
      values:
        !context.positionTouched && r.default_leg && asksPosition(context.data)
          ? { ...context.values, position: r.default_leg }
          : context.values,
    })),
    referralInvalid: assign(({ context }, e: ErrorInfo) => ({
      referralChecked: context.values.referral,
      referralId: null,
      fieldErrors: { ...context.fieldErrors, referral: e.fields.referral ?? 'validation:invalidReferral' },
      // An enforced link sponsor that does not exist cannot stay locked: the visitor must name one.
      sponsorLocked: context.member !== null || (context.data?.enforce_default_sponsor ?? false),
    })),
    referralRequired: assign(({ context }) => ({
      referralChecked: null,
      referralId: null,
      fieldErrors: { ...context.fieldErrors, referral: 'validation:required' },
    })),
    referralUnverified: assign({ referralChecked: null }),
    checkForm: assign({ fieldErrors: ({ context }) => ({ ...context.fieldErrors, ...signupErrors(context) }) }),
    signedUp: assign(({ context }, r: SignupResponse) => ({
      result: r,
      error: null,
      fieldErrors: {},
      resendIn: SIGNUP_RESEND_SECONDS,
      values: { ...context.values, password: '', password_confirmation: '', otp: '' },
    })),
    codeSent: assign(({ context }, sent: OtpSent) => ({
      ...codeSentUpdate(context, sent),
      result: context.result ? { ...context.result, destination: sent.destination } : context.result,
      fieldErrors: withoutField(context.fieldErrors, 'otp'),
    })),
    codeExhausted: assign(({ context }, e: ErrorInfo) => codeExhaustedUpdate(context, e)),
    startOver: assign(({ context }) => ({
      values: startValues(context.member ? { sponsor: context.values.referral } : null),
      positionTouched: false,
      referralChecked: null,
      fieldErrors: {},
      error: null,
      result: null,
    })),
  },
  guards: {
    ...formGuards,
    ...codeGuards,
    signupClosed: ({ context }, out: LoadedSignupData) => context.member === null && !out.data.show_signup_page,
    signupInStore: ({ context }, out: LoadedSignupData) => context.member === null && out.data.signup_location === 'store',
    changeAllowed: ({ context, event }) => event.type === 'signup.change' && !(event.field === 'referral' && context.sponsorLocked),
    referralChange: ({ context, event }) => isReferralChange({ event }) && !context.sponsorLocked,
    referralEmpty: ({ context }) => isEmpty(context.values.referral),
    referralUnchecked: ({ context }) => context.values.referral !== context.referralChecked,
    formValid: ({ context }) => !hasErrors(signupErrors(context)) && !context.fieldErrors.referral,
    needsOtp: (_, r: SignupResponse) => r.otp_required && !!r.key,
    hasReferralError: (_, e: ErrorInfo) => hasErrors(e.fields),
    routeAwayFromForm: ({ context, event }) => event.type === 'route.changed' && event.path !== context.base,
    routeAwayFromOtp: ({ context, event }) => event.type === 'route.changed' && event.path !== signupPaths(context.base).otp,
    routeAwayFromSuccess: ({ context, event }) =>
      event.type === 'route.changed' && event.path !== signupPaths(context.base).success,
  },
}).createMachine({
  id: 'signup',
  context: ({ input }) => ({
    base: input?.basePath ?? SIGNUP_PATH,
    member: input?.member ?? null,
    path: input?.path ?? null,
    linkReferral: input?.member ? null : referralFromSearch(input?.search ?? ''),
    data: null,
    storeRegisterUrl: null,
    values: startValues(input?.member ?? null),
    termsAccepted: false,
    // A position chosen in the genealogy (its empty slot) stays: the sponsor's default leg does not replace it.
    positionTouched: !!input?.member?.position,
    sponsorLocked: false,
    referralChecked: null,
    referralId: null,
    fieldErrors: {},
    error: null,
    retryAfter: null,
    result: null,
    resendIn: 0,
  }),
  initial: 'loading',
  on: { 'route.changed': { actions: 'rememberPath' } },
  states: {
    loading: {
      tags: 'busy',
      // A flow opened on /signup/otp or /signup/success without its earlier steps starts over on /signup.
      exit: enqueueActions(({ context, enqueue }) => {
        if (context.path !== null && context.path !== context.base) {
          enqueue({ type: 'navigate', params: { to: context.base, replace: true } });
        }
      }),
      invoke: {
        id: 'loadData',
        src: 'loadSignupData',
        input: ({ context }) => ({ referral: context.linkReferral }),
        onDone: [
          {
            guard: { type: 'signupClosed', params: ({ event }) => event.output },
            target: 'closed',
            actions: [{ type: 'applyData', params: ({ event }) => event.output }],
          },
          {
            guard: { type: 'signupInStore', params: ({ event }) => event.output },
            target: 'store',
            actions: [{ type: 'applyData', params: ({ event }) => event.output }],
          },
          { target: 'form', actions: [{ type: 'applyData', params: ({ event }) => event.output }] },
        ],
        onError: loadErrors,
      },
    },
    ...loadErrorStates(),
    /** show_signup_page is off. */
    closed: {},
    /** Registration happens in the storefront. */
    store: {},
    form: {
      type: 'parallel',
      on: {
        'signup.change': { guard: 'changeAllowed', actions: 'change' },
        'signup.terms': { actions: 'setTerms' },
        'route.changed': [
          { guard: 'routeAwayFromForm', actions: ['rememberPath', { type: 'navigate', params: ({ context }) => ({ to: context.base, replace: true }) }] },
          { actions: 'rememberPath' },
        ],
      },
      states: {
        /** Is the sponsor a member? Checked on load, after typing (debounced) and on blur. */
        sponsor: {
          initial: 'checking',
          on: {
            // Takes precedence over the form's own handler for the sponsor field, so it also stores the value.
            'signup.change': { guard: 'referralChange', target: '.pending', reenter: true, actions: 'change' },
          },
          states: {
            pending: {
              after: {
                referralDebounce: [{ guard: 'referralEmpty', target: 'invalid', actions: 'referralRequired' }, { target: 'checking' }],
              },
              on: {
                'signup.sponsorBlur': [{ guard: 'referralEmpty', target: 'invalid', actions: 'referralRequired' }, { target: 'checking' }],
              },
            },
            checking: {
              invoke: {
                id: 'validateReferral',
                src: 'validateReferral',
                input: ({ context }) => ({ referral: context.values.referral.trim() }),
                onDone: { target: 'valid', actions: { type: 'referralValid', params: ({ event }) => event.output } },
                onError: [
                  {
                    guard: { type: 'hasReferralError', params: ({ event }) => errorInfo(event.error) },
                    target: 'invalid',
                    actions: { type: 'referralInvalid', params: ({ event }) => errorInfo(event.error) },
                  },
                  { target: 'unverified', actions: 'referralUnverified' },
                ],
              },
            },
            valid: {},
            invalid: {},
            /** Could not be checked now (connection or server trouble): the server checks it on submit. */
            unverified: {
              on: { 'signup.sponsorBlur': { guard: 'referralUnchecked', target: 'checking' } },
            },
          },
        },
        status: {
          initial: 'editing',
          on: {
            'signup.submit': [
              { guard: 'formValid', target: '.submitting', actions: 'clearError' },
              { target: '.invalid', actions: 'checkForm' },
            ],
          },
          states: {
            ...stepStates(),
            submitting: {
              tags: 'busy',
              on: { 'signup.submit': {} },
              invoke: {
                id: 'signup',
                src: 'signup',
                input: ({ context }) => signupBody(context),
                onDone: [
                  {
                    guard: { type: 'needsOtp', params: ({ event }) => event.output },
                    target: '#signup.verify',
                    actions: [
                      { type: 'signedUp', params: ({ event }) => event.output },
                      { type: 'navigate', params: ({ context }) => ({ to: signupPaths(context.base).otp }) },
                    ],
                  },
                  {
                    target: '#signup.success',
                    actions: [
                      { type: 'signedUp', params: ({ event }) => event.output },
                      { type: 'navigate', params: ({ context }) => ({ to: signupPaths(context.base).success }) },
                    ],
                  },
                ],
                onError: submitErrors(null),
              },
            },
          },
        },
      },
    },
    verify: {
      ...codeStep,
      on: {
        'signup.change': { actions: 'change' },
        ...codeStepOn('otp.verify', 'verifying'),
        'route.changed': [
          {
            guard: 'routeAwayFromOtp',
            actions: ['rememberPath', { type: 'navigate', params: ({ context }) => ({ to: signupPaths(context.base).otp, replace: true }) }],
          },
          { actions: 'rememberPath' },
        ],
      },
      states: stepStates(['expired', 'tooManyAttempts']),
    },
    verifying: {
      tags: 'busy',
      invoke: {
        id: 'verify',
        src: 'verifySignup',
        input: ({ context }) => ({ key: context.result?.key ?? '', otp: (context.values.otp ?? '').trim() }),
        onDone: {
          target: 'success',
          actions: { type: 'navigate', params: ({ context }) => ({ to: signupPaths(context.base).success }) },
        },
        onError: codeErrors('verify', { target: 'verify.tooManyAttempts' }),
      },
    },
    resending: sendCodeState({ id: 'resend', src: 'resendSignupVerification', input: resendBody, code: 'verify', step: 'verify' }),
    success: {
      on: {
        'signup.signIn': { actions: { type: 'navigate', params: { to: LOGIN_PATH } } },
        'signup.again': {
          target: 'loading',
          actions: ['startOver', { type: 'navigate', params: ({ context }) => ({ to: context.base, replace: true }) }],
        },
        'route.changed': [
          {
            guard: 'routeAwayFromSuccess',
            actions: ['rememberPath', { type: 'navigate', params: ({ context }) => ({ to: signupPaths(context.base).success, replace: true }) }],
          },
          { actions: 'rememberPath' },
        ],
      },
    },
  },
});

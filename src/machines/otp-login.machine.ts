/**
 * Sign-in with a one-time code (/login/otp): identify by e-mail or mobile, send a code, enter the
 * six digits (resend after the server's resend_in, counted down every second), verify. Ends with
 * `{ type: 'loggedIn' }`.
 */
import { assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import { otpLoginApi } from '../api/public-flows';
import type { ErrorInfo } from '../api/errors';
import type { LoginFields, LoginResponse, LoginWithOtpRequest, OtpSent, SendOtpRequest } from '../schemas/auth.schema';
import { EMPTY_IDENTIFIER, hasErrors, identifierBody, identifierErrors, withoutField, type IdentifierValues } from '../lib/validation';
import { fieldsLoaded, flowCallbacks, formActions, formGuards, keptUsing, loadErrors, loadErrorStates, loadFieldsLogic, stepStates, type LoadedFields } from './flow-parts';
import { codeActions, codeErrors, codeExhaustedUpdate, codeGuards, codeSentUpdate, codeStep, codeStepOn, sendCodeState, resendTicker, type CodeContext, type CodeStepEvent } from './code-step-parts';
import type { FlowInput, LoggedInOutput } from './login.machine';
import type { FormFlowEvent } from '../lib/flow';

export type OtpUsing = 'email' | 'mobile_code';
export type OtpLoginField = keyof IdentifierValues | 'otp';

export interface OtpLoginContext extends CodeContext {
  fields: LoginFields | null;
  loginUsing: OtpUsing;
  values: IdentifierValues & { otp: string };
  /** Masked destination of the last code sent. */
  destination: string | null;
  response: LoginResponse | null;
}

export type OtpLoginEvent =
  | FormFlowEvent
  | { type: 'otp.change'; field: OtpLoginField; value: string }
  | { type: 'auth.use'; using: OtpUsing }
  | { type: 'otp.send' }
  | { type: 'otp.verify' }
  | CodeStepEvent
  | { type: 'otp.back' };

export type LoadedOtpFields = LoadedFields<LoginFields>;

/** E-mail when e-mails are unique, mobile when phones are unique. */
export function allowedOtpUsing(fields: LoginFields | null): OtpUsing[] {
  const out: OtpUsing[] = [];
  if (fields?.email_unique) out.push('email');
  if (fields?.phone_unique) out.push('mobile_code');
  return out;
}

/** /login/otp?login_using=email&email=… prefills the identifier (the link from /login/continue). */
export function prefillFromSearch(search: string): { loginUsing?: OtpUsing; values: Partial<IdentifierValues> } {
  const q = new URLSearchParams(search);
  const using = q.get('login_using');
  const values: Partial<IdentifierValues> = {};
  for (const k of ['email', 'mobile', 'mobile_code'] as const) {
    const v = q.get(k);
    if (v) values[k] = v;
  }
  return { loginUsing: using === 'email' || using === 'mobile_code' ? using : undefined, values };
}

export function sendOtpBody(ctx: Pick<OtpLoginContext, 'loginUsing' | 'values'>): SendOtpRequest {
  return { login_using: ctx.loginUsing, ...identifierBody(ctx.loginUsing, ctx.values) };
}

export const otpLoginMachine = setup({
  types: {
    context: {} as OtpLoginContext,
    events: {} as OtpLoginEvent,
    input: {} as FlowInput,
    output: {} as LoggedInOutput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadLoginFields: loadFieldsLogic(() => authApi.loginFields()),
    sendOtp: fromPromise<OtpSent, SendOtpRequest>(({ input }) => otpLoginApi.sendOtp(input)),
    loginWithOtp: fromPromise<LoginResponse, LoginWithOtpRequest>(({ input }) => otpLoginApi.loginWithOtp(input)),
    ticker: resendTicker,
  },
  actions: {
    ...flowCallbacks,
    ...formActions<OtpLoginContext, OtpLoginEvent>(),
    ...codeActions<OtpLoginContext, OtpLoginEvent>(),
    applyFields: assign(({ context }, out: LoadedOtpFields) => {
      const allowed = allowedOtpUsing(out.fields);
      return { ...fieldsLoaded(context, out), loginUsing: keptUsing(context.loginUsing, allowed, allowed[0] ?? 'email') };
    }),
    change: assign(({ context, event }) => {
      if (event.type !== 'otp.change') return {};
      return {
        values: { ...context.values, [event.field]: event.value },
        fieldErrors: withoutField(context.fieldErrors, event.field),
      };
    }),
    use: assign(({ context, event }) => {
      if (event.type !== 'auth.use') return {};
      return { loginUsing: event.using, fieldErrors: withoutField(context.fieldErrors, 'email', 'mobile', 'mobile_code', 'login_using') };
    }),
    checkIdentifier: assign({ fieldErrors: ({ context }) => identifierErrors(context.loginUsing, context.values) }),
    codeSent: assign(({ context }, sent: OtpSent) => ({ ...codeSentUpdate(context, sent), destination: sent.destination, fieldErrors: {} })),
    /** Too many wrong codes: that code is dead; a new one must be sent. */
    codeExhausted: assign(({ context }, e: ErrorInfo) => ({ ...codeExhaustedUpdate(context, e), destination: null, retryAfter: null })),
    setResponse: assign({ response: (_, r: LoginResponse) => r, error: null }),
  },
  guards: {
    ...formGuards,
    ...codeGuards,
    otpAvailable: (_, out: LoadedOtpFields) => out.fields.login_with_otp && allowedOtpUsing(out.fields).length > 0,
    usingAllowed: ({ context, event }) => event.type === 'auth.use' && allowedOtpUsing(context.fields).includes(event.using),
    identifierValid: ({ context }) => !hasErrors(identifierErrors(context.loginUsing, context.values)),
  },
}).createMachine({
  id: 'otpLogin',
  context: ({ input }) => {
    const pre = prefillFromSearch(input?.search ?? '');
    return {
      fields: null,
      loginUsing: pre.loginUsing ?? 'email',
      values: { ...EMPTY_IDENTIFIER, ...pre.values, otp: '' },
      fieldErrors: {},
      error: null,
      retryAfter: null,
      destination: null,
      resendIn: 0,
      response: null,
    };
  },
  initial: 'loading',
  output: ({ context }) => ({ type: 'loggedIn', response: context.response! }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadFields',
        src: 'loadLoginFields',
        onDone: [
          {
            guard: { type: 'otpAvailable', params: ({ event }) => event.output },
            target: 'identify',
            actions: { type: 'applyFields', params: ({ event }) => event.output },
          },
          { target: 'unavailable', actions: { type: 'applyFields', params: ({ event }) => event.output } },
        ],
        onError: loadErrors,
      },
    },
    ...loadErrorStates(),
    /** The company does not offer sign-in with a code. */
    unavailable: {},
    identify: {
      initial: 'editing',
      on: {
        'otp.change': { actions: 'change' },
        'auth.use': { guard: 'usingAllowed', actions: 'use' },
        'otp.send': [
          { guard: 'identifierValid', target: 'sending', actions: 'clearError' },
          { target: '.invalid', actions: 'checkIdentifier' },
        ],
      },
      /** tooManyAttempts: too many wrong codes, a new code has to be sent. */
      states: stepStates([], ['tooManyAttempts']),
    },
    sending: sendCodeState({ id: 'send', src: 'sendOtp', input: sendOtpBody, code: 'code', step: 'identify' }),
    code: {
      ...codeStep,
      on: {
        'otp.change': { actions: 'change' },
        'otp.back': { target: 'identify' },
        ...codeStepOn('otp.verify', 'verifying'),
      },
      states: stepStates(['expired']),
    },
    verifying: {
      tags: 'busy',
      invoke: {
        id: 'verify',
        src: 'loginWithOtp',
        input: ({ context }) => ({ ...sendOtpBody(context), otp: (context.values.otp ?? '').trim() }),
        onDone: { target: 'loggedIn', actions: { type: 'setResponse', params: ({ event }) => event.output } },
        onError: codeErrors('code', { target: 'identify.tooManyAttempts' }),
      },
    },
    resending: sendCodeState({ id: 'resend', src: 'sendOtp', input: sendOtpBody, code: 'code', step: 'code' }),
    loggedIn: { type: 'final' },
  },
});

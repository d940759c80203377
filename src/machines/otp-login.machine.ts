/**
 * Sign-in with a one-time code (/login/otp): identify by e-mail or mobile, send a code, enter the
 * six digits (resend after the server's resend_in, counted down every second), verify. Ends with
 * `{ type: 'loggedIn' }`.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import { errorInfo, type ErrorInfo, type FieldErrors } from '../api/errors';
import type { LoginFields, LoginResponse, LoginWithOtpRequest, OtpSent, SendOtpRequest } from '../schemas/auth.schema';
import {
  EMPTY_IDENTIFIER,
  hasErrors,
  hasFieldKey,
  identifierBody,
  identifierErrors,
  otpError,
  pickPhoneCode,
  retryAfterSeconds,
  submitOutcome,
  withoutField,
  type IdentifierValues,
  type SubmitOutcome,
} from '../lib/validation';
import { storedDefaultCountry, type FlowInput, type LoggedInOutput, type NavigateParams, type NotifyParams } from './login.machine';

export type OtpUsing = 'email' | 'mobile_code';
export type OtpLoginField = keyof IdentifierValues | 'otp';

export interface OtpLoginContext {
  fields: LoginFields | null;
  loginUsing: OtpUsing;
  values: IdentifierValues & { otp: string };
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  retryAfter: number | null;
  /** Masked destination of the last code sent. */
  destination: string | null;
  /** Seconds left until another code may be asked for. */
  resendIn: number;
  response: LoginResponse | null;
}

export type OtpLoginEvent =
  | { type: 'route.changed'; path: string; search: string }
  | { type: 'load.retry' }
  | { type: 'otp.change'; field: OtpLoginField; value: string }
  | { type: 'auth.use'; using: OtpUsing }
  | { type: 'otp.send' }
  | { type: 'otp.verify' }
  | { type: 'otp.resend' }
  | { type: 'otp.tick' }
  | { type: 'otp.back' };

export interface LoadedOtpFields {
  fields: LoginFields;
  phoneCode: string;
}

/** E-mail when e-mails are unique, mobile when phones are unique. */
export function allowedOtpUsing(fields: LoginFields | null): OtpUsing[] {
  const out: OtpUsing[] = [];
  if (fields?.email_unique) out.push('email');
  if (fields?.phone_unique) out.push('mobile_code');
  return out;
}

/** One `otp.tick` a second while a code screen is open: drives the visible resend countdown. */
export const resendTicker = fromCallback(({ sendBack }) => {
  const id = setInterval(() => sendBack({ type: 'otp.tick' }), 1000);
  return () => clearInterval(id);
});

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
    loadLoginFields: fromPromise<LoadedOtpFields>(async () => {
      const fields = await authApi.loginFields();
      return { fields, phoneCode: pickPhoneCode(fields.countries, storedDefaultCountry()) };
    }),
    sendOtp: fromPromise<OtpSent, SendOtpRequest>(({ input }) => authApi.sendOtp(input)),
    loginWithOtp: fromPromise<LoginResponse, LoginWithOtpRequest>(({ input }) => authApi.loginWithOtp(input)),
    ticker: resendTicker,
  },
  actions: {
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: NotifyParams) => {},
    applyFields: assign(({ context }, out: LoadedOtpFields) => {
      const allowed = allowedOtpUsing(out.fields);
      return {
        fields: out.fields,
        error: null,
        loginUsing: allowed.includes(context.loginUsing) ? context.loginUsing : (allowed[0] ?? 'email'),
        values: { ...context.values, mobile_code: context.values.mobile_code || out.phoneCode },
      };
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
    checkOtp: assign({
      fieldErrors: ({ context }) => ({ ...context.fieldErrors, otp: otpError(context.values.otp) ?? 'validation:otpFormat' }),
    }),
    clearError: assign({ error: null, retryAfter: null }),
    codeSent: assign(({ context }, sent: OtpSent) => ({
      destination: sent.destination,
      resendIn: Math.max(0, Math.ceil(sent.resend_in)),
      values: { ...context.values, otp: '' },
      fieldErrors: {},
      error: null,
      retryAfter: null,
    })),
    tick: assign({ resendIn: ({ context }) => Math.max(0, context.resendIn - 1) }),
    setLoadError: assign({ error: (_, e: ErrorInfo) => e }),
    setSubmitError: assign(({ context }, e: ErrorInfo) => ({
      error: e,
      fieldErrors: { ...context.fieldErrors, ...e.fields },
      retryAfter: retryAfterSeconds(e),
    })),
    /** Too many wrong codes: that code is dead; a new one must be sent. */
    codeExhausted: assign(({ context }, e: ErrorInfo) => ({
      error: e,
      values: { ...context.values, otp: '' },
      fieldErrors: withoutField(context.fieldErrors, 'otp'),
      destination: null,
      resendIn: 0,
      retryAfter: null,
    })),
    setResponse: assign({ response: (_, r: LoginResponse) => r, error: null }),
  },
  guards: {
    otpAvailable: (_, out: LoadedOtpFields) => out.fields.login_with_otp && allowedOtpUsing(out.fields).length > 0,
    usingAllowed: ({ context, event }) => event.type === 'auth.use' && allowedOtpUsing(context.fields).includes(event.using),
    identifierValid: ({ context }) => !hasErrors(identifierErrors(context.loginUsing, context.values)),
    otpValid: ({ context }) => otpError(context.values.otp) === null,
    counting: ({ context }) => context.resendIn > 0,
    canResend: ({ context }) => context.resendIn <= 0,
    isConnection: (_, e: ErrorInfo) => e.kind === 'connection',
    outcomeIs: (_, [e, outcome]: [ErrorInfo, SubmitOutcome]) => submitOutcome(e) === outcome,
    fieldKey: (_, [e, key]: [ErrorInfo, string]) => hasFieldKey(e, key),
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
        onError: [
          {
            guard: { type: 'isConnection', params: ({ event }) => errorInfo(event.error) },
            target: 'connectionError',
            actions: { type: 'setLoadError', params: ({ event }) => errorInfo(event.error) },
          },
          { target: 'serverError', actions: { type: 'setLoadError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    connectionError: { tags: 'error', on: { 'load.retry': 'loading' } },
    serverError: { tags: 'error', on: { 'load.retry': 'loading' } },
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
      states: {
        editing: {},
        invalid: {},
        rateLimited: { tags: 'error' },
        connectionError: { tags: 'error' },
        serverError: { tags: 'error' },
        /** Too many wrong codes: a new code has to be sent. */
        tooManyAttempts: { tags: 'error' },
      },
    },
    sending: {
      tags: 'busy',
      invoke: {
        id: 'send',
        src: 'sendOtp',
        input: ({ context }) => sendOtpBody(context),
        onDone: {
          target: 'code',
          actions: [
            { type: 'codeSent', params: ({ event }) => event.output },
            { type: 'notify', params: ({ event }) => ({ kind: 'success', key: 'auth:otpSent', values: { destination: event.output.destination } }) },
          ],
        },
        onError: [
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'invalid'] }, target: 'identify.invalid', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'rateLimited'] }, target: 'identify.rateLimited', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'connectionError'] }, target: 'identify.connectionError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { target: 'identify.serverError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    code: {
      initial: 'editing',
      invoke: { id: 'ticker', src: 'ticker' },
      on: {
        'otp.change': { actions: 'change' },
        'otp.tick': { guard: 'counting', actions: 'tick' },
        'otp.back': { target: 'identify' },
        'otp.verify': [
          { guard: 'otpValid', target: 'verifying', actions: 'clearError' },
          { target: '.invalid', actions: 'checkOtp' },
        ],
        'otp.resend': { guard: 'canResend', target: 'resending', actions: 'clearError' },
      },
      states: {
        editing: {},
        invalid: {},
        expired: { tags: 'error' },
        rateLimited: { tags: 'error' },
        connectionError: { tags: 'error' },
        serverError: { tags: 'error' },
      },
    },
    verifying: {
      tags: 'busy',
      invoke: {
        id: 'verify',
        src: 'loginWithOtp',
        input: ({ context }) => ({ ...sendOtpBody(context), otp: (context.values.otp ?? '').trim() }),
        onDone: { target: 'loggedIn', actions: { type: 'setResponse', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'fieldKey', params: ({ event }) => [errorInfo(event.error), 'validation:otpTooManyAttempts'] },
            target: 'identify.tooManyAttempts',
            actions: { type: 'codeExhausted', params: ({ event }) => errorInfo(event.error) },
          },
          {
            guard: { type: 'fieldKey', params: ({ event }) => [errorInfo(event.error), 'validation:otpExpired'] },
            target: 'code.expired',
            actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) },
          },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'invalid'] }, target: 'code.invalid', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'rateLimited'] }, target: 'code.rateLimited', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'connectionError'] }, target: 'code.connectionError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { target: 'code.serverError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    resending: {
      tags: 'busy',
      invoke: {
        id: 'resend',
        src: 'sendOtp',
        input: ({ context }) => sendOtpBody(context),
        onDone: {
          target: 'code',
          actions: [
            { type: 'codeSent', params: ({ event }) => event.output },
            { type: 'notify', params: ({ event }) => ({ kind: 'success', key: 'auth:otpSent', values: { destination: event.output.destination } }) },
          ],
        },
        onError: [
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'rateLimited'] }, target: 'code.rateLimited', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'connectionError'] }, target: 'code.connectionError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { target: 'code.serverError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    loggedIn: { type: 'final' },
  },
});

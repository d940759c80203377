/**
 * Password reset (spec §5, §7): /password/forgot (e-mail or mobile, as reset_password_based_on says)
 * → send code → /password/forgot/otp (code, resend) → check_reset_otp → /password/reset (new password
 * under the server's policy + confirmation) → reset_password → /password/reset/success.
 * Browser Back moves one step back with every value kept.
 */
import { assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import { errorInfo, type ErrorInfo, type FieldErrors } from '../api/errors';
import type {
  CheckResetOtpRequest,
  OtpSent,
  ResetFields,
  ResetPasswordRequest,
  SendResetOtpRequest,
} from '../schemas/auth.schema';
import {
  collectErrors,
  confirmationError,
  EMPTY_IDENTIFIER,
  hasErrors,
  hasFieldKey,
  identifierBody,
  identifierErrors,
  otpError,
  passwordError,
  pickPhoneCode,
  retryAfterSeconds,
  submitOutcome,
  withoutField,
  type IdentifierValues,
  type SubmitOutcome,
} from '../lib/validation';
import { LOGIN_PATH, storedDefaultCountry, type FlowInput, type NavigateParams, type NotifyParams } from './login.machine';
import { resendTicker } from './otp-login.machine';

export const RESET_PATHS = {
  request: '/password/forgot',
  code: '/password/forgot/otp',
  choose: '/password/reset',
  success: '/password/reset/success',
} as const;

export type ResetUsing = 'email' | 'mobile_code';
export type ResetField = keyof IdentifierValues | 'otp' | 'password' | 'password_confirmation';
type ResetValues = IdentifierValues & { otp: string; password: string; password_confirmation: string };

export interface PasswordResetContext {
  path: string | null;
  fields: ResetFields | null;
  resetUsing: ResetUsing;
  values: ResetValues;
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  retryAfter: number | null;
  destination: string | null;
  resendIn: number;
  /** A code was sent for the identifier as it stands. */
  sent: boolean;
  /** The server accepted the code as it stands. */
  codeChecked: boolean;
}

export type PasswordResetEvent =
  | { type: 'route.changed'; path: string; search: string }
  | { type: 'load.retry' }
  | { type: 'reset.change'; field: ResetField; value: string }
  | { type: 'reset.use'; using: ResetUsing }
  | { type: 'reset.send' }
  | { type: 'reset.verify' }
  | { type: 'reset.submit' }
  | { type: 'reset.back' }
  | { type: 'reset.signIn' }
  | { type: 'otp.resend' }
  | { type: 'otp.tick' };

export interface LoadedResetFields {
  fields: ResetFields;
  phoneCode: string;
}

export function allowedResetUsing(fields: ResetFields | null): ResetUsing[] {
  const by = fields?.reset_password_based_on ?? 'email';
  return by === 'both' ? ['email', 'mobile_code'] : by === 'mobile' ? ['mobile_code'] : ['email'];
}

export function sendResetBody(ctx: Pick<PasswordResetContext, 'resetUsing' | 'values'>): SendResetOtpRequest {
  return { reset_using: ctx.resetUsing, ...identifierBody(ctx.resetUsing, ctx.values) };
}

export function checkResetBody(ctx: Pick<PasswordResetContext, 'resetUsing' | 'values'>): CheckResetOtpRequest {
  return { ...sendResetBody(ctx), otp: (ctx.values.otp ?? '').trim() };
}

export function resetPasswordBody(ctx: Pick<PasswordResetContext, 'resetUsing' | 'values'>): ResetPasswordRequest {
  return {
    ...checkResetBody(ctx),
    password: ctx.values.password ?? '',
    password_confirmation: ctx.values.password_confirmation ?? '',
  };
}

export function newPasswordErrors(ctx: Pick<PasswordResetContext, 'fields' | 'values'>): FieldErrors {
  return collectErrors({
    password: passwordError(ctx.fields?.password_policy, ctx.values.password),
    password_confirmation: confirmationError(ctx.values.password, ctx.values.password_confirmation),
  });
}

const IDENTIFIER_FIELDS = ['email', 'mobile', 'mobile_code'];
const OTP_FIELDS = ['otp'];

type Ev = { event: PasswordResetEvent };
const to = (path: string) => ({ event }: Ev) => event.type === 'route.changed' && event.path === path;
const toAny = (...paths: string[]) => ({ event }: Ev) => event.type === 'route.changed' && paths.includes(event.path);

export const passwordResetMachine = setup({
  types: {
    context: {} as PasswordResetContext,
    events: {} as PasswordResetEvent,
    input: {} as FlowInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadResetFields: fromPromise<LoadedResetFields>(async () => {
      const fields = await authApi.resetFields();
      return { fields, phoneCode: pickPhoneCode(fields.countries, storedDefaultCountry()) };
    }),
    sendResetOtp: fromPromise<OtpSent, SendResetOtpRequest>(({ input }) => authApi.sendResetOtp(input)),
    checkResetOtp: fromPromise<{ valid: boolean }, CheckResetOtpRequest>(({ input }) => authApi.checkResetOtp(input)),
    resetPassword: fromPromise<{ message: string }, ResetPasswordRequest>(({ input }) => authApi.resetPassword(input)),
    ticker: resendTicker,
  },
  actions: {
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: NotifyParams) => {},
    rememberPath: assign({ path: ({ event, context }) => (event.type === 'route.changed' ? event.path : context.path) }),
    applyFields: assign(({ context }, out: LoadedResetFields) => {
      const allowed = allowedResetUsing(out.fields);
      return {
        fields: out.fields,
        error: null,
        resetUsing: allowed.includes(context.resetUsing) ? context.resetUsing : allowed[0],
        values: { ...context.values, mobile_code: context.values.mobile_code || out.phoneCode },
      };
    }),
    change: assign(({ context, event }) => {
      if (event.type !== 'reset.change') return {};
      const identifierChanged = IDENTIFIER_FIELDS.includes(event.field);
      return {
        values: { ...context.values, [event.field]: event.value },
        fieldErrors: withoutField(context.fieldErrors, event.field),
        sent: identifierChanged ? false : context.sent,
        codeChecked: identifierChanged || event.field === 'otp' ? false : context.codeChecked,
      };
    }),
    use: assign(({ context, event }) => {
      if (event.type !== 'reset.use') return {};
      return {
        resetUsing: event.using,
        sent: false,
        codeChecked: false,
        fieldErrors: withoutField(context.fieldErrors, 'reset_using', ...IDENTIFIER_FIELDS),
      };
    }),
    checkIdentifier: assign({ fieldErrors: ({ context }) => identifierErrors(context.resetUsing, context.values) }),
    checkOtp: assign({
      fieldErrors: ({ context }) => ({ ...context.fieldErrors, otp: otpError(context.values.otp) ?? 'validation:otpFormat' }),
    }),
    checkNewPassword: assign({ fieldErrors: ({ context }) => ({ ...context.fieldErrors, ...newPasswordErrors(context) }) }),
    clearError: assign({ error: null, retryAfter: null }),
    codeSent: assign(({ context }, sent: OtpSent) => ({
      destination: sent.destination,
      resendIn: Math.max(0, Math.ceil(sent.resend_in)),
      sent: true,
      codeChecked: false,
      values: { ...context.values, otp: '' },
      fieldErrors: withoutField(context.fieldErrors, ...OTP_FIELDS),
      error: null,
      retryAfter: null,
    })),
    codeAccepted: assign({ codeChecked: true, error: null }),
    codeRejected: assign(({ context }) => ({ codeChecked: false, fieldErrors: { ...context.fieldErrors, otp: 'validation:otpInvalid' } })),
    codeMissing: assign(({ context }) => ({ codeChecked: false, fieldErrors: { ...context.fieldErrors, otp: 'validation:required' } })),
    codeExhausted: assign(({ context }, e: ErrorInfo) => ({
      error: e,
      sent: false,
      codeChecked: false,
      resendIn: 0,
      values: { ...context.values, otp: '' },
      fieldErrors: withoutField(context.fieldErrors, ...OTP_FIELDS),
    })),
    tick: assign({ resendIn: ({ context }) => Math.max(0, context.resendIn - 1) }),
    setLoadError: assign({ error: (_, e: ErrorInfo) => e }),
    setSubmitError: assign(({ context }, e: ErrorInfo) => ({
      error: e,
      fieldErrors: { ...context.fieldErrors, ...e.fields },
      retryAfter: retryAfterSeconds(e),
    })),
    /** The code was refused while setting the password: back to the code with the server's word. */
    setCodeError: assign(({ context }, e: ErrorInfo) => ({
      error: e,
      codeChecked: false,
      fieldErrors: { ...context.fieldErrors, ...e.fields },
    })),
    finish: assign(({ context }) => ({
      error: null,
      fieldErrors: {},
      values: { ...context.values, otp: '', password: '', password_confirmation: '' },
    })),
  },
  guards: {
    usingAllowed: ({ context, event }) => event.type === 'reset.use' && allowedResetUsing(context.fields).includes(event.using),
    identifierValid: ({ context }) => !hasErrors(identifierErrors(context.resetUsing, context.values)),
    otpValid: ({ context }) => otpError(context.values.otp) === null,
    newPasswordValid: ({ context }) => !hasErrors(newPasswordErrors(context)),
    counting: ({ context }) => context.resendIn > 0,
    canResend: ({ context }) => context.resendIn <= 0,
    isValid: (_, out: { valid: boolean }) => out.valid,
    isConnection: (_, e: ErrorInfo) => e.kind === 'connection',
    outcomeIs: (_, [e, outcome]: [ErrorInfo, SubmitOutcome]) => submitOutcome(e) === outcome,
    fieldKey: (_, [e, key]: [ErrorInfo, string]) => hasFieldKey(e, key),
    codeRefused: (_, e: ErrorInfo) => 'otp' in e.fields,
    startedLater: ({ context }) => context.path !== null && context.path !== RESET_PATHS.request,
    toRequest: to(RESET_PATHS.request),
    toCode: to(RESET_PATHS.code),
    toCodeWhenSent: ({ context, event }) => event.type === 'route.changed' && event.path === RESET_PATHS.code && context.sent,
    toChooseWhenChecked: ({ context, event }) =>
      event.type === 'route.changed' && event.path === RESET_PATHS.choose && context.codeChecked,
    toLaterThanRequest: toAny(RESET_PATHS.code, RESET_PATHS.choose, RESET_PATHS.success),
    toLaterThanCode: toAny(RESET_PATHS.choose, RESET_PATHS.success),
    toSuccess: to(RESET_PATHS.success),
    toOtherThanSuccess: ({ event }) => event.type === 'route.changed' && event.path !== RESET_PATHS.success,
  },
}).createMachine({
  id: 'passwordReset',
  context: ({ input }) => ({
    path: input?.path ?? null,
    fields: null,
    resetUsing: 'email',
    values: { ...EMPTY_IDENTIFIER, otp: '', password: '', password_confirmation: '' },
    fieldErrors: {},
    error: null,
    retryAfter: null,
    destination: null,
    resendIn: 0,
    sent: false,
    codeChecked: false,
  }),
  initial: 'loading',
  on: { 'route.changed': { actions: 'rememberPath' } },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadFields',
        src: 'loadResetFields',
        onDone: [
          {
            guard: 'startedLater',
            target: 'request',
            actions: [
              { type: 'applyFields', params: ({ event }) => event.output },
              { type: 'navigate', params: { to: RESET_PATHS.request, replace: true } },
            ],
          },
          { target: 'request', actions: { type: 'applyFields', params: ({ event }) => event.output } },
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
    request: {
      initial: 'editing',
      on: {
        'reset.change': { actions: 'change' },
        'reset.use': { guard: 'usingAllowed', actions: 'use' },
        'reset.send': [
          { guard: 'identifierValid', target: 'sending', actions: 'clearError' },
          { target: '.invalid', actions: 'checkIdentifier' },
        ],
        'route.changed': [
          { guard: 'toCodeWhenSent', target: 'code', actions: 'rememberPath' },
          {
            guard: 'toLaterThanRequest',
            actions: ['rememberPath', { type: 'navigate', params: { to: RESET_PATHS.request, replace: true } }],
          },
          { actions: 'rememberPath' },
        ],
      },
      states: {
        editing: {},
        invalid: {},
        rateLimited: { tags: 'error' },
        connectionError: { tags: 'error' },
        serverError: { tags: 'error' },
        tooManyAttempts: { tags: 'error' },
      },
    },
    sending: {
      tags: 'busy',
      invoke: {
        id: 'send',
        src: 'sendResetOtp',
        input: ({ context }) => sendResetBody(context),
        onDone: {
          target: 'code',
          actions: [
            { type: 'codeSent', params: ({ event }) => event.output },
            { type: 'navigate', params: { to: RESET_PATHS.code } },
            { type: 'notify', params: ({ event }) => ({ kind: 'success', key: 'auth:otpSent', values: { destination: event.output.destination } }) },
          ],
        },
        onError: [
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'invalid'] }, target: 'request.invalid', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'rateLimited'] }, target: 'request.rateLimited', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'connectionError'] }, target: 'request.connectionError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { target: 'request.serverError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    code: {
      initial: 'editing',
      invoke: { id: 'ticker', src: 'ticker' },
      on: {
        'reset.change': { actions: 'change' },
        'otp.tick': { guard: 'counting', actions: 'tick' },
        'otp.resend': { guard: 'canResend', target: 'resending', actions: 'clearError' },
        'reset.verify': [
          { guard: 'otpValid', target: 'checking', actions: 'clearError' },
          { target: '.invalid', actions: 'checkOtp' },
        ],
        'reset.back': { target: 'request', actions: { type: 'navigate', params: { to: RESET_PATHS.request } } },
        'route.changed': [
          { guard: 'toRequest', target: 'request', actions: 'rememberPath' },
          { guard: 'toChooseWhenChecked', target: 'choose', actions: 'rememberPath' },
          {
            guard: 'toLaterThanCode',
            actions: ['rememberPath', { type: 'navigate', params: { to: RESET_PATHS.code, replace: true } }],
          },
          { actions: 'rememberPath' },
        ],
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
    resending: {
      tags: 'busy',
      invoke: {
        id: 'resend',
        src: 'sendResetOtp',
        input: ({ context }) => sendResetBody(context),
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
    checking: {
      tags: 'busy',
      invoke: {
        id: 'check',
        src: 'checkResetOtp',
        input: ({ context }) => checkResetBody(context),
        onDone: [
          {
            guard: { type: 'isValid', params: ({ event }) => event.output },
            target: 'choose',
            actions: ['codeAccepted', { type: 'navigate', params: { to: RESET_PATHS.choose } }],
          },
          { target: 'code.invalid', actions: 'codeRejected' },
        ],
        onError: [
          {
            guard: { type: 'fieldKey', params: ({ event }) => [errorInfo(event.error), 'validation:otpTooManyAttempts'] },
            target: 'request.tooManyAttempts',
            actions: [
              { type: 'codeExhausted', params: ({ event }) => errorInfo(event.error) },
              { type: 'navigate', params: { to: RESET_PATHS.request } },
            ],
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
    choose: {
      initial: 'editing',
      on: {
        'reset.change': { actions: 'change' },
        'reset.submit': [
          {
            guard: ({ context }) => otpError(context.values.otp) !== null,
            target: 'code.invalid',
            actions: ['codeMissing', { type: 'navigate', params: { to: RESET_PATHS.code } }],
          },
          { guard: 'newPasswordValid', target: 'resetting', actions: 'clearError' },
          { target: '.invalid', actions: 'checkNewPassword' },
        ],
        'reset.back': { target: 'code', actions: { type: 'navigate', params: { to: RESET_PATHS.code } } },
        'route.changed': [
          { guard: 'toCode', target: 'code', actions: 'rememberPath' },
          { guard: 'toRequest', target: 'request', actions: 'rememberPath' },
          {
            guard: 'toSuccess',
            actions: ['rememberPath', { type: 'navigate', params: { to: RESET_PATHS.choose, replace: true } }],
          },
          { actions: 'rememberPath' },
        ],
      },
      states: {
        editing: {},
        invalid: {},
        rateLimited: { tags: 'error' },
        connectionError: { tags: 'error' },
        serverError: { tags: 'error' },
      },
    },
    resetting: {
      tags: 'busy',
      invoke: {
        id: 'reset',
        src: 'resetPassword',
        input: ({ context }) => resetPasswordBody(context),
        onDone: {
          target: 'success',
          actions: ['finish', { type: 'navigate', params: { to: RESET_PATHS.success } }],
        },
        onError: [
          {
            guard: { type: 'fieldKey', params: ({ event }) => [errorInfo(event.error), 'validation:otpTooManyAttempts'] },
            target: 'request.tooManyAttempts',
            actions: [
              { type: 'codeExhausted', params: ({ event }) => errorInfo(event.error) },
              { type: 'navigate', params: { to: RESET_PATHS.request } },
            ],
          },
          {
            guard: { type: 'fieldKey', params: ({ event }) => [errorInfo(event.error), 'validation:otpExpired'] },
            target: 'code.expired',
            actions: [
              { type: 'setCodeError', params: ({ event }) => errorInfo(event.error) },
              { type: 'navigate', params: { to: RESET_PATHS.code } },
            ],
          },
          {
            guard: { type: 'codeRefused', params: ({ event }) => errorInfo(event.error) },
            target: 'code.invalid',
            actions: [
              { type: 'setCodeError', params: ({ event }) => errorInfo(event.error) },
              { type: 'navigate', params: { to: RESET_PATHS.code } },
            ],
          },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'invalid'] }, target: 'choose.invalid', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'rateLimited'] }, target: 'choose.rateLimited', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'connectionError'] }, target: 'choose.connectionError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { target: 'choose.serverError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    success: {
      on: {
        'reset.signIn': { actions: { type: 'navigate', params: { to: LOGIN_PATH } } },
        'route.changed': {
          guard: 'toOtherThanSuccess',
          actions: ['rememberPath', { type: 'navigate', params: { to: RESET_PATHS.success, replace: true } }],
        },
      },
    },
  },
});

/**
 * Password reset (spec §5, §7): /password/forgot (e-mail or mobile, as reset_password_based_on says)
 * → send code → /password/forgot/otp (code, resend) → check_reset_otp → /password/reset (new password
 * under the server's policy + confirmation) → reset_password → /password/reset/success.
 * Browser Back moves one step back with every value kept.
 */
import { assign, fromPromise, setup } from 'xstate';
import { passwordResetApi } from '../api/public-flows';
import { errorInfo, type ErrorInfo, type FieldErrors } from '../api/errors';
import type {
  CheckResetOtpRequest,
  OtpSent,
  ResetFields,
  ResetPasswordRequest,
  SendResetOtpRequest,
} from '../schemas/auth.schema';
import { collectErrors, EMPTY_IDENTIFIER, hasErrors, identifierBody, identifierErrors, withoutField, type IdentifierValues } from '../lib/validation';
import { confirmationError, otpError, passwordError } from '../lib/code-and-password';
import { fieldsLoaded, flowCallbacks, formActions, formGuards, keptUsing, loadedOnDone, loadErrors, loadErrorStates, loadFieldsLogic, stepStates, submitErrors, type LoadedFields } from './flow-parts';
import { codeActions, codeErrors, codeExhaustedTransition, codeExhaustedUpdate, codeExpiredGuard, codeGuards, codeSentUpdate, codeStep, codeStepOn, sendCodeState, resendTicker, type CodeContext, type CodeStepEvent } from './code-step-parts';
import { LOGIN_PATH, type FlowInput } from './login.machine';
import type { FormFlowEvent } from '../lib/flow';

export const RESET_PATHS = {
  request: '/password/forgot',
  code: '/password/forgot/otp',
  choose: '/password/reset',
  success: '/password/reset/success',
} as const;

export type ResetUsing = 'email' | 'mobile_code';
export type ResetField = keyof IdentifierValues | 'otp' | 'password' | 'password_confirmation';
type ResetValues = IdentifierValues & { otp: string; password: string; password_confirmation: string };

export interface PasswordResetContext extends CodeContext {
  path: string | null;
  fields: ResetFields | null;
  resetUsing: ResetUsing;
  values: ResetValues;
  destination: string | null;
  /** A code was sent for the identifier as it stands. */
  sent: boolean;
  /** The server accepted the code as it stands. */
  codeChecked: boolean;
}

export type PasswordResetEvent =
  | FormFlowEvent
  | { type: 'reset.change'; field: ResetField; value: string }
  | { type: 'reset.use'; using: ResetUsing }
  | { type: 'reset.send' }
  | { type: 'reset.verify' }
  | { type: 'reset.submit' }
  | { type: 'reset.back' }
  | { type: 'reset.signIn' }
  | CodeStepEvent;

export type LoadedResetFields = LoadedFields<ResetFields>;

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
    loadResetFields: loadFieldsLogic(() => passwordResetApi.resetFields()),
    sendResetOtp: fromPromise<OtpSent, SendResetOtpRequest>(({ input }) => passwordResetApi.sendResetOtp(input)),
    checkResetOtp: fromPromise<{ valid: boolean }, CheckResetOtpRequest>(({ input }) => passwordResetApi.checkResetOtp(input)),
    resetPassword: fromPromise<{ message: string }, ResetPasswordRequest>(({ input }) => passwordResetApi.resetPassword(input)),
    ticker: resendTicker,
  },
  actions: {
    ...flowCallbacks,
    ...formActions<PasswordResetContext, PasswordResetEvent>(),
    ...codeActions<PasswordResetContext, PasswordResetEvent>(),
    rememberPath: assign({ path: ({ event, context }) => (event.type === 'route.changed' ? event.path : context.path) }),
    applyFields: assign(({ context }, out: LoadedResetFields) => {
      const allowed = allowedResetUsing(out.fields);
      return { ...fieldsLoaded(context, out), resetUsing: keptUsing(context.resetUsing, allowed, allowed[0]) };
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
    checkNewPassword: assign({ fieldErrors: ({ context }) => ({ ...context.fieldErrors, ...newPasswordErrors(context) }) }),
    codeSent: assign(({ context }, sent: OtpSent) => ({
      ...codeSentUpdate(context, sent),
      destination: sent.destination,
      sent: true,
      codeChecked: false,
      fieldErrors: withoutField(context.fieldErrors, 'otp'),
    })),
    codeAccepted: assign({ codeChecked: true, error: null }),
    codeRejected: assign(({ context }) => ({ codeChecked: false, fieldErrors: { ...context.fieldErrors, otp: 'validation:otpInvalid' } })),
    codeMissing: assign(({ context }) => ({ codeChecked: false, fieldErrors: { ...context.fieldErrors, otp: 'validation:required' } })),
    codeExhausted: assign(({ context }, e: ErrorInfo) => ({ ...codeExhaustedUpdate(context, e), sent: false, codeChecked: false })),
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
    ...formGuards,
    ...codeGuards,
    usingAllowed: ({ context, event }) => event.type === 'reset.use' && allowedResetUsing(context.fields).includes(event.using),
    identifierValid: ({ context }) => !hasErrors(identifierErrors(context.resetUsing, context.values)),
    newPasswordValid: ({ context }) => !hasErrors(newPasswordErrors(context)),
    isValid: (_, out: { valid: boolean }) => out.valid,
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
        onDone: loadedOnDone({ apply: 'applyFields', target: 'request', startedLater: 'startedLater', firstPath: RESET_PATHS.request }),
        onError: loadErrors,
      },
    },
    ...loadErrorStates(),
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
      states: stepStates([], ['tooManyAttempts']),
    },
    sending: sendCodeState({ id: 'send', src: 'sendResetOtp', input: sendResetBody, code: 'code', step: 'request', navigateTo: RESET_PATHS.code }),
    code: {
      ...codeStep,
      on: {
        'reset.change': { actions: 'change' },
        ...codeStepOn('reset.verify', 'checking'),
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
      states: stepStates(['expired']),
    },
    resending: sendCodeState({ id: 'resend', src: 'sendResetOtp', input: sendResetBody, code: 'code', step: 'code' }),
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
        onError: codeErrors('code', { target: 'request.tooManyAttempts', navigateTo: RESET_PATHS.request }),
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
      states: stepStates(),
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
          codeExhaustedTransition('request.tooManyAttempts', RESET_PATHS.request),
          {
            guard: codeExpiredGuard,
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
          ...submitErrors('choose'),
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

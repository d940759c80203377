/**
 * Two-step sign-in (spec §2, §7): /login asks how the member identifies (username, e-mail or mobile
 * as login_fields allows), /login/continue asks the password. Ends with `{ type: 'loggedIn' }`.
 *
 * When the member has two-factor sign-in on, the password answers a challenge instead of a session:
 * /login/two-factor asks the authenticator app's code (or, switched with `auth.useRecovery`, a recovery
 * code) and sends it with the challenge. The challenge is kept in the flow's saved state (it is useless
 * without a code, single use and five minutes long), so a reload of /login/two-factor stays on that step;
 * the codes typed are secrets and are not saved. An expired or exhausted challenge sends the member
 * back to the password step with the reason.
 */
import { and, assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import type { LoginFields, LoginResponse, LoginUsing, LoginRequest } from '../schemas/auth.schema';
import {
  isTwoFactorChallenge,
  recoveryCodeField,
  totpCodeField,
  type TwoFactorChallenge,
} from '../schemas/two-factor-login.schema';
import type { TwoFactorLoginRequest } from '../schemas/two-factor.schema';
import * as z from 'zod/mini';
import { errorInfo, type ErrorInfo } from '../api/errors';
import type { FlowInput as BaseFlowInput, FormFlowEvent, NavigateParams, NotifyParams } from '../lib/flow';
import {
  EMPTY_IDENTIFIER,
  hasErrors,
  identifierBody,
  identifierErrors,
  withoutField,
  type IdentifierValues,
} from '../lib/validation';
import { fieldsLoaded, flowCallbacks, formActions, formGuards, keptUsing, loadedOnDone, loadErrors, loadErrorStates, loadFieldsLogic, stepStates, storedDefaultCountry, submitErrors, type FormErrorContext, type LoadedFields } from './flow-parts';

export const LOGIN_PATH = '/login';
export const LOGIN_CONTINUE_PATH = '/login/continue';
export const LOGIN_TWO_FACTOR_PATH = '/login/two-factor';

/** The flow input of src/lib/flow.ts, plus the path of the URL when the flow started, if known. */
export interface FlowInput extends BaseFlowInput {
  path?: string;
}
export type { NavigateParams, NotifyParams };

export type LoggedInOutput = { type: 'loggedIn'; response: LoginResponse };

/**
 * `totp` and `recoveryOtp` are the two-factor step's inputs (the server's `code` and `recovery_code`);
 * their names keep them out of the saved state, like the password.
 */
export type LoginField = keyof IdentifierValues | 'password' | 'totp' | 'recoveryOtp';

/** The request field a form field's errors come back under, where the names differ. */
const SERVER_FIELD: Partial<Record<LoginField, string>> = { totp: 'code', recoveryOtp: 'recovery_code' };

/** How the two-factor step is answered: the app's code, or a recovery code. */
export type SecondFactorUsing = 'code' | 'recovery';

export interface LoginContext extends FormErrorContext {
  path: string | null;
  fields: LoginFields | null;
  loginUsing: LoginUsing;
  values: IdentifierValues & { password: string; totp: string; recoveryOtp: string };
  response: LoginResponse | null;
  /** The challenge a right password answered for a member with two-factor sign-in on. */
  challenge: string | null;
  secondFactor: SecondFactorUsing;
}

export type LoginEvent =
  | FormFlowEvent
  | { type: 'auth.change'; field: LoginField; value: string }
  | { type: 'auth.use'; using: LoginUsing }
  | { type: 'auth.continue' }
  | { type: 'auth.back' }
  | { type: 'auth.submit' }
  | { type: 'auth.useRecovery'; recovery: boolean }
  | { type: 'auth.verify' };

export type LoadedLoginFields = LoadedFields<LoginFields>;

/** The ways of identifying that the company allows: username always, e-mail and mobile when unique. */
export function allowedLoginUsing(fields: LoginFields | null): LoginUsing[] {
  const out: LoginUsing[] = ['username'];
  if (fields?.email_unique) out.push('email');
  if (fields?.phone_unique) out.push('mobile_code');
  return out;
}

export { storedDefaultCountry };

export function loginBody(ctx: Pick<LoginContext, 'loginUsing' | 'values'>): LoginRequest {
  return { login_using: ctx.loginUsing, password: ctx.values.password ?? '', ...identifierBody(ctx.loginUsing, ctx.values) };
}

/** The body of the two-factor step: the challenge and the code of the chosen kind. */
export function twoFactorBody(ctx: Pick<LoginContext, 'challenge' | 'secondFactor' | 'values'>): TwoFactorLoginRequest {
  const challenge = ctx.challenge ?? '';
  return ctx.secondFactor === 'recovery'
    ? { challenge, recovery_code: z.parse(recoveryCodeField, ctx.values.recoveryOtp ?? '') }
    : { challenge, code: z.parse(totpCodeField, ctx.values.totp ?? '') };
}

/** The field error of the two-factor step's input, or none (i18n keys of the validation namespace). */
export function secondFactorErrors(ctx: Pick<LoginContext, 'secondFactor' | 'values'>): Record<string, string> {
  if (ctx.secondFactor === 'recovery') {
    const v = ctx.values.recoveryOtp ?? '';
    if (!v.trim()) return { recovery_code: 'validation:required' };
    return z.safeParse(recoveryCodeField, v).success ? {} : { recovery_code: 'validation:recoveryCodeFormat' };
  }
  const v = ctx.values.totp ?? '';
  if (!v.trim()) return { code: 'validation:required' };
  return z.safeParse(totpCodeField, v).success ? {} : { code: 'validation:twoFactorCodeFormat' };
}


const isPath = (path: string) => ({ event }: { event: LoginEvent }) => event.type === 'route.changed' && event.path === path;

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as FlowInput,
    output: {} as LoggedInOutput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadLoginFields: loadFieldsLogic(() => authApi.loginFields()),
    login: fromPromise<LoginResponse | TwoFactorChallenge, LoginRequest>(({ input }) => authApi.login(input)),
    loginTwoFactor: fromPromise<LoginResponse, TwoFactorLoginRequest>(({ input }) => authApi.loginTwoFactor(input)),
  },
  actions: {
    ...flowCallbacks,
    /** The member is signing in: get the member area's code and first translations on their way (bound by the session). */
    prepareMemberArea: () => {},
    ...formActions<LoginContext, LoginEvent>(),
    rememberPath: assign({
      path: ({ event, context }) => (event.type === 'route.changed' ? event.path : context.path),
    }),
    applyFields: assign(({ context }, out: LoadedLoginFields) => {
      const allowed = allowedLoginUsing(out.fields);
      return { ...fieldsLoaded(context, out), loginUsing: keptUsing(context.loginUsing, allowed, 'username') };
    }),
    change: assign(({ context, event }) => {
      if (event.type !== 'auth.change') return {};
      return {
        values: { ...context.values, [event.field]: event.value },
        fieldErrors: withoutField(context.fieldErrors, SERVER_FIELD[event.field] ?? event.field),
      };
    }),
    use: assign(({ context, event }) => {
      if (event.type !== 'auth.use') return {};
      return {
        loginUsing: event.using,
        fieldErrors: withoutField(context.fieldErrors, 'username', 'email', 'mobile', 'mobile_code', 'login_using'),
      };
    }),
    checkIdentifier: assign({
      fieldErrors: ({ context }) => identifierErrors(context.loginUsing, context.values),
    }),
    requirePassword: assign({
      fieldErrors: ({ context }) => ({ ...context.fieldErrors, password: 'validation:required' }),
    }),
    clearSubmitError: assign({ error: null, retryAfter: null }),
    setResponse: assign({ response: (_, r: LoginResponse) => r, error: null, fieldErrors: {}, challenge: null }),
    setChallenge: assign(({ context }, c: TwoFactorChallenge) => ({
      challenge: c.challenge,
      secondFactor: 'code' as const,
      values: { ...context.values, totp: '', recoveryOtp: '' },
      error: null,
      retryAfter: null,
      fieldErrors: {},
    })),
    dropChallenge: assign({ challenge: null }),
    useRecovery: assign(({ context, event }) => {
      if (event.type !== 'auth.useRecovery') return {};
      return { secondFactor: event.recovery ? ('recovery' as const) : ('code' as const), fieldErrors: withoutField(context.fieldErrors, 'code', 'recovery_code') };
    }),
    checkSecondFactor: assign({
      fieldErrors: ({ context }) => ({ ...context.fieldErrors, ...secondFactorErrors(context) }),
    }),
  },
  guards: {
    ...formGuards,
    identifierValid: ({ context }) => !hasErrors(identifierErrors(context.loginUsing, context.values)),
    usingAllowed: ({ context, event }) => event.type === 'auth.use' && allowedLoginUsing(context.fields).includes(event.using),
    passwordGiven: ({ context }) => (context.values.password ?? '') !== '',
    needsSecondFactor: (_, answer: LoginResponse | TwoFactorChallenge) => isTwoFactorChallenge(answer),
    secondFactorValid: ({ context }) => Object.keys(secondFactorErrors(context)).length === 0,
    /** The server refused the challenge itself (expired, used, too many wrong codes): back to the password. */
    challengeRefused: (_, e: ErrorInfo) => !!e.fields.challenge,
    toLogin: isPath(LOGIN_PATH),
    toContinue: isPath(LOGIN_CONTINUE_PATH),
    toTwoFactor: isPath(LOGIN_TWO_FACTOR_PATH),
    startedOnContinue: ({ context }) => context.path === LOGIN_CONTINUE_PATH || context.path === LOGIN_TWO_FACTOR_PATH,
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    path: input?.path ?? null,
    fields: null,
    loginUsing: 'username',
    values: { ...EMPTY_IDENTIFIER, password: '', totp: '', recoveryOtp: '' },
    fieldErrors: {},
    error: null,
    retryAfter: null,
    response: null,
    challenge: null,
    secondFactor: 'code',
  }),
  initial: 'loading',
  on: {
    'route.changed': { actions: 'rememberPath' },
  },
  output: ({ context }) => ({ type: 'loggedIn', response: context.response! }),
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadFields',
        src: 'loadLoginFields',
        onDone: loadedOnDone({ apply: 'applyFields', target: 'identify', startedLater: 'startedOnContinue', firstPath: LOGIN_PATH }),
        onError: loadErrors,
      },
    },
    ...loadErrorStates(),
    identify: {
      initial: 'editing',
      entry: 'clearSubmitError',
      on: {
        'auth.change': { actions: ['change', 'prepareMemberArea'] },
        'auth.use': { guard: 'usingAllowed', actions: 'use' },
        'auth.continue': [
          {
            guard: 'identifierValid',
            target: 'credentials',
            actions: [{ type: 'navigate', params: { to: LOGIN_CONTINUE_PATH } }],
          },
          { target: '.invalid', actions: 'checkIdentifier' },
        ],
        'route.changed': [
          { guard: and(['toContinue', 'identifierValid']), target: 'credentials', actions: 'rememberPath' },
          // /login/continue without an identifier: back to the first step.
          { guard: 'toContinue', actions: ['rememberPath', { type: 'navigate', params: { to: LOGIN_PATH, replace: true } }] },
          { actions: 'rememberPath' },
        ],
      },
      states: {
        editing: {},
        invalid: {},
      },
    },
    credentials: {
      initial: 'editing',
      entry: 'prepareMemberArea',
      on: {
        'auth.change': { actions: 'change' },
        'auth.back': { target: 'identify', actions: { type: 'navigate', params: { to: LOGIN_PATH } } },
        'route.changed': [
          { guard: 'toLogin', target: 'identify', actions: 'rememberPath' },
          // Leaving the code step abandons its challenge: /login/two-factor (Forward) asks the password again.
          { guard: 'toTwoFactor', actions: ['rememberPath', { type: 'navigate', params: { to: LOGIN_CONTINUE_PATH, replace: true } }] },
          { actions: 'rememberPath' },
        ],
        'auth.submit': [
          { guard: 'passwordGiven', target: 'signingIn', actions: 'clearSubmitError' },
          { target: '.invalid', actions: 'requirePassword' },
        ],
      },
      states: stepStates(),
    },
    signingIn: {
      tags: 'busy',
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => loginBody(context),
        onDone: [
          {
            guard: { type: 'needsSecondFactor', params: ({ event }) => event.output },
            target: 'twoFactor',
            actions: [
              { type: 'setChallenge', params: ({ event }) => event.output as TwoFactorChallenge },
              { type: 'navigate', params: { to: LOGIN_TWO_FACTOR_PATH } },
            ],
          },
          { target: 'loggedIn', actions: { type: 'setResponse', params: ({ event }) => event.output as LoginResponse } },
        ],
        onError: submitErrors('credentials'),
      },
    },
    /** The authenticator code (or a recovery code) for the challenge the password answered. */
    twoFactor: {
      initial: 'editing',
      on: {
        'auth.change': { actions: 'change' },
        'auth.useRecovery': { actions: 'useRecovery' },
        'auth.back': { target: 'credentials', actions: ['dropChallenge', { type: 'navigate', params: { to: LOGIN_CONTINUE_PATH } }] },
        'route.changed': [
          { guard: 'toLogin', target: 'identify', actions: ['rememberPath', 'dropChallenge'] },
          { guard: 'toContinue', target: 'credentials', actions: ['rememberPath', 'dropChallenge'] },
          { actions: 'rememberPath' },
        ],
        'auth.verify': [
          { guard: 'secondFactorValid', target: 'verifying', actions: 'clearSubmitError' },
          { target: '.invalid', actions: 'checkSecondFactor' },
        ],
      },
      states: stepStates(),
    },
    verifying: {
      tags: 'busy',
      invoke: {
        id: 'loginTwoFactor',
        src: 'loginTwoFactor',
        input: ({ context }) => twoFactorBody(context),
        onDone: { target: 'loggedIn', actions: { type: 'setResponse', params: ({ event }) => event.output } },
        onError: [
          {
            guard: { type: 'challengeRefused', params: ({ event }) => errorInfo(event.error) },
            target: 'credentials.invalid',
            actions: [
              { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) },
              'dropChallenge',
              { type: 'navigate', params: { to: LOGIN_CONTINUE_PATH, replace: true } },
            ],
          },
          ...submitErrors('twoFactor'),
        ],
      },
    },
    loggedIn: { type: 'final' },
  },
});

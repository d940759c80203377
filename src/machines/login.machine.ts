/**
 * Two-step sign-in (spec §2, §7): /login asks how the member identifies (username, e-mail or mobile
 * as login_fields allows), /login/continue asks the password. Ends with `{ type: 'loggedIn' }`.
 */
import { and, assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import type { LoginFields, LoginResponse, LoginUsing, LoginRequest } from '../schemas/auth.schema';
import type { FlowInput as BaseFlowInput, FormFlowEvent, NavigateParams, NotifyParams } from '../lib/flow';
import {
  EMPTY_IDENTIFIER,
  hasErrors,
  identifierBody,
  identifierErrors,
  withoutField,
  type IdentifierValues,
} from '../lib/validation';
import {
  fieldsLoaded,
  flowCallbacks,
  formActions,
  formGuards,
  keptUsing,
  loadedOnDone,
  loadErrors,
  loadErrorStates,
  loadFieldsLogic,
  stepStates,
  storedDefaultCountry,
  submitErrors,
  type FormErrorContext,
  type LoadedFields,
} from './flow-parts';

export const LOGIN_PATH = '/login';
export const LOGIN_CONTINUE_PATH = '/login/continue';

/** The flow input of src/lib/flow.ts, plus the path of the URL when the flow started, if known. */
export interface FlowInput extends BaseFlowInput {
  path?: string;
}
export type { NavigateParams, NotifyParams };

export type LoggedInOutput = { type: 'loggedIn'; response: LoginResponse };

export type LoginField = keyof IdentifierValues | 'password';

export interface LoginContext extends FormErrorContext {
  path: string | null;
  fields: LoginFields | null;
  loginUsing: LoginUsing;
  values: IdentifierValues & { password: string };
  response: LoginResponse | null;
}

export type LoginEvent =
  | FormFlowEvent
  | { type: 'auth.change'; field: LoginField; value: string }
  | { type: 'auth.use'; using: LoginUsing }
  | { type: 'auth.continue' }
  | { type: 'auth.back' }
  | { type: 'auth.submit' };

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
    login: fromPromise<LoginResponse, LoginRequest>(({ input }) => authApi.login(input)),
  },
  actions: {
    ...flowCallbacks,
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
        fieldErrors: withoutField(context.fieldErrors, event.field),
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
    setResponse: assign({ response: (_, r: LoginResponse) => r, error: null, fieldErrors: {} }),
  },
  guards: {
    ...formGuards,
    identifierValid: ({ context }) => !hasErrors(identifierErrors(context.loginUsing, context.values)),
    usingAllowed: ({ context, event }) => event.type === 'auth.use' && allowedLoginUsing(context.fields).includes(event.using),
    passwordGiven: ({ context }) => (context.values.password ?? '') !== '',
    toLogin: isPath(LOGIN_PATH),
    toContinue: isPath(LOGIN_CONTINUE_PATH),
    startedOnContinue: ({ context }) => context.path === LOGIN_CONTINUE_PATH,
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    path: input?.path ?? null,
    fields: null,
    loginUsing: 'username',
    values: { ...EMPTY_IDENTIFIER, password: '' },
    fieldErrors: {},
    error: null,
    retryAfter: null,
    response: null,
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
        'auth.change': { actions: 'change' },
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
      on: {
        'auth.change': { actions: 'change' },
        'auth.back': { target: 'identify', actions: { type: 'navigate', params: { to: LOGIN_PATH } } },
        'route.changed': [{ guard: 'toLogin', target: 'identify', actions: 'rememberPath' }, { actions: 'rememberPath' }],
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
        onDone: { target: 'loggedIn', actions: { type: 'setResponse', params: ({ event }) => event.output } },
        onError: submitErrors('credentials'),
      },
    },
    loggedIn: { type: 'final' },
  },
});

/**
 * Request a demo (/request-demo, spec §3, §7): load the options (countries, compensation plans,
 * industries), fill name, e-mail, mobile and the optional choices, send with platform 'web' →
 * /request-demo/success.
 */
import { assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import { errorInfo, type ErrorInfo, type FieldErrors } from '../api/errors';
import { DEMO_PLATFORM, type RequestDemoOptions, type RequestDemoRequest } from '../schemas/auth.schema';
import {
  collectErrors,
  emailError,
  hasErrors,
  isEmpty,
  requiredError,
  retryAfterSeconds,
  submitOutcome,
  withoutField,
  type SubmitOutcome,
} from '../lib/validation';
import type { FlowInput, NavigateParams, NotifyParams } from './login.machine';

export const REQUEST_DEMO_PATHS = { form: '/request-demo', success: '/request-demo/success' } as const;
const DEMO_MOBILE = /^\+?[\d ()-]{6,20}$/;

export interface RequestDemoValues {
  name: string;
  email: string;
  mobile: string;
  /** Selected ids as the select gives them ('' = none). */
  country_id: string;
  industry: string;
  compensation_plan: string;
}
export type RequestDemoField = keyof RequestDemoValues;

export interface RequestDemoContext {
  path: string | null;
  options: RequestDemoOptions | null;
  values: RequestDemoValues;
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  retryAfter: number | null;
}

export type RequestDemoEvent =
  | { type: 'route.changed'; path: string; search: string }
  | { type: 'load.retry' }
  | { type: 'demo.change'; field: RequestDemoField; value: string }
  | { type: 'demo.submit' };

export function requestDemoErrors(v: RequestDemoValues): FieldErrors {
  return collectErrors({
    name: requiredError(v.name),
    email: emailError(v.email),
    mobile: isEmpty(v.mobile) ? 'validation:required' : DEMO_MOBILE.test(v.mobile.trim()) ? null : 'validation:invalidMobile',
  });
}

const optionalId = (v: string): number | undefined => (isEmpty(v) || !/^\d+$/.test(v.trim()) ? undefined : Number(v));

export function requestDemoBody(v: RequestDemoValues): RequestDemoRequest {
  const body: RequestDemoRequest = {
    name: v.name.trim(),
    email: v.email.trim(),
    mobile: v.mobile.trim(),
    platform: DEMO_PLATFORM,
  };
  const country = optionalId(v.country_id);
  const industry = optionalId(v.industry);
  const plan = optionalId(v.compensation_plan);
  if (country !== undefined) body.country_id = country;
  if (industry !== undefined) body.industry = industry;
  if (plan !== undefined) body.compensation_plan = plan;
  return body;
}

export const requestDemoMachine = setup({
  types: {
    context: {} as RequestDemoContext,
    events: {} as RequestDemoEvent,
    input: {} as FlowInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadOptions: fromPromise<RequestDemoOptions>(() => authApi.requestDemoOptions()),
    requestDemo: fromPromise<{ message: string }, RequestDemoRequest>(({ input }) => authApi.requestDemo(input)),
  },
  actions: {
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: NotifyParams) => {},
    rememberPath: assign({ path: ({ event, context }) => (event.type === 'route.changed' ? event.path : context.path) }),
    setOptions: assign({ options: (_, o: RequestDemoOptions) => o, error: null }),
    change: assign(({ context, event }) => {
      if (event.type !== 'demo.change') return {};
      return { values: { ...context.values, [event.field]: event.value }, fieldErrors: withoutField(context.fieldErrors, event.field) };
    }),
    checkForm: assign({ fieldErrors: ({ context }) => ({ ...context.fieldErrors, ...requestDemoErrors(context.values) }) }),
    clearError: assign({ error: null, retryAfter: null }),
    setLoadError: assign({ error: (_, e: ErrorInfo) => e }),
    setSubmitError: assign(({ context }, e: ErrorInfo) => ({
      error: e,
      fieldErrors: { ...context.fieldErrors, ...e.fields },
      retryAfter: retryAfterSeconds(e),
    })),
  },
  guards: {
    formValid: ({ context }) => !hasErrors(requestDemoErrors(context.values)),
    isConnection: (_, e: ErrorInfo) => e.kind === 'connection',
    outcomeIs: (_, [e, outcome]: [ErrorInfo, SubmitOutcome]) => submitOutcome(e) === outcome,
    startedLater: ({ context }) => context.path !== null && context.path !== REQUEST_DEMO_PATHS.form,
    toForm: ({ event }) => event.type === 'route.changed' && event.path === REQUEST_DEMO_PATHS.form,
    toSuccess: ({ event }) => event.type === 'route.changed' && event.path === REQUEST_DEMO_PATHS.success,
  },
}).createMachine({
  id: 'requestDemo',
  context: ({ input }) => ({
    path: input?.path ?? null,
    options: null,
    values: { name: '', email: '', mobile: '', country_id: '', industry: '', compensation_plan: '' },
    fieldErrors: {},
    error: null,
    retryAfter: null,
  }),
  initial: 'loading',
  on: { 'route.changed': { actions: 'rememberPath' } },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadOptions',
        src: 'loadOptions',
        onDone: [
          {
            guard: 'startedLater',
            target: 'form',
            actions: [
              { type: 'setOptions', params: ({ event }) => event.output },
              { type: 'navigate', params: { to: REQUEST_DEMO_PATHS.form, replace: true } },
            ],
          },
          { target: 'form', actions: { type: 'setOptions', params: ({ event }) => event.output } },
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
    form: {
      initial: 'editing',
      on: {
        'demo.change': { actions: 'change' },
        'demo.submit': [
          { guard: 'formValid', target: 'submitting', actions: 'clearError' },
          { target: '.invalid', actions: 'checkForm' },
        ],
        'route.changed': [
          {
            guard: 'toSuccess',
            actions: ['rememberPath', { type: 'navigate', params: { to: REQUEST_DEMO_PATHS.form, replace: true } }],
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
    submitting: {
      tags: 'busy',
      invoke: {
        id: 'send',
        src: 'requestDemo',
        input: ({ context }) => requestDemoBody(context.values),
        onDone: { target: 'success', actions: { type: 'navigate', params: { to: REQUEST_DEMO_PATHS.success } } },
        onError: [
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'invalid'] }, target: 'form.invalid', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'rateLimited'] }, target: 'form.rateLimited', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { guard: { type: 'outcomeIs', params: ({ event }) => [errorInfo(event.error), 'connectionError'] }, target: 'form.connectionError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
          { target: 'form.serverError', actions: { type: 'setSubmitError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    success: {
      on: {
        // Back from the success page returns to the form with everything as it was.
        'route.changed': [{ guard: 'toForm', target: 'form', actions: 'rememberPath' }, { actions: 'rememberPath' }],
      },
    },
  },
});

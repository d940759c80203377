/**
 * Request a demo (/request-demo, spec §3, §7): load the options (countries, compensation plans,
 * industries), fill name, e-mail, mobile and the optional choices, send with platform 'web' →
 * /request-demo/success.
 */
import { assign, fromPromise, setup } from 'xstate';
import { requestDemoApi } from '../api/public-flows';
import type { FieldErrors } from '../api/errors';
import { DEMO_PLATFORM, type RequestDemoOptions, type RequestDemoRequest } from '../schemas/auth.schema';
import {
  collectErrors,
  emailError,
  hasErrors,
  isEmpty,
  requiredError,
  withoutField,
} from '../lib/validation';
import { flowCallbacks, formActions, formGuards, loadedOnDone, loadErrors, loadErrorStates, stepStates, submitErrors, type FormErrorContext } from './flow-parts';
import type { FlowInput } from './login.machine';
import type { FormFlowEvent } from '../lib/flow';

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

export interface RequestDemoContext extends FormErrorContext {
  path: string | null;
  options: RequestDemoOptions | null;
  values: RequestDemoValues;
}

export type RequestDemoEvent =
  | FormFlowEvent
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
    loadOptions: fromPromise<RequestDemoOptions>(() => requestDemoApi.requestDemoOptions()),
    requestDemo: fromPromise<{ message: string }, RequestDemoRequest>(({ input }) => requestDemoApi.requestDemo(input)),
  },
  actions: {
    ...flowCallbacks,
    ...formActions<RequestDemoContext, RequestDemoEvent>(),
    rememberPath: assign({ path: ({ event, context }) => (event.type === 'route.changed' ? event.path : context.path) }),
    setOptions: assign({ options: (_, o: RequestDemoOptions) => o, error: null }),
    change: assign(({ context, event }) => {
      if (event.type !== 'demo.change') return {};
      return { values: { ...context.values, [event.field]: event.value }, fieldErrors: withoutField(context.fieldErrors, event.field) };
    }),
    checkForm: assign({ fieldErrors: ({ context }) => ({ ...context.fieldErrors, ...requestDemoErrors(context.values) }) }),
  },
  guards: {
    ...formGuards,
    formValid: ({ context }) => !hasErrors(requestDemoErrors(context.values)),
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
        onDone: loadedOnDone({ apply: 'setOptions', target: 'form', startedLater: 'startedLater', firstPath: REQUEST_DEMO_PATHS.form }),
        onError: loadErrors,
      },
    },
    ...loadErrorStates(),
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
      states: stepStates(),
    },
    submitting: {
      tags: 'busy',
      invoke: {
        id: 'send',
        src: 'requestDemo',
        input: ({ context }) => requestDemoBody(context.values),
        onDone: { target: 'success', actions: { type: 'navigate', params: { to: REQUEST_DEMO_PATHS.success } } },
        onError: submitErrors('form'),
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

/**
 * The parts the public auth flows share: loading the form's options with retry and routing a failed
 * submission to the step's invalid / rateLimited / connectionError / serverError sub-state. The
 * one-time-code step is in code-step-parts.ts, the single-sign-on call in sso-parts.ts (only the flows
 * loaded on first use need them). Each flow spreads these into its own `setup` and config, so state
 * names, events, guards and actions stay those of the flow.
 */
import { assign, fromPromise, type EventObject } from 'xstate';
import { classifyFailure, errorInfo, type ErrorInfo, type Failure, type FieldErrors } from '../api/errors';
import type { Country, ModuleData } from '../schemas/common.schema';
import { storage } from '../lib/storage';
import { pickPhoneCode, retryAfterSeconds, type SubmitOutcome } from '../lib/validation';
import type { NavigateParams, NotifyParams } from '../lib/flow';

/** What every flow with a form keeps about the last failure. */
export interface FormErrorContext {
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  retryAfter: number | null;
}

/** What loading a flow's form gives: the form's options and the phone code to start the mobile field with. */
export interface LoadedFields<F> {
  fields: F;
  phoneCode: string;
}

export type ErrorArgs = { event: { error: unknown } };
export type OutputArgs<T> = { event: { output: T } };

export const errorOf = ({ event }: ErrorArgs) => errorInfo(event.error);
const at = (parent: string | null, child: string) => (parent ? `${parent}.${child}` : child);

/** The params of an action or guard that takes the output of the invoke that finished. */
export const outputOf = <T>({ event }: OutputArgs<T>): T => event.output;

/** `navigate` and `notify`: no-ops here; the session binds them with `.provide({ actions })`. */
export const flowCallbacks = {
  navigate: (_: unknown, _params: NavigateParams) => {},
  notify: (_: unknown, _params: NotifyParams) => {},
};

// ---------------------------------------------------------------------------------------------
// Guards

/** How a public form shows each Failure: next to the fields, as a wait, or as connection/server trouble. */
const OUTCOMES: Partial<Record<Failure, SubmitOutcome>> = { validation: 'invalid', rateLimited: 'rateLimited', connection: 'connectionError' };

export const formGuards = {
  isConnection: (_: unknown, e: ErrorInfo) => classifyFailure(e) === 'connection',
  outcomeIs: (_: unknown, [e, outcome]: [ErrorInfo, SubmitOutcome]) => (OUTCOMES[classifyFailure(e)] ?? 'serverError') === outcome,
};

// ---------------------------------------------------------------------------------------------
// Actions (typed against the flow's context and events)

export function formActions<TContext extends FormErrorContext, TEvent extends EventObject>() {
  return {
    clearError: assign<TContext, TEvent, undefined, TEvent, never>({ error: null, retryAfter: null } as never),
    setLoadError: assign<TContext, TEvent, ErrorInfo, TEvent, never>((_, e) => ({ error: e }) as Partial<TContext>),
    setSubmitError: assign<TContext, TEvent, ErrorInfo, TEvent, never>(
      ({ context }, e) =>
        ({
          error: e,
          fieldErrors: { ...context.fieldErrors, ...e.fields },
          retryAfter: retryAfterSeconds(e),
        }) as Partial<TContext>,
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Loading the options of the form

/** The company's default country as the last modules answer said, if known. */
export function storedDefaultCountry(): ModuleData['default_country'] | undefined {
  return storage.getJSON<ModuleData>('module_data')?.default_country;
}

/** Loads a form's fields and picks the phone code to preselect (the company's default country). */
export function loadFieldsLogic<F extends { countries: Country[] }>(load: () => Promise<F>) {
  return fromPromise<LoadedFields<F>>(async () => {
    const fields = await load();
    return { fields, phoneCode: pickPhoneCode(fields.countries, storedDefaultCountry()) };
  });
}

/**
 * `onDone` of the loading invoke: `apply` the output and go to the first step; when the flow was
 * opened on a later page (guard `startedLater`), also replace the URL with the first step's.
 */
export function loadedOnDone<const A extends string, const G extends string>(o: { apply: A; target: string; startedLater: G; firstPath: string }) {
  return [
    {
      guard: o.startedLater,
      target: o.target,
      actions: [
        { type: o.apply, params: outputOf },
        { type: 'navigate', params: { to: o.firstPath, replace: true } },
      ],
    },
    { target: o.target, actions: { type: o.apply, params: outputOf } },
  ] as const;
}

/** The loaded fields, with the phone code preselected unless one is already chosen. */
export function fieldsLoaded<F, V extends { mobile_code: string }>(context: { values: V }, out: LoadedFields<F>) {
  return { fields: out.fields, error: null, values: { ...context.values, mobile_code: context.values.mobile_code || out.phoneCode } };
}

/** The way of identifying to keep: the current one when still allowed, else `fallback`. */
export function keptUsing<U>(current: U, allowed: readonly U[], fallback: U): U {
  return allowed.includes(current) ? current : fallback;
}

/** `onError` of the loading invoke: connection trouble or anything else, both with retry. */
export const loadErrors = [
  {
    guard: { type: 'isConnection', params: errorOf },
    target: 'connectionError',
    actions: { type: 'setLoadError', params: errorOf },
  },
  { target: 'serverError', actions: { type: 'setLoadError', params: errorOf } },
] as const;

/** The two top-level error screens of loading; `load.retry` loads again. */
export function loadErrorStates() {
  return {
    connectionError: { tags: 'error', on: { 'load.retry': 'loading' } },
    serverError: { tags: 'error', on: { 'load.retry': 'loading' } },
  } as const;
}

// ---------------------------------------------------------------------------------------------
// Submitting a step

export const submitError = { type: 'setSubmitError', params: errorOf } as const;
const outcome = (o: SubmitOutcome) => ({ type: 'outcomeIs', params: ({ event }: ErrorArgs): [ErrorInfo, SubmitOutcome] => [errorInfo(event.error), o] }) as const;

/** A refusal that is not about the fields: rate limit, connection, server (sub-states of `parent`). */
export function failureErrors(parent: string | null) {
  return [
    { guard: outcome('rateLimited'), target: at(parent, 'rateLimited'), actions: submitError },
    { guard: outcome('connectionError'), target: at(parent, 'connectionError'), actions: submitError },
    { target: at(parent, 'serverError'), actions: submitError },
  ] as const;
}

/** `onError` of a submission: field errors to `parent.invalid`, the rest as failureErrors. */
export function submitErrors(parent: string | null) {
  return [{ guard: outcome('invalid'), target: at(parent, 'invalid'), actions: submitError }, ...failureErrors(parent)] as const;
}

/**
 * The sub-states of a step with a form: editing, invalid, then the error ones (tagged `error`):
 * `before`, rateLimited, connectionError, serverError, `after`.
 */
export function stepStates<const B extends string = never, const A extends string = never>(
  before: readonly B[] = [],
  after: readonly A[] = [],
): NoInfer<{ [K in 'editing' | 'invalid' | B | A | 'rateLimited' | 'connectionError' | 'serverError']: K extends 'editing' | 'invalid' ? object : { tags: 'error' } }> {
  const errors = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, { tags: 'error' as const }]));
  return {
    editing: {},
    invalid: {},
    ...errors(before),
    ...errors(['rateLimited', 'connectionError', 'serverError']),
    ...errors(after),
  } as NoInfer<{ [K in 'editing' | 'invalid' | B | A | 'rateLimited' | 'connectionError' | 'serverError']: K extends 'editing' | 'invalid' ? object : { tags: 'error' } }>;
}

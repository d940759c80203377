/**
 * The parts the public auth flows share: loading the form's options with retry, routing a failed
 * submission to the step's invalid / rateLimited / connectionError / serverError sub-state, the
 * one-time-code step (send, resend after a countdown, verify, expired and exhausted codes), and
 * the single-sign-on call with retry. Each flow spreads these into its own `setup` and config, so
 * state names, events, guards and actions stay those of the flow.
 */
import { assign, fromCallback, fromPromise, type EventObject } from 'xstate';
import { classifyFailure, errorInfo, type ErrorInfo, type Failure, type FieldErrors } from '../api/errors';
import type { OtpSent } from '../schemas/auth.schema';
import type { Country, ModuleData } from '../schemas/common.schema';
import { storage } from '../lib/storage';
import { hasFieldKey, otpError, pickPhoneCode, retryAfterSeconds, withoutField, type SubmitOutcome } from '../lib/validation';
import { searchParam } from '../lib/paths';
import type { NavigateParams, NotifyParams } from '../lib/flow';

/** What every flow with a form keeps about the last failure. */
export interface FormErrorContext {
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  retryAfter: number | null;
}

/** What a flow with a one-time-code step keeps. */
export interface CodeContext extends FormErrorContext {
  values: { otp: string };
  /** Seconds left until another code may be asked for. */
  resendIn: number;
}

/** What loading a flow's form gives: the form's options and the phone code to start the mobile field with. */
export interface LoadedFields<F> {
  fields: F;
  phoneCode: string;
}

/** The events of the resend countdown of a one-time-code step. */
export type CodeStepEvent = { type: 'otp.resend' } | { type: 'otp.tick' };

type ErrorArgs = { event: { error: unknown } };
type OutputArgs<T> = { event: { output: T } };

const errorOf = ({ event }: ErrorArgs) => errorInfo(event.error);
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

export const codeGuards = {
  otpValid: ({ context }: { context: { values: { otp: string } } }) => otpError(context.values.otp) === null,
  counting: ({ context }: { context: { resendIn: number } }) => context.resendIn > 0,
  canResend: ({ context }: { context: { resendIn: number } }) => context.resendIn <= 0,
  fieldKey: (_: unknown, [e, key]: [ErrorInfo, string]) => hasFieldKey(e, key),
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

export function codeActions<TContext extends CodeContext, TEvent extends EventObject>() {
  return {
    checkOtp: assign<TContext, TEvent, undefined, TEvent, never>(
      ({ context }) => {
        const fieldErrors: FieldErrors = { ...context.fieldErrors, otp: otpError(context.values.otp) ?? 'validation:otpFormat' };
        return { fieldErrors } as Partial<TContext>;
      },
    ),
    tick: assign<TContext, TEvent, undefined, TEvent, never>(({ context }) => ({ resendIn: Math.max(0, context.resendIn - 1) }) as Partial<TContext>),
  };
}

/** A new code is on its way: empty code field, countdown from the server's resend_in, no error. */
export function codeSentUpdate<V extends { otp: string }>(context: { values: V }, sent: OtpSent) {
  return {
    resendIn: Math.max(0, Math.ceil(sent.resend_in)),
    values: { ...context.values, otp: '' },
    error: null,
    retryAfter: null,
  };
}

/** Too many wrong codes: that code is dead and a new one must be sent at once. */
export function codeExhaustedUpdate<V extends { otp: string }>(context: { values: V; fieldErrors: FieldErrors }, e: ErrorInfo) {
  return {
    error: e,
    resendIn: 0,
    values: { ...context.values, otp: '' },
    fieldErrors: withoutField(context.fieldErrors, 'otp'),
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

const submitError = { type: 'setSubmitError', params: errorOf } as const;
const outcome = (o: SubmitOutcome) => ({ type: 'outcomeIs', params: ({ event }: ErrorArgs): [ErrorInfo, SubmitOutcome] => [errorInfo(event.error), o] }) as const;
const fieldKey = (key: string) => ({ type: 'fieldKey', params: ({ event }: ErrorArgs): [ErrorInfo, string] => [errorInfo(event.error), key] }) as const;

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

// ---------------------------------------------------------------------------------------------
// The one-time-code step

const notifyCodeSent = {
  type: 'notify',
  params: ({ event }: OutputArgs<OtpSent>) => ({ kind: 'success' as const, key: 'auth:otpSent', values: { destination: event.output.destination } }),
} as const;

/** Actions when a code was sent: store it (`codeSent`), optionally go to the code page, tell where it went. */
export function codeSentActions(navigateTo?: string) {
  const codeSent = { type: 'codeSent', params: outputOf<OtpSent> } as const;
  return navigateTo ? ([codeSent, { type: 'navigate', params: { to: navigateTo } }, notifyCodeSent] as const) : ([codeSent, notifyCodeSent] as const);
}

/** The code step: starts editing, with the one-second ticker that drives the resend countdown. */
export const codeStep = { initial: 'editing', invoke: { id: 'ticker', src: 'ticker' } } as const;

/**
 * The handlers every code step has: ticks count down, `otp.resend` once the countdown is over,
 * and the verify event (`verify`) goes to `verifying` when the code has six digits.
 */
export function codeStepOn<const V extends string>(verify: V, verifying: string) {
  return {
    'otp.tick': { guard: 'counting', actions: 'tick' },
    'otp.resend': { guard: 'canResend', target: 'resending', actions: 'clearError' },
    [verify]: [
      { guard: 'otpValid', target: verifying, actions: 'clearError' },
      { target: '.invalid', actions: 'checkOtp' },
    ],
  } as {
    'otp.tick': { guard: 'counting'; actions: 'tick' };
    'otp.resend': { guard: 'canResend'; target: 'resending'; actions: 'clearError' };
  } & Record<V, readonly [{ guard: 'otpValid'; target: string; actions: 'clearError' }, { target: '.invalid'; actions: 'checkOtp' }]>;
}

/** Asking for a code (`id` send or resend): on success to `code`, on failure to a sub-state of `step`. */
export function sendCodeState<const S extends string, C, I>(o: {
  id: 'send' | 'resend';
  src: S;
  input: (context: C) => I;
  code: string;
  /** The step whose sub-states show a failure; a resend fails on the code step (no field errors). */
  step: string;
  navigateTo?: string;
}) {
  return {
    tags: 'busy',
    invoke: {
      id: o.id,
      src: o.src,
      input: ({ context }: { context: C }) => o.input(context),
      onDone: { target: o.code, actions: codeSentActions(o.navigateTo) },
      onError: o.id === 'resend' ? failureErrors(o.step) : submitErrors(o.step),
    },
  } as const;
}

/** Too many wrong codes: to `target` (where a new code can be sent), optionally navigating there. */
export function codeExhaustedTransition(target: string, navigateTo?: string) {
  const exhausted = { type: 'codeExhausted', params: errorOf } as const;
  return {
    guard: fieldKey('validation:otpTooManyAttempts'),
    target,
    actions: navigateTo ? ([exhausted, { type: 'navigate', params: { to: navigateTo } }] as const) : exhausted,
  } as const;
}

/** An expired code, matched by its field error. */
export const codeExpiredGuard = fieldKey('validation:otpExpired');

/**
 * `onError` of checking a code: exhausted → `exhausted.target`; expired → `code.expired`; the rest
 * to sub-states of `code` as any submission.
 */
export function codeErrors(code: string, exhausted: { target: string; navigateTo?: string }) {
  return [
    codeExhaustedTransition(exhausted.target, exhausted.navigateTo),
    { guard: codeExpiredGuard, target: `${code}.expired`, actions: submitError },
    ...submitErrors(code),
  ] as const;
}

// ---------------------------------------------------------------------------------------------
// Single sign-on calls (/sso_login, /sso_logout)

type ErrorParams = { error: unknown };
const errorParams = ({ event }: ErrorArgs): ErrorParams => ({ error: event.error });

export const ssoGuards = {
  hasToken: ({ context }: { context: { search: string } }) => searchParam(context.search, 'token') !== null,
  isConnectionError: (_: unknown, params: ErrorParams) => classifyFailure(params.error) === 'connection',
  isServerError: (_: unknown, params: ErrorParams) => classifyFailure(params.error) === 'server',
};

export function ssoActions<TContext extends { error: ErrorInfo | null }, TEvent extends EventObject>() {
  return {
    setError: assign<TContext, TEvent, ErrorParams, TEvent, never>((_, params) => ({ error: errorInfo(params.error) }) as Partial<TContext>),
  };
}

/** The token of the URL, for the call. */
const ssoTokenInput = ({ context }: { context: { search: string } }) => ({ ssoToken: searchParam(context.search, 'token') ?? '' });

/** Without a token there is nothing to do: to root. */
const ssoChecking = {
  always: [
    { guard: 'hasToken', target: 'connecting' },
    { target: 'done', actions: { type: 'navigate', params: { to: '/', replace: true } } },
  ],
} as const;

/** `onError` of the call: connection and server trouble wait for `sso.retry`; a refusal tells `failedKey` and goes to `then`. */
function ssoCallErrors(failedKey: string, then: string) {
  return [
    {
      guard: { type: 'isConnectionError', params: errorParams },
      target: 'connectionError',
      actions: { type: 'setError', params: errorParams },
    },
    {
      guard: { type: 'isServerError', params: errorParams },
      target: 'serverError',
      actions: { type: 'setError', params: errorParams },
    },
    {
      target: 'done',
      actions: [
        { type: 'notify', params: { kind: 'error', key: failedKey } },
        { type: 'navigate', params: { to: then, replace: true } },
      ],
    },
  ] as const;
}

/** connectionError / serverError of the call: `sso.retry` calls again. */
export function ssoRetryStates<TContext extends { error: ErrorInfo | null }, TEvent extends EventObject>() {
  const retry = () => ({ 'sso.retry': { target: 'connecting', actions: assign<TContext, TEvent, undefined, TEvent, never>({ error: null } as never) } }) as const;
  return {
    connectionError: { tags: ['error'], on: retry() },
    serverError: { tags: ['error'], on: retry() },
  } as const;
}

/**
 * The states of a single-sign-on screen around its call `src`: checking the token, connecting
 * (busy; `onDone` is the flow's own) and the final `done`; the flow adds `ssoRetryStates`.
 */
export function ssoCallStates<const S extends string, const D>(o: {
  src: S;
  onDone: D;
  failedKey: string;
  then: string;
}) {
  return {
    checking: ssoChecking,
    connecting: {
      tags: ['busy'],
      invoke: { id: 'call', src: o.src, input: ssoTokenInput, onDone: o.onDone, onError: ssoCallErrors(o.failedKey, o.then) },
    },
    done: { type: 'final' },
  } as const;
}

/** One `otp.tick` a second while a code screen is open: drives the visible resend countdown. */
export const resendTicker = fromCallback(({ sendBack }) => {
  const id = setInterval(() => sendBack({ type: 'otp.tick' }), 1000);
  return () => clearInterval(id);
});

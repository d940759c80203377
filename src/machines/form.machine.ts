/**
 * One factory for every form of the member area. A declaration says what the form loads, how its
 * values are checked (the shared zod schema), how it is sent, and which composable steps it needs:
 *
 *   export const emailChangeMachine = createFormMachine({
 *     id: 'emailChange',
 *     initialValues: { email: '' },
 *     schema: emailChangeSchema,
 *     submit: ({ values, code }) => accountApi.changeEmail({ ...values, otp: code ?? '' }),
 *     sendCode: ({ values }) => accountApi.sendEmailCode(values),
 *     steps: { password: true, code: true },
 *   });
 *
 * States (spec §4):
 * - the optional initial load: loading, loadConnectionError, loadError (retry with `<domain>.retry`);
 * - editing; checking (passing, the schema decides: invalid values stay in editing with their field
 *   errors); the request statuses: connecting, refreshing (a form sent again after it once
 *   succeeded), success, validationError (the server's field map, or a refusal), connectionError,
 *   serverError and their `…OnRefresh` variants; forceLogout after a 401 or a blocked account.
 * - the one-time-code step (`steps.code`): the first request asks for a code (`sendCode`), then
 *   code (editing, invalid, expired, tooManyAttempts, rateLimited, connectionError, serverError, with
 *   the resend countdown), verifying (the real submission, with the code) and resending — the same
 *   step the public sign-in flows use (flow-parts.ts).
 *
 * Events are `<domain>.<verb>` (domain defaults to 'form'): change { field, value } (nothing typed is
 * lost: errors never clear values), submit, save { values } (send exactly these values at once, for
 * forms that save on every choice), retry (the same request again, with the same idempotency key),
 * dismiss (back to editing), reset (empty form; loads again when the form loads), verify and cancel
 * on the code step, `otp.resend` for a new code.
 *
 * Other steps: `steps.password` keeps the re-entered account password apart from the values (required,
 * sent with the request, never kept after success); `steps.idempotent` gives each submission attempt a
 * key that retries reuse and an edit replaces. A demo_blocked answer calls `notify` with
 * common:featureUnavailableInDemo and leaves the form as it was; a 401 enters forceLogout and calls
 * `forceLogout`. Success calls `apply` (with `applied(values, result)`) and `notify` with the
 * declaration's `successKey`. Context holds error kinds and i18n keys, never translated text.
 *
 * A form about one record (an edit) takes `input: { params: id }`: `load(params)` and `submit` get it.
 */
import { assign, fromPromise, setup } from 'xstate';
import * as z from 'zod/mini';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo, type Failure, type FieldErrors } from '../api/errors';
import type { NotifyParams } from '../lib/flow';
import type { OtpSent } from '../schemas/auth.schema';
import { formActions, formGuards, outputOf, stepStates } from './flow-parts';
import { codeActions, codeErrors, codeExhaustedUpdate, codeGuards, codeSentActions, codeSentUpdate, codeStep, codeStepOn, sendCodeState, resendTicker } from './code-step-parts';
import { factoryStamp } from './factory-registry';

/** Field → i18n key of every problem `schema` finds in `values` (the first one per field). */
export function fieldErrorsOf(schema: z.ZodMiniType, values: unknown): FieldErrors {
  const result = z.safeParse(schema, values);
  if (result.success) return {};
  const out: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length ? fieldOf(issue.path, values) : '';
    if (!(field in out)) out[field] = issueKey(issue, field ? (values as Record<string, unknown> | null)?.[field] : values);
  }
  return out;
}

/** The field an issue is about: the value's name, or `<name>.<index>.<field>` inside a list of rows. */
function fieldOf(path: readonly PropertyKey[], values: unknown): string {
  const value = (values as Record<string, unknown> | null)?.[String(path[0])];
  const rows = Array.isArray(value) && value.length > 0 && value.every((r) => r !== null && typeof r === 'object' && !(typeof File !== 'undefined' && r instanceof File));
  return rows && path.length >= 3 ? path.slice(0, 3).map(String).join('.') : String(path[0]);
}

/** A schema's own message when it is an i18n key ('validation:…'), else the key of the issue's kind. */
function issueKey(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.message.includes(':') && !issue.message.includes(' ')) return issue.message;
  const empty = input === undefined || input === null || (typeof input === 'string' && input.trim() === '');
  if (empty && issue.code !== 'unrecognized_keys') return 'validation:required';
  switch (issue.code) {
    case 'invalid_type':
      return 'validation:invalidType';
    case 'too_small':
      return issue.origin === 'string' ? 'validation:tooShort' : 'validation:tooSmall';
    case 'too_big':
      return issue.origin === 'string' ? 'validation:tooLong' : 'validation:tooBig';
    case 'invalid_format':
      return issue.format === 'email' ? 'validation:invalidEmail' : 'validation:invalidFormat';
    case 'invalid_value':
      return 'validation:invalidChoice';
    case 'unrecognized_keys':
      return 'validation:unknownField';
    default:
      return 'validation:invalid';
  }
}

/** A new key per submission attempt of anything that moves money (RFC 4122 version 4). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // From Math.random where crypto.randomUUID is unavailable (old browsers, plain http).
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (ch) => {
    const r = (Math.random() * 16) | 0;
    return (ch === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

/** A row of a list of rows (a sale's lines): text fields, as typed. */
export type FormRow = Readonly<Record<string, string>>;
/**
 * A form's value: text as typed, the files a file field holds (chosen files are never persisted: such pages keep
 * their actor in memory), the chosen options of a multi-select, or a list of rows (added and removed by changing
 * the whole list; a row's field errors are named `<field>.<index>.<name>`, like the server's field map).
 */
export type FormValue = string | undefined | readonly File[] | readonly string[] | readonly FormRow[];
export type FormValues = Record<string, FormValue>;

/** What the submission (and the code request) receives. */
export interface SubmitInput<V, L, I = never> {
  values: V;
  /** The re-entered account password (steps.password), else null. */
  password: string | null;
  /** The one-time code (steps.code), else null. */
  code: string | null;
  /** The attempt's Idempotency-Key (steps.idempotent), else null. */
  key: string | null;
  /** What the initial load gave (null without a load). */
  loaded: L | null;
  /** The machine's `input.params` (the record being edited), null without. */
  params: I | null;
}

export interface FormSteps<L> {
  /** Re-enter the account password (required; `(loaded) => boolean` when the loaded settings decide). */
  password?: boolean | ((loaded: L | null) => boolean);
  /** A one-time code: the first request asks for it (`sendCode`), `submit` verifies it. */
  code?: boolean;
  /** One Idempotency-Key per submission attempt: retries reuse it, an edit starts a new attempt. */
  idempotent?: boolean;
}

export interface FormDeclaration<V extends FormValues, L, R, A, D extends string, I> {
  id: string;
  /** Event domain (`<domain>.submit` …); 'form' when not given. */
  domain?: D;
  initialValues: V;
  /** The optional initial load (settings, the record to edit), given the machine's `input.params`. */
  load?: (params: I | null) => Promise<L>;
  /** The values to edit once loaded (default: the initial values). */
  valuesFrom?: (loaded: L, values: V) => V;
  /** The shared zod schema of the values; a function when the loaded data sets the rules. */
  schema?: z.ZodMiniType | ((loaded: L | null) => z.ZodMiniType);
  submit: (input: SubmitInput<V, L, I>) => Promise<R>;
  /** steps.code: asks the server to send a code for these values. */
  sendCode?: (input: SubmitInput<V, L, I>) => Promise<OtpSent>;
  steps?: FormSteps<L>;
  /** i18n key of the success toast. */
  successKey?: string;
  /** Start again from the initial values after success (a request), instead of keeping them (settings). */
  clearOnSuccess?: boolean;
  /** The params of `apply` after success (default { values, result }). */
  applied?: (values: V, result: R) => A;
}

type CodeValues = { otp: string };

/** The machine's input: what the form is about (the id of the record to edit). */
export interface FormInput<I> {
  params?: I;
}

export interface FormContext<V, L, R, I = never> {
  params: I | null;
  loaded: L | null;
  values: V & CodeValues;
  password: string;
  /** Field → i18n key, from the schema or the server's field map. */
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  /** What the last failure means (classifyFailure). */
  failure: Failure | null;
  retryAfter: number | null;
  /** Seconds until another code may be asked for (steps.code). */
  resendIn: number;
  idempotencyKey: string | null;
  result: R | null;
  /** The form was saved once: sending it again is a refresh. */
  saved: boolean;
}

export type FormEvent<V, D extends string = 'form'> =
  | { type: `${D}.change`; field: (keyof V & string) | 'password' | 'otp'; value: Exclude<FormValue, undefined> }
  | { type: `${D}.submit` }
  | { type: `${D}.save`; values: Partial<V> }
  | { type: `${D}.retry` }
  | { type: `${D}.dismiss` }
  | { type: `${D}.reset` }
  | { type: `${D}.verify` }
  | { type: `${D}.cancel` }
  | { type: 'otp.resend' }
  | { type: 'otp.tick' };

/**
 * A state's config as the machine's type sees it: the factory assembles the configs from declarations
 * that xstate's config typing cannot follow, and the keys are what gives the state values their type.
 */
type Node = Record<never, never>;
type CodeState = 'editing' | 'invalid' | 'expired' | 'tooManyAttempts' | 'rateLimited' | 'connectionError' | 'serverError';

const DEMO_BLOCKED: NotifyParams = { kind: 'error', key: 'common:featureUnavailableInDemo' };

type ErrorEventArgs = { event: { error: unknown } };
type ErrorParams = { error: unknown };
/** The failed call's ErrorInfo, as the params of `setFailure`. */
export const failed = ({ event }: ErrorEventArgs) => errorInfo(event.error);

/** Named guards over classifyFailure (so a diagram says which branch is which); params { error }. */
export const failureGuards = {
  sessionEnded: (_: unknown, p: ErrorParams) => endsSession(classifyFailure(p.error)),
  demoBlocked: (_: unknown, p: ErrorParams) => classifyFailure(p.error) === 'demoBlocked',
  connectionLost: (_: unknown, p: ErrorParams) => classifyFailure(p.error) === 'connection',
  serverFailed: (_: unknown, p: ErrorParams) => classifyFailure(p.error) === 'server',
};
export const failureIs = (guard: keyof typeof failureGuards) => ({ type: guard, params: ({ event }: ErrorEventArgs) => ({ error: event.error }) }) as const;

/**
 * The first branches of every `onError` of a call made by a member: a 401 or a blocked account →
 * forceLogout; demo_blocked → the featureUnavailableInDemo toast, back to `demoTarget`.
 */
export function blockedErrors(demoTarget: string) {
  return [
    { guard: failureIs('sessionEnded'), target: 'forceLogout', actions: { type: 'setFailure', params: failed } },
    { guard: failureIs('demoBlocked'), target: demoTarget, actions: [{ type: 'setFailure', params: failed }, { type: 'notify', params: DEMO_BLOCKED }] },
  ] as const;
}

export function createFormMachine<V extends FormValues, L = never, R = unknown, A = { values: V; result: R }, D extends string = 'form', I = never>(
  declaration: FormDeclaration<V, L, R, A, D, I>,
) {
  const d = (declaration.domain ?? 'form') as D;
  const on = <const N extends string>(verb: N) => `${d}.${verb}` as `${D}.${N}`;
  const steps = declaration.steps ?? {};
  type Ctx = FormContext<V, L, R, I>;
  type Ev = FormEvent<V, D>;
  type Args = { context: Ctx; event: Ev };

  const schemaFor = (loaded: L | null) =>
    typeof declaration.schema === 'function' ? declaration.schema(loaded) : declaration.schema;
  const passwordWanted = (loaded: L | null) =>
    typeof steps.password === 'function' ? steps.password(loaded) : steps.password === true;
  const formErrors = (c: Ctx): FieldErrors => {
    const { otp: _otp, ...values } = c.values;
    const schema = schemaFor(c.loaded);
    const errors = schema ? fieldErrorsOf(schema, values) : {};
    if (passwordWanted(c.loaded) && !c.password) errors.password = 'validation:required';
    return errors;
  };
  const submitInput = (c: Ctx): SubmitInput<V, L, I> => {
    const { otp, ...values } = c.values;
    return {
      values: values as unknown as V,
      password: passwordWanted(c.loaded) ? c.password : null,
      // A restored snapshot has no code: secrets are dropped when it is saved.
      code: steps.code ? (otp ?? '').trim() : null,
      key: steps.idempotent ? c.idempotencyKey : null,
      loaded: c.loaded,
      params: c.params,
    };
  };
  const blank = (): Pick<Ctx, 'values' | 'password' | 'fieldErrors' | 'error' | 'failure' | 'retryAfter' | 'idempotencyKey'> => ({
    values: { ...declaration.initialValues, otp: '' },
    password: '',
    fieldErrors: {},
    error: null,
    failure: null,
    retryAfter: null,
    idempotencyKey: null,
  });

  /** Where a failed request goes; `refresh` picks the on-refresh variants. */
  const requestErrors = (refresh: boolean) => {
    const suffix = refresh ? 'OnRefresh' : '';
    return [
      ...blockedErrors('editing'),
      { guard: failureIs('connectionLost'), target: `connectionError${suffix}`, actions: { type: 'setFailure', params: failed } },
      { guard: failureIs('serverFailed'), target: `serverError${suffix}`, actions: { type: 'setFailure', params: failed } },
      { target: `validationError${suffix}`, actions: { type: 'setRefusal', params: failed } },
    ] as const;
  };

  const succeeded = [
    { type: 'succeed', params: outputOf<R> },
    { type: 'apply', params: ({ context, event }: { context: Ctx; event: { output: R } }) => applyParams(context, event.output) },
    ...(declaration.successKey ? [{ type: 'notify', params: { kind: 'success', key: declaration.successKey } as NotifyParams }] : []),
  ] as const;
  const applyParams = (context: Ctx, result: R): A => {
    const values = submitInput(context).values;
    return declaration.applied ? declaration.applied(values, result) : ({ values, result } as A);
  };

  /** connecting / refreshing: the first request (the code request with steps.code, else the submission). */
  const requestState = (refresh: boolean) => ({
    tags: refresh ? ['busy', 'refreshing'] : ['busy'],
    entry: 'startAttempt',
    invoke: {
      id: 'request',
      src: steps.code ? 'sendCode' : 'submit',
      input: ({ context }: { context: Ctx }) => submitInput(context),
      onDone: steps.code ? { target: 'code', actions: codeSentActions() } : { target: 'success', actions: succeeded },
      onError: requestErrors(refresh),
    },
  });

  const resetTarget = declaration.load ? 'loading' : 'editing';
  const submitOn = {
    [on('submit')]: 'checking',
    [on('save')]: { target: 'checking', actions: 'takeValues' },
  };
  /** Leaving an error: what was typed stays; `retry` sends the same request again (same key). */
  const errorState = (refresh: boolean, retry: boolean) => ({
    tags: ['error'],
    on: {
      ...submitOn,
      [on('change')]: { target: 'editing', actions: 'change' },
      [on('dismiss')]: { target: 'editing', actions: 'clearFailure' },
      [on('reset')]: { target: resetTarget, actions: 'clear' },
      ...(retry ? { [on('retry')]: { target: refresh ? 'refreshing' : 'connecting', actions: 'clearFailure' } } : {}),
    },
  });

  const codeStates = steps.code
    ? {
        code: {
          ...codeStep,
          on: {
            [on('change')]: { actions: 'change' },
            [on('cancel')]: { target: 'editing', actions: 'clearFailure' },
            ...codeStepOn(on('verify'), 'verifying'),
          },
          states: stepStates(['expired', 'tooManyAttempts']),
        },
        verifying: {
          tags: ['busy'],
          entry: 'startAttempt',
          invoke: {
            id: 'verify',
            src: 'submit',
            input: ({ context }: { context: Ctx }) => submitInput(context),
            onDone: { target: 'success', actions: succeeded },
            onError: [
              ...blockedErrors('code'),
              ...codeErrors('code', { target: 'code.tooManyAttempts' }),
            ],
          },
        },
        resending: (() => {
          const s = sendCodeState({ id: 'resend', src: 'sendCode', input: submitInput, code: 'code', step: 'code' });
          return {
            ...s,
            invoke: {
              ...s.invoke,
              onError: [
                ...blockedErrors('code'),
                ...s.invoke.onError,
              ],
            },
          };
        })(),
      }
    : {};

  const loadStates = declaration.load
    ? {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'load',
            src: 'load',
            input: ({ context }: { context: Ctx }) => context.params,
            onDone: { target: 'editing', actions: { type: 'setLoaded', params: outputOf<L> } },
            onError: [
              { guard: failureIs('sessionEnded'), target: 'forceLogout', actions: { type: 'setFailure', params: failed } },
              { guard: failureIs('connectionLost'), target: 'loadConnectionError', actions: { type: 'setFailure', params: failed } },
              { target: 'loadError', actions: { type: 'setFailure', params: failed } },
            ],
          },
        },
        loadConnectionError: { tags: ['error'], on: { [on('retry')]: 'loading' } },
        loadError: { tags: ['error'], on: { [on('retry')]: 'loading' } },
      }
    : {};

  return setup({
    types: {
      context: {} as Ctx,
      events: {} as Ev,
      tags: {} as 'busy' | 'refreshing' | 'error',
    },
    actors: {
      load: fromPromise<L, I | null>(({ input }) => (declaration.load ? declaration.load(input) : Promise.reject(new Error('No load declared')))),
      submit: fromPromise<R, SubmitInput<V, L, I>>(({ input }) => declaration.submit(input)),
      sendCode: fromPromise<OtpSent, SubmitInput<V, L, I>>(({ input }) =>
        declaration.sendCode ? declaration.sendCode(input) : Promise.reject(new Error('No sendCode declared')),
      ),
      ticker: resendTicker,
    },
    actions: {
      /** Bound by the page: a toast of an i18n key. */
      notify: (_, _params: NotifyParams) => {},
      /** Bound by the page: hand the saved values and the answer on (refresh the session, other lists). */
      apply: (_, _params: A) => {},
      /** Bound by the page: sign the member out (a 401 on a call that is not a GET). */
      forceLogout: () => {},
      ...formActions<Ctx, Ev>(),
      ...codeActions<Ctx, Ev>(),
      setLoaded: assign(({ context }, loaded: L) => ({
        loaded,
        values: declaration.valuesFrom ? { ...declaration.valuesFrom(loaded, context.values), otp: context.values.otp } : context.values,
        error: null,
        failure: null,
      })),
      change: assign(({ context, event }: Args) => {
        if (!('field' in event)) return {};
        const fieldErrors = { ...context.fieldErrors };
        delete fieldErrors[event.field];
        // A list of rows changed: its rows' messages go with it.
        for (const k of Object.keys(fieldErrors)) if (k.startsWith(`${event.field}.`)) delete fieldErrors[k];
        // 'password' is the re-entered account password of steps.password; a form without that step may name a value so.
        const edit =
          event.field === 'password' && passwordWanted(context.loaded) ? { password: String(event.value) } : { values: { ...context.values, [event.field]: event.value } };
        // An edit starts a new submission attempt: a new idempotency key when it is sent.
        return { ...edit, fieldErrors, idempotencyKey: null, error: null, failure: null };
      }),
      takeValues: assign(({ event }: Args) =>
        'values' in event ? { values: { ...declaration.initialValues, ...event.values, otp: '' }, fieldErrors: {}, idempotencyKey: null } : {},
      ),
      validate: assign({ fieldErrors: ({ context }) => formErrors(context) }),
      startAttempt: assign({
        idempotencyKey: ({ context }) => (steps.idempotent ? (context.idempotencyKey ?? newIdempotencyKey()) : null),
      }),
      clearFailure: assign({ error: null, failure: null, retryAfter: null }),
      setFailure: assign((_, e: ErrorInfo) => ({ error: e, failure: classifyFailure(e) })),
      /** A refused request: its field messages; the attempt is over (the next submit is a new one). */
      setRefusal: assign(({ context }, e: ErrorInfo) => ({
        error: e,
        failure: classifyFailure(e),
        fieldErrors: { ...context.fieldErrors, ...e.fields },
        idempotencyKey: null,
      })),
      succeed: assign(({ context }, result: R) => ({
        result,
        saved: true,
        ...(declaration.clearOnSuccess ? blank() : { ...blank(), values: { ...context.values, otp: '' } }),
      })),
      clear: assign(() => ({ ...blank(), result: null, saved: false })),
      codeSent: assign(({ context }, sent: OtpSent) => codeSentUpdate(context, sent)),
      codeExhausted: assign(({ context }, e: ErrorInfo) => codeExhaustedUpdate(context, e)),
    },
    guards: {
      ...formGuards,
      ...codeGuards,
      ...failureGuards,
      invalid: ({ context }) => Object.keys(formErrors(context)).length > 0,
      wasSaved: ({ context }) => context.saved,
    },
  }).createMachine({
    id: declaration.id,
    meta: factoryStamp('createFormMachine'),
    // The input stays optional for xstate (a form about nothing in particular starts without one).
    context: ({ input }) => ({ params: (input as FormInput<I> | undefined)?.params ?? null, loaded: null, ...blank(), resendIn: 0, result: null, saved: false }),
    initial: declaration.load ? 'loading' : 'editing',
    states: {
      ...(loadStates as Record<'loading' | 'loadConnectionError' | 'loadError', Node>),
      editing: {
        on: {
          ...submitOn,
          [on('change')]: { actions: 'change' },
          [on('reset')]: { target: resetTarget, actions: 'clear', reenter: true },
        },
      } as Node,
      /** Checks the values with the schema: invalid ones stay in editing with their field errors. */
      checking: {
        always: [
          { guard: 'invalid', target: 'editing', actions: 'validate' },
          { guard: 'wasSaved', target: 'refreshing', actions: 'clearFailure' },
          { target: 'connecting', actions: 'clearFailure' },
        ],
      },
      connecting: requestState(false) as Node,
      refreshing: requestState(true) as Node,
      success: {
        on: {
          ...submitOn,
          [on('change')]: { target: 'editing', actions: 'change' },
          [on('reset')]: { target: resetTarget, actions: 'clear' },
        },
      } as Node,
      validationError: errorState(false, false) as Node,
      connectionError: errorState(false, true) as Node,
      serverError: errorState(false, true) as Node,
      validationErrorOnRefresh: errorState(true, false) as Node,
      connectionErrorOnRefresh: errorState(true, true) as Node,
      serverErrorOnRefresh: errorState(true, true) as Node,
      ...(codeStates as Record<'verifying' | 'resending', Node> & { code: { states: Record<CodeState, Node> } }),
      forceLogout: { tags: ['error'], entry: 'forceLogout' },
    },
  });
}

/**
 * The factory with everything switched on (load, password, one-time code, idempotency key): what
 * `npm run flows` draws. Provide `load`, `submit` and `sendCode` per use, or declare a form.
 */
export const formMachine = createFormMachine({
  id: 'form',
  initialValues: {} as FormValues,
  load: () => Promise.reject<unknown>(new Error('No load provided')),
  submit: () => Promise.reject<unknown>(new Error('No submit provided')),
  sendCode: () => Promise.reject<OtpSent>(new Error('No sendCode provided')),
  steps: { password: true, code: true, idempotent: true },
});

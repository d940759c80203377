/**
 * /member/account/two-factor: two-factor sign-in with an authenticator app.
 *
 * The page loads the status, then:
 * - off → `twoFactor.start`: the account password (setupForm) → the QR code and the key to type
 *   (confirmForm asks the first code) → the recovery codes, shown once → `twoFactor.done` loads the
 *   status again (on);
 * - on → `twoFactor.disable`: the password and a current code or a recovery code (disableForm) → off;
 *   `twoFactor.renew`: the password (renewForm) → ten new recovery codes, shown once.
 * `twoFactor.cancel` leaves a step (an unconfirmed setup stays off; its secret is forgotten here).
 *
 * Each form is a `createFormMachine` declaration (field checks, request statuses, a 401 → forceLogout,
 * demo_blocked); it tells this machine of its success, toasts and a session that ended through events
 * (`twoFactor.formDone`, `twoFactor.notify`, `twoFactor.sessionEnded`). The secret and the codes are
 * held in memory only: the page is not saved (the route table's `persist` says why).
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import * as z from 'zod/mini';
import { twoFactorApi } from '../../api/two-factor';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo } from '../../api/errors';
import type { NotifyParams } from '../../lib/flow';
import {
  recoveryCodeField,
  totpCodeField,
  type RecoveryCodes,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '../../schemas/two-factor.schema';
import { createFormMachine } from '../form.machine';

/** The step a form serves, as it reports its success. */
type FormStep = 'setup' | 'confirm' | 'disable' | 'renew';

export type TwoFactorEvent =
  | { type: 'twoFactor.retry' }
  | { type: 'twoFactor.start' }
  | { type: 'twoFactor.disable' }
  | { type: 'twoFactor.renew' }
  | { type: 'twoFactor.cancel' }
  | { type: 'twoFactor.done' }
  | { type: 'twoFactor.formDone'; step: FormStep; result: unknown }
  | { type: 'twoFactor.notify'; params: NotifyParams }
  | { type: 'twoFactor.sessionEnded' };

export interface TwoFactorContext {
  status: TwoFactorStatus | null;
  /** The key, URI and QR code of the setup in progress (never saved). */
  setup: TwoFactorSetup | null;
  /** Recovery codes just made, shown once (never saved). */
  recoveryCodes: string[] | null;
  error: ErrorInfo | null;
}

/** Values of the form that turns it off: which proof is given, and the proof. */
export interface DisableValues extends Record<string, string | undefined> {
  method: 'code' | 'recovery';
  code: string;
  recovery_code: string;
}

/** The check of the turn-off form: the code of the chosen kind. */
export const disableFormSchema = z
  .object({ method: z.enum(['code', 'recovery']), code: z.string(), recovery_code: z.string() })
  .check(
    z.superRefine((v, ctx) => {
      const [field, schema] = v.method === 'recovery' ? (['recovery_code', recoveryCodeField] as const) : (['code', totpCodeField] as const);
      const given = v[field];
      if (!given.trim()) ctx.addIssue({ code: 'custom', message: 'validation:required', path: [field], input: given });
      else if (!z.safeParse(schema, given).success) ctx.addIssue({ code: 'custom', message: `validation:${field === 'code' ? 'twoFactorCodeFormat' : 'recoveryCodeFormat'}`, path: [field], input: given });
    }),
  );

// Each form tells the page of its success with `apply`; the page binds it to `twoFactor.formDone`.
export const twoFactorForms = {
  /** The account password, re-entered: answers the key and QR code. */
  setup: createFormMachine({
    id: 'twoFactorSetup',
    domain: 'twoFactorSetup',
    initialValues: {},
    steps: { password: true },
    submit: ({ password }): Promise<TwoFactorSetup> => twoFactorApi.setup(password ?? ''),
  }),
  /** The first code from the app: answers the recovery codes. */
  confirm: createFormMachine({
    id: 'twoFactorConfirm',
    domain: 'twoFactorConfirm',
    initialValues: { code: '' },
    schema: z.object({ code: totpCodeField }),
    submit: ({ values }): Promise<RecoveryCodes> => twoFactorApi.confirm({ code: z.parse(totpCodeField, values.code) }),
  }),
  /** The password and a current code or a recovery code. */
  disable: createFormMachine({
    id: 'twoFactorDisable',
    domain: 'twoFactorDisable',
    initialValues: { method: 'code', code: '', recovery_code: '' } as DisableValues,
    schema: disableFormSchema,
    steps: { password: true },
    submit: ({ values, password }) =>
      twoFactorApi.disable(
        values.method === 'recovery'
          ? { password: password ?? '', recovery_code: z.parse(recoveryCodeField, values.recovery_code) }
          : { password: password ?? '', code: z.parse(totpCodeField, values.code) },
      ),
  }),
  /** The password, re-entered: answers ten new recovery codes. */
  renew: createFormMachine({
    id: 'twoFactorRenew',
    domain: 'twoFactorRenew',
    initialValues: {},
    steps: { password: true },
    submit: ({ password }): Promise<RecoveryCodes> => twoFactorApi.renewRecoveryCodes(password ?? ''),
  }),
};

/** A form bound to this page: its success, toasts and a session that ended come here as events. */
function bound<M extends (typeof twoFactorForms)[FormStep]>(machine: M, step: FormStep): M {
  return machine.provide({
    actions: {
      apply: sendParent((_: unknown, p: { result: unknown }) => ({ type: 'twoFactor.formDone', step, result: p.result }) as TwoFactorEvent),
      notify: sendParent((_: unknown, params: NotifyParams) => ({ type: 'twoFactor.notify', params }) as TwoFactorEvent),
      forceLogout: sendParent({ type: 'twoFactor.sessionEnded' } as TwoFactorEvent),
    },
  } as never) as M;
}

const isStep =
  (step: FormStep) =>
  ({ event }: { event: TwoFactorEvent }) =>
    event.type === 'twoFactor.formDone' && event.step === step;
const resultOf = <T>(event: TwoFactorEvent) => (event.type === 'twoFactor.formDone' ? (event.result as T) : null);

export const twoFactorSettingsMachine = setup({
  types: {
    context: {} as TwoFactorContext,
    events: {} as TwoFactorEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadStatus: fromPromise<TwoFactorStatus>(() => twoFactorApi.status()),
    setupForm: bound(twoFactorForms.setup, 'setup'),
    confirmForm: bound(twoFactorForms.confirm, 'confirm'),
    disableForm: bound(twoFactorForms.disable, 'disable'),
    renewForm: bound(twoFactorForms.renew, 'renew'),
  },
  actions: {
    /** Bound per page: the toast. */
    notify: (_, _params: NotifyParams) => {},
    /** Bound per page: the session ends (a 401 or a blocked account). */
    forceLogout: () => {},
    setStatus: assign({ status: (_, s: TwoFactorStatus) => s, error: null }),
    setError: assign({ error: (_, e: ErrorInfo) => e }),
    setSetup: assign({ setup: ({ event }) => resultOf<TwoFactorSetup>(event) }),
    setCodes: assign({ recoveryCodes: ({ event }) => resultOf<RecoveryCodes>(event)?.recovery_codes ?? null, setup: null }),
    forget: assign({ setup: null, recoveryCodes: null }),
    markOff: assign({ status: { enabled: false, enabled_at: null, recovery_codes_left: 0 } }),
  },
  guards: {
    isOn: (_, s: TwoFactorStatus) => s.enabled,
    sessionEnded: (_, e: ErrorInfo) => endsSession(classifyFailure(e)),
    connectionLost: (_, e: ErrorInfo) => classifyFailure(e) === 'connection',
    setupDone: isStep('setup'),
    confirmDone: isStep('confirm'),
    disableDone: isStep('disable'),
    renewDone: isStep('renew'),
  },
}).createMachine({
  id: 'twoFactorSettings',
  context: { status: null, setup: null, recoveryCodes: null, error: null },
  initial: 'loading',
  on: {
    'twoFactor.notify': { actions: { type: 'notify', params: ({ event }) => event.params } },
    'twoFactor.sessionEnded': '.forceLogout',
  },
  states: {
    loading: {
      tags: 'busy',
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          { guard: { type: 'isOn', params: ({ event }) => event.output }, target: 'on', actions: { type: 'setStatus', params: ({ event }) => event.output } },
          { target: 'off', actions: { type: 'setStatus', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: { type: 'sessionEnded', params: ({ event }) => errorInfo(event.error) }, target: 'forceLogout' },
          { guard: { type: 'connectionLost', params: ({ event }) => errorInfo(event.error) }, target: 'loadConnectionError', actions: { type: 'setError', params: ({ event }) => errorInfo(event.error) } },
          { target: 'loadError', actions: { type: 'setError', params: ({ event }) => errorInfo(event.error) } },
        ],
      },
    },
    loadConnectionError: { tags: 'error', on: { 'twoFactor.retry': 'loading' } },
    loadError: { tags: 'error', on: { 'twoFactor.retry': 'loading' } },
    off: {
      entry: 'forget',
      on: { 'twoFactor.start': 'turningOn' },
    },
    /** Password → key and QR code → the first code. */
    turningOn: {
      initial: 'password',
      on: { 'twoFactor.cancel': { target: 'off', actions: 'forget' } },
      states: {
        password: {
          invoke: { id: 'setupForm', src: 'setupForm' },
          on: { 'twoFactor.formDone': { guard: 'setupDone', target: 'scan', actions: 'setSetup' } },
        },
        scan: {
          invoke: { id: 'confirmForm', src: 'confirmForm' },
          on: {
            'twoFactor.formDone': {
              guard: 'confirmDone',
              target: '#twoFactorSettings.codes',
              actions: ['setCodes', { type: 'notify', params: { kind: 'success', key: 'account:twoFactor.enabledToast' } }],
            },
          },
        },
      },
    },
    on: {
      entry: 'forget',
      on: { 'twoFactor.disable': 'turningOff', 'twoFactor.renew': 'renewing' },
    },
    turningOff: {
      invoke: { id: 'disableForm', src: 'disableForm' },
      on: {
        'twoFactor.cancel': 'on',
        'twoFactor.formDone': {
          guard: 'disableDone',
          target: 'off',
          actions: ['markOff', { type: 'notify', params: { kind: 'success', key: 'account:twoFactor.disabledToast' } }],
        },
      },
    },
    renewing: {
      invoke: { id: 'renewForm', src: 'renewForm' },
      on: {
        'twoFactor.cancel': 'on',
        'twoFactor.formDone': { guard: 'renewDone', target: 'codes', actions: 'setCodes' },
      },
    },
    /** The recovery codes, shown this once; done loads the status again. */
    codes: {
      on: { 'twoFactor.done': { target: 'loading', actions: 'forget' } },
    },
    forceLogout: { tags: 'error', entry: 'forceLogout' },
  },
});

/**
 * Promise toast of spec §4: a toast that starts as loading and becomes success or error when the
 * task settles (the same toast is updated: the `notify` implementation receives a stable toast id).
 * The task is an actor provided per use:
 *
 *   promiseToastMachine.provide({ actors: { task: fromPromise(() => walletApi.export()) } })
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorInfo, type ErrorInfo } from '../api/errors';

export type PromiseToastKind = 'loading' | 'success' | 'error';

export interface PromiseToastNotifyParams {
  /** The same id for the three stages, so the loading toast is replaced rather than stacked. */
  id: string;
  kind: PromiseToastKind;
  key: string;
  values?: Record<string, string>;
}

export interface PromiseToastInput {
  id?: string;
  keys: { loading: string; success: string; error: string };
  values?: Record<string, string>;
  /** Handed to the task actor. */
  payload?: unknown;
}

export interface PromiseToastContext {
  toastId: string;
  keys: PromiseToastInput['keys'];
  values: Record<string, string> | undefined;
  payload: unknown;
  result: unknown;
  error: ErrorInfo | null;
}

export const promiseToastMachine = setup({
  types: {
    context: {} as PromiseToastContext,
    input: {} as PromiseToastInput,
    output: {} as { ok: boolean; result: unknown; error: ErrorInfo | null },
  },
  actors: {
    task: fromPromise<unknown, unknown>(() => Promise.reject(new Error('No task provided'))),
  },
  actions: {
    notify: (_, _params: PromiseToastNotifyParams) => {},
  },
}).createMachine({
  id: 'promiseToast',
  context: ({ input, self }): PromiseToastContext => ({
    toastId: input.id ?? `toast-${self.id}`,
    keys: input.keys,
    values: input.values,
    payload: input.payload,
    result: null,
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      entry: {
        type: 'notify',
        params: ({ context }) => ({ id: context.toastId, kind: 'loading', key: context.keys.loading, values: context.values }),
      },
      invoke: {
        id: 'task',
        src: 'task',
        input: ({ context }: { context: PromiseToastContext }) => context.payload,
        onDone: { target: 'success', actions: assign({ result: ({ event }) => event.output }) },
        onError: { target: 'error', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
      },
    },
    success: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ id: context.toastId, kind: 'success', key: context.keys.success, values: context.values }),
      },
    },
    error: {
      type: 'final',
      entry: {
        type: 'notify',
        params: ({ context }) => ({ id: context.toastId, kind: 'error', key: context.keys.error, values: context.values }),
      },
    },
  },
  output: ({ context }) => ({ ok: context.error === null, result: context.result, error: context.error }),
});

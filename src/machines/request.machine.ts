/**
 * Request statuses of spec §4 for plain forms: initial, connecting, refreshing, success,
 * validationError, connectionError, serverError, and the on-refresh variants of the three error
 * kinds (a request sent again after it once succeeded). The submit actor is provided per use:
 *
 *   const passwordChange = createRequestMachine('passwordChange', (values: PasswordForm) => accountApi.password(values));
 *
 * Field errors are kept as i18n keys (ErrorInfo.fields); the last submitted values are kept so a
 * retry repeats the same request and nothing typed is lost.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorInfo, type ErrorInfo } from '../api/errors';
import { factoryStamp } from './factory-registry';

export interface RequestContext<TValues, TResult> {
  values: TValues | null;
  data: TResult | null;
  error: ErrorInfo | null;
}

export type RequestEvent<TValues> =
  | { type: 'request.submit'; values: TValues }
  | { type: 'request.retry' }
  | { type: 'request.reset' };

const CLIENT_ERRORS = ['badRequest', 'unauthorized', 'forbidden', 'notFound'];

export function createRequestMachine<TValues, TResult>(id: string, submit: (values: TValues) => Promise<TResult>) {
  const reset = { target: 'initial', actions: 'clear' as const };
  return setup({
    types: {
      context: {} as RequestContext<TValues, TResult>,
      events: {} as RequestEvent<TValues>,
    },
    actors: {
      // The actor is typed loosely: xstate's invoke typing cannot resolve generic actor types.
      submit: fromPromise<unknown, unknown>(({ input }) => submit(input as TValues)),
    },
    actions: {
      takeValues: assign({ values: ({ context, event }) => (event.type === 'request.submit' ? event.values : context.values) }),
      setError: assign({ error: ({ event }) => errorInfo((event as unknown as { error: unknown }).error) }),
      setData: assign({ data: ({ event }) => (event as unknown as { output: TResult }).output, error: null }),
      clear: assign({ values: null, data: null, error: null }),
    },
    guards: {
      isConnectionError: ({ event }) => errorInfo((event as unknown as { error: unknown }).error).kind === 'connection',
      isValidationError: ({ event }) => CLIENT_ERRORS.includes(errorInfo((event as unknown as { error: unknown }).error).kind),
    },
  }).createMachine({
    id,
    meta: factoryStamp('createRequestMachine'),
    context: { values: null, data: null, error: null },
    initial: 'initial',
    states: {
      initial: {
        on: { 'request.submit': { target: 'connecting', actions: 'takeValues' } },
      },
      connecting: {
        tags: ['busy'],
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }: { context: RequestContext<TValues, TResult> }) => context.values,
          onDone: { target: 'success', actions: 'setData' },
          onError: [
            { guard: 'isConnectionError', target: 'connectionError', actions: 'setError' },
            { guard: 'isValidationError', target: 'validationError', actions: 'setError' },
            { target: 'serverError', actions: 'setError' },
          ],
        },
      },
      refreshing: {
        tags: ['busy', 'refreshing'],
        invoke: {
          id: 'submit',
          src: 'submit',
          input: ({ context }: { context: RequestContext<TValues, TResult> }) => context.values,
          onDone: { target: 'success', actions: 'setData' },
          onError: [
            { guard: 'isConnectionError', target: 'connectionErrorOnRefresh', actions: 'setError' },
            { guard: 'isValidationError', target: 'validationErrorOnRefresh', actions: 'setError' },
            { target: 'serverErrorOnRefresh', actions: 'setError' },
          ],
        },
      },
      success: {
        on: { 'request.submit': { target: 'refreshing', actions: 'takeValues' }, 'request.reset': reset },
      },
      validationError: {
        tags: ['error'],
        on: { 'request.submit': { target: 'connecting', actions: 'takeValues' }, 'request.retry': 'connecting', 'request.reset': reset },
      },
      connectionError: {
        tags: ['error'],
        on: { 'request.submit': { target: 'connecting', actions: 'takeValues' }, 'request.retry': 'connecting', 'request.reset': reset },
      },
      serverError: {
        tags: ['error'],
        on: { 'request.submit': { target: 'connecting', actions: 'takeValues' }, 'request.retry': 'connecting', 'request.reset': reset },
      },
      validationErrorOnRefresh: {
        tags: ['error'],
        on: { 'request.submit': { target: 'refreshing', actions: 'takeValues' }, 'request.retry': 'refreshing', 'request.reset': reset },
      },
      connectionErrorOnRefresh: {
        tags: ['error'],
        on: { 'request.submit': { target: 'refreshing', actions: 'takeValues' }, 'request.retry': 'refreshing', 'request.reset': reset },
      },
      serverErrorOnRefresh: {
        tags: ['error'],
        on: { 'request.submit': { target: 'refreshing', actions: 'takeValues' }, 'request.retry': 'refreshing', 'request.reset': reset },
      },
    },
  });
}

/** The generic machine; provide `submit` per use. */
export const requestMachine = createRequestMachine<unknown, unknown>('request', () => Promise.reject(new Error('No submit provided')));

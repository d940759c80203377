/**
 * Generic data load of spec §4: initial, loading, loaded, connectionError, forceLogout, error.
 * A network failure gives connectionError, a 401 or a blocked account gives forceLogout (the client's
 * 401 hook signs the member out), any other failure gives error. The loader is an actor provided per
 * use, so one machine serves every screen that loads data:
 *
 *   const dashboardLoad = createLoadMachine('dashboard', () => homeApi.dashboard());
 *   // or: loadMachine.provide({ actors: { load: fromPromise(() => homeApi.dashboard()) } })
 *
 * Data stays in context while it is refreshed, so a screen can keep showing it.
 */
import { assign, fromPromise, setup } from 'xstate';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo } from '../api/errors';
import { factoryStamp } from './factory-registry';

export interface LoadInput<TParams> {
  params?: TParams;
  /** Start loading as soon as the machine starts (default true). */
  autoStart?: boolean;
}

export interface LoadContext<TData, TParams> {
  params: TParams | undefined;
  data: TData | null;
  error: ErrorInfo | null;
  autoStart: boolean;
}

export type LoadEvent<TParams> =
  | { type: 'load.start'; params?: TParams }
  | { type: 'load.retry' }
  | { type: 'load.refresh'; params?: TParams };

export function createLoadMachine<TData, TParams = void>(id: string, loader: (params: TParams) => Promise<TData>) {
  return setup({
    types: {
      context: {} as LoadContext<TData, TParams>,
      events: {} as LoadEvent<TParams>,
      input: {} as LoadInput<TParams> | undefined,
    },
    actors: {
      // The actor is typed loosely: xstate's invoke typing cannot resolve generic actor types.
      load: fromPromise<unknown, unknown>(({ input }) => loader(input as TParams)),
    },
    actions: {
      setData: assign({ data: ({ event }) => (event as unknown as { output: TData }).output, error: null }),
      takeParams: assign({
        params: ({ context, event }) => ('params' in event && event.params !== undefined ? event.params : context.params),
      }),
    },
    guards: {
      autoStart: ({ context }) => context.autoStart,
      isConnectionError: (_, params: { error: unknown }) => classifyFailure(params.error) === 'connection',
      endsSession: (_, params: { error: unknown }) => endsSession(classifyFailure(params.error)),
    },
  }).createMachine({
    id,
    meta: factoryStamp('createLoadMachine'),
    context: ({ input }) => ({ params: input?.params, data: null, error: null, autoStart: input?.autoStart ?? true }),
    initial: 'initial',
    states: {
      initial: {
        always: { guard: 'autoStart', target: 'loading' },
        on: { 'load.start': { target: 'loading', actions: 'takeParams' } },
      },
      loading: {
        tags: ['busy'],
        invoke: {
          id: 'load',
          src: 'load',
          input: ({ context }: { context: LoadContext<TData, TParams> }) => context.params,
          onDone: { target: 'loaded', actions: 'setData' },
          onError: [
            {
              guard: { type: 'isConnectionError', params: ({ event }) => ({ error: event.error }) },
              target: 'connectionError',
              actions: assign({ error: ({ event }) => errorInfo(event.error) }),
            },
            {
              guard: { type: 'endsSession', params: ({ event }) => ({ error: event.error }) },
              target: 'forceLogout',
              actions: assign({ error: ({ event }) => errorInfo(event.error) }),
            },
            { target: 'error', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
          ],
        },
        on: { 'load.refresh': { target: 'loading', reenter: true, actions: 'takeParams' } },
      },
      loaded: {
        on: { 'load.refresh': { target: 'loading', actions: 'takeParams' } },
      },
      connectionError: {
        tags: ['error'],
        on: {
          'load.retry': 'loading',
          'load.refresh': { target: 'loading', actions: 'takeParams' },
        },
      },
      error: {
        tags: ['error'],
        on: {
          'load.retry': 'loading',
          'load.refresh': { target: 'loading', actions: 'takeParams' },
        },
      },
      forceLogout: {
        tags: ['error'],
      },
    },
  });
}

/** The generic machine; provide `load` per use. */
export const loadMachine = createLoadMachine<unknown, unknown>('load', () => Promise.reject(new Error('No loader provided')));

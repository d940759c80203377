/**
 * The member's display preferences (currency, date format; the language goes through the session's
 * `language.change`, which also saves it): PUT /api/user/preferences. On success the named action
 * `apply` hands the saved values and the updated user to the session (the page binds it), so every
 * amount and date re-renders at once and the choice survives a reload (the server keeps it and sends
 * it back in loaded_modules). The last values are kept so a retry repeats the same request.
 */
import { assign, fromPromise, setup } from 'xstate';
import { preferencesApi } from '../api/preferences';
import { errorInfo, type ErrorInfo } from '../api/errors';
import type { User } from '../schemas/common.schema';
import type { PreferencesRequest } from '../schemas/preferences.schema';

export interface PreferencesContext {
  values: PreferencesRequest | null;
  error: ErrorInfo | null;
}

export type PreferencesEvent =
  | { type: 'preferences.save'; values: PreferencesRequest }
  | { type: 'preferences.retry' }
  | { type: 'preferences.dismiss' };

const CLIENT_ERRORS = ['badRequest', 'forbidden', 'notFound', 'unauthorized'];

export const preferencesMachine = setup({
  types: { context: {} as PreferencesContext, events: {} as PreferencesEvent },
  actors: {
    save: fromPromise<User, PreferencesRequest>(({ input }) => preferencesApi.update(input)),
  },
  actions: {
    apply: (_, _params: { values: PreferencesRequest; user: User }) => {},
    notify: (_, _params: { kind: 'success' | 'error' | 'info' | 'warning'; key: string }) => {},
  },
  guards: {
    isConnectionError: ({ event }) => errorInfo((event as unknown as { error: unknown }).error).kind === 'connection',
    isClientError: ({ event }) => CLIENT_ERRORS.includes(errorInfo((event as unknown as { error: unknown }).error).kind),
  },
}).createMachine({
  id: 'preferences',
  context: { values: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'preferences.save': { target: 'saving', actions: assign({ values: ({ event }) => event.values, error: null }) } },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => context.values!,
        onDone: {
          target: 'idle',
          actions: [
            { type: 'apply', params: ({ context, event }) => ({ values: context.values!, user: event.output }) },
            { type: 'notify', params: { kind: 'success', key: 'dashboard:preferences.saved' } },
          ],
        },
        onError: [
          { guard: 'isConnectionError', target: 'connectionError', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
          { guard: 'isClientError', target: 'validationError', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
          { target: 'serverError', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
        ],
      },
    },
    validationError: {
      tags: ['error'],
      on: {
        'preferences.save': { target: 'saving', actions: assign({ values: ({ event }) => event.values, error: null }) },
        'preferences.dismiss': { target: 'idle', actions: assign({ error: null }) },
      },
    },
    connectionError: {
      tags: ['error'],
      on: {
        'preferences.save': { target: 'saving', actions: assign({ values: ({ event }) => event.values, error: null }) },
        'preferences.retry': 'saving',
        'preferences.dismiss': { target: 'idle', actions: assign({ error: null }) },
      },
    },
    serverError: {
      tags: ['error'],
      on: {
        'preferences.save': { target: 'saving', actions: assign({ values: ({ event }) => event.values, error: null }) },
        'preferences.retry': 'saving',
        'preferences.dismiss': { target: 'idle', actions: assign({ error: null }) },
      },
    },
  },
});

/**
 * Logout button of the account-blocked and demo-blocked screens (spec §4): the session shows the
 * loading overlay while this flow runs; it calls logout, also logs out of the store when a store
 * session exists, opens the storefront's single sign-on logout in a new tab when the answer carries a
 * token for it, and hands a `loggedOut` output to the session, which runs the logout-success
 * handling and navigates. On failure the overlay goes away and the translated auth:logoutError
 * message is shown.
 */
import { fromPromise, setup } from 'xstate';
import { errorInfo } from '../api/errors';
import { logoutCall, storeLogoutTab, type LogoutResult, type OpenInNewTabParams } from './logout-call';
import type { FlowInput, NavigateParams, NotifyParams, RouteChangedEvent } from '../lib/flow';

export { logoutCall, storeLogoutTab, type LogoutResult, type OpenInNewTabParams };

export type BlockedLogoutOutput = { type: 'loggedOut' } | { type: 'failed' };

export const blockedLogoutMachine = setup({
  types: {
    events: {} as RouteChangedEvent,
    input: {} as FlowInput,
    output: {} as BlockedLogoutOutput,
  },
  actors: {
    logout: fromPromise<LogoutResult>(() => logoutCall()),
  },
  actions: {
    openInNewTab: (_, _params: OpenInNewTabParams) => {},
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: NotifyParams) => {},
  },
  guards: {
    isUnauthorized: (_, params: { error: unknown }) => errorInfo(params.error).kind === 'unauthorized',
  },
}).createMachine({
  id: 'blockedLogout',
  initial: 'loggingOut',
  states: {
    loggingOut: {
      tags: ['busy'],
      invoke: {
        id: 'logout',
        src: 'logout',
        onDone: {
          target: 'loggedOut',
          actions: { type: 'openInNewTab', params: storeLogoutTab },
        },
        onError: [
          // The server already ended this session (a blocked account's tokens are revoked).
          { guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) }, target: 'loggedOut' },
          { target: 'failed', actions: { type: 'notify', params: { kind: 'error', key: 'auth:logoutError' } } },
        ],
      },
    },
    loggedOut: {
      type: 'final',
      output: { type: 'loggedOut' },
    },
    failed: {
      type: 'final',
    },
  },
  output: ({ event }): BlockedLogoutOutput => (event.output as BlockedLogoutOutput | undefined) ?? { type: 'failed' },
});

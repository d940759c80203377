/**
 * /sso_logout?token=… (spec §2, §4): the storefront asks the back office to end the session it
 * started. Without a token the screen goes to root. Otherwise it calls single-sign-on logout, then
 * logs out of the store session; a validation error shows ssoLogoutFailed and goes to root; success
 * while signed out shows ssoLogoutAlready; success while signed in shows ssoLogoutSuccess and hands a
 * `loggedOut` output to the session, which completes the local logout and goes to root. Connection
 * and server errors keep the screen with a retry that repeats the call.
 */
import { fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import type { ErrorInfo } from '../api/errors';
import { storage } from '../lib/storage';
import { flowCallbacks } from './flow-parts';
import { ssoActions, ssoCallStates, ssoGuards, ssoRetryStates } from './sso-parts';
import type { FlowInput, RouteChangedEvent } from '../lib/flow';

export interface SsoLogoutInput extends FlowInput {
  /** Whether a member is signed in on this device when the flow starts. */
  authenticated: boolean;
}

export interface SsoLogoutContext {
  search: string;
  authenticated: boolean;
  error: ErrorInfo | null;
}

export type SsoLogoutEvent = RouteChangedEvent | { type: 'sso.retry' };
export type SsoLogoutOutput = { type: 'loggedOut' } | { type: 'done' };

/** SSO logout, then the store session when one exists (its failure does not undo the logout). */
export async function ssoLogoutCall(ssoToken: string): Promise<void> {
  await authApi.ssoLogout(ssoToken);
  if (storage.get('store_auth_token')) await authApi.storeLogout().catch(() => undefined);
}

export const ssoLogoutMachine = setup({
  types: {
    context: {} as SsoLogoutContext,
    events: {} as SsoLogoutEvent,
    input: {} as SsoLogoutInput,
    output: {} as SsoLogoutOutput,
  },
  actors: {
    ssoLogout: fromPromise<void, { ssoToken: string }>(({ input }) => ssoLogoutCall(input.ssoToken)),
  },
  actions: {
    ...flowCallbacks,
    ...ssoActions<SsoLogoutContext, SsoLogoutEvent>(),
  },
  guards: {
    ...ssoGuards,
    isAuthenticated: ({ context }) => context.authenticated,
  },
}).createMachine({
  id: 'ssoLogout',
  context: ({ input }) => ({ search: input.search, authenticated: input.authenticated, error: null }),
  initial: 'checking',
  states: {
    ...ssoCallStates({
      src: 'ssoLogout',
      onDone: [
        {
          guard: 'isAuthenticated',
          target: 'loggedOut',
          actions: { type: 'notify', params: { kind: 'success', key: 'auth:ssoLogoutSuccess' } },
        },
        {
          target: 'done',
          actions: [
            { type: 'notify', params: { kind: 'info', key: 'auth:ssoLogoutAlready' } },
            { type: 'navigate', params: { to: '/', replace: true } },
          ],
        },
      ],
      failedKey: 'auth:ssoLogoutFailed',
      then: '/',
    }),
    ...ssoRetryStates<SsoLogoutContext, SsoLogoutEvent>(),
    loggedOut: {
      type: 'final',
      output: { type: 'loggedOut' },
    },
  },
  output: ({ event }): SsoLogoutOutput => (event.output as SsoLogoutOutput | undefined) ?? { type: 'done' },
});

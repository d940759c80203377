/**
 * Logout button of the account-blocked and demo-blocked screens (spec §4): the session shows the
 * loading overlay while this flow runs; it calls logout, also logs out of the store when a store
 * session exists, opens the storefront's single sign-on logout in a new tab when the answer carries a
 * token for it, and hands a `loggedOut` output to the session, which runs the logout-success
 * handling and navigates. On failure the overlay goes away and the translated auth:logoutError
 * message is shown.
 */
import { fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import { errorInfo } from '../api/errors';
import { storefrontBase, storefrontSsoLogoutLink } from '../lib/links';
import { storage } from '../lib/storage';
import type { ModuleData } from '../schemas/common.schema';
import type { FlowInput, NavigateParams, NotifyParams, RouteChangedEvent } from '../lib/flow';

export type BlockedLogoutOutput = { type: 'loggedOut' } | { type: 'failed' };

export interface LogoutResult {
  /** The storefront's single sign-on logout page with the token the logout answered (spec §2, §7), if any. */
  storeLogoutUrl: string | null;
}

/**
 * Logout, then the store session when one exists (its failure does not undo the logout). When the answer
 * carries an sso_logout_token and a storefront is known, its single sign-on logout link comes back to be
 * opened in a new tab.
 */
export async function logoutCall(): Promise<LogoutResult> {
  const { sso_logout_token: token } = await authApi.logout();
  if (storage.get('store_auth_token')) await authApi.storeLogout().catch(() => undefined);
  const base = token ? storefrontBase(storage.getJSON<ModuleData>('module_data')) : null;
  return { storeLogoutUrl: base && token ? storefrontSsoLogoutLink(base, token) : null };
}

/** Named action of the flows that log out: opens a page in a new tab (bound at the root). */
export type OpenInNewTabParams = { url: string | null };

/** The params of `openInNewTab` after a logout: the storefront's sign-on logout page, if the answer gave one. */
export const storeLogoutTab = ({ event }: { event: { output?: LogoutResult } }): OpenInNewTabParams => ({ url: event.output?.storeLogoutUrl ?? null });

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

/**
 * /sso_login?token=…[&redirect=…] (spec §2, §7): the storefront hands over a single-use token that
 * is exchanged for a session. The session machine performs the login-success handling on the
 * `loggedIn` output and sends the member to the safe redirect or the dashboard.
 */
import { assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import type { ErrorInfo } from '../api/errors';
import type { LoginResponse } from '../schemas/auth.schema';
import { flowCallbacks, outputOf } from './flow-parts';
import { ssoActions, ssoCallStates, ssoGuards, ssoRetryStates } from './sso-parts';
import type { FlowInput, RouteChangedEvent } from '../lib/flow';

export interface SsoLoginContext {
  search: string;
  error: ErrorInfo | null;
  response: LoginResponse | null;
}

export type SsoLoginEvent = RouteChangedEvent | { type: 'sso.retry' };
export type SsoLoginOutput = { type: 'loggedIn'; response: LoginResponse } | { type: 'done' };

export const ssoLoginMachine = setup({
  types: {
    context: {} as SsoLoginContext,
    events: {} as SsoLoginEvent,
    input: {} as FlowInput,
    output: {} as SsoLoginOutput,
  },
  actors: {
    ssoLogin: fromPromise<LoginResponse, { ssoToken: string }>(({ input }) => authApi.ssoLogin(input.ssoToken)),
  },
  actions: {
    ...flowCallbacks,
    ...ssoActions<SsoLoginContext, SsoLoginEvent>(),
    keepResponse: assign((_, response: LoginResponse) => ({ response })),
  },
  guards: {
    ...ssoGuards,
  },
}).createMachine({
  id: 'ssoLogin',
  context: ({ input }) => ({ search: input.search, error: null, response: null }),
  initial: 'checking',
  states: {
    ...ssoCallStates({
      src: 'ssoLogin',
      onDone: { target: 'loggedIn', actions: { type: 'keepResponse', params: outputOf<LoginResponse> } },
      failedKey: 'auth:ssoLoginFailed',
      then: '/login',
    }),
    ...ssoRetryStates<SsoLoginContext, SsoLoginEvent>(),
    loggedIn: {
      type: 'final',
    },
  },
  output: ({ context }): SsoLoginOutput => (context.response ? { type: 'loggedIn', response: context.response } : { type: 'done' }),
});

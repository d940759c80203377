/**
 * /sso_login?token=…[&redirect=…] (spec §2, §7): the storefront hands over a single-use token that
 * is exchanged for a session. The session machine performs the login-success handling on the
 * `loggedIn` output and sends the member to the safe redirect or the dashboard.
 */
import { assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import { errorInfo, type ErrorInfo } from '../api/errors';
import type { LoginResponse } from '../schemas/auth.schema';
import { searchParam } from '../lib/paths';
import type { FlowInput, NavigateParams, NotifyParams, RouteChangedEvent } from '../lib/flow';

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
    navigate: (_, _params: NavigateParams) => {},
    notify: (_, _params: NotifyParams) => {},
    setError: assign({ error: (_, params: { error: unknown }) => errorInfo(params.error) }),
  },
  guards: {
    hasToken: ({ context }) => searchParam(context.search, 'token') !== null,
    isConnectionError: (_, params: { error: unknown }) => errorInfo(params.error).kind === 'connection',
    isServerError: (_, params: { error: unknown }) => ['server', 'schema'].includes(errorInfo(params.error).kind),
  },
}).createMachine({
  id: 'ssoLogin',
  context: ({ input }) => ({ search: input.search, error: null, response: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [
        { guard: 'hasToken', target: 'connecting' },
        { target: 'done', actions: { type: 'navigate', params: { to: '/', replace: true } } },
      ],
    },
    connecting: {
      tags: ['busy'],
      invoke: {
        id: 'call',
        src: 'ssoLogin',
        input: ({ context }) => ({ ssoToken: searchParam(context.search, 'token') ?? '' }),
        onDone: { target: 'loggedIn', actions: assign({ response: ({ event }) => event.output }) },
        onError: [
          {
            guard: { type: 'isConnectionError', params: ({ event }) => ({ error: event.error }) },
            target: 'connectionError',
            actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            guard: { type: 'isServerError', params: ({ event }) => ({ error: event.error }) },
            target: 'serverError',
            actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'done',
            actions: [
              { type: 'notify', params: { kind: 'error', key: 'auth:ssoLoginFailed' } },
              { type: 'navigate', params: { to: '/login', replace: true } },
            ],
          },
        ],
      },
    },
    connectionError: {
      tags: ['error'],
      on: { 'sso.retry': { target: 'connecting', actions: assign({ error: null }) } },
    },
    serverError: {
      tags: ['error'],
      on: { 'sso.retry': { target: 'connecting', actions: assign({ error: null }) } },
    },
    loggedIn: {
      type: 'final',
    },
    done: {
      type: 'final',
    },
  },
  output: ({ context }): SsoLoginOutput => (context.response ? { type: 'loggedIn', response: context.response } : { type: 'done' }),
});

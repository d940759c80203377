/**
 * The single-sign-on call with retry (/sso_login, /sso_logout), shared by the two flows.
 */
import { assign, type EventObject } from 'xstate';
import { classifyFailure, errorInfo, type ErrorInfo } from '../api/errors';
import { searchParam } from '../lib/paths';
import type { ErrorArgs } from './flow-parts';

// ---------------------------------------------------------------------------------------------
// Single sign-on calls (/sso_login, /sso_logout)

type ErrorParams = { error: unknown };
const errorParams = ({ event }: ErrorArgs): ErrorParams => ({ error: event.error });

export const ssoGuards = {
  hasToken: ({ context }: { context: { search: string } }) => searchParam(context.search, 'token') !== null,
  isConnectionError: (_: unknown, params: ErrorParams) => classifyFailure(params.error) === 'connection',
  isServerError: (_: unknown, params: ErrorParams) => classifyFailure(params.error) === 'server',
};

export function ssoActions<TContext extends { error: ErrorInfo | null }, TEvent extends EventObject>() {
  return {
    setError: assign<TContext, TEvent, ErrorParams, TEvent, never>((_, params) => ({ error: errorInfo(params.error) }) as Partial<TContext>),
  };
}

/** The token of the URL, for the call. */
const ssoTokenInput = ({ context }: { context: { search: string } }) => ({ ssoToken: searchParam(context.search, 'token') ?? '' });

/** Without a token there is nothing to do: to root. */
const ssoChecking = {
  always: [
    { guard: 'hasToken', target: 'connecting' },
    { target: 'done', actions: { type: 'navigate', params: { to: '/', replace: true } } },
  ],
} as const;

/** `onError` of the call: connection and server trouble wait for `sso.retry`; a refusal tells `failedKey` and goes to `then`. */
function ssoCallErrors(failedKey: string, then: string) {
  return [
    {
      guard: { type: 'isConnectionError', params: errorParams },
      target: 'connectionError',
      actions: { type: 'setError', params: errorParams },
    },
    {
      guard: { type: 'isServerError', params: errorParams },
      target: 'serverError',
      actions: { type: 'setError', params: errorParams },
    },
    {
      target: 'done',
      actions: [
        { type: 'notify', params: { kind: 'error', key: failedKey } },
        { type: 'navigate', params: { to: then, replace: true } },
      ],
    },
  ] as const;
}

/** connectionError / serverError of the call: `sso.retry` calls again. */
export function ssoRetryStates<TContext extends { error: ErrorInfo | null }, TEvent extends EventObject>() {
  const retry = () => ({ 'sso.retry': { target: 'connecting', actions: assign<TContext, TEvent, undefined, TEvent, never>({ error: null } as never) } }) as const;
  return {
    connectionError: { tags: ['error'], on: retry() },
    serverError: { tags: ['error'], on: retry() },
  } as const;
}

/**
 * The states of a single-sign-on screen around its call `src`: checking the token, connecting
 * (busy; `onDone` is the flow's own) and the final `done`; the flow adds `ssoRetryStates`.
 */
export function ssoCallStates<const S extends string, const D>(o: {
  src: S;
  onDone: D;
  failedKey: string;
  then: string;
}) {
  return {
    checking: ssoChecking,
    connecting: {
      tags: ['busy'],
      invoke: { id: 'call', src: o.src, input: ssoTokenInput, onDone: o.onDone, onError: ssoCallErrors(o.failedKey, o.then) },
    },
    done: { type: 'final' },
  } as const;
}

/**
 * The contract between the session machine and the flow machines it invokes (login, OTP login,
 * password reset, signup, request demo, SSO login/logout, logout from the blocked screens).
 */
import type { LoginResponse } from '../schemas/auth.schema';

export interface FlowInput {
  /** The query string of the URL when the flow started, e.g. '?referral=demo'. */
  search: string;
}

/** Sent by the session while the URL stays inside the flow's area. */
export interface RouteChangedEvent {
  type: 'route.changed';
  path: string;
  search: string;
}

/** The events every public flow with a form takes besides its own: route changes and retrying the load. */
export type FormFlowEvent = RouteChangedEvent | { type: 'load.retry' };

export interface NavigateParams {
  to: string;
  replace?: boolean;
}

export type NotifyKind = 'success' | 'error' | 'info' | 'warning';

export interface NotifyParams {
  kind: NotifyKind;
  /** An i18n key such as 'auth:otpSent'. */
  key: string;
  values?: Record<string, string>;
}

/**
 * What a flow hands back to the session when it finishes: signed in, signed out, or finished
 * without either (it has navigated away itself).
 */
export type FlowOutput =
  | { type: 'loggedIn'; response: LoginResponse }
  | { type: 'loggedOut' }
  | { type: 'done' }
  | { type: 'failed' }
  | undefined;

export function isLoggedInOutput(output: unknown): output is { type: 'loggedIn'; response: LoginResponse } {
  return !!output && typeof output === 'object' && (output as { type?: unknown }).type === 'loggedIn' && 'response' in output;
}

export function isLoggedOutOutput(output: unknown): output is { type: 'loggedOut' } {
  return !!output && typeof output === 'object' && (output as { type?: unknown }).type === 'loggedOut';
}

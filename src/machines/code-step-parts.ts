/**
 * The one-time-code step the public auth flows loaded on first use share (OTP login, password reset,
 * signup, the member forms): send, resend after a countdown, verify, expired and exhausted codes.
 */
import { assign, fromCallback, type EventObject } from 'xstate';
import { errorInfo, type ErrorInfo, type FieldErrors } from '../api/errors';
import type { OtpSent } from '../schemas/auth.schema';
import { withoutField } from '../lib/validation';
import { hasFieldKey, otpError } from '../lib/code-and-password';
import { errorOf, failureErrors, outputOf, submitError, submitErrors, type ErrorArgs, type FormErrorContext, type OutputArgs } from './flow-parts';

/** What a flow with a one-time-code step keeps. */
export interface CodeContext extends FormErrorContext {
  values: { otp: string };
  /** Seconds left until another code may be asked for. */
  resendIn: number;
}

/** The events of the resend countdown of a one-time-code step. */
export type CodeStepEvent = { type: 'otp.resend' } | { type: 'otp.tick' };

export const codeGuards = {
  otpValid: ({ context }: { context: { values: { otp: string } } }) => otpError(context.values.otp) === null,
  counting: ({ context }: { context: { resendIn: number } }) => context.resendIn > 0,
  canResend: ({ context }: { context: { resendIn: number } }) => context.resendIn <= 0,
  fieldKey: (_: unknown, [e, key]: [ErrorInfo, string]) => hasFieldKey(e, key),
};

// ---------------------------------------------------------------------------------------------
// Actions (typed against the flow's context and events)

export function codeActions<TContext extends CodeContext, TEvent extends EventObject>() {
  return {
    checkOtp: assign<TContext, TEvent, undefined, TEvent, never>(
      ({ context }) => {
        const fieldErrors: FieldErrors = { ...context.fieldErrors, otp: otpError(context.values.otp) ?? 'validation:otpFormat' };
        return { fieldErrors } as Partial<TContext>;
      },
    ),
    tick: assign<TContext, TEvent, undefined, TEvent, never>(({ context }) => ({ resendIn: Math.max(0, context.resendIn - 1) }) as Partial<TContext>),
  };
}

/** A new code is on its way: empty code field, countdown from the server's resend_in, no error. */
export function codeSentUpdate<V extends { otp: string }>(context: { values: V }, sent: OtpSent) {
  return {
    resendIn: Math.max(0, Math.ceil(sent.resend_in)),
    values: { ...context.values, otp: '' },
    error: null,
    retryAfter: null,
  };
}

/** Too many wrong codes: that code is dead and a new one must be sent at once. */
export function codeExhaustedUpdate<V extends { otp: string }>(context: { values: V; fieldErrors: FieldErrors }, e: ErrorInfo) {
  return {
    error: e,
    resendIn: 0,
    values: { ...context.values, otp: '' },
    fieldErrors: withoutField(context.fieldErrors, 'otp'),
  };
}

// ---------------------------------------------------------------------------------------------
// The step

const fieldKey = (key: string) => ({ type: 'fieldKey', params: ({ event }: ErrorArgs): [ErrorInfo, string] => [errorInfo(event.error), key] }) as const;

const notifyCodeSent = {
  type: 'notify',
  params: ({ event }: OutputArgs<OtpSent>) => ({ kind: 'success' as const, key: 'auth:otpSent', values: { destination: event.output.destination } }),
} as const;

/** Actions when a code was sent: store it (`codeSent`), optionally go to the code page, tell where it went. */
export function codeSentActions(navigateTo?: string) {
  const codeSent = { type: 'codeSent', params: outputOf<OtpSent> } as const;
  return navigateTo ? ([codeSent, { type: 'navigate', params: { to: navigateTo } }, notifyCodeSent] as const) : ([codeSent, notifyCodeSent] as const);
}

/** The code step: starts editing, with the one-second ticker that drives the resend countdown. */
export const codeStep = { initial: 'editing', invoke: { id: 'ticker', src: 'ticker' } } as const;

/**
 * The handlers every code step has: ticks count down, `otp.resend` once the countdown is over,
 * and the verify event (`verify`) goes to `verifying` when the code has six digits.
 */
export function codeStepOn<const V extends string>(verify: V, verifying: string) {
  return {
    'otp.tick': { guard: 'counting', actions: 'tick' },
    'otp.resend': { guard: 'canResend', target: 'resending', actions: 'clearError' },
    [verify]: [
      { guard: 'otpValid', target: verifying, actions: 'clearError' },
      { target: '.invalid', actions: 'checkOtp' },
    ],
  } as {
    'otp.tick': { guard: 'counting'; actions: 'tick' };
    'otp.resend': { guard: 'canResend'; target: 'resending'; actions: 'clearError' };
  } & Record<V, readonly [{ guard: 'otpValid'; target: string; actions: 'clearError' }, { target: '.invalid'; actions: 'checkOtp' }]>;
}

/** Asking for a code (`id` send or resend): on success to `code`, on failure to a sub-state of `step`. */
export function sendCodeState<const S extends string, C, I>(o: {
  id: 'send' | 'resend';
  src: S;
  input: (context: C) => I;
  code: string;
  /** The step whose sub-states show a failure; a resend fails on the code step (no field errors). */
  step: string;
  navigateTo?: string;
}) {
  return {
    tags: 'busy',
    invoke: {
      id: o.id,
      src: o.src,
      input: ({ context }: { context: C }) => o.input(context),
      onDone: { target: o.code, actions: codeSentActions(o.navigateTo) },
      onError: o.id === 'resend' ? failureErrors(o.step) : submitErrors(o.step),
    },
  } as const;
}

/** Too many wrong codes: to `target` (where a new code can be sent), optionally navigating there. */
export function codeExhaustedTransition(target: string, navigateTo?: string) {
  const exhausted = { type: 'codeExhausted', params: errorOf } as const;
  return {
    guard: fieldKey('validation:otpTooManyAttempts'),
    target,
    actions: navigateTo ? ([exhausted, { type: 'navigate', params: { to: navigateTo } }] as const) : exhausted,
  } as const;
}

/** An expired code, matched by its field error. */
export const codeExpiredGuard = fieldKey('validation:otpExpired');

/**
 * `onError` of checking a code: exhausted → `exhausted.target`; expired → `code.expired`; the rest
 * to sub-states of `code` as any submission.
 */
export function codeErrors(code: string, exhausted: { target: string; navigateTo?: string }) {
  return [
    codeExhaustedTransition(exhausted.target, exhausted.navigateTo),
    { guard: codeExpiredGuard, target: `${code}.expired`, actions: submitError },
    ...submitErrors(code),
  ] as const;
}

/** One `otp.tick` a second while a code screen is open: drives the visible resend countdown. */
export const resendTicker = fromCallback(({ sendBack }) => {
  const id = setInterval(() => sendBack({ type: 'otp.tick' }), 1000);
  return () => clearInterval(id);
});

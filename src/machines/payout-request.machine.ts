/**
 * /member/wallet/request-payout: loads the payout settings, checks the amount and password on the
 * client (the same rules the server applies: format, minimum, maximum, amount + fee within the
 * balance, KYC, one pending request), then sends the request.
 *
 * Never two payouts: submits are ignored while a request is in flight, and each submission attempt
 * carries one Idempotency-Key that retries of the same attempt reuse (the server answers a repeated
 * key with the first payout). Editing the form after a failure starts a new attempt (a new key).
 * After success the settings are reloaded (the balance changed) and `payoutDone` lets the page
 * refresh the statement and lists; `notify` shows the success toast.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorInfo, type ErrorInfo, type FieldErrors } from '../api/errors';
import { payoutApi } from '../api/wallet';
import type { PayoutRequestResult, PayoutSettings } from '../schemas/wallet.schema';

export interface PayoutForm {
  amount: string;
  password: string;
}

export interface PayoutRequestContext {
  settings: PayoutSettings | null;
  values: PayoutForm;
  /** Field → i18n key. */
  fieldErrors: FieldErrors;
  error: ErrorInfo | null;
  /** The key of the current submission attempt; null before the first submit or after an edit. */
  idempotencyKey: string | null;
  result: PayoutRequestResult | null;
}

export type PayoutRequestEvent =
  | { type: 'payout.change'; field: keyof PayoutForm; value: string }
  | { type: 'payout.submit' }
  | { type: 'payout.retry' }
  | { type: 'payout.again' };

/** Amounts as integer cents (2 decimals at most, as the server accepts). */
function cents(text: string): bigint | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return BigInt(m[1]) * 100n + BigInt((m[2] ?? '').padEnd(2, '0') || '0');
}

/** Decimal strings ("12.5000") to cents, rounding half up. */
function toCents(value: string): bigint {
  const [i, f = ''] = value.split('.');
  const neg = i.startsWith('-');
  const whole = BigInt(i.replace('-', '') || '0') * 100n + BigInt((f + '000').slice(0, 2)) + (Number(f[2] ?? '0') >= 5 ? 1n : 0n);
  return neg ? -whole : whole;
}

/** fee = fee_fixed + amount × fee_percent / 100, rounded to cents. */
export function payoutFeeCents(amount: bigint, s: Pick<PayoutSettings, 'fee_fixed' | 'fee_percent'>): bigint {
  const pct = Math.round(Number(s.fee_percent) * 10000); // percent × 10^4
  const fixed = toCents(s.fee_fixed);
  const num = amount * BigInt(pct); // cents × percent × 10^4 → divide by 100 × 10^4
  const den = 1_000_000n;
  return fixed + (num + den / 2n) / den;
}

/** Why the member cannot request a payout at all (an i18n key), or null. */
export function payoutBlocker(s: PayoutSettings): string | null {
  if (!s.enabled) return 'payout:blocked.disabled';
  if (s.kyc_required && s.kyc_status !== 'approved') return 'validation:payoutKycRequired';
  if (s.single_pending && s.pending_request) return 'validation:payoutPendingExists';
  if (toCents(s.max_requestable) <= 0n) return 'validation:payoutInsufficientBalance';
  return null;
}

/** Field errors (i18n keys) of a payout form against the settings; empty when it may be sent. */
export function validatePayout(values: PayoutForm, s: PayoutSettings): FieldErrors {
  const errors: FieldErrors = {};
  const amount = values.amount.trim();
  if (!amount) errors.amount = 'validation:required';
  else {
    const c = cents(amount);
    if (c === null || c <= 0n) errors.amount = 'validation:invalidAmount';
    else if (c < toCents(s.minimum_amount)) errors.amount = 'validation:payoutBelowMinimum';
    else if (c > toCents(s.maximum_amount)) errors.amount = 'validation:payoutAboveMaximum';
    else if (c + payoutFeeCents(c, s) > toCents(s.available_balance)) errors.amount = 'validation:payoutInsufficientBalance';
  }
  if (s.password_required && !values.password) errors.password = 'validation:required';
  return errors;
}

export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // RFC 4122 version 4 from Math.random where crypto.randomUUID is unavailable (old browsers, http).
  return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (ch) => {
    const r = (Math.random() * 16) | 0;
    return (ch === 'x' ? r : (r & 0x3) | 0x8).toString(16);
  });
}

const EMPTY: PayoutForm = { amount: '', password: '' };

export const payoutRequestMachine = setup({
  types: {
    context: {} as PayoutRequestContext,
    events: {} as PayoutRequestEvent,
  },
  actors: {
    loadSettings: fromPromise<PayoutSettings>(() => payoutApi.settings()),
    requestPayout: fromPromise<PayoutRequestResult, { values: PayoutForm; key: string }>(({ input }) =>
      payoutApi.requestPayout({ amount: input.values.amount.trim(), password: input.values.password }, input.key),
    ),
  },
  actions: {
    /** Bound by the page: a toast ('payout:requested'). */
    notify: (_, _params: { kind: 'success' | 'error' | 'info' | 'warning'; key: string; values?: Record<string, string> }) => {},
    /** Bound by the page: reload the wallet statement and payout lists. */
    payoutDone: () => {},
    setSettings: assign({ settings: ({ event }) => (event as unknown as { output: PayoutSettings }).output, error: null }),
    change: assign(({ context, event }) => {
      if (event.type !== 'payout.change') return {};
      const fieldErrors = { ...context.fieldErrors };
      delete fieldErrors[event.field];
      return { values: { ...context.values, [event.field]: event.value }, fieldErrors, idempotencyKey: null, error: null };
    }),
    validate: assign({ fieldErrors: ({ context }) => (context.settings ? validatePayout(context.values, context.settings) : {}) }),
    startAttempt: assign({ idempotencyKey: ({ context }) => context.idempotencyKey ?? newIdempotencyKey(), error: null }),
    setError: assign({ error: ({ event }) => errorInfo((event as unknown as { error: unknown }).error) }),
    /** A refused request: its field messages; the attempt is over (the next submit is a new one). The password is kept. */
    setRefusal: assign(({ event }) => {
      const info = errorInfo((event as unknown as { error: unknown }).error);
      return { error: info, fieldErrors: info.fields, idempotencyKey: null };
    }),
    setResult: assign({
      result: ({ event }) => (event as unknown as { output: PayoutRequestResult }).output,
      values: () => EMPTY,
      fieldErrors: () => ({}),
      idempotencyKey: () => null,
      error: () => null,
    }),
  },
  guards: {
    isValid: ({ context }) => !!context.settings && payoutBlocker(context.settings) === null && Object.keys(validatePayout(context.values, context.settings)).length === 0,
    isConnectionError: ({ event }) => errorInfo((event as unknown as { error: unknown }).error).kind === 'connection',
    isUnauthorized: ({ event }) => errorInfo((event as unknown as { error: unknown }).error).kind === 'unauthorized',
    isRefused: ({ event }) => ['badRequest', 'forbidden', 'notFound'].includes(errorInfo((event as unknown as { error: unknown }).error).kind),
  },
}).createMachine({
  id: 'payoutRequest',
  context: { settings: null, values: EMPTY, fieldErrors: {}, error: null, idempotencyKey: null, result: null },
  initial: 'loadingSettings',
  states: {
    loadingSettings: {
      tags: ['busy'],
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        onDone: { target: 'editing', actions: 'setSettings' },
        onError: [
          { guard: 'isConnectionError', target: 'settingsConnectionError', actions: 'setError' },
          { guard: 'isUnauthorized', target: 'forceLogout', actions: 'setError' },
          { target: 'settingsError', actions: 'setError' },
        ],
      },
    },
    settingsConnectionError: { tags: ['error'], on: { 'payout.retry': 'loadingSettings' } },
    settingsError: { tags: ['error'], on: { 'payout.retry': 'loadingSettings' } },
    forceLogout: { tags: ['error'] },
    editing: {
      on: {
        'payout.change': { actions: 'change' },
        'payout.submit': [{ guard: 'isValid', target: 'connecting', actions: ['validate', 'startAttempt'] }, { actions: 'validate' }],
      },
    },
    connecting: {
      tags: ['busy'],
      // Submits and edits are ignored here: a double click never sends twice.
      invoke: {
        id: 'requestPayout',
        src: 'requestPayout',
        input: ({ context }) => ({ values: context.values, key: context.idempotencyKey ?? newIdempotencyKey() }),
        onDone: {
          target: 'success',
          actions: ['setResult', { type: 'notify', params: { kind: 'success', key: 'payout:requested' } }, 'payoutDone'],
        },
        onError: [
          { guard: 'isConnectionError', target: 'connectionError', actions: 'setError' },
          { guard: 'isUnauthorized', target: 'forceLogout', actions: 'setError' },
          { guard: 'isRefused', target: 'editing', actions: 'setRefusal' },
          { target: 'serverError', actions: 'setError' },
        ],
      },
    },
    /** The request may or may not have reached the server: retry repeats it with the same key. */
    connectionError: {
      tags: ['error'],
      on: { 'payout.retry': 'connecting', 'payout.submit': 'connecting', 'payout.change': { target: 'editing', actions: 'change' } },
    },
    serverError: {
      tags: ['error'],
      on: { 'payout.retry': 'connecting', 'payout.submit': 'connecting', 'payout.change': { target: 'editing', actions: 'change' } },
    },
    success: {
      on: { 'payout.again': 'loadingSettings' },
    },
  },
});

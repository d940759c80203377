/**
 * /member/wallet/request-payout, declared on the form factory: loads the payout settings, checks the
 * amount on the client (the rules the server applies: a chosen payout method, format, minimum, maximum,
 * amount + fee within the balance, KYC, one pending request) and the re-entered account password, then
 * sends the request. The loaded settings say by which method and to where (masked) the money goes.
 *
 * Never two payouts: submits are ignored while a request is in flight, and each submission attempt
 * carries one Idempotency-Key that retries of the same attempt reuse (the server answers a repeated
 * key with the first payout). Editing the form after a failure starts a new attempt (a new key).
 * After success the form is empty, `notify` shows the success toast and `apply` hands the answer on;
 * `payout.reset` loads the settings again (the balance changed) for another request.
 */
import { sendTo, setup } from 'xstate';
import * as z from 'zod/mini';
import { payoutApi } from '../api/wallet';
import type { PayoutRequestResult, PayoutSettings } from '../schemas/wallet.schema';
import { createFormMachine } from './form.machine';
import { createDeleteMachine, onPageNote, pageActions, reportToPage, tellPage, type Child, type DeleteEvent, type PageNote } from './resource.machine';

export type PayoutForm = { amount: string };

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

/** The blocker of a member without a payout method (the page links to the payout settings). */
export const PAYOUT_METHOD_MISSING = 'account:payoutMethod.errors.none';

/**
 * Every reason the member cannot request a payout now (i18n keys), most fundamental first: all of them
 * are shown at once, so a member fixes them in one go rather than meeting them one by one.
 */
export function payoutBlockers(s: PayoutSettings): string[] {
  if (!s.enabled) return ['payout:blocked.disabled'];
  const out: string[] = [];
  if (s.kyc_required && s.kyc_status !== 'approved') out.push('validation:payoutKycRequired');
  // The money goes by the member's payout method (/member/account/payout): none chosen, nowhere to send it.
  if (s.payout_method === null) out.push(PAYOUT_METHOD_MISSING);
  if (s.single_pending && s.pending_request) out.push('validation:payoutPendingExists');
  if (toCents(s.max_requestable) <= 0n) out.push('validation:payoutInsufficientBalance');
  return out;
}

/** The first reason the member cannot request a payout at all (an i18n key), or null. */
export function payoutBlocker(s: PayoutSettings): string | null {
  return payoutBlockers(s)[0] ?? null;
}

/** The i18n key of what is wrong with `text` as an amount to request, or null. */
function amountError(text: string, s: PayoutSettings): string | null {
  const amount = text.trim();
  if (!amount) return 'validation:required';
  const c = cents(amount);
  if (c === null || c <= 0n) return 'validation:invalidAmount';
  if (c < toCents(s.minimum_amount)) return 'validation:payoutBelowMinimum';
  if (c > toCents(s.maximum_amount)) return 'validation:payoutAboveMaximum';
  if (c + payoutFeeCents(c, s) > toCents(s.available_balance)) return 'validation:payoutInsufficientBalance';
  return null;
}

/** The form's schema under these settings: a blocked payout or a bad amount is an `amount` error. */
export function payoutFormSchema(s: PayoutSettings) {
  return z.object({
    amount: z.string().check(
      z.superRefine((text, ctx) => {
        const key = payoutBlocker(s) ?? amountError(text, s);
        if (key) ctx.addIssue(key);
      }),
    ),
  });
}

export const payoutRequestMachine = createFormMachine({
  id: 'payoutRequest',
  domain: 'payout',
  initialValues: { amount: '' } as PayoutForm,
  load: (): Promise<PayoutSettings> => payoutApi.settings(),
  schema: (s) => (s ? payoutFormSchema(s) : z.never()),
  submit: ({ values, password, key }): Promise<PayoutRequestResult> => payoutApi.requestPayout({ amount: values.amount.trim(), password: password ?? '' }, key ?? ''),
  steps: { password: (s) => !!s?.password_required, idempotent: true },
  successKey: 'payout:requested',
  clearOnSuccess: true,
});

/** Withdraw the pending request (with confirmation): the amount and fee go back to the wallet. */
export const payoutCancelMachine = createDeleteMachine<number>('payoutCancel', { remove: (id) => payoutApi.cancel(id) }, { doneKey: 'payout:cancel.done' });

const CANCEL_EVENTS = ['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.dismiss'] as const;
export type PayoutPageEvent = DeleteEvent<number> | PageNote | { type: 'payout.changed' };

/**
 * /member/wallet/request-payout as one page actor: `form` (the request above) and `cancel` (withdraw the
 * pending request). A cancel changes the balance and frees the way for a new request, so the form loads
 * its settings again (`payout.reset`). The page's `delete.*` events reach the cancel. (A factory so that
 * tests give it stubbed children with the same wiring.)
 */
export const createPayoutPage = (form = payoutRequestMachine, cancel = payoutCancelMachine) =>
  setup({
    types: { events: {} as PayoutPageEvent, children: {} as { form: 'form'; cancel: 'cancel' } },
    actors: {
      form: form.provide({ actions: reportToPage }),
      cancel: cancel.provide({ actions: { ...reportToPage, removed: (child: Child) => tellPage(child, { type: 'payout.changed' } as never) } as never }),
    },
    actions: pageActions,
  }).createMachine({
    id: 'payoutPage',
    initial: 'requesting',
    states: {
      /** The page is open: its form and its cancel run for as long as it is. */
      requesting: {
        invoke: [
          { id: 'form', src: 'form' },
          { id: 'cancel', src: 'cancel' },
        ],
      },
    },
    on: {
      'payout.changed': { actions: sendTo('form', { type: 'payout.reset' }) },
      ...onPageNote,
      ...Object.fromEntries(CANCEL_EVENTS.map((type) => [type, { actions: sendTo('cancel', ({ event }: { event: PayoutPageEvent }) => event) }])),
    },
  });

export const payoutPageMachine = createPayoutPage();

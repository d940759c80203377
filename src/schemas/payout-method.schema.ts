/**
 * The payout method of /member/account/payout (GET/PUT /api/payout/payout_method): one of the methods
 * the company offers (company setting payout_methods) — a bank transfer to the member's bank details,
 * an e-wallet (the e-mail address of the wallet), or USDT on the TRON network (an address, checked by
 * format) — and what a payout request shows of it (the method and its masked destination).
 */
import * as z from 'zod/mini';
import { emailField } from './auth-fields.schema';

export const PAYOUT_METHODS = ['bank_transfer', 'e_wallet', 'usdt_trc20'] as const;
export type PayoutMethodId = (typeof PAYOUT_METHODS)[number];

const ERR = 'account:payoutMethod.errors';
/** A TRON (TRC-20) address: "T" and 33 base58 characters. */
export const TRC20_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** The form's values: the method, and the destination the method needs. */
export interface PayoutMethodValues extends Record<string, string> {
  method: string;
  email: string;
  address: string;
}
export const EMPTY_PAYOUT_METHOD: PayoutMethodValues = { method: '', email: '', address: '' };

/** The check of the form and of the server's body, under the methods offered. */
export function payoutMethodSchema(offered: readonly string[]) {
  return z
    .object({
      method: z.string(),
      email: z.optional(z.string().check(z.maxLength(191, 'validation:tooLong'))),
      address: z.optional(z.string().check(z.maxLength(64, 'validation:tooLong'))),
    })
    .check(
      z.superRefine((v, ctx) => {
        const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path], input: v });
        if (!v.method) return issue('method', 'validation:required');
        if (!offered.includes(v.method)) return issue('method', 'validation:invalidChoice');
        if (v.method === 'e_wallet') {
          const email = (v.email ?? '').trim();
          if (!email) issue('email', 'validation:required');
          else if (!z.safeParse(emailField, email).success) issue('email', 'validation:invalidEmail');
        }
        if (v.method === 'usdt_trc20') {
          const address = (v.address ?? '').trim();
          if (!address) issue('address', 'validation:required');
          else if (!TRC20_ADDRESS.test(address)) issue('address', `${ERR}.addressInvalid`);
        }
      }),
    );
}

/** Body of PUT /api/payout/payout_method: the choice and the account password re-entered. */
export const payoutMethodRequestSchema = z.strictObject({
  method: z.enum(PAYOUT_METHODS),
  email: z.optional(z.string().check(z.maxLength(191))),
  address: z.optional(z.string().check(z.maxLength(64))),
  password: z.string().check(z.maxLength(128)),
});
export type PayoutMethodRequest = z.infer<typeof payoutMethodRequestSchema>;

/** The chosen method and where its money goes, masked ("•••• 4300", "jo•••@example.com", "TQn9…dpSd"). */
export const chosenPayoutMethodSchema = z.object({ method: z.enum(PAYOUT_METHODS), destination: z.string() });
export type ChosenPayoutMethod = z.infer<typeof chosenPayoutMethodSchema>;

/** GET and PUT /api/payout/payout_method answer. */
export const payoutMethodAnswerSchema = z.object({
  /** The methods the company offers, in its order. */
  offered: z.array(z.enum(PAYOUT_METHODS)),
  /** The member's choice, or null. */
  chosen: z.nullable(chosenPayoutMethodSchema),
  /** Whether bank details exist (a bank transfer needs them). */
  has_bank_details: z.boolean(),
});
export type PayoutMethodAnswer = z.infer<typeof payoutMethodAnswerSchema>;

/** An e-mail address with most of its name hidden: "jo•••@example.com". */
export const maskEmail = (email: string) => {
  const [name, domain] = email.split('@');
  return `${name.slice(0, 2)}•••@${domain ?? ''}`;
};
/** A wallet address shortened to its ends: "TQn9…dpSd". */
export const maskAddress = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`;

/** The form's check: the shared schema under the offered methods, and saved bank details for a transfer. */
export function payoutMethodFormSchema(loaded: PayoutMethodAnswer | null) {
  return payoutMethodSchema(loaded?.offered ?? []).check(
    z.superRefine((v, ctx) => {
      if (v.method === 'bank_transfer' && loaded && !loaded.has_bank_details)
        ctx.addIssue({ code: 'custom', message: `${ERR}.bankMissing`, path: ['method'], input: v });
    }),
  );
}

/**
 * Over-the-counter payment (spec §2 /member/otc/request-payment, /make-payment, /payment-history): a
 * payment request for a package purchase, an order or a wallet top-up, paid at a bank or a desk, with
 * the receipt sent afterwards and decided by staff.
 */
import * as z from 'zod/mini';
import { idSchema, decimalString } from './common.schema';
import { cursorPage, text } from './values.schema';
import { listQuerySchema } from './list-query.schema';
import { isoDateTime } from './wallet.schema';

export const OTC_PURPOSES = ['package', 'order', 'topup'] as const;
export type OtcPurpose = (typeof OTC_PURPOSES)[number];
export const OTC_METHODS = ['bank_deposit', 'cash'] as const;
export type OtcMethod = (typeof OTC_METHODS)[number];
export const OTC_STATUSES = ['awaiting_payment', 'submitted', 'approved', 'rejected', 'expired'] as const;
export type OtcStatus = (typeof OTC_STATUSES)[number];

/** Days a request waits for its payment before it expires. */
export const OTC_EXPIRY_DAYS = 7;

/** Where to pay: the company's bank account and desk. */
export const otcBankSchema = z.object({
  bank_name: z.string(),
  account_name: z.string(),
  account_number: z.string(),
  iban: z.nullable(z.string()),
  swift: z.nullable(z.string()),
  branch: z.nullable(z.string()),
  /** Where cash is taken. */
  desk: z.nullable(z.string()),
});
export type OtcBank = z.infer<typeof otcBankSchema>;

const amountText = z.string({ error: 'validation:invalidAmount' }).check(z.trim(), z.regex(/^\d{1,9}(\.\d{1,2})?$/, { error: 'validation:invalidAmount' }));

/** POST /api/otc/requests. `ref_id` names the purchase or order; a top-up names its `amount` instead. */
export const otcRequestBodySchema = z.strictObject({
  purpose: z.enum(OTC_PURPOSES, { error: 'validation:invalidChoice' }),
  ref_id: z.optional(z.nullable(z.number({ error: 'validation:invalidChoice' }).check(z.int({ error: 'validation:invalidChoice' })))),
  amount: z.optional(z.nullable(amountText)),
  method: z.enum(OTC_METHODS, { error: 'validation:invalidChoice' }),
});
export type OtcRequestBody = z.infer<typeof otcRequestBodySchema>;

export const otcRequestSchema = z.object({
  id: idSchema,
  purpose: z.enum(OTC_PURPOSES),
  ref_id: idSchema,
  amount: decimalString,
  method: z.enum(OTC_METHODS),
  /** Written on the deposit slip so staff find the request. */
  reference: z.string(),
  description: z.string(),
  status: z.enum(OTC_STATUSES),
  transaction_ref: z.nullable(z.string()),
  /** The receipt upload (GET /api/uploads/{id}, to its owner only). */
  receipt_id: z.nullable(idSchema),
  receipt_name: z.nullable(z.string()),
  /** Why staff rejected the payment. */
  reason: z.nullable(z.string()),
  expires_at: isoDateTime,
  created_at: isoDateTime,
  submitted_at: z.nullable(isoDateTime),
  decided_at: z.nullable(isoDateTime),
});
export type OtcRequest = z.infer<typeof otcRequestSchema>;

/** Answer of a new request and of one request: the request and where to pay. */
export const otcRequestAnswerSchema = z.object({ request: otcRequestSchema, bank: otcBankSchema });
export type OtcRequestAnswer = z.infer<typeof otcRequestAnswerSchema>;

/** The text fields of POST /api/otc/requests/{id}/payment (multipart, with the receipt under `receipt`). */
export const otcPaymentFieldsSchema = z.strictObject({
  transaction_ref: text({ min: 1, max: 64 }),
});

/** GET /api/otc/requests: the member's requests, newest first; `status` filters. */
export const otcHistoryQuerySchema = listQuerySchema;
export const otcHistoryPageSchema = cursorPage(otcRequestSchema);
export type OtcHistoryPage = z.infer<typeof otcHistoryPageSchema>;

/**
 * Wallet and payout calls of spec §7: list filters, answers and the payout request body.
 * Amounts are decimal strings with 4 fraction digits ("12.5000"); timestamps are ISO 8601 UTC.
 */
import * as z from 'zod/mini';
import { chosenPayoutMethodSchema } from './payout-method.schema';
import { idSchema, decimalString } from './common.schema';
import { cursorPage } from './values.schema';
import { passwordField } from './auth-fields.schema';
import {
  CASH_FLOWS,
  PAYOUT_INTERVALS,
  earningsTotalDatewiseQuery,
  listQuerySchema,
  payoutStatementQuery,
  payoutTransactionsQuery,
  recentEarningsQuery,
  transactionsQuery,
  type QueryParams,
} from './list-query.schema';

export const isoDateTime = z.iso.datetime();
/** A calendar day, yyyy-MM-dd (spec §5). */
export const ymdSchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
/** key → English label; the client shows its own translation of the key when it has one. */
export const labelsSchema = z.record(z.string(), z.string());

export { CASH_FLOWS, DATE_RANGES, PAYOUT_INTERVALS, SORTS, listQueryShape } from './list-query.schema';
export type { CashFlow, DateRange, Sort } from './list-query.schema';

/** Filters every cursor-paged list accepts (spec §4, §7): the parameters of listQuerySchema. */
export type ListFilters = QueryParams<typeof listQuerySchema>;

// --- Wallet statement and transactions ------------------------------------------------------

export const cashFlowSchema = z.enum(CASH_FLOWS);

/** One line of the member's wallet: credit adds to the balance, debit takes from it. */
export const transactionSchema = z.object({
  id: idSchema,
  /** commission | payout | transfer | purchase | adjustment */
  transaction_group: z.string(),
  /** The operation: bonus, payout_request, payout_refund, payout_fee, payout_fee_refund, fund_transfer, order_payment, admin_credit, admin_debit. */
  transaction_type: z.string(),
  /** One of transaction_keys (the filter and the label). */
  transaction_key: z.string(),
  /** Always positive; see cash_flow. */
  amount: decimalString,
  cash_flow: cashFlowSchema,
  created_at: isoDateTime,
  level: z.nullable(z.number()),
  /** The other member: who generated a commission, or the other side of a transfer. */
  from_user: z.nullable(z.string()),
  rank_name: z.nullable(z.string()),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionsPageSchema = cursorPage(transactionSchema, {
  transaction_labels: labelsSchema,
  transaction_keys: z.array(z.string()),
});
export type TransactionsPage = z.infer<typeof transactionsPageSchema>;

/** The transactions query with any transaction key (the server checks its own list of keys). */
export const transactionsQuerySchema = transactionsQuery();
/** transaction_key[i]; cash_flow only with exactly one transaction_key. */
export type TransactionFilters = QueryParams<typeof transactionsQuerySchema>;

export const walletSummarySchema = z.object({
  wallet_balance: decimalString,
  /** Sum of paid payouts. */
  total_paid: decimalString,
  /** Sum of requested payouts not paid yet (pending and approved). */
  total_pending: decimalString,
  recent_transactions: z.array(transactionSchema),
  transaction_labels: labelsSchema,
  transaction_keys: z.array(z.string()),
});
export type WalletSummary = z.infer<typeof walletSummarySchema>;

// --- Earnings --------------------------------------------------------------------------------

export const earningSchema = z.object({
  id: idSchema,
  /** Gross bonus. */
  amount_generated: decimalString,
  tax: decimalString,
  service_charge: decimalString,
  /** What reached the wallet: amount_generated − tax − service_charge. */
  amount_payable: decimalString,
  bonus_type: z.string(),
  created_at: isoDateTime,
  level: z.nullable(z.number()),
  from_user: z.nullable(z.string()),
  rank_name: z.nullable(z.string()),
});
export type Earning = z.infer<typeof earningSchema>;

export const earningsPageSchema = cursorPage(earningSchema, {
  bonus_labels: labelsSchema,
  bonus_types: z.array(z.string()),
});
export type EarningsPage = z.infer<typeof earningsPageSchema>;

export const recentEarningsQuerySchema = recentEarningsQuery();
/** bonus_type[i]. */
export type EarningFilters = QueryParams<typeof recentEarningsQuerySchema>;

/** Gross earnings of one day (every day of the range is present, zero included). */
export const datewiseTotalSchema = z.object({ date: ymdSchema, total: decimalString });
export const bonusTotalSchema = z.object({ bonus_type: z.string(), total: decimalString });

export const earningsTotalDatewiseSchema = z.object({
  start_date: ymdSchema,
  end_date: ymdSchema,
  earnings_datewise: z.array(datewiseTotalSchema),
  /** Gross total per bonus type over the range (every bonus type, zero included). */
  earnings_datewise_grouped: z.array(bonusTotalSchema),
});
export type EarningsTotalDatewise = z.infer<typeof earningsTotalDatewiseSchema>;
export const earningsTotalDatewiseQuerySchema = earningsTotalDatewiseQuery;

export const earningsOverviewSchema = z.object({
  /** Gross, all time. */
  total_earnings: decimalString,
  recent_earnings: z.array(earningSchema),
  /** The range of the datewise figures: the last 30 days. */
  start_date: ymdSchema,
  end_date: ymdSchema,
  earnings_datewise: z.array(datewiseTotalSchema),
  earnings_datewise_grouped: z.array(bonusTotalSchema),
  bonus_labels: labelsSchema,
  bonus_types: z.array(z.string()),
});
export type EarningsOverview = z.infer<typeof earningsOverviewSchema>;

// --- Payouts ---------------------------------------------------------------------------------

/** Payout status ids (sent as strings in payout_status[]). */
export const PAYOUT_STATUSES = { pending: 1, approved: 2, paid: 3, rejected: 4, cancelled: 5 } as const;
export const payoutStatusKeySchema = z.enum(['pending', 'approved', 'paid', 'rejected', 'cancelled']);

export const payoutTransactionSchema = z.object({
  id: idSchema,
  status_id: z.number().check(z.int(), z.gte(1), z.lte(5)),
  status: payoutStatusKeySchema,
  /** The amount requested (what the member receives). */
  total: decimalString,
  /** Charged on top of total: the wallet gave total + fee. */
  fee: decimalString,
  created_at: isoDateTime,
});
export type PayoutTransaction = z.infer<typeof payoutTransactionSchema>;

export const payoutTransactionsPageSchema = cursorPage(payoutTransactionSchema);
export type PayoutTransactionsPage = z.infer<typeof payoutTransactionsPageSchema>;
export const payoutTransactionsQuerySchema = payoutTransactionsQuery;
/** payout_status[]: status ids as text (spec §7). */
export type PayoutFilters = QueryParams<typeof payoutTransactionsQuerySchema>;

export const kycStatusSchema = z.enum(['not_submitted', 'pending', 'approved', 'rejected']);
export type KycStatus = z.infer<typeof kycStatusSchema>;

/** Payout criteria: what a request must satisfy, and where the member stands. */
export const payoutSettingsSchema = z.object({
  /** The payout_request feature switch. */
  enabled: z.boolean(),
  minimum_amount: decimalString,
  maximum_amount: decimalString,
  /** fee = fee_fixed + amount × fee_percent / 100, rounded to cents, charged on top of the amount. */
  fee_fixed: decimalString,
  fee_percent: decimalString,
  /** Fraction digits an amount may have. */
  amount_decimals: z.number(),
  available_balance: decimalString,
  /** The largest amount the member can request now (0 when none). */
  max_requestable: decimalString,
  kyc_required: z.boolean(),
  kyc_status: kycStatusSchema,
  /** Only one pending request at a time. */
  single_pending: z.boolean(),
  pending_request: z.nullable(payoutTransactionSchema),
  /** The account password must be re-entered (spec §5). */
  password_required: z.boolean(),
  /** Which password that is: the wallet password once the member has set one, else the account password. */
  password_kind: z.optional(z.enum(['account', 'wallet'])),
  /** Where a request's money goes: the member's payout method and its masked destination; null when none is chosen. */
  payout_method: z.optional(z.nullable(chosenPayoutMethodSchema)),
});
export type PayoutSettings = z.infer<typeof payoutSettingsSchema>;

/**
 * POST /api/payout/request_payout. Send an `Idempotency-Key` header (a UUID per submission, the
 * same on retries): one key never creates two payouts, a retry gets the first answer back.
 */
export const payoutRequestBodySchema = z.strictObject({
  /** Decimal string, up to 2 fraction digits. */
  amount: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)),
  password: passwordField,
});
export type PayoutRequestBody = z.infer<typeof payoutRequestBodySchema>;

/** A cancelled request and the wallet balance with its amount and fee returned. */
export const payoutCancelResultSchema = z.object({
  payout: payoutTransactionSchema,
  wallet_balance: decimalString,
});
export type PayoutCancelResult = z.infer<typeof payoutCancelResultSchema>;

export const payoutRequestResultSchema = z.object({
  payout: payoutTransactionSchema,
  /** The wallet balance right after this request. */
  wallet_balance: decimalString,
  /** The method the payout is sent by and its masked destination, as recorded on the request. */
  payout_method: z.optional(chosenPayoutMethodSchema),
});
export type PayoutRequestResult = z.infer<typeof payoutRequestResultSchema>;

export const payoutIntervalSchema = z.enum(PAYOUT_INTERVALS);

export const payoutStatementSchema = z.object({
  /** The bucket of payout_datewise. */
  interval: payoutIntervalSchema,
  total_paid: decimalString,
  total_pending: decimalString,
  /** The wallet balance. */
  total_balance: decimalString,
  /** Paid amounts per bucket (by payment date), the last 12 buckets up to the current one. */
  payout_datewise: z.array(datewiseTotalSchema),
  recent_transactions: z.array(payoutTransactionSchema),
});
export type PayoutStatement = z.infer<typeof payoutStatementSchema>;
export const payoutStatementQuerySchema = payoutStatementQuery;

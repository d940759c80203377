/**
 * Package payment (spec §2 /member/packages/payment, §3 Package data, Investment or package line item):
 * what the page offers, a package purchase (a first package, an upgrade, a renewal) and its payment by
 * the e-wallet.
 */
import * as z from 'zod/mini';
import { idSchema, decimalString } from './common.schema';
import { packageDataSchema } from './home.schema';
import { isoDateTime } from './wallet.schema';

export const PURCHASE_KINDS = ['purchase', 'upgrade', 'renewal'] as const;
export type PurchaseKind = (typeof PURCHASE_KINDS)[number];
export const PURCHASE_STATUSES = ['pending', 'paid', 'cancelled'] as const;
export const PAYMENT_METHODS = ['wallet', 'card', 'otc'] as const;
export type PackagePaymentMethod = (typeof PAYMENT_METHODS)[number];

/** With roi on, a package is an investment returning `monthly` for `months` months. */
export const returnScheduleSchema = z.object({
  package_id: idSchema,
  /** Percent of the price returned each month. */
  rate: decimalString,
  monthly: decimalString,
  months: z.number().check(z.int(), z.nonnegative()),
  total: decimalString,
});
export type ReturnSchedule = z.infer<typeof returnScheduleSchema>;

/** GET /api/packages: Package data, the wallet balance and which password pays by wallet. */
export const packagePaymentOptionsSchema = z.object({
  package_data: packageDataSchema,
  /** Packages are labelled investments and show their return schedule. */
  roi: z.boolean(),
  return_schedules: z.array(returnScheduleSchema),
  wallet_balance: decimalString,
  /** The wallet password once the member set one, else the account password. */
  password_kind: z.enum(['account', 'wallet']),
  /** Payment methods switched on for packages. */
  methods: z.array(z.enum(PAYMENT_METHODS)),
});
export type PackagePaymentOptions = z.infer<typeof packagePaymentOptionsSchema>;

/** POST /api/packages/purchases: the package to buy, upgrade to or renew (the kind follows from the member's package). */
export const purchaseRequestSchema = z.strictObject({ package_id: z.number({ error: 'validation:invalidChoice' }).check(z.int({ error: 'validation:invalidChoice' })) });
export type PurchaseRequest = z.infer<typeof purchaseRequestSchema>;

export const purchaseSchema = z.object({
  id: idSchema,
  kind: z.enum(PURCHASE_KINDS),
  status: z.enum(PURCHASE_STATUSES),
  package_id: idSchema,
  package_name: z.string(),
  from_package_name: z.nullable(z.string()),
  /** What is due: the price, or the price difference of an upgrade. */
  amount: decimalString,
  /** Volume the purchase adds: the package's, or the PV difference of an upgrade. */
  pv: decimalString,
  payment_method: z.nullable(z.enum(PAYMENT_METHODS)),
  order_id: z.nullable(idSchema),
  created_at: isoDateTime,
  paid_at: z.nullable(isoDateTime),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** POST /api/packages/purchases/{id}/wallet. */
export const walletPaymentRequestSchema = z.strictObject({ password: z.string().check(z.maxLength(200)) });
export const walletPaymentResultSchema = z.object({ purchase: purchaseSchema, wallet_balance: decimalString });
export type WalletPaymentResult = z.infer<typeof walletPaymentResultSchema>;

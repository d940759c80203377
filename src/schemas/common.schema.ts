/**
 * Shared building blocks of the API contract. Written with `zod/mini` so the public (login) bundle
 * stays small; the reference server validates requests and serialises responses with the same schemas.
 * What the sign-in page does not need (amounts, request text, ids as text, paged lists) is in
 * values.schema.ts.
 */
import * as z from 'zod/mini';

/** Money, rates and volumes travel as decimal strings ("12.50", "-3", "0.0001"). */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));
/** Spec §5: numeric text is an optionally signed decimal with digits before or after the point. */
export const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)$/;

export const idSchema = z.number().check(z.int(), z.nonnegative());

/** The body of a refused call (spec §8), as src/api/errors.ts reads it (leniently, by hand: it is never parsed). */
export interface ErrorBody {
  error_code?: string;
  message?: string;
  errors?: Record<string, string[]>;
}

export const companySchema = z.object({
  name: z.string(),
  support_email: z.nullable(z.string()),
  email: z.string(),
  phone: z.nullable(z.string()),
  logo: z.nullable(z.string()),
  logo_small: z.nullable(z.string()),
});
export type Company = z.infer<typeof companySchema>;

export const demoInfoSchema = z.object({
  contact_email: z.nullable(z.string()),
  contact_phone: z.nullable(z.string()),
  contact_skype: z.nullable(z.string()),
  user_allowed: z.boolean(),
  messenger_name: z.nullable(z.string()),
  privacy_policy_url: z.nullable(z.string()),
});
export type DemoInfo = z.infer<typeof demoInfoSchema>;

export const languageSchema = z.object({
  id: idSchema,
  name: z.string(),
  code: z.string(),
  native_name: z.string(),
});
export type Language = z.infer<typeof languageSchema>;

export const currencySchema = z.object({
  id: idSchema,
  name: z.string(),
  code: z.string(),
  symbol: z.string(),
  symbol_position: z.enum(['L', 'R']),
  decimal_place: z.number().check(z.int(), z.gte(0), z.lte(8)),
  value: decimalString,
});
export type Currency = z.infer<typeof currencySchema>;

export const countrySchema = z.object({
  id: idSchema,
  name: z.string(),
  iso_code_2: z.string(),
  iso_code_3: z.string(),
  phone_code: z.string(),
});
export type Country = z.infer<typeof countrySchema>;

export const planSchema = z.enum(['binary', 'matrix', 'unilevel']);
export type Plan = z.infer<typeof planSchema>;

const flag = z.boolean();
/** Module flags (feature switches) of spec §3. */
export const modulesSchema = z.object({
  compensation_plan: planSchema,
  package: flag,
  upgrade: flag,
  autoship: flag,
  rank: flag,
  direct_bonus: flag,
  unilevel_bonus: flag,
  repurchase_bonus: flag,
  roi_bonus: flag,
  pool_bonus: flag,
  payout_request: flag,
  money_transfer: flag,
  wallet_management: flag,
  onboarding: flag,
  language: flag,
  currency: flag,
  store: flag,
  internal_store: flag,
  dynamic_link: flag,
  cloud_messaging: flag,
  intro_video: flag,
  intro_video_url: z.nullable(z.string()),
  passcode: flag,
  support_message: flag,
  stories: flag,
  events: flag,
  android_app: flag,
  ios_app: flag,
  android_app_link: z.nullable(z.string()),
  ios_app_link: z.nullable(z.string()),
  kyc: flag,
  crm: flag,
  ticketing_system: flag,
  replica: flag,
  lcp: flag,
  business_volume: flag,
  product_category: flag,
  roi: flag,
});
export type Modules = z.infer<typeof modulesSchema>;

export const userSchema = z.object({
  id: idSchema,
  username: z.string(),
  account_type: z.enum(['personal', 'merchant']),
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
  status: z.union([z.literal(0), z.literal(1)]),
  role_id: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  date_format: z.nullable(z.string()),
  customer_id: z.nullable(z.number()),
  referral_link: z.string(),
  email: z.nullable(z.string()),
});
export type User = z.infer<typeof userSchema>;

export const USER_STATUS = { blocked: 0, active: 1 } as const;
export const ROLE = { admin: 1, user: 2, affiliate: 3 } as const;

export const storeSettingsSchema = z.object({
  default_store: z.nullable(z.number()),
  stock_status: z.boolean(),
  vendor_status: z.boolean(),
  guest_checkout: z.boolean(),
  store_name: z.string(),
});
export const storeSchema = z.object({ id: idSchema, name: z.string(), address: z.string(), url: z.string() });

export const cartItemSchema = z.object({
  id: idSchema,
  price: decimalString,
  quantity: z.number().check(z.int(), z.positive()),
  status: z.boolean(),
});
export type CartItem = z.infer<typeof cartItemSchema>;

/** The application-wide module data delivered as `loaded_modules` (spec §7, common to all calls). */
export const moduleDataSchema = z.object({
  company: companySchema,
  modules: modulesSchema,
  default_language: languageSchema,
  default_currency: currencySchema,
  date_format: z.string(),
  default_country: z.nullable(countrySchema),
  user: z.nullable(userSchema),
  cart: z.array(cartItemSchema),
  store_settings: z.nullable(storeSettingsSchema),
  stores: z.array(storeSchema),
  customer_token: z.nullable(z.string()),
  is_demo: z.boolean(),
  is_master_demo: z.boolean(),
  demo_info: z.nullable(demoInfoSchema),
  default_store_id: z.nullable(z.number()),
  /** Not named by the spec: the switchable languages and currencies, for the header switches. */
  languages: z.array(languageSchema),
  currencies: z.array(currencySchema),
});
export type ModuleData = z.infer<typeof moduleDataSchema>;

/** Every successful answer: `{ data, loaded_modules? }`. */
export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ data, loaded_modules: z.optional(moduleDataSchema) });
}

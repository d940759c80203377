/**
 * Shared building blocks of the API contract. Written with `zod/mini` so the public (login) bundle
 * stays small; the reference server validates requests and serialises responses with the same schemas.
 */
import * as z from 'zod/mini';

/** Money, rates and volumes travel as decimal strings ("12.50", "-3", "0.0001"). */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/));
/** Spec §5: numeric text is an optionally signed decimal with digits before or after the point. */
export const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** A lenient amount for display: anything the server sends; non-numeric renders as 0 (spec §5). */
export const looseAmount = z.nullish(z.union([z.string(), z.number()]));

export const idSchema = z.number().check(z.int(), z.nonnegative());

// --- Input rules shared by every request ----------------------------------------------------------

/**
 * Characters no single-line text of a request may carry: C0 controls (NUL, tab, CR, LF…), DEL, C1
 * controls, the Unicode line and paragraph separators, and halves of surrogate pairs. PostgreSQL refuses
 * NUL in text; a line break would let a value out of a mail header or a log line.
 */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** The same for text of several lines, where tab, line feed and CR LF are allowed. */
const CONTROL_CHARACTERS_MULTILINE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds a character text of a request may not carry (see CONTROL_CHARACTERS). */
export const hasControlCharacters = (value: string, multiline = false) => (multiline ? CONTROL_CHARACTERS_MULTILINE : CONTROL_CHARACTERS).test(value);

/** A check refusing control characters, answered by `key`; the checks after it are skipped when it fails. */
export const plainText = (key = 'validation:invalidFormat', multiline = false) =>
  z.refine<string>((value) => !hasControlCharacters(value, multiline), { error: key, abort: true });

/**
 * Text of a request: trimmed, without control characters (validation:invalidFormat), at most `max`
 * characters; `min` ≥ 1 makes it required. `multiline` allows tab and line breaks.
 */
export function text(opts: { max?: number; min?: number; multiline?: boolean } = {}) {
  const { max = 191, min = 0, multiline = false } = opts;
  return z.string().check(z.trim(), plainText('validation:invalidFormat', multiline), ...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));
}

/** The largest id a database row has (PostgreSQL integer). */
export const MAX_ID = 2_147_483_647;
/** True when `text` is a whole number 1 … MAX_ID written plainly. */
export const isIdText = (text: string) => /^[1-9]\d{0,9}$/.test(text) && Number(text) <= MAX_ID;
/** An id as text (a path or query parameter): 1 … MAX_ID, else `key`. */
export const idText = (key = 'validation:invalidFormat') => z.string({ error: key }).check(z.refine(isIdText, { error: key }));

export const errorBodySchema = z.object({
  error_code: z.optional(z.string()),
  message: z.optional(z.string()),
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

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

export const DEFAULT_CURRENCY: Currency = {
  id: 1,
  name: 'US Dollar',
  code: 'USD',
  symbol: '$',
  symbol_position: 'L',
  decimal_place: 2,
  value: '1',
};

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

/** A cursor-paged answer: the page's `items`, `next_page_url` (null on the last page), and what else the list sends. */
export function cursorPage<T extends z.ZodMiniType, const S extends Record<string, z.ZodMiniType> = Record<never, never>>(item: T, extra?: S) {
  return z.object({ items: z.array(item), next_page_url: z.nullable(z.string()), ...(extra as S) });
}

export const okSchema = z.object({ message: z.string() });

/** The demo company: settings, languages, currencies, countries, ranks and packages. */
import type { Db } from '../db/client';
import { countries, currencies, languages, packages, ranks, settings } from '../db/schema';
import type { Company, DemoInfo, Modules, Plan } from '../../src/schemas/common.schema';
import type { RankCriterion } from '../../src/schemas/home.schema';
import type { AuthSettings, SettingsMap, SignupSettings } from '../lib/settings';

export const COMPANY: Company = {
  name: 'Upline Demo',
  support_email: 'support@upline.example',
  email: 'info@upline.example',
  phone: '+1 555 0100',
  logo: '/logo.svg',
  logo_small: '/favicon.svg',
};

export const MODULES: Modules = {
  compensation_plan: 'binary',
  package: true,
  upgrade: true,
  autoship: true,
  rank: true,
  direct_bonus: true,
  unilevel_bonus: true,
  repurchase_bonus: false,
  roi_bonus: false,
  pool_bonus: false,
  payout_request: true,
  money_transfer: false,
  wallet_management: true,
  onboarding: false,
  language: true,
  currency: true,
  store: false,
  internal_store: true,
  dynamic_link: false,
  cloud_messaging: false,
  intro_video: false,
  intro_video_url: null,
  passcode: false,
  support_message: true,
  stories: true,
  events: true,
  android_app: false,
  ios_app: false,
  android_app_link: null,
  ios_app_link: null,
  kyc: true,
  crm: true,
  ticketing_system: false,
  replica: false,
  lcp: false,
  business_volume: true,
  product_category: false,
  roi: false,
};

export const DEMO_INFO: DemoInfo = {
  contact_email: 'sales@upline.example',
  contact_phone: '+1 555 0101',
  contact_skype: null,
  user_allowed: true,
  messenger_name: 'WhatsApp',
  privacy_policy_url: 'https://upline.example/privacy',
};

export const AUTH_SETTINGS: AuthSettings = {
  login_with_otp: true,
  phone_unique: true,
  email_unique: true,
  reset_password_based_on: 'both',
  password_policy: { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false },
  signup_location: 'app',
};

export const SIGNUP_SETTINGS: SignupSettings = {
  default_sponsor: 'demo',
  otp_verification: true,
  otp_based_on: 'email',
  show_signup_page: true,
  enforce_default_sponsor: false,
  enforce_link_sponsor: false,
  company_privacy_url: 'https://upline.example/privacy',
  company_terms_url: 'https://upline.example/terms',
};

export const SETTINGS: SettingsMap & { matrix_width: number } = {
  company: COMPANY,
  modules: MODULES,
  date_format: 'M d, Y h:i A',
  demo_info: DEMO_INFO,
  auth: AUTH_SETTINGS,
  signup: SIGNUP_SETTINGS,
  store_settings: { default_store: null, stock_status: true, vendor_status: false, guest_checkout: false, store_name: 'Upline Store' },
  default_country_iso: 'US',
  /** Children per member when the plan is matrix. */
  matrix_width: 3,
};

export const LANGUAGES = [
  { code: 'en', name: 'English', nativeName: 'English', isDefault: true },
  { code: 'es', name: 'Spanish', nativeName: 'Español', isDefault: false },
];

/** Rates against the US Dollar as decimal strings. */
export const CURRENCIES = [
  { code: 'USD', name: 'US Dollar', symbol: '$', symbolPosition: 'L', decimalPlace: 2, value: '1', isDefault: true },
  { code: 'EUR', name: 'Euro', symbol: '€', symbolPosition: 'L', decimalPlace: 2, value: '0.92', isDefault: false },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', symbolPosition: 'L', decimalPlace: 2, value: '0.79', isDefault: false },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', symbolPosition: 'L', decimalPlace: 2, value: '83.2', isDefault: false },
  { code: 'SEK', name: 'Swedish Krona', symbol: 'kr', symbolPosition: 'R', decimalPlace: 2, value: '10.6', isDefault: false },
];

/** [name, ISO 3166 alpha-2, alpha-3, phone code]. */
export const COUNTRIES: [string, string, string, string][] = [
  ['United States', 'US', 'USA', '+1'],
  ['Canada', 'CA', 'CAN', '+1'],
  ['Mexico', 'MX', 'MEX', '+52'],
  ['Brazil', 'BR', 'BRA', '+55'],
  ['Argentina', 'AR', 'ARG', '+54'],
  ['Colombia', 'CO', 'COL', '+57'],
  ['United Kingdom', 'GB', 'GBR', '+44'],
  ['Ireland', 'IE', 'IRL', '+353'],
  ['France', 'FR', 'FRA', '+33'],
  ['Germany', 'DE', 'DEU', '+49'],
  ['Spain', 'ES', 'ESP', '+34'],
  ['Italy', 'IT', 'ITA', '+39'],
  ['Netherlands', 'NL', 'NLD', '+31'],
  ['Sweden', 'SE', 'SWE', '+46'],
  ['Norway', 'NO', 'NOR', '+47'],
  ['Poland', 'PL', 'POL', '+48'],
  ['India', 'IN', 'IND', '+91'],
  ['United Arab Emirates', 'AE', 'ARE', '+971'],
  ['South Africa', 'ZA', 'ZAF', '+27'],
  ['Nigeria', 'NG', 'NGA', '+234'],
  ['Kenya', 'KE', 'KEN', '+254'],
  ['Australia', 'AU', 'AUS', '+61'],
  ['New Zealand', 'NZ', 'NZL', '+64'],
  ['Japan', 'JP', 'JPN', '+81'],
  ['Philippines', 'PH', 'PHL', '+63'],
  ['Singapore', 'SG', 'SGP', '+65'],
];

/**
 * Each plan's ranks with their own criteria (server/lib/ranks.ts): binary — personally sponsored active
 * members, personal volume and the volume of each leg; matrix (width 3 or 5, depth 5) — complete levels, places filled and
 * personal volume; unilevel — personally sponsored active members, personal volume and the group volume of
 * the paid generations. The seed inserts all three sets, so a company that changes plan has ranks for it.
 */
export const PLAN_RANKS: Record<Plan, Array<{ name: string; icon: string; bonus: string; criteria: Partial<Record<RankCriterion, string>> }>> = {
  binary: [
    { name: 'Bronze', icon: '/ranks/bronze.svg', bonus: '50', criteria: { referral_count: '1', pv: '50', left_volume: '250', right_volume: '250' } },
    { name: 'Silver', icon: '/ranks/silver.svg', bonus: '150', criteria: { referral_count: '2', pv: '100', left_volume: '1500', right_volume: '1500' } },
    { name: 'Gold', icon: '/ranks/gold.svg', bonus: '500', criteria: { referral_count: '3', pv: '200', left_volume: '5000', right_volume: '5000' } },
    { name: 'Platinum', icon: '/ranks/platinum.svg', bonus: '1500', criteria: { referral_count: '5', pv: '300', left_volume: '20000', right_volume: '20000' } },
    { name: 'Diamond', icon: '/ranks/diamond.svg', bonus: '5000', criteria: { referral_count: '8', pv: '400', left_volume: '75000', right_volume: '75000' } },
  ],
  matrix: [
    { name: 'Associate', icon: '/ranks/bronze.svg', bonus: '50', criteria: { levels_filled: '1', places_filled: '3', pv: '50' } },
    { name: 'Builder', icon: '/ranks/silver.svg', bonus: '150', criteria: { levels_filled: '1', places_filled: '10', pv: '100' } },
    { name: 'Director', icon: '/ranks/gold.svg', bonus: '500', criteria: { levels_filled: '2', places_filled: '30', pv: '150' } },
    { name: 'Executive', icon: '/ranks/platinum.svg', bonus: '1500', criteria: { levels_filled: '3', places_filled: '100', pv: '200' } },
    { name: 'Ambassador', icon: '/ranks/diamond.svg', bonus: '5000', criteria: { levels_filled: '4', places_filled: '300', pv: '250' } },
  ],
  unilevel: [
    { name: 'Leader', icon: '/ranks/bronze.svg', bonus: '50', criteria: { referral_count: '2', pv: '50', group_volume: '500' } },
    { name: 'Senior Leader', icon: '/ranks/silver.svg', bonus: '150', criteria: { referral_count: '4', pv: '100', group_volume: '2500' } },
    { name: 'Director', icon: '/ranks/gold.svg', bonus: '500', criteria: { referral_count: '8', pv: '150', group_volume: '10000' } },
    { name: 'Senior Director', icon: '/ranks/platinum.svg', bonus: '1500', criteria: { referral_count: '15', pv: '200', group_volume: '40000' } },
    { name: 'Presidential', icon: '/ranks/diamond.svg', bonus: '5000', criteria: { referral_count: '25', pv: '250', group_volume: '150000' } },
  ],
};

export const PACKAGES = [
  {
    name: 'Starter',
    sku: 'PKG-STARTER',
    sortOrder: 1,
    price: '100',
    bv: '50',
    expiryDays: 365,
    image: '/packages/starter.svg',
    description: 'Everything to start: back office, replicated store link and the starter kit.',
    maxLevels: 3,
    directBonus: '5',
    roiBonus: '0',
  },
  {
    name: 'Business',
    sku: 'PKG-BUSINESS',
    sortOrder: 2,
    price: '250',
    bv: '150',
    expiryDays: 365,
    image: '/packages/business.svg',
    description: 'More volume, deeper unilevel bonus and the business training series.',
    maxLevels: 5,
    directBonus: '8',
    roiBonus: '0',
  },
  {
    name: 'Elite',
    sku: 'PKG-ELITE',
    sortOrder: 3,
    price: '500',
    bv: '400',
    expiryDays: 365,
    image: '/packages/elite.svg',
    description: 'Highest volume and bonus depth, with leadership events included.',
    maxLevels: 8,
    directBonus: '10',
    roiBonus: '0',
  },
];

export async function seedReference(db: Db) {
  await db.insert(settings).values(Object.entries(SETTINGS).map(([key, value]) => ({ key, value })));
  await db.insert(languages).values(LANGUAGES);
  await db.insert(currencies).values(CURRENCIES);
  await db.insert(countries).values(COUNTRIES.map(([name, isoCode2, isoCode3, phoneCode]) => ({ name, isoCode2, isoCode3, phoneCode })));
  const rankIds = {} as Record<Plan, number[]>;
  for (const plan of ['binary', 'matrix', 'unilevel'] as const) {
    const rows = await db
      .insert(ranks)
      .values(PLAN_RANKS[plan].map((r, i) => ({ name: r.name, icon: r.icon, sortOrder: i + 1, bonus: r.bonus, plan, criteria: r.criteria })))
      .returning({ id: ranks.id });
    rankIds[plan] = rows.map((r) => r.id);
  }
  const packageRows = await db.insert(packages).values(PACKAGES).returning({ id: packages.id });
  return { rankIds, packageIds: packageRows.map((p) => p.id) };
}

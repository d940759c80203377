/**
 * Drizzle descriptions of the tables created by the SQL migrations (typed queries).
 * Each area adds its own file next to this one and re-exports it here.
 */
import { boolean, char, integer, jsonb, numeric, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

export const languages = pgTable('languages', {
  id: serial('id').primaryKey(),
  code: text('code').notNull(),
  name: text('name').notNull(),
  nativeName: text('native_name').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
});

export const currencies = pgTable('currencies', {
  id: serial('id').primaryKey(),
  code: text('code').notNull(),
  name: text('name').notNull(),
  symbol: text('symbol').notNull(),
  symbolPosition: char('symbol_position', { length: 1 }).notNull(),
  decimalPlace: smallint('decimal_place').notNull(),
  value: numeric('value').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
});

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  isoCode2: char('iso_code_2', { length: 2 }).notNull(),
  isoCode3: char('iso_code_3', { length: 3 }).notNull(),
  phoneCode: text('phone_code').notNull(),
});

export const ranks = pgTable('ranks', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  icon: text('icon'),
  sortOrder: integer('sort_order').notNull(),
  bonus: numeric('bonus').notNull().default('0'),
  /** 0029: the plan the rank belongs to (null: every plan) and its criteria, criterion → figure required. */
  plan: text('plan'),
  criteria: jsonb('criteria').notNull().default({}),
});

export const packages = pgTable('packages', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  status: boolean('status').notNull().default(true),
  sku: text('sku').notNull(),
  sortOrder: integer('sort_order').notNull(),
  price: numeric('price').notNull(),
  bv: numeric('bv').notNull(),
  expiryDays: integer('expiry_days'),
  image: text('image'),
  description: text('description'),
  maxLevels: integer('max_levels'),
  directBonus: numeric('direct_bonus').notNull().default('0'),
  roiBonus: numeric('roi_bonus').notNull().default('0'),
});

export const members = pgTable('members', {
  id: serial('id').primaryKey(),
  username: text('username').notNull(),
  email: text('email'),
  mobileCode: text('mobile_code'),
  mobile: text('mobile'),
  passwordHash: text('password_hash').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name'),
  avatar: text('avatar'),
  status: smallint('status').notNull().default(1),
  roleId: smallint('role_id').notNull().default(3),
  accountType: text('account_type').notNull().default('personal'),
  merchantStatus: smallint('merchant_status'),
  demoAllowed: boolean('demo_allowed').notNull().default(true),
  dateFormat: text('date_format'),
  languageCode: text('language_code'),
  currencyCode: text('currency_code'),
  customerId: integer('customer_id'),
  sponsorId: integer('sponsor_id'),
  parentId: integer('parent_id'),
  position: char('position', { length: 1 }),
  slot: integer('slot'),
  path: text('path').notNull().default(''),
  depth: integer('depth').notNull().default(0),
  packageId: integer('package_id'),
  packageExpiry: ts('package_expiry'),
  packagePurchaseDate: ts('package_purchase_date'),
  rankId: integer('rank_id'),
  rankAchievedAt: ts('rank_achieved_at'),
  pv: numeric('pv').notNull().default('0'),
  tv: numeric('tv').notNull().default('0'),
  cv: numeric('cv').notNull().default('0'),
  totalLeft: numeric('total_left').notNull().default('0'),
  totalRight: numeric('total_right').notNull().default('0'),
  carryLeft: numeric('carry_left').notNull().default('0'),
  carryRight: numeric('carry_right').notNull().default('0'),
  leftCount: integer('left_count').notNull().default(0),
  rightCount: integer('right_count').notNull().default(0),
  downlineCount: integer('downline_count').notNull().default(0),
  childCount: integer('child_count').notNull().default(0),
  defaultLeg: char('default_leg', { length: 1 }),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** 0002: false while a signup awaits its one-time code. */
  verified: boolean('verified').notNull().default(true),
});
export type MemberRow = typeof members.$inferSelect;

export const sessions = pgTable('sessions', {
  id: serial('id').primaryKey(),
  memberId: integer('member_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  kind: text('kind').notNull().default('access'),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastUsedAt: ts('last_used_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  parentSessionId: integer('parent_session_id'),
  /** 0002: set when a single-use (SSO) token is exchanged. */
  consumedAt: ts('consumed_at'),
});

export const otpCodes = pgTable('otp_codes', {
  id: serial('id').primaryKey(),
  purpose: text('purpose').notNull(),
  destination: text('destination').notNull(),
  memberId: integer('member_id'),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  consumedAt: ts('consumed_at'),
  supersededAt: ts('superseded_at'),
});

export const signupVerifications = pgTable('signup_verifications', {
  id: serial('id').primaryKey(),
  keyHash: text('key_hash').notNull(),
  memberId: integer('member_id').notNull(),
  destination: text('destination').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  verifiedAt: ts('verified_at'),
  /** 0002: set when the key was used for the one automatic sign-in after verification. */
  loginUsedAt: ts('login_used_at'),
});

export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  channel: text('channel').notNull(),
  destination: text('destination').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** 0031: an e-mail waiting for the mailer (sent once its transaction committed). */
  mailPending: boolean('mail_pending').notNull().default(false),
});

export const demoRequests = pgTable('demo_requests', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  mobile: text('mobile').notNull(),
  platform: text('platform').notNull(),
  countryId: integer('country_id'),
  industryId: integer('industry_id'),
  compensationPlanId: integer('compensation_plan_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

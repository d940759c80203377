/** Auth and user calls of spec §7: request bodies and `data` of the answers. */
import * as z from 'zod/mini';
import {
  countrySchema,
  currencySchema,
  languageSchema,
  planSchema,
  userSchema,
  cartItemSchema,
  idSchema,
  text as requestText,
} from './common.schema';

/** Single-line text (no control characters, so never a line break into a mail header or a log line). */
const text = (max = 191) => requestText({ max });
const required = (max = 191) => requestText({ max, min: 1 });
export const emailField = z.string().check(z.trim(), z.maxLength(191), z.email());
export const mobileField = z.string().check(z.trim(), z.regex(/^\d{4,15}$/));
export const phoneCodeField = z.string().check(z.trim(), z.regex(/^\+?\d{1,4}$/));
export const otpField = z.string().check(z.trim(), z.regex(/^\d{6}$/));
export const usernameField = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9._-]{3,32}$/));
export const passwordField = z.string().check(z.minLength(1), z.maxLength(128));

export const passwordPolicySchema = z.object({
  enabled: z.boolean(),
  min_length: z.number().check(z.int(), z.gte(1), z.lte(64)),
  lowercase: z.boolean(),
  uppercase: z.boolean(),
  number: z.boolean(),
  special: z.boolean(),
});
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

export const signupLocationSchema = z.enum(['app', 'store']);

export const loginFieldsSchema = z.object({
  phone_unique: z.boolean(),
  email_unique: z.boolean(),
  login_with_otp: z.boolean(),
  countries: z.array(countrySchema),
  signup_location: signupLocationSchema,
});
export type LoginFields = z.infer<typeof loginFieldsSchema>;

export const resetFieldsSchema = z.object({
  password_policy: passwordPolicySchema,
  reset_password_based_on: z.enum(['email', 'mobile', 'both']),
  countries: z.array(countrySchema),
});
export type ResetFields = z.infer<typeof resetFieldsSchema>;

/** How a member identifies themselves: by username, e-mail or mobile with its phone code. */
export const loginUsingSchema = z.enum(['username', 'email', 'mobile_code']);
export type LoginUsing = z.infer<typeof loginUsingSchema>;

const identifierFields = {
  username: z.optional(usernameField),
  email: z.optional(emailField),
  mobile: z.optional(mobileField),
  mobile_code: z.optional(phoneCodeField),
};

export const loginRequestSchema = z.strictObject({
  login_using: loginUsingSchema,
  password: passwordField,
  ...identifierFields,
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/**
 * Automatic sign-in right after a signup was verified (spec §7: `email, login_with_otp=1`): the signup
 * key proves the verification; it works once, within 10 minutes of it.
 */
export const autoLoginRequestSchema = z.strictObject({
  login_with_otp: z.union([z.literal(1), z.literal('1'), z.literal(true)]),
  key: required(128),
  email: z.optional(emailField),
  username: z.optional(usernameField),
});
export type AutoLoginRequest = z.infer<typeof autoLoginRequestSchema>;

/** Body of POST /api/auth/login: a password sign-in, or the automatic sign-in after signup. */
export const loginBodySchema = z.discriminatedUnion('login_with_otp', [
  z.strictObject({ ...loginRequestSchema.shape, login_with_otp: z.optional(z.undefined()) }),
  autoLoginRequestSchema,
]);
export type LoginBody = z.infer<typeof loginBodySchema>;

export const sendOtpRequestSchema = z.strictObject({
  login_using: z.enum(['email', 'mobile_code']),
  email: z.optional(emailField),
  mobile: z.optional(mobileField),
  mobile_code: z.optional(phoneCodeField),
});
export type SendOtpRequest = z.infer<typeof sendOtpRequestSchema>;

export const loginWithOtpRequestSchema = z.strictObject({
  ...sendOtpRequestSchema.shape,
  otp: otpField,
});
export type LoginWithOtpRequest = z.infer<typeof loginWithOtpRequestSchema>;

export const resetUsingSchema = z.enum(['email', 'mobile_code']);
export const sendResetOtpRequestSchema = z.strictObject({
  reset_using: resetUsingSchema,
  email: z.optional(emailField),
  mobile: z.optional(mobileField),
  mobile_code: z.optional(phoneCodeField),
});
export type SendResetOtpRequest = z.infer<typeof sendResetOtpRequestSchema>;

export const checkResetOtpRequestSchema = z.strictObject({ ...sendResetOtpRequestSchema.shape, otp: otpField });
export type CheckResetOtpRequest = z.infer<typeof checkResetOtpRequestSchema>;

export const resetPasswordRequestSchema = z.strictObject({
  ...checkResetOtpRequestSchema.shape,
  password: passwordField,
  password_confirmation: passwordField,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** `data` of /api/auth/login and /api/auth/login_with_otp (spec §7). */
export const loginResponseSchema = z.object({
  token: z.string(),
  user: userSchema,
  user_status: z.union([z.literal(0), z.literal(1)]),
  user_allowed: z.boolean(),
  is_master_demo: z.boolean(),
  compensation_plan: planSchema,
  default_store_id: z.nullable(z.number()),
  store_token: z.nullable(z.string()),
  sso_token: z.nullable(z.string()),
  default_currency: currencySchema,
  default_language: languageSchema,
  cart: z.array(cartItemSchema),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const otpSentSchema = z.object({
  message: z.string(),
  /** Where the code went, masked (j***@example.com, +1 ***4567). */
  destination: z.string(),
  expires_in: z.number(),
  resend_in: z.number(),
});
export type OtpSent = z.infer<typeof otpSentSchema>;

export const otpValiditySchema = z.object({ valid: z.boolean() });
export const messageSchema = z.object({ message: z.string() });

export const logoutResponseSchema = z.object({ sso_logout_token: z.nullable(z.string()) });

export const ssoTokenRequestSchema = z.strictObject({ sso_token: z.string().check(z.minLength(16), z.maxLength(256)) });

export const ssoLogoutResponseSchema = z.object({ message: z.string() });

export const requestDemoOptionsSchema = z.object({
  countries: z.array(countrySchema),
  compensation_plans: z.array(z.object({ id: idSchema, name: z.string() })),
  industries: z.array(z.object({ id: idSchema, name: z.string() })),
});
export type RequestDemoOptions = z.infer<typeof requestDemoOptionsSchema>;

export const DEMO_PLATFORM = 'web';
export const requestDemoRequestSchema = z.strictObject({
  name: required(120),
  email: emailField,
  mobile: z.string().check(z.trim(), z.regex(/^\+?[\d ()-]{6,20}$/)),
  platform: z.literal(DEMO_PLATFORM),
  country_id: z.optional(idSchema),
  industry: z.optional(idSchema),
  compensation_plan: z.optional(idSchema),
});
export type RequestDemoRequest = z.infer<typeof requestDemoRequestSchema>;

export const roleSchema = z.object({ role_id: z.union([z.literal(1), z.literal(2), z.literal(3)]) });

export const signupDataSchema = z.object({
  default_sponsor: z.string(),
  password_policy: passwordPolicySchema,
  otp_verification: z.boolean(),
  otp_based_on: z.enum(['email', 'mobile']),
  default_leg: z.nullable(z.enum(['L', 'R'])),
  referral_id: z.nullable(idSchema),
  phone_unique: z.boolean(),
  email_unique: z.boolean(),
  company_privacy_url: z.nullable(z.string()),
  company_terms_url: z.nullable(z.string()),
  countries: z.array(countrySchema),
  show_signup_page: z.boolean(),
  enforce_default_sponsor: z.boolean(),
  enforce_link_sponsor: z.boolean(),
  signup_location: signupLocationSchema,
  /** Not named by the spec: the plan decides whether placement and position are asked. */
  compensation_plan: planSchema,
});
export type SignupData = z.infer<typeof signupDataSchema>;

export const referralValidationSchema = z.object({
  default_leg: z.nullable(z.enum(['L', 'R'])),
  referral_id: idSchema,
});
export type ReferralValidation = z.infer<typeof referralValidationSchema>;

export const signupRequestSchema = z.strictObject({
  referral: usernameField,
  referral_key: z.optional(text(64)),
  first_name: required(60),
  last_name: z.optional(text(60)),
  email: z.optional(emailField),
  mobile_code: z.optional(phoneCodeField),
  mobile: z.optional(mobileField),
  username: z.optional(usernameField),
  password: passwordField,
  placement: z.optional(usernameField),
  position: z.optional(z.enum(['L', 'R'])),
  /** Not named by the spec: the matrix place (1-based) under `placement` picked from the free places. */
  slot: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(20))),
});
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const signupResponseSchema = z.object({
  username: z.string(),
  /** Present when the account still needs its one-time code; used by verify and resend. */
  key: z.nullable(z.string()),
  otp_required: z.boolean(),
  destination: z.nullable(z.string()),
});
export type SignupResponse = z.infer<typeof signupResponseSchema>;

export const verifySignupRequestSchema = z.strictObject({
  key: required(128),
  otp: otpField,
  otp2: z.optional(otpField),
});
export const resendSignupRequestSchema = z.strictObject({ key: required(128) });

export const smallUserSchema = z.object({
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  username: z.string(),
  email: z.nullable(z.string()),
  avatar: z.nullable(z.string()),
});
export type SmallUser = z.infer<typeof smallUserSchema>;

export const adminInfoSchema = z.object({ admin: smallUserSchema });
export const deleteAccountRequestSchema = z.strictObject({ password: passwordField });
export const membersQuerySchema = z.object({ keyword: z.optional(text(64)), levels: z.optional(text(64)) });
export const memberListSchema = z.array(smallUserSchema);

/** Password policy check shared by the client form and the server. Returns i18n keys of unmet rules. */
export function passwordPolicyErrors(policy: PasswordPolicy, password: string): string[] {
  const out: string[] = [];
  if (!policy.enabled) return password.length >= 1 ? out : ['validation:passwordRequired'];
  if (password.length < policy.min_length) out.push('validation:passwordMinLength');
  if (policy.lowercase && !/[a-z]/.test(password)) out.push('validation:passwordLowercase');
  if (policy.uppercase && !/[A-Z]/.test(password)) out.push('validation:passwordUppercase');
  if (policy.number && !/\d/.test(password)) out.push('validation:passwordNumber');
  if (policy.special && !/[^A-Za-z0-9]/.test(password)) out.push('validation:passwordSpecial');
  return out;
}

/**
 * Auth and user calls of spec §7: request bodies and `data` of the answers. The form fields and the password policy
 * (auth-fields.schema.ts) and the sign-in page's own answers (login.schema.ts) live apart, so that /login builds only
 * those; this module re-exports them and holds the other public forms' schemas, which load with their pages.
 */
import * as z from 'zod/mini';
import { countrySchema, planSchema, idSchema } from './common.schema';
import { text as requestText } from './values.schema';
import { emailField, mobileField, otpField, passwordField, passwordPolicySchema, phoneCodeField, usernameField } from './auth-fields.schema';
import { loginUsingSchema, signupLocationSchema } from './login.schema';

export * from './auth-fields.schema';
export * from './login.schema';

/** Single-line text (no control characters, so never a line break into a mail header or a log line). */
const text = (max = 191) => requestText({ max });
const required = (max = 191) => requestText({ max, min: 1 });



export const resetFieldsSchema = z.object({
  password_policy: passwordPolicySchema,
  reset_password_based_on: z.enum(['email', 'mobile', 'both']),
  countries: z.array(countrySchema),
});
export type ResetFields = z.infer<typeof resetFieldsSchema>;


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


export const otpSentSchema = z.object({
  message: z.string(),
  /** Where the code went, masked (j***@example.com, +1 ***4567). */
  destination: z.string(),
  expires_in: z.number(),
  resend_in: z.number(),
});
export type OtpSent = z.infer<typeof otpSentSchema>;

export const otpValiditySchema = z.object({ valid: z.boolean() });


export const ssoTokenRequestSchema = z.strictObject({ sso_token: z.string().check(z.minLength(16), z.maxLength(256)) });


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


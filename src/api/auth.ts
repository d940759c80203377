/** Auth and user calls of spec §7. */
import * as z from 'zod/mini';
import { get, post, del } from './client';
import {
  adminInfoSchema,
  loginFieldsSchema,
  loginResponseSchema,
  logoutResponseSchema,
  memberListSchema,
  messageSchema,
  otpSentSchema,
  otpValiditySchema,
  referralValidationSchema,
  requestDemoOptionsSchema,
  resetFieldsSchema,
  roleSchema,
  signupDataSchema,
  signupResponseSchema,
  ssoLogoutResponseSchema,
  type LoginRequest,
  type LoginWithOtpRequest,
  type SendOtpRequest,
  type SendResetOtpRequest,
  type CheckResetOtpRequest,
  type ResetPasswordRequest,
  type RequestDemoRequest,
  type SignupRequest,
} from '../schemas/auth.schema';
import { userSchema } from '../schemas/common.schema';
import { twoFactorChallengeSchema, type TwoFactorLoginRequest } from '../schemas/two-factor.schema';
import { AUTH_CHECK_PATH, AUTH_DUMMY_PATH, LOGIN_FIELDS_PATH } from './auth-paths';

const anything = z.unknown();

export const authApi = {
  dummy: () => get(anything, AUTH_DUMMY_PATH),
  authCheck: () => get(userSchema, AUTH_CHECK_PATH, undefined, { quiet401: true }),
  loginFields: () => get(loginFieldsSchema, LOGIN_FIELDS_PATH),
  resetFields: () => get(resetFieldsSchema, '/api/auth/reset_password_field'),
  /** A session, or — for a member with two-factor sign-in on — a challenge for loginTwoFactor. */
  login: (body: LoginRequest) => post(z.union([loginResponseSchema, twoFactorChallengeSchema]), '/api/auth/login', body),
  loginTwoFactor: (body: TwoFactorLoginRequest) => post(loginResponseSchema, '/api/auth/login/two_factor', body),
  sendOtp: (body: SendOtpRequest) => post(otpSentSchema, '/api/auth/send_otp', body),
  loginWithOtp: (body: LoginWithOtpRequest) => post(loginResponseSchema, '/api/auth/login_with_otp', body),
  sendResetOtp: (body: SendResetOtpRequest) => post(otpSentSchema, '/api/auth/send_reset_otp', body),
  checkResetOtp: (body: CheckResetOtpRequest) => post(otpValiditySchema, '/api/auth/check_reset_otp', body),
  resetPassword: (body: ResetPasswordRequest) => post(messageSchema, '/api/auth/reset_password', body),
  logout: () => post(logoutResponseSchema, '/api/auth/logout'),
  ssoLogin: (ssoToken: string) => post(loginResponseSchema, '/api/auth/sso_login', { sso_token: ssoToken }),
  ssoLogout: (ssoToken: string) => post(ssoLogoutResponseSchema, '/api/auth/sso_logout', { sso_token: ssoToken }),
  /** Store-session logout (method and path not given by the spec). */
  storeLogout: () => post(messageSchema, '/api/store/logout', {}, { storeToken: true }),
  requestDemoOptions: () => get(requestDemoOptionsSchema, '/api/request_demo'),
  requestDemo: (body: RequestDemoRequest) => post(messageSchema, '/api/request_demo', body),
  userData: () => get(userSchema, '/api/user_data'),
  userRole: () => get(roleSchema, '/api/user_role'),
  signupData: (referral?: string) => get(signupDataSchema, '/api/users/signup_data', { referral }),
  validateReferral: (referral: string) => get(referralValidationSchema, '/api/users/signup_validate_referral', { referral }),
  signup: (body: SignupRequest) => post(signupResponseSchema, '/api/users/signup', body),
  resendSignupVerification: (key: string) => post(otpSentSchema, '/api/users/resend_signup_verification', { key }),
  verifySignup: (body: { key: string; otp: string; otp2?: string }) => post(messageSchema, '/api/users/verify_signup', body),
  adminInfo: () => get(adminInfoSchema, '/api/users/admin_info'),
  members: (keyword: string) => get(memberListSchema, '/api/users/members', { keyword }),
  deleteAccount: (password: string) => del(messageSchema, '/api/users', { password }, { storeToken: true }),
};

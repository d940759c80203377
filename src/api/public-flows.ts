/**
 * The calls of the public forms other than sign-in (spec §7): sign-in with a one-time code, password reset, signup,
 * request a demo. Their machines load on first use (src/machines/deferred-flows.ts), and these calls and their
 * schemas with them.
 */
import { get, post } from './client';
import {
  messageSchema,
  loginResponseSchema,
  otpSentSchema,
  otpValiditySchema,
  referralValidationSchema,
  requestDemoOptionsSchema,
  resetFieldsSchema,
  signupDataSchema,
  signupResponseSchema,
  type LoginWithOtpRequest,
  type SendOtpRequest,
  type SendResetOtpRequest,
  type CheckResetOtpRequest,
  type ResetPasswordRequest,
  type RequestDemoRequest,
  type SignupRequest,
} from '../schemas/auth.schema';

export const otpLoginApi = {
  sendOtp: (body: SendOtpRequest) => post(otpSentSchema, '/api/auth/send_otp', body),
  loginWithOtp: (body: LoginWithOtpRequest) => post(loginResponseSchema, '/api/auth/login_with_otp', body),
};

export const passwordResetApi = {
  resetFields: () => get(resetFieldsSchema, '/api/auth/reset_password_field'),
  sendResetOtp: (body: SendResetOtpRequest) => post(otpSentSchema, '/api/auth/send_reset_otp', body),
  checkResetOtp: (body: CheckResetOtpRequest) => post(otpValiditySchema, '/api/auth/check_reset_otp', body),
  resetPassword: (body: ResetPasswordRequest) => post(messageSchema, '/api/auth/reset_password', body),
};

export const signupApi = {
  signupData: (referral?: string) => get(signupDataSchema, '/api/users/signup_data', { referral }),
  validateReferral: (referral: string) => get(referralValidationSchema, '/api/users/signup_validate_referral', { referral }),
  signup: (body: SignupRequest) => post(signupResponseSchema, '/api/users/signup', body),
  resendSignupVerification: (key: string) => post(otpSentSchema, '/api/users/resend_signup_verification', { key }),
  verifySignup: (body: { key: string; otp: string; otp2?: string }) => post(messageSchema, '/api/users/verify_signup', body),
};

export const requestDemoApi = {
  requestDemoOptions: () => get(requestDemoOptionsSchema, '/api/request_demo'),
  requestDemo: (body: RequestDemoRequest) => post(messageSchema, '/api/request_demo', body),
};

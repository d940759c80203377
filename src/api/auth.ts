/**
 * Auth and user calls of spec §7 that the session and the sign-in page make (the first page builds their schemas
 * only). The other public forms' calls are in src/api/public-flows.ts and load with their flows.
 */
import * as z from 'zod/mini';
import { get, post, del } from './client';
import { loginFieldsSchema, loginResponseSchema, logoutResponseSchema, messageSchema, ssoLogoutResponseSchema } from '../schemas/login.schema';
import type { LoginRequest } from '../schemas/auth.schema';
import { userSchema } from '../schemas/common.schema';
import { twoFactorChallengeSchema } from '../schemas/two-factor-login.schema';
import type { TwoFactorLoginRequest } from '../schemas/two-factor.schema';
import { AUTH_CHECK_PATH, AUTH_DUMMY_PATH, LOGIN_FIELDS_PATH } from './auth-paths';

const anything = z.unknown();

export const authApi = {
  dummy: () => get(anything, AUTH_DUMMY_PATH),
  authCheck: () => get(userSchema, AUTH_CHECK_PATH, undefined, { quiet401: true }),
  loginFields: () => get(loginFieldsSchema, LOGIN_FIELDS_PATH),
  /** A session, or — for a member with two-factor sign-in on — a challenge for loginTwoFactor. */
  login: (body: LoginRequest) => post(z.union([loginResponseSchema, twoFactorChallengeSchema]), '/api/auth/login', body),
  loginTwoFactor: (body: TwoFactorLoginRequest) => post(loginResponseSchema, '/api/auth/login/two_factor', body),
  logout: () => post(logoutResponseSchema, '/api/auth/logout'),
  ssoLogin: (ssoToken: string) => post(loginResponseSchema, '/api/auth/sso_login', { sso_token: ssoToken }),
  ssoLogout: (ssoToken: string) => post(ssoLogoutResponseSchema, '/api/auth/sso_logout', { sso_token: ssoToken }),
  /** Store-session logout (method and path not given by the spec). */
  storeLogout: () => post(messageSchema, '/api/store/logout', {}, { storeToken: true }),
  userData: () => get(userSchema, '/api/user_data'),
  deleteAccount: (password: string) => del(messageSchema, '/api/users', { password }, { storeToken: true }),
};

/** Two-factor sign-in settings of the signed-in member (/api/user/two_factor…). */
import { del, get, post } from './client';
import { messageSchema } from '../schemas/login.schema';
import {
  recoveryCodesSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  type TwoFactorConfirmRequest,
  type TwoFactorDisableRequest,
} from '../schemas/two-factor.schema';

const PATH = '/api/user/two_factor';

export const twoFactorApi = {
  status: () => get(twoFactorStatusSchema, PATH),
  setup: (password: string) => post(twoFactorSetupSchema, `${PATH}/setup`, { password }),
  confirm: (body: TwoFactorConfirmRequest) => post(recoveryCodesSchema, `${PATH}/confirm`, body),
  disable: (body: TwoFactorDisableRequest) => del(messageSchema, PATH, body),
  renewRecoveryCodes: (password: string) => post(recoveryCodesSchema, `${PATH}/recovery_codes`, { password }),
};

/** Account settings of the signed-in member: the password change (GET/PUT /api/user/password). */
import { get, put } from './client';
import { messageSchema } from '../schemas/auth.schema';
import { passwordChangeSettingsSchema, type PasswordChangeRequest } from '../schemas/account.schema';

export const accountApi = {
  passwordSettings: () => get(passwordChangeSettingsSchema, '/api/user/password'),
  changePassword: (body: PasswordChangeRequest) => put(messageSchema, '/api/user/password', body),
};

/** The member's language, currency and date format (PUT /api/user/preferences → the updated User). */
import { put } from './client';
import { userSchema } from '../schemas/common.schema';
import type { PreferencesRequest } from '../schemas/preferences.schema';

export const preferencesApi = {
  update: (body: PreferencesRequest) => put(userSchema, '/api/user/preferences', body),
};

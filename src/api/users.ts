/** User calls of spec §7 that no public page makes: the member's role, the company's admin, member search. */
import { get } from './client';
import { adminInfoSchema, memberListSchema, roleSchema } from '../schemas/auth.schema';

export const usersApi = {
  userRole: () => get(roleSchema, '/api/user_role'),
  adminInfo: () => get(adminInfoSchema, '/api/users/admin_info'),
  members: (keyword: string) => get(memberListSchema, '/api/users/members', { keyword }),
};

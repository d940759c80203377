/** A member as GET /api/user/account answers it, for the account hub's machine and view tests. */
import type { AccountSummary } from '../../src/schemas/account-hub.schema';

export const ACCOUNT_MEMBER: AccountSummary = {
  id: 41,
  username: 'lucia41',
  first_name: 'Lucía',
  last_name: 'Gómez',
  avatar: null,
  email: 'lucia@example.com',
  member_since: '2025-03-01T10:00:00.000Z',
  kyc_status: 'pending',
};

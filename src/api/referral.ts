/** Referral programme calls (see src/schemas/referral.schema.ts). */
import { get } from './client';
import { leaderboardSchema, referralJoiningsQuerySchema, referralJoiningsSchema, referralSummarySchema } from '../schemas/referral.schema';
import { queryRecord } from '../lib/search-codec';

export const referralApi = {
  summary: () => get(referralSummarySchema, '/api/referral/summary'),
  recruiters: () => get(leaderboardSchema, '/api/referral/recruiters'),
  earners: () => get(leaderboardSchema, '/api/referral/earners'),
  joinings: (cursor?: string) => get(referralJoiningsSchema, '/api/referral/joinings', queryRecord(referralJoiningsQuerySchema, { cursor })),
};

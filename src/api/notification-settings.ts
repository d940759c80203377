/** The member's notification settings: GET/PUT /api/user/notification_settings. */
import { get, put } from './client';
import { notificationSettingsSchema, requestOfValues, type NotificationValues } from '../schemas/notification-settings.schema';

export const notificationSettingsApi = {
  get: () => get(notificationSettingsSchema, '/api/user/notification_settings'),
  save: (values: NotificationValues) => put(notificationSettingsSchema, '/api/user/notification_settings', requestOfValues(values)),
};

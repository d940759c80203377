/**
 * /member/account/notification/{email,push}, declared on the form factory: loads the member's switches
 * (per event, e-mail and push) and saves on every flip (`notificationSettings.save { values }` with all
 * the switches, one of them changed) through PUT /api/user/notification_settings. A failed save keeps the
 * flipped switch and offers retry (the same request again).
 */
import { notificationSettingsApi } from '../../api/notification-settings';
import { notificationValuesSchema, valuesOfSettings, type NotificationSettings, type NotificationValues } from '../../schemas/notification-settings.schema';
import { createFormMachine } from '../form.machine';

export const notificationSettingsMachine = createFormMachine({
  id: 'notificationSettings',
  domain: 'notificationSettings',
  initialValues: {} as NotificationValues,
  load: (): Promise<NotificationSettings> => notificationSettingsApi.get(),
  valuesFrom: (loaded) => valuesOfSettings(loaded),
  schema: notificationValuesSchema,
  submit: ({ values }): Promise<NotificationSettings> => notificationSettingsApi.save(values),
  successKey: 'account:notificationSettings.saved',
});

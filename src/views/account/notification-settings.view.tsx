/**
 * /member/account/notification/{email,push}: one tab per channel (each its own route), a switch per
 * event (the meeting reminder only with the CRM module on). A flip saves at once; while it saves the switches wait; a failed save says so with Try again
 * (the switch keeps the member's choice).
 */
import { Card, Stack, Switch, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { notificationSettingsMachine } from '../../machines/account/notification-settings.machine';
import { NOTIFICATION_EVENTS, switchKey, type NotificationChannel } from '../../schemas/notification-settings.schema';
import { formLoadScreen, FormRequestStatus } from '../components/form-request-status';
import { TabbedPage } from '../components/tabbed-page';

type Actor = ActorRefFrom<typeof notificationSettingsMachine>;

export const NOTIFICATION_TABS = ['email', 'push'] as const satisfies readonly NotificationChannel[];

/** The events a member is asked about: the meeting reminder only where the company has the CRM (its meetings). */
export const eventsShown = (crm: boolean) => NOTIFICATION_EVENTS.filter((event) => crm || event !== 'meeting_reminder');

function Switches({ actor, channel, crm }: { actor: Actor; channel: NotificationChannel; crm: boolean }) {
  const { t } = useTranslation('account');
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded, values, failure, fieldErrors } = useSelector(actor, (s) => s.context);

  const loading = formLoadScreen(state, loaded, () => actor.send({ type: 'notificationSettings.retry' }));
  if (loading || !loaded) return loading;

  return (
    <Stack gap="md" maw={560}>
      <Text c="dimmed" size="sm">
        {t(`notificationSettings.${channel}Description`)}
      </Text>
      <FormRequestStatus
        ns="account"
        prefix="notificationSettings"
        state={state}
        failure={failure}
        fieldErrors={fieldErrors}
        onRetry={() => actor.send({ type: 'notificationSettings.retry' })}
        onDismiss={() => actor.send({ type: 'notificationSettings.dismiss' })}
      />
      <Card withBorder radius="md">
        <Stack gap="md" role="group" aria-label={t(`notificationSettings.tabs.${channel}`)}>
          {eventsShown(crm).map((event) => {
            const key = switchKey(channel, event);
            return (
              <Switch
                key={key}
                data-switch={key}
                checked={values[key] === 'on'}
                disabled={busy}
                label={t(`notificationSettings.events.${event}`)}
                aria-label={t(`notificationSettings.events.${event}`)}
                description={t(`notificationSettings.hints.${event}`)}
                onChange={(e) =>
                  actor.send({ type: 'notificationSettings.save', values: { ...values, [key]: e.currentTarget.checked ? 'on' : 'off' } })
                }
              />
            );
          })}
        </Stack>
      </Card>
    </Stack>
  );
}

/** `crm`: the company has the CRM module on (else the meeting reminder is not offered). */
export function NotificationSettingsView({ actor, channel, crm = true }: { actor: Actor; channel: NotificationChannel; crm?: boolean }) {
  const { t } = useTranslation('account');
  return (
    <TabbedPage
      title={t('notificationSettings.title')}
      tabs={NOTIFICATION_TABS}
      tab={channel}
      label={(c) => t(`notificationSettings.tabs.${c}`)}
      href={(c) => `/account/notification/${c}`}
    >
      <Switches actor={actor} channel={channel} crm={crm} />
    </TabbedPage>
  );
}

/** /member/notifications: unread orders, payouts and messages (tabs with counts) and marking them read. */
import { Alert, Avatar, Badge, Button, Card, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { notificationsMachine } from '../../machines/notifications.machine';
import type { NotificationKind } from '../../schemas/home.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { fullName, initials } from '../components/person';
import { useDisplayFormat } from '../member/display-format';
import { CardsSkeleton } from './load-states';

type Actor = ActorRefFrom<typeof notificationsMachine>;

function MarkButton({ actor, kind, id, label }: { actor: Actor; kind: NotificationKind; id: number; label: string }) {
  const { t } = useTranslation('dashboard');
  const busy = useSelector(actor, (s) => s.matches({ loaded: 'marking' }));
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      disabled={busy}
      aria-label={t('notifications.markReadOf', { item: label })}
      onClick={() => actor.send({ type: 'notifications.markRead', request: { kind, ids: [id] } })}
    >
      {t('notifications.markRead')}
    </Button>
  );
}

export function NotificationsView({ actor }: { actor: Actor }) {
  const { t } = useTranslation('dashboard');
  const { money, date } = useDisplayFormat();
  const value = useSelector(actor, (s) => s.value);
  const data = useSelector(actor, (s) => s.context.data);
  const markFailed = useSelector(actor, (s) => s.matches({ loaded: 'markError' }));
  const marking = useSelector(actor, (s) => s.matches({ loaded: 'marking' }));
  const title = (
    <Title order={1} size="h2" mb="md">
      {t('notifications.title')}
    </Title>
  );
  if (value === 'connectionError' || value === 'error')
    return (
      <>
        {title}
        <ErrorView kind={value === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />
      </>
    );
  if (value === 'forceLogout') return <PageLoader />;
  if (!data)
    return (
      <>
        {title}
        <CardsSkeleton cards={3} label={t('loading')} />
      </>
    );
  const { lists, counts } = data;
  const markAll = (kind: NotificationKind | 'all') => actor.send({ type: 'notifications.markRead', request: { kind } });
  const tab = (kind: 'orders' | 'payouts' | 'messages', count: number) => (
    <Tabs.Tab value={kind} rightSection={count > 0 ? <Badge size="sm" circle={count < 10}>{count}</Badge> : undefined}>
      {t(`notifications.${kind}`)}
    </Tabs.Tab>
  );
  const allRead = (kind: NotificationKind, count: number) =>
    count > 0 ? (
      <Group justify="flex-end">
        <Button size="xs" variant="light" disabled={marking} onClick={() => markAll(kind)}>
          {t('notifications.markAllKind')}
        </Button>
      </Group>
    ) : null;
  return (
    <div>
      <Group justify="space-between" align="start">
        {title}
        {counts.total_count > 0 && (
          <Button variant="default" disabled={marking} onClick={() => markAll('all')}>
            {t('notifications.markAll')}
          </Button>
        )}
      </Group>
      <Text c="dimmed" mb="sm" data-total={counts.total_count}>
        {t('notifications.unreadTotal', { count: counts.total_count })}
      </Text>
      {markFailed && (
        <Alert color="red" mb="sm" withCloseButton onClose={() => actor.send({ type: 'notifications.dismissError' })} closeButtonLabel={t('notifications.dismiss')}>
          {t('notifications.markFailed')}
        </Alert>
      )}
      <Tabs defaultValue="orders">
        <Tabs.List>
          {tab('orders', counts.order_count)}
          {tab('payouts', counts.payout_count)}
          {tab('messages', counts.message_count)}
        </Tabs.List>
        <Tabs.Panel value="orders" pt="md">
          <Stack gap="xs">
            {allRead('order', counts.order_count)}
            {lists.orders.length ? (
              lists.orders.map((o) => (
                <Card key={o.id} withBorder padding="sm" data-notification="order">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <div style={{ minWidth: 0 }}>
                      <Group gap={6}>
                        <Text fw={600}>{o.invoice_no}</Text>
                        <Badge color={o.status_color} variant="light">
                          {t(`notifications.orderStatus.${o.name}`, { defaultValue: o.name })}
                        </Badge>
                      </Group>
                      <Text size="sm" c="dimmed">
                        {[o.plan, money(o.total), date(o.updated_at)].filter(Boolean).join(' · ')}
                      </Text>
                    </div>
                    <MarkButton actor={actor} kind="order" id={o.id} label={o.invoice_no} />
                  </Group>
                </Card>
              ))
            ) : (
              <EmptyState title={t('notifications.emptyTitle')} description={t('notifications.emptyOrders')} />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="payouts" pt="md">
          <Stack gap="xs">
            {allRead('payout', counts.payout_count)}
            {lists.payouts.length ? (
              lists.payouts.map((p) => (
                <Card key={p.id} withBorder padding="sm" data-notification="payout">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <div style={{ minWidth: 0 }}>
                      <Group gap={6}>
                        <Text fw={600}>{p.invoice_no}</Text>
                        <Badge variant="light">{t(`notifications.payoutStatus.${p.name}`, { defaultValue: p.name })}</Badge>
                      </Group>
                      <Text size="sm" c="dimmed">
                        {money(p.total)} · {date(p.updated_at)}
                      </Text>
                    </div>
                    <MarkButton actor={actor} kind="payout" id={p.id} label={p.invoice_no} />
                  </Group>
                </Card>
              ))
            ) : (
              <EmptyState title={t('notifications.emptyTitle')} description={t('notifications.emptyPayouts')} />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="messages" pt="md">
          <Stack gap="xs">
            {allRead('message', counts.message_count)}
            {lists.messages.length ? (
              lists.messages.map((m) => (
                <Card key={m.id} withBorder padding="sm" data-notification="message">
                  <Group justify="space-between" wrap="nowrap" gap="xs" align="start">
                    <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                      <Avatar src={m.avatar} radius="xl" alt="">
                        {initials(m)}
                      </Avatar>
                      <div style={{ minWidth: 0 }}>
                        <Text fw={600}>{m.subject}</Text>
                        <Text size="sm" c="dimmed">
                          {fullName(m)} · {date(m.updated_at)}
                        </Text>
                        <Text size="sm" lineClamp={2}>
                          {m.body}
                        </Text>
                      </div>
                    </Group>
                    <MarkButton actor={actor} kind="message" id={m.id} label={m.subject} />
                  </Group>
                </Card>
              ))
            ) : (
              <EmptyState title={t('notifications.emptyTitle')} description={t('notifications.emptyMessages')} />
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </div>
  );
}

/**
 * /member/notifications: unread orders, payouts, messages and notices (tabs with counts), each linking to
 * what it is about, and marking them read. The tab is the URL's (?tab=payouts): a reload keeps it and
 * Back returns to the previous tab. A marked item stays listed, shown as read; "All" (?show=all) lists
 * the read items too, the whole history, loading more as the member scrolls (or presses Load more).
 */
import { useState, type ReactNode } from 'react';
import { Alert, Anchor, Avatar, Badge, Button, Card, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import { allReadKey, historyId, readKey, type notificationsMachine } from '../../machines/notifications.machine';
import {
  NOTIFICATION_TABS,
  PAYOUT_LINK,
  type MessageNotification,
  type NoticeNotification,
  type NotificationHistoryItem,
  type NotificationKind,
  type NotificationsShow,
  type NotificationsTab,
  type NotificationsUrl,
  type OrderNotification,
  type PayoutNotification,
} from '../../schemas/home.schema';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { LabelledRadios } from '../components/segmented-radios';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { fullName, initials } from '../components/person';
import { useDisplayFormat } from '../member/display-format';
import { CardsSkeleton } from './load-states';

type Actor = ActorRefFrom<typeof notificationsMachine>;
/** One listed item as its card shows it. */
type Item = { id: number; label: string; body: ReactNode; top?: boolean; read?: boolean };

/** A link the finger and the keyboard reach: at least 24 px tall. */
const TARGET = { display: 'inline-block', minHeight: 24, lineHeight: '24px' } as const;

function MarkButton({ actor, kind, id, label }: { actor: Actor; kind: NotificationKind; id: number; label: string }) {
  const { t } = useTranslation('dashboard');
  // Also while the lists load again (a refresh keeps them on screen): a mark sent then would be lost.
  const busy = useSelector(actor, (s) => s.matches({ loaded: 'marking' }) || s.hasTag('busy'));
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

const shallowChildren = (a: Record<string, unknown>, b: Record<string, unknown>) => NOTIFICATION_TABS.every((tab) => a[tab] === b[tab]);

export function NotificationsView({ actor, url, setUrl }: { actor: Actor; url?: NotificationsUrl; setUrl?: (next: NotificationsUrl) => void }) {
  const { t } = useTranslation(['dashboard', 'account']);
  // The URL's tab when the page has one (the route), else the view's own.
  const [ownTab, setOwnTab] = useState<NotificationsTab>('orders');
  const tab = url ? (url.tab ?? 'orders') : ownTab;
  const show = useSelector(actor, (s) => s.context.show);
  const showTab = (next: NotificationsTab) => (setUrl ? setUrl({ ...url, tab: next === 'orders' ? undefined : next }) : setOwnTab(next));
  const showItems = (next: NotificationsShow) =>
    setUrl ? setUrl({ ...url, show: next === 'all' ? 'all' : undefined }) : actor.send({ type: 'notifications.show', show: next });
  const read = useSelector(actor, (s) => s.context.read);
  const { money, date } = useDisplayFormat();
  const value = useSelector(actor, (s) => s.value);
  const data = useSelector(actor, (s) => s.context.data);
  const markFailed = useSelector(actor, (s) => s.matches({ loaded: 'markError' }));
  const marking = useSelector(actor, (s) => s.matches({ loaded: 'marking' }) || s.hasTag('busy'));
  // With "All", each tab's history list (a paged list, child of the page's actor).
  const history = useSelector(actor, (s) => Object.fromEntries(NOTIFICATION_TABS.map((tab) => [tab, s.children[historyId(tab)]])), shallowChildren);
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
  const tabOf = (kind: NotificationsTab, count: number) => (
    <Tabs.Tab value={kind} rightSection={count > 0 ? <Badge size="sm" circle={count < 10}>{count}</Badge> : undefined}>
      {kind === 'notices' ? t('account:notificationSettings.notices.tab') : t(`notifications.${kind}`)}
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
  /** One card: the item's body, and its mark button or, once read, the Read badge. */
  const card = (kind: NotificationKind, item: Item, role?: 'listitem') => {
    const isRead = !!item.read || read.includes(readKey(kind, item.id)) || read.includes(allReadKey(kind));
    return (
      <Card key={item.id} role={role} withBorder padding="sm" data-notification={kind} data-read={isRead || undefined} bg={isRead ? 'var(--mantine-color-default-hover)' : undefined}>
        <Group justify="space-between" wrap="nowrap" gap="xs" align={item.top ? 'start' : undefined}>
          {item.body}
          {isRead ? (
            <Badge variant="outline" color="gray" style={{ flexShrink: 0 }}>
              {t('notifications.read')}
            </Badge>
          ) : (
            <MarkButton actor={actor} kind={kind} id={item.id} label={item.label} />
          )}
        </Group>
      </Card>
    );
  };
  const emptyText = (emptyKey: string) => t(emptyKey.includes(':') ? emptyKey : `notifications.${emptyKey}`);
  /**
   * One tab's list: mark-all for the kind, then a card per item with its own mark button, or the empty line —
   * the unread items, or with "All" the tab's whole history, paged (more load as the member scrolls).
   */
  const panel = <T extends NotificationHistoryItem>(value: NotificationsTab, kind: NotificationKind, count: number, emptyKey: string, items: T[], toItem: (item: T) => Item) => (
    <Tabs.Panel value={value} pt="md">
      <Stack gap="xs">
        {allRead(kind, count)}
        {show === 'all' && history[value] ? (
          <PagedList<T>
            actor={history[value] as unknown as PagedListActor<T>}
            renderItems={(rows) => <Stack gap="xs">{rows.map((row) => card(kind, toItem(row), 'listitem'))}</Stack>}
            emptyTitle={t('notifications.emptyTitle')}
            emptyDescription={emptyText(emptyKey)}
          />
        ) : show === 'all' ? (
          <CardsSkeleton cards={2} label={t('loading')} />
        ) : items.length ? (
          items.map((item) => card(kind, toItem(item)))
        ) : (
          <EmptyState title={t('notifications.emptyTitle')} description={emptyText(emptyKey)} />
        )}
      </Stack>
    </Tabs.Panel>
  );
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
      <Group justify="space-between" align="end" mb="sm" gap="xs">
        <Text c="dimmed" data-total={counts.total_count}>
          {t('notifications.unreadTotal', { count: counts.total_count })}
        </Text>
        <div>
          <LabelledRadios
            label={t('notifications.show')}
            value={show}
            options={[
              { value: 'unread', label: t('notifications.showUnread') },
              { value: 'all', label: t('notifications.showAll') },
            ]}
            onChange={showItems}
          />
        </div>
      </Group>
      {markFailed && (
        <Alert color="red" mb="sm" withCloseButton onClose={() => actor.send({ type: 'notifications.dismissError' })} closeButtonLabel={t('notifications.dismiss')}>
          {t('notifications.markFailed')}
        </Alert>
      )}
      <Tabs value={tab} onChange={(v) => v && showTab(v as NotificationsTab)}>
        <Tabs.List>
          {tabOf('orders', counts.order_count)}
          {tabOf('payouts', counts.payout_count)}
          {tabOf('messages', counts.message_count)}
          {tabOf('notices', counts.notice_count ?? 0)}
        </Tabs.List>
        {panel('orders', 'order', counts.order_count, 'emptyOrders', lists.orders, (o: OrderNotification) => ({
            id: o.id,
            read: o.read,
            label: o.invoice_no,
            body: (
              <div style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Anchor component={Link} href={`~/member/orders/${o.id}`} fw={600} style={TARGET}>
                    {o.invoice_no}
                  </Anchor>
                  <Badge color={o.status_color} variant="light">
                    {t(`notifications.orderStatus.${o.name}`, { defaultValue: o.name })}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {[o.plan, money(o.total), date(o.updated_at)].filter(Boolean).join(' · ')}
                </Text>
              </div>
            ),
          }),
        )}
        {panel('payouts', 'payout', counts.payout_count, 'emptyPayouts', lists.payouts, (p: PayoutNotification) => ({
            id: p.id,
            read: p.read,
            label: p.invoice_no,
            body: (
              <div style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Anchor component={Link} href={`~${PAYOUT_LINK}`} fw={600} style={TARGET}>
                    {p.invoice_no}
                  </Anchor>
                  <Badge variant="light">{t(`notifications.payoutStatus.${p.name}`, { defaultValue: p.name })}</Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {money(p.total)} · {date(p.updated_at)}
                </Text>
              </div>
            ),
          }),
        )}
        {panel('messages', 'message', counts.message_count, 'emptyMessages', lists.messages, (m: MessageNotification) => ({
            id: m.id,
            read: m.read,
            label: m.subject,
            top: true,
            body: (
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <Avatar src={m.avatar} radius="xl" alt="">
                  {initials(m)}
                </Avatar>
                <div style={{ minWidth: 0 }}>
                  <Anchor component={Link} href={`~/member/mail/conversation/${m.thread_id}`} fw={600} style={TARGET}>
                    {m.subject}
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {fullName(m)} · {date(m.updated_at)}
                  </Text>
                  <Text size="sm" lineClamp={2}>
                    {m.body}
                  </Text>
                </div>
              </Group>
            ),
          }),
        )}
        {panel('notices', 'notice', counts.notice_count ?? 0, 'account:notificationSettings.notices.empty', lists.notices ?? [], (n: NoticeNotification) => ({
            id: n.id,
            read: n.read,
            label: n.subject,
            top: true,
            body: (
              <div style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Text fw={600}>{n.subject}</Text>
                  <Badge variant="light">{t(`account:notificationSettings.events.${n.event}`, { defaultValue: n.event })}</Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {date(n.updated_at)}
                </Text>
                <Text size="sm" lineClamp={3}>
                  {n.body}
                </Text>
                {n.link?.startsWith('/member/') && (
                  <Anchor component={Link} href={`~${n.link}`} size="sm" style={TARGET}>
                    {t('account:notificationSettings.notices.open')}
                  </Anchor>
                )}
              </div>
            ),
          }),
        )}
      </Tabs>
    </div>
  );
}

/** The member's orders: the endless list and one order's detail (spec §2, §3). */
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { addressLines } from '../../lib/address-lines';
import type { OrderAddress, OrderSummary } from '../../schemas/orders.schema';
import type { ordersListMachine } from '../../machines/wallet-lists.machine';
import type { orderDetailMachine } from '../../machines/order-detail.machine';
import { ListPage } from '../components/paged-list/list-page';
import { detailsOf, ListRow, listRowColumns } from '../components/paged-list/list-row';
import { DenseList } from '../components/paged-list/dense-list';
import { useListFormat } from '../components/paged-list/list-format';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import type { ListViewProps } from '../wallet/wallet-lists.view';

/** The shop's pages the company has (their own switches): My orders leads to them whatever the menu shows. */
export interface ShopLinks {
  products: boolean;
  packages: boolean;
}

export function ShopLinksBar({ shop }: { shop: ShopLinks }) {
  const { t } = useTranslation('wallet');
  if (!shop.products && !shop.packages) return null;
  return (
    <Group gap="xs" component="nav" aria-label={t('orders.shopLinks')}>
      {shop.products && (
        <Button component={Link} href="/shopping/products" size="xs" variant="light">
          {t('orders.shop')}
        </Button>
      )}
      {shop.packages && (
        <Button component={Link} href="/packages/payment" size="xs" variant="light">
          {t('orders.packages')}
        </Button>
      )}
      <Button component={Link} href="/otc/payment-history" size="xs" variant="subtle">
        {t('orders.otc')}
      </Button>
    </Group>
  );
}

export function OrdersListView({ shop, ...list }: ListViewProps<ActorRefFrom<typeof ordersListMachine>> & { shop?: ShopLinks }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  return (
    <ListPage
      title={t('orders.title')}
      headerExtra={shop ? <ShopLinksBar shop={shop} /> : undefined}
      {...list}
      columns={listRowColumns(t('columns.order'), t('columns.details'), t('columns.total'))}
      renderItems={(items: OrderSummary[]) =>
        items.map((o) => (
          <ListRow
            key={o.id}
            title={
              <Anchor component={Link} href={`/orders/${o.id}`}>
                {t('orders.invoice', { invoice: o.invoice_no })}
              </Anchor>
            }
            details={detailsOf(f.date(o.created_at), o.package, t('orders.bv', { bv: f.volume(o.total_bv) }))}
            figure={f.money(o.total)}
            extra={
              <Badge size="xs" variant="light">
                {t(`orderStatus.${o.status}`, { defaultValue: o.status })}
              </Badge>
            }
          />
        ))
      }
    />
  );
}

function Address({ title, a }: { title: string; a: OrderAddress | null }) {
  const { t } = useTranslation('wallet');
  return (
    <Card withBorder>
      <Title order={2} size="h5" mb={4}>
        {title}
      </Title>
      {a ? (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {[...addressLines(a), a.phone, a.email].filter(Boolean).join('\n')}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          {t('orders.noShipping')}
        </Text>
      )}
    </Card>
  );
}

export function OrderDetailView({ actor }: { actor: ActorRefFrom<typeof orderDetailMachine> }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const status = useSelector(actor, (s) => s.value as string);
  const order = useSelector(actor, (s) => s.context.data);
  const error = useSelector(actor, (s) => s.context.error);
  const back = (
    <Button component={Link} href="/orders" variant="subtle" px={0}>
      {t('orders.back')}
    </Button>
  );
  if (status === 'connectionError') return <ErrorView kind="connection" onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (status === 'error' && error?.kind === 'notFound')
    return (
      <div data-order-status="notFound">
        <EmptyState title={t('orders.notFoundTitle')} description={t('orders.notFoundDescription')} action={back} />
      </div>
    );
  if (status === 'error') return <ErrorView kind="server" onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (!order) return <PageLoader />;
  return (
    <Stack gap="md">
      <div>{back}</div>
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('orders.invoice', { invoice: order.invoice_no })}
        </Title>
        <Badge variant="light">{t(`orderStatus.${order.status}`, { defaultValue: order.status })}</Badge>
      </Group>
      <Text c="dimmed" size="sm">
        {[f.date(order.created_at), t(`paymentMethods.${order.payment_method}`, { defaultValue: order.payment_method })].join(' · ')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Address title={t('orders.billing')} a={order.billing} />
        <Address title={t('orders.shipping')} a={order.shipping} />
      </SimpleGrid>
      <Title order={2} size="h4">
        {t('orders.products')}
      </Title>
      <DenseList columns={listRowColumns(t('columns.product'), t('columns.details'), t('columns.amount'))} aria-label={t('orders.products')}>
        {order.products.map((p) => (
          <ListRow
            key={p.sku}
            title={p.name}
            details={[`${p.quantity} × ${f.money(p.price)}`, t('orders.bv', { bv: f.volume(p.bv) }), p.expiry ? t('orders.expiry', { date: f.day(p.expiry) }) : null]
              .filter(Boolean)
              .join(' · ')}
            figure={f.money(Number(p.price) * p.quantity)}
          />
        ))}
      </DenseList>
      <Group justify="space-between">
        <Text fw={600}>{t('orders.total')}</Text>
        <Text fw={700}>
          {f.money(order.total)} · {t('orders.bv', { bv: f.volume(order.total_bv) })}
        </Text>
      </Group>
    </Stack>
  );
}

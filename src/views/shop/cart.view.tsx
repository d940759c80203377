/**
 * /member/shopping/cart: the lines with availability and quantity, the totals (spec §3), remove with an
 * instant Restore, and on to checkout when every line is available.
 */
import { Alert, Anchor, Badge, Button, Card, Group, Image, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { cartMachine } from '../../machines/cart.machine';
import { MAX_QUANTITY, type CartLine } from '../../schemas/shop.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageIntro } from '../components/page-intro';
import { PageLoader } from '../components/page-loader';
import { DenseItems, DenseList, DenseRow, useDenseColumns, type DenseColumn } from '../components/paged-list/dense-list';
import { useListFormat } from '../components/paged-list/list-format';

/** The cart's columns on desktops. */
const cartColumns = (t: TFunction): DenseColumn[] => [
  { label: t('cart.columns.product'), width: 'minmax(0, 3fr)' },
  { label: t('cart.columns.price'), width: 'minmax(6rem, 1fr)', right: true },
  { label: t('cart.columns.availability'), width: 'minmax(7rem, 1.2fr)' },
  { label: t('cart.quantity'), width: '6rem' },
  { label: t('cart.columns.total'), width: 'minmax(6rem, 1fr)', right: true },
  { label: t('cart.columns.action'), width: '7rem', right: true },
];

/** A line of the cart: a row of the cart's table on desktops, a card on phones. */
function CartLineItem({ l, busy, onQuantity, onRemove }: { l: CartLine; busy: boolean; onQuantity: (quantity: number) => void; onRemove: () => void }) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const name = (
    <Anchor component={Link} href={`/shopping/products/${l.id}`} fw={600}>
      {l.name}
    </Anchor>
  );
  const availability = (
    <Badge color={l.status ? 'teal' : 'red'} variant="light">
      {l.status ? t('cart.available') : t('cart.unavailable', { count: l.stock })}
    </Badge>
  );
  const remove = (
    <Button variant="subtle" color="red" disabled={busy} onClick={onRemove} aria-label={t('cart.removeNamed', { name: l.name })}>
      {t('cart.remove')}
    </Button>
  );
  const quantity = (label: { label: string } | { 'aria-label': string }) => (
    <NativeSelect {...label} value={String(l.quantity)} disabled={busy} onChange={(e) => onQuantity(Number(e.currentTarget.value))} data={quantities(l)} w={90} />
  );
  if (useDenseColumns())
    return (
      <DenseRow
        data-cart-line={l.sku}
        cells={[
          <Group key="product" gap="sm" wrap="nowrap">
            <Image src={l.image ?? '/images/products/bottle.svg'} alt="" w={40} h={40} fit="contain" />
            {name}
          </Group>,
          <Text key="price" size="sm">
            {f.money(l.price)}
          </Text>,
          availability,
          quantity({ 'aria-label': t('cart.quantityNamed', { name: l.name }) }),
          <Text key="total" size="sm" fw={700} data-amount>
            {f.money(l.line_total)}
          </Text>,
          remove,
        ]}
      />
    );
  return (
    <Card withBorder role="listitem" data-cart-line={l.sku} padding="sm">
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Image src={l.image ?? '/images/products/bottle.svg'} alt="" w={64} h={64} fit="contain" />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          {name}
          <Group gap="xs">
            <Text size="sm">{f.money(l.price)}</Text>
            {availability}
          </Group>
          <Group gap="xs" align="flex-end" wrap="wrap">
            {quantity({ label: t('cart.quantity') })}
            {remove}
          </Group>
        </Stack>
        <Text fw={700}>{f.money(l.line_total)}</Text>
      </Group>
    </Card>
  );
}

const quantities = (line: CartLine) => Array.from({ length: Math.max(Math.min(MAX_QUANTITY, Math.max(line.stock, line.quantity, 1)), 1) }, (_, i) => String(i + 1));

export function CartView({ actor }: { actor: ActorRefFrom<typeof cartMachine> }) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const state = useSelector(actor, (s) => s.value as string);
  const cart = useSelector(actor, (s) => s.context.cart);
  const refusal = useSelector(actor, (s) => s.context.refusal);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  if (state === 'connectionError') return <ErrorView kind="connection" onRetry={() => actor.send({ type: 'cart.retry' })} />;
  if (state === 'serverError') return <ErrorView kind="server" onRetry={() => actor.send({ type: 'cart.retry' })} />;
  if (!cart || state === 'forceLogout') return <PageLoader />;
  const restore = cart.removed.length > 0 && (
    <Alert color="blue" role="status" data-cart-removed>
      <Stack gap={4}>
        {cart.removed.map((l) => (
          <Group key={l.id} justify="space-between" gap="xs">
            <Text size="sm">{t('cart.removedLine', { name: l.name })}</Text>
            <Button size="xs" variant="light" disabled={busy} onClick={() => actor.send({ type: 'cart.restore', id: l.id })}>
              {t('cart.restore')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
  if (!cart.items.length)
    return (
      <Stack gap="md">
        <PageIntro title={t('cart.title')} />
        {restore}
        <EmptyState
          title={t('cart.emptyTitle')}
          description={t('cart.emptyDescription')}
          action={
            <Button component={Link} href="/shopping/products">
              {t('cart.browse')}
            </Button>
          }
        />
      </Stack>
    );
  return (
    <Stack gap="md">
      <PageIntro title={t('cart.title')} />
      {refusal && (
        <Alert color="red" role="alert">
          {t(refusal)}
        </Alert>
      )}
      {restore}
      <DenseList columns={cartColumns(t)} aria-label={t('cart.lines')}>
        <DenseItems gap="sm">
          {cart.items.map((l) => (
            <CartLineItem
              key={l.id}
              l={l}
              busy={busy}
              onQuantity={(quantity) => actor.send({ type: 'cart.setQuantity', id: l.id, quantity })}
              onRemove={() => actor.send({ type: 'cart.remove', id: l.id })}
            />
          ))}
        </DenseItems>
      </DenseList>
      <Card withBorder>
        <Title order={2} size="h5">
          {t('cart.totals')}
        </Title>
        <Group justify="space-between">
          <Text>{t('cart.items', { count: cart.totals.quantity })}</Text>
          <Text fw={700} data-cart-total>
            {f.money(cart.totals.amount)}
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('cart.bv', { bv: f.volume(cart.totals.bv) })}
        </Text>
        {!cart.totals.available && (
          <Text size="sm" c="red" mt="xs">
            {t('cart.notAllAvailable')}
          </Text>
        )}
      </Card>
      <Group justify="flex-end">
        <Button component={Link} href="/shopping/products" variant="subtle">
          {t('cart.continue')}
        </Button>
        {cart.totals.available ? (
          <Button component={Link} href="/shopping/checkout">
            {t('cart.checkout')}
          </Button>
        ) : (
          <Button disabled>{t('cart.checkout')}</Button>
        )}
      </Group>
    </Stack>
  );
}

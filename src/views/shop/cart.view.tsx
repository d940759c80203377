/**
 * /member/shopping/cart: the lines with availability and quantity, the totals (spec §3), remove with an
 * instant Restore, and on to checkout when every line is available.
 */
import { Alert, Anchor, Badge, Button, Card, Group, Image, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { cartMachine } from '../../machines/cart.machine';
import { MAX_QUANTITY, type CartLine } from '../../schemas/shop.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageIntro } from '../components/page-intro';
import { PageLoader } from '../components/page-loader';
import { useListFormat } from '../components/paged-list/list-format';

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
      <Stack gap="sm" role="list" aria-label={t('cart.lines')}>
        {cart.items.map((l) => (
          <Card key={l.id} withBorder role="listitem" data-cart-line={l.sku} padding="sm">
            <Group wrap="nowrap" align="flex-start" gap="sm">
              <Image src={l.image ?? '/images/products/bottle.svg'} alt="" w={64} h={64} fit="contain" />
              <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                <Anchor component={Link} href={`/shopping/products/${l.id}`} fw={600}>
                  {l.name}
                </Anchor>
                <Group gap="xs">
                  <Text size="sm">{f.money(l.price)}</Text>
                  <Badge color={l.status ? 'teal' : 'red'} variant="light">
                    {l.status ? t('cart.available') : t('cart.unavailable', { count: l.stock })}
                  </Badge>
                </Group>
                <Group gap="xs" align="flex-end" wrap="wrap">
                  <NativeSelect
                    label={t('cart.quantity')}
                    value={String(l.quantity)}
                    disabled={busy}
                    onChange={(e) => actor.send({ type: 'cart.setQuantity', id: l.id, quantity: Number(e.currentTarget.value) })}
                    data={quantities(l)}
                    w={90}
                  />
                  <Button variant="subtle" color="red" disabled={busy} onClick={() => actor.send({ type: 'cart.remove', id: l.id })} aria-label={t('cart.removeNamed', { name: l.name })}>
                    {t('cart.remove')}
                  </Button>
                </Group>
              </Stack>
              <Text fw={700}>{f.money(l.line_total)}</Text>
            </Group>
          </Card>
        ))}
      </Stack>
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

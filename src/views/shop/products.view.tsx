/**
 * /member/shopping/products and its detail: the catalogue as cards (image, name, price, BV/PV, stock status,
 * add to cart), searched and filtered by category (when the company shows categories) through the URL;
 * loading, empty, no match, errors with retry and "load more" are the paged list's.
 */
import { Anchor, Badge, Button, Card, CloseButton, Group, Image, NativeSelect, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { cartAddMachine } from '../../machines/cart.machine';
import type { productDetailMachine, productsListMachine } from '../../machines/shop-catalogue.machine';
import type { Product, ProductFilters, StockStatus } from '../../schemas/shop.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageIntro } from '../components/page-intro';
import { PageLoader } from '../components/page-loader';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { useListFormat } from '../components/paged-list/list-format';

export type CartAddActor = ActorRefFrom<typeof cartAddMachine>;

const STOCK_COLOUR: Record<StockStatus, string> = { in_stock: 'teal', low_stock: 'orange', out_of_stock: 'red' };

export function StockBadge({ status }: { status: StockStatus }) {
  const { t } = useTranslation('store');
  return (
    <Badge color={STOCK_COLOUR[status]} variant="light" data-stock={status}>
      {t(`shop.stock.${status}`)}
    </Badge>
  );
}

function AddButton({ product, cartAdd, quantity }: { product: Product; cartAdd: CartAddActor; quantity?: number }) {
  const { t } = useTranslation('store');
  const busyWith = useSelector(cartAdd, (s) => (s.hasTag('busy') ? s.context.productId : null));
  const out = product.stock_status === 'out_of_stock';
  return (
    <Button
      onClick={() => cartAdd.send({ type: 'cart.add', productId: product.id, quantity })}
      disabled={out}
      loading={busyWith === product.id}
      aria-label={t(out ? 'shop.soldOutNamed' : 'shop.addNamed', { name: product.name })}
    >
      {out ? t('shop.soldOut') : t('shop.add')}
    </Button>
  );
}

function SearchBar({ filters, categories, onFilters }: { filters: ProductFilters; categories: Array<{ id: number; name: string }>; onFilters(f: ProductFilters): void }) {
  const { t } = useTranslation('store');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const search = String(new FormData(e.currentTarget).get('search') ?? '').trim();
    onFilters({ ...filters, search: search || undefined });
  };
  return (
    <form role="search" onSubmit={submit} key={filters.search ?? ''} aria-label={t('shop.search')}>
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          name="search"
          type="search"
          label={t('shop.search')}
          placeholder={t('shop.searchPlaceholder')}
          defaultValue={filters.search ?? ''}
          maxLength={64}
          style={{ flex: '1 1 12rem', minWidth: 0 }}
          rightSection={filters.search ? <CloseButton aria-label={t('shop.clear')} onClick={() => onFilters({ ...filters, search: undefined })} /> : null}
        />
        {categories.length > 0 && (
          <NativeSelect
            label={t('shop.category')}
            value={filters.category ?? ''}
            onChange={(e) => onFilters({ ...filters, category: e.currentTarget.value || undefined })}
            data={[{ value: '', label: t('shop.allCategories') }, ...categories.map((c) => ({ value: String(c.id), label: c.name }))]}
            style={{ flex: '0 1 12rem' }}
          />
        )}
        <Button type="submit">{t('shop.search')}</Button>
      </Group>
    </form>
  );
}

export interface ProductsViewProps {
  actor: ActorRefFrom<typeof productsListMachine>;
  cartAdd: CartAddActor;
  filters: ProductFilters;
  onFilters(f: ProductFilters): void;
}

export function ProductsView({ actor, cartAdd, filters, onFilters }: ProductsViewProps) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const categories = useSelector(actor, (s) => s.context.meta?.categories ?? []);
  const searching = Boolean(filters.search || filters.category);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <PageIntro title={t('shop.title')} description={t('shop.description')} />
        <Button component={Link} href="/shopping/cart" variant="light">
          {t('shop.toCart')}
        </Button>
      </Group>
      <SearchBar filters={filters} categories={categories} onFilters={onFilters} />
      <PagedList<Product>
        actor={actor as unknown as PagedListActor<Product>}
        emptyTitle={searching ? t('shop.noMatchTitle') : t('shop.emptyTitle')}
        emptyDescription={searching ? t('shop.noMatchDescription') : t('shop.emptyDescription')}
        emptyAction={
          searching ? (
            <Button variant="light" onClick={() => onFilters({})}>
              {t('shop.clear')}
            </Button>
          ) : undefined
        }
        renderItems={(items) => (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
            {items.map((p) => (
              <Card key={p.id} withBorder role="listitem" data-product={p.sku}>
                <Card.Section>
                  <Image src={p.images[0] ?? '/images/products/bottle.svg'} alt="" h={140} fit="contain" />
                </Card.Section>
                <Stack gap={6} mt="sm">
                  <Anchor component={Link} href={`/shopping/products/${p.id}`} fw={600}>
                    {p.name}
                  </Anchor>
                  {p.category && (
                    <Text size="xs" c="dimmed">
                      {p.category.name}
                    </Text>
                  )}
                  <Group justify="space-between" gap="xs">
                    <Text fw={700}>{f.money(p.price)}</Text>
                    <StockBadge status={p.stock_status} />
                  </Group>
                  <Text size="sm" c="dimmed">
                    {t('shop.volumes', { bv: f.volume(p.bv), pv: f.volume(p.pv) })}
                  </Text>
                  <AddButton product={p} cartAdd={cartAdd} />
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        )}
      />
    </Stack>
  );
}

export function ProductDetailView({ actor, cartAdd }: { actor: ActorRefFrom<typeof productDetailMachine>; cartAdd: CartAddActor }) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const status = useSelector(actor, (s) => s.value as string);
  const product = useSelector(actor, (s) => s.context.data);
  const error = useSelector(actor, (s) => s.context.error);
  const back = (
    <Button component={Link} href="/shopping/products" variant="subtle" px={0}>
      {t('shop.back')}
    </Button>
  );
  if (status === 'connectionError') return <ErrorView kind="connection" onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (status === 'error' && error?.kind === 'notFound') return <EmptyState title={t('shop.notFoundTitle')} description={t('shop.notFoundDescription')} action={back} />;
  if (status === 'error') return <ErrorView kind="server" onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (!product) return <PageLoader />;
  return (
    <Stack gap="md" data-product-detail={product.sku}>
      <div>{back}</div>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Stack gap="xs">
          {(product.images.length ? product.images : ['/images/products/bottle.svg']).map((src, i) => (
            <Image key={`${src}-${i}`} src={src} alt={i === 0 ? product.name : ''} radius="sm" h={i === 0 ? 240 : 100} fit="contain" />
          ))}
        </Stack>
        <Stack gap="sm">
          <Title order={1} size="h3">
            {product.name}
          </Title>
          {product.category && <Text c="dimmed">{product.category.name}</Text>}
          <Group gap="sm">
            <Text size="xl" fw={700}>
              {f.money(product.price)}
            </Text>
            <StockBadge status={product.stock_status} />
          </Group>
          <Text size="sm">{t('shop.volumes', { bv: f.volume(product.bv), pv: f.volume(product.pv) })}</Text>
          <Text size="sm" c="dimmed">
            {t('shop.sku', { sku: product.sku })}
          </Text>
          {product.stock_status !== 'out_of_stock' && <Text size="sm">{t('shop.inStockCount', { count: product.stock })}</Text>}
          <Text>{product.description}</Text>
          <Group>
            <AddButton product={product} cartAdd={cartAdd} />
            <Button component={Link} href="/shopping/cart" variant="light">
              {t('shop.toCart')}
            </Button>
          </Group>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

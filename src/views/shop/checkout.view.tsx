/**
 * /member/shopping/checkout: the checkout machine's steps — shipping address (the address book or a new
 * one), payment (e-wallet, card, over the counter), the wallet password — and every outcome: paid
 * (the order), sent to the card provider, handed to the over-the-counter request, and each failure.
 */
import { Alert, Anchor, Button, Card, Group, NativeSelect, PasswordInput, Radio, SimpleGrid, Stack, Stepper, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { checkoutMachine } from '../../machines/checkout.machine';
import type { AddressValues } from '../../schemas/account.schema';
import { CHECKOUT_METHODS, type CheckoutMethod } from '../../schemas/shop.schema';
import { addressLines } from '../../lib/address-lines';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageIntro } from '../components/page-intro';
import { PageLoader } from '../components/page-loader';
import { useListFormat } from '../components/paged-list/list-format';
import { useFieldError } from '../components/field-error';

type CheckoutActor = ActorRefFrom<typeof checkoutMachine>;

const STEP: Record<string, number> = { address: 0, payment: 1, walletConfirm: 2, submitting: 2, insufficientBalance: 2, connectionError: 2, serverError: 2, refused: 2 };
const NEW_FIELDS: Array<{ field: keyof AddressValues; required?: boolean; auto?: string }> = [
  { field: 'first_name', required: true, auto: 'given-name' },
  { field: 'last_name', auto: 'family-name' },
  { field: 'address_1', required: true, auto: 'address-line1' },
  { field: 'address_2', auto: 'address-line2' },
  { field: 'city', required: true, auto: 'address-level2' },
  { field: 'postcode', auto: 'postal-code' },
  { field: 'phone', auto: 'tel' },
];

function Summary({ actor }: { actor: CheckoutActor }) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const cart = useSelector(actor, (s) => s.context.cart);
  if (!cart) return null;
  return (
    <Card withBorder data-checkout-summary>
      <Title order={2} size="h5" mb="xs">
        {t('checkout.summary')}
      </Title>
      {cart.items.map((l) => (
        <Group key={l.id} justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm" style={{ minWidth: 0 }}>
            {l.quantity} × {l.name}
          </Text>
          <Text size="sm">{f.money(l.line_total)}</Text>
        </Group>
      ))}
      <Group justify="space-between" mt="xs">
        <Text fw={600}>{t('checkout.total')}</Text>
        <Text fw={700} data-checkout-total>
          {f.money(cart.totals.amount)}
        </Text>
      </Group>
    </Card>
  );
}

function AddressStep({ actor }: { actor: CheckoutActor }) {
  const { t } = useTranslation('store');
  const ctx = useSelector(actor, (s) => s.context);
  const err = useFieldError(ctx.fieldErrors);
  const next = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'checkout.next' });
  };
  const value = ctx.choice?.kind === 'saved' ? String(ctx.choice.id) : 'new';
  return (
    <form onSubmit={next} aria-label={t('checkout.addressStep')} noValidate>
      <Stack gap="sm">
        <Radio.Group
          label={t('checkout.shipTo')}
          value={value}
          onChange={(v) => actor.send(v === 'new' ? { type: 'checkout.newAddress' } : { type: 'checkout.chooseAddress', id: Number(v) })}
          error={err('address_id')}
        >
          <Stack gap="xs" mt="xs">
            {ctx.addresses.map((a) => (
              <Radio key={a.id} value={String(a.id)} label={addressLines(a).join(', ')} />
            ))}
            <Radio value="new" label={t('checkout.newAddress')} />
          </Stack>
        </Radio.Group>
        {value === 'new' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {NEW_FIELDS.map(({ field, required, auto }) => (
              <TextInput
                key={field}
                label={t(`checkout.fields.${field}`)}
                required={required}
                autoComplete={auto}
                value={ctx.newAddress[field]}
                error={err(`address.${field}`)}
                onChange={(e) => actor.send({ type: 'checkout.changeAddress', field, value: e.currentTarget.value })}
              />
            ))}
            <NativeSelect
              label={t('checkout.fields.country_id')}
              required
              value={ctx.newAddress.country_id}
              error={err('address.country_id')}
              onChange={(e) => actor.send({ type: 'checkout.changeAddress', field: 'country_id', value: e.currentTarget.value })}
              data={[{ value: '', label: t('checkout.chooseCountry') }, ...ctx.countries.map((c) => ({ value: String(c.id), label: c.name }))]}
            />
          </SimpleGrid>
        )}
        <Group justify="space-between">
          <Button component={Link} href="/shopping/cart" variant="subtle">
            {t('checkout.backToCart')}
          </Button>
          <Button type="submit">{t('checkout.continue')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

function PaymentStep({ actor }: { actor: CheckoutActor }) {
  const { t } = useTranslation('store');
  const method = useSelector(actor, (s) => s.context.method);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'checkout.next' });
      }}
      aria-label={t('checkout.paymentStep')}
    >
      <Stack gap="sm">
        <Radio.Group label={t('checkout.payWith')} value={method} onChange={(v) => actor.send({ type: 'checkout.chooseMethod', method: v as CheckoutMethod })}>
          <Stack gap="xs" mt="xs">
            {CHECKOUT_METHODS.map((m) => (
              <Radio key={m} value={m} label={t(`checkout.methods.${m}`)} description={t(`checkout.methodHints.${m}`)} />
            ))}
          </Stack>
        </Radio.Group>
        <Group justify="space-between">
          <Button variant="subtle" onClick={() => actor.send({ type: 'checkout.back' })}>
            {t('checkout.back')}
          </Button>
          <Button type="submit" loading={busy}>
            {method === 'wallet' ? t('checkout.continue') : method === 'card' ? t('checkout.toCard') : t('checkout.toOtc')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function WalletStep({ actor }: { actor: CheckoutActor }) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const password = useSelector(actor, (s) => s.context.password);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const err = useFieldError(fieldErrors);
  const total = useSelector(actor, (s) => s.context.cart?.totals.amount ?? '0');
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        actor.send({ type: 'checkout.pay' });
      }}
      aria-label={t('checkout.walletStep')}
    >
      <Stack gap="sm">
        <Text>{t('checkout.walletConfirm', { amount: f.money(total) })}</Text>
        <PasswordInput
          label={t('checkout.password')}
          description={t('checkout.passwordHint')}
          autoComplete="current-password"
          value={password}
          error={err('password')}
          onChange={(e) => actor.send({ type: 'checkout.changePassword', value: e.currentTarget.value })}
        />
        <Group justify="space-between">
          <Button variant="subtle" disabled={busy} onClick={() => actor.send({ type: 'checkout.back' })}>
            {t('checkout.back')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('checkout.pay', { amount: f.money(total) })}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Outcome({ actor, state }: { actor: CheckoutActor; state: string }) {
  const { t } = useTranslation('store');
  const result = useSelector(actor, (s) => s.context.result);
  const f = useListFormat();
  if (state === 'confirmed' && result)
    return (
      <Alert color="teal" title={t('checkout.paidTitle')} data-checkout-outcome="paid">
        <Stack gap="xs">
          <Text>{t('checkout.paidText', { invoice: result.invoice_no, amount: f.money(result.total) })}</Text>
          <Group>
            <Button component={Link} href={`/orders/${result.order_id}`}>
              {t('checkout.viewOrder')}
            </Button>
            <Button component={Link} href="/shopping/products" variant="light">
              {t('checkout.keepShopping')}
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  if (state === 'otcHandoff' && result)
    return (
      <Alert color="blue" title={t('checkout.otcTitle')} data-checkout-outcome="otc">
        <Stack gap="xs">
          <Text>{t('checkout.otcText', { invoice: result.invoice_no, amount: f.money(result.total) })}</Text>
          <Group>
            <Button component={Link} href={result.url ?? '/otc/request-payment'}>
              {t('checkout.otcContinue')}
            </Button>
            <Anchor component={Link} href={`/orders/${result.order_id}`}>
              {t('checkout.viewOrder')}
            </Anchor>
          </Group>
        </Stack>
      </Alert>
    );
  // redirecting: the provider's page is loading.
  return (
    <Stack align="center" data-checkout-outcome="redirect">
      <PageLoader />
      <Text>{t('checkout.redirecting')}</Text>
      {result?.url && (
        <Anchor href={result.url}>{t('checkout.redirectLink')}</Anchor>
      )}
    </Stack>
  );
}

export function CheckoutView({ actor }: { actor: CheckoutActor }) {
  const { t } = useTranslation('store');
  const state = useSelector(actor, (s) => s.value as string);
  const cancelled = useSelector(actor, (s) => s.context.cancelled);
  const error = useSelector(actor, (s) => s.context.error);
  if (state === 'loading' || state === 'forceLogout') return <PageLoader />;
  if (state === 'loadConnectionError') return <ErrorView kind="connection" onRetry={() => actor.send({ type: 'checkout.retry' })} />;
  if (state === 'loadServerError') return <ErrorView kind="server" onRetry={() => actor.send({ type: 'checkout.retry' })} />;
  if (state === 'empty')
    return (
      <EmptyState
        title={t('checkout.emptyTitle')}
        description={t('checkout.emptyDescription')}
        action={
          <Button component={Link} href="/shopping/products">
            {t('cart.browse')}
          </Button>
        }
      />
    );
  if (state === 'confirmed' || state === 'otcHandoff' || state === 'redirecting')
    return (
      <Stack gap="md" maw={720}>
        <PageIntro title={t('checkout.title')} />
        <Outcome actor={actor} state={state} />
      </Stack>
    );
  return (
    <Stack gap="md" maw={720}>
      <PageIntro title={t('checkout.title')} />
      {cancelled && state === 'address' && (
        <Alert color="yellow" role="status">
          {t('checkout.cardCancelled')}
        </Alert>
      )}
      <Stepper active={STEP[state] ?? 0} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label={t('checkout.steps.address')} />
        <Stepper.Step label={t('checkout.steps.payment')} />
        <Stepper.Step label={t('checkout.steps.confirm')} />
      </Stepper>
      <Summary actor={actor} />
      {state === 'address' && <AddressStep actor={actor} />}
      {state === 'payment' && (
        <>
          {error?.code === 'demo_blocked' && <Alert color="yellow">{t('checkout.errors.demo')}</Alert>}
          <PaymentStep actor={actor} />
        </>
      )}
      {(state === 'walletConfirm' || state === 'submitting') && <WalletStep actor={actor} />}
      {state === 'connectionError' && <ErrorView compact kind="connection" onRetry={() => actor.send({ type: 'checkout.retry' })} />}
      {state === 'serverError' && <ErrorView compact kind="server" onRetry={() => actor.send({ type: 'checkout.retry' })} />}
      {state === 'insufficientBalance' && (
        <Alert color="red" role="alert" title={t('checkout.errors.insufficientTitle')}>
          <Stack gap="xs">
            <Text>{t('checkout.errors.insufficientBalance')}</Text>
            <Button variant="light" onClick={() => actor.send({ type: 'checkout.back' })}>
              {t('checkout.otherMethod')}
            </Button>
          </Stack>
        </Alert>
      )}
      {state === 'outOfStock' && (
        <Alert color="red" role="alert" title={t('checkout.errors.outOfStockTitle')}>
          <Stack gap="xs">
            <Text>{t('checkout.errors.outOfStock')}</Text>
            <Group>
              <Button variant="light" onClick={() => actor.send({ type: 'checkout.reload' })}>
                {t('checkout.reload')}
              </Button>
              <Button component={Link} href="/shopping/cart" variant="subtle">
                {t('checkout.backToCart')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {state === 'refused' && (
        <Alert color="red" role="alert" title={t('checkout.errors.refusedTitle')}>
          <Stack gap="xs">
            <Text>{t('checkout.errors.refused')}</Text>
            <Button variant="light" onClick={() => actor.send({ type: 'checkout.reload' })}>
              {t('checkout.reload')}
            </Button>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

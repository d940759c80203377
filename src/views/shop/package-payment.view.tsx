/** /member/packages/payment: the packages (or investments with roi on), the choice, how to pay, the wallet confirmation and the result. */
import { Alert, Badge, Button, Card, Group, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { packagePaymentMachine } from '../../machines/shop/package-payment.machine';
import { useListFormat } from '../components/paged-list/list-format';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { useFieldError } from '../components/field-error';

type Actor = ActorRefFrom<typeof packagePaymentMachine>;

export function PackagePaymentView({ actor }: { actor: Actor }) {
  const { t } = useTranslation(['store', 'common', 'validation']);
  const f = useListFormat();
  const state = useSelector(actor, (s) => s.value as string);
  const { options, purchase, password, fieldErrors, error, result } = useSelector(actor, (s) => s.context);
  const fieldError = useFieldError(fieldErrors);
  const label = options?.roi ? 'investment' : 'package';

  if (state === 'loading' || state === 'forceLogout' || state === 'cardRedirect' || state === 'otcHandOff') return <PageLoader />;
  if (state === 'loadError' || !options)
    return <ErrorView kind={error?.kind === 'connection' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'packages.retry' })} />;

  const data = options.package_data;
  const title = <Title order={1} size="h3">{t(`packages.title.${label}`)}</Title>;

  if (state === 'paid' && result)
    return (
      <Stack gap="md" data-package-status="paid">
        {title}
        <Alert color="teal" role="status" title={t('packages.paid.title')}>
          {t('packages.paid.description', { name: result.purchase.package_name, amount: f.money(result.purchase.amount), balance: f.money(result.wallet_balance) })}
        </Alert>
        <Group>
          <Button component={Link} href="~/member/home/package">{t('packages.paid.seePackage')}</Button>
          {result.purchase.order_id !== null && (
            <Button variant="default" component={Link} href={`~/member/orders/${result.purchase.order_id}`}>
              {t('packages.paid.seeOrder')}
            </Button>
          )}
        </Group>
      </Stack>
    );

  const transient = state === 'chooseFailed' || state === 'payFailed' || state === 'cardFailed';
  const failureAlert = transient && (
    <Alert color="red" role="alert" title={t(error?.kind === 'connection' ? 'packages.errors.connection' : state === 'cardFailed' ? 'packages.errors.card' : 'packages.errors.server')}>
      <Group gap="xs">
        {state !== 'chooseFailed' && (
          <Button size="xs" onClick={() => actor.send({ type: 'packages.retry' })}>
            {t('packages.retry')}
          </Button>
        )}
        <Button size="xs" variant="default" onClick={() => actor.send({ type: 'packages.back' })}>
          {t('packages.back')}
        </Button>
      </Group>
    </Alert>
  );

  if (purchase && ['method', 'walletConfirm', 'paying', 'payFailed', 'cardStarting', 'cardFailed'].includes(state)) {
    const due = (
      <Card withBorder data-purchase-kind={purchase.kind}>
        <Text size="xs" c="dimmed">{t(`packages.kind.${purchase.kind}`)}</Text>
        <Text fw={600}>
          {purchase.from_package_name ? `${purchase.from_package_name} → ${purchase.package_name}` : purchase.package_name}
        </Text>
        <Group gap="lg" mt={4}>
          <Text size="sm">{t('packages.due', { amount: f.money(purchase.amount) })}</Text>
          <Text size="sm">{t('packages.pv', { pv: f.volume(purchase.pv) })}</Text>
        </Group>
      </Card>
    );
    if (state === 'method' || state === 'cardStarting' || state === 'cardFailed')
      return (
        <Stack gap="md">
          {title}
          {due}
          {failureAlert}
          <Title order={2} size="h5">{t('packages.howToPay')}</Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Button variant="light" onClick={() => actor.send({ type: 'payment.method', method: 'wallet' })} disabled={state !== 'method'}>
              {t('packages.methods.wallet', { balance: f.money(options.wallet_balance) })}
            </Button>
            <Button variant="light" loading={state === 'cardStarting'} onClick={() => actor.send({ type: 'payment.method', method: 'card' })} disabled={state === 'cardFailed'}>
              {t('packages.methods.card')}
            </Button>
            <Button variant="light" onClick={() => actor.send({ type: 'payment.method', method: 'otc' })} disabled={state !== 'method'}>
              {t('packages.methods.otc')}
            </Button>
          </SimpleGrid>
          <Button variant="subtle" onClick={() => actor.send({ type: 'packages.back' })} disabled={state !== 'method'}>
            {t('packages.chooseAnother')}
          </Button>
        </Stack>
      );
    return (
      <Stack gap="md">
        {title}
        {due}
        {failureAlert}
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'wallet.submit' });
          }}
        >
          <Stack gap="sm">
            <Text size="sm">{t('packages.walletBalance', { balance: f.money(options.wallet_balance) })}</Text>
            <PasswordInput
              label={t(options.password_kind === 'wallet' ? 'packages.walletPassword' : 'packages.accountPassword')}
              value={password}
              autoComplete="current-password"
              onChange={(e) => actor.send({ type: 'wallet.change', value: e.currentTarget.value })}
              error={fieldError('password')}
              disabled={state !== 'walletConfirm'}
            />
            <Group>
              <Button type="submit" loading={state === 'paying'} disabled={state !== 'walletConfirm'}>
                {t('packages.payNow', { amount: f.money(purchase.amount) })}
              </Button>
              <Button variant="default" onClick={() => actor.send({ type: 'packages.back' })} disabled={state !== 'walletConfirm'}>
                {t('packages.back')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    );
  }

  const schedules = new Map(options.return_schedules.map((r) => [r.package_id, r]));
  return (
    <Stack gap="md">
      {title}
      <Text size="sm" c="dimmed">
        {data.package_status === 'none'
          ? t('packages.status.none')
          : t(`packages.status.${data.package_status}`, { date: data.current_package_expiry ? f.date(data.current_package_expiry) : '—' })}
      </Text>
      {failureAlert}
      {fieldError('package_id') && (
        <Alert color="red" role="alert">
          {fieldError('package_id')}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {data.packages.map((p) => {
          const renew = p.is_current && data.package_status === 'expired';
          const buy = data.package_status === 'none';
          const can = buy || renew || p.can_upgrade;
          const schedule = schedules.get(p.id);
          return (
            <Card withBorder key={p.id} data-package={p.name}>
              <Group justify="space-between" wrap="nowrap">
                <Title order={2} size="h5">{p.name}</Title>
                {p.is_current && <Badge variant="light">{t('packages.current')}</Badge>}
              </Group>
              {p.description && <Text size="sm" c="dimmed" mt={4}>{p.description}</Text>}
              <Group gap="lg" mt="xs">
                <Text fw={600}>{f.money(p.price)}</Text>
                <Text size="sm">{t('packages.pv', { pv: f.volume(p.bv) })}</Text>
              </Group>
              {p.can_upgrade && (
                <Text size="sm" mt={4}>
                  {t('packages.difference', { amount: f.money(p.price_difference), pv: f.volume(p.pv_difference) })}
                </Text>
              )}
              {schedule && (
                <Text size="sm" mt={4} data-return-schedule>
                  {t('packages.returns', { monthly: f.money(schedule.monthly), months: schedule.months, total: f.money(schedule.total), rate: schedule.rate })}
                </Text>
              )}
              {can && (
                <Button mt="sm" loading={state === 'creating'} disabled={state !== 'choosing'} onClick={() => actor.send({ type: 'packages.choose', packageId: p.id })}>
                  {t(renew ? 'packages.renew' : buy ? `packages.buy.${label}` : 'packages.upgrade')}
                </Button>
              )}
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}

/**
 * /member/payment/stripe/success: what the server found when it asked the provider about the session — paid
 * (with the order), still open (check again), expired or failed — never what the URL says.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { cardPaymentResultMachine } from '../../machines/shop-catalogue.machine';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageIntro } from '../components/page-intro';
import { PageLoader } from '../components/page-loader';
import { useListFormat } from '../components/paged-list/list-format';

export function CardPaymentView({ actor }: { actor: ActorRefFrom<typeof cardPaymentResultMachine> }) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const state = useSelector(actor, (s) => s.value as string);
  const data = useSelector(actor, (s) => s.context.data);
  const error = useSelector(actor, (s) => s.context.error);
  const params = useSelector(actor, (s) => s.context.params);
  const home = (
    <Button component={Link} href="/shopping/products" variant="light">
      {t('cardPayment.toShop')}
    </Button>
  );
  if (!params) return <EmptyState title={t('cardPayment.missingTitle')} description={t('cardPayment.missingDescription')} action={home} />;
  if (state === 'connectionError') return <ErrorView kind="connection" onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (state === 'error' && (error?.kind === 'notFound' || error?.kind === 'badRequest'))
    return <EmptyState title={t('cardPayment.missingTitle')} description={t('cardPayment.missingDescription')} action={home} />;
  if (state === 'error') return <ErrorView kind="server" onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (!data || state !== 'loaded') return <PageLoader />;
  const what = data.order ? t('cardPayment.order', { invoice: data.order.invoice_no }) : t(`cardPayment.purposes.${data.purpose}`);
  return (
    <Stack gap="md" maw={640} data-card-payment={data.status}>
      <PageIntro title={t('cardPayment.title')} />
      {data.status === 'paid' && (
        <Alert color="teal" title={t('cardPayment.paidTitle')}>
          <Text>{t('cardPayment.paidText', { what, amount: f.money(data.amount) })}</Text>
        </Alert>
      )}
      {data.status === 'open' && (
        <Alert color="yellow" title={t('cardPayment.openTitle')}>
          <Stack gap="xs">
            <Text>{t('cardPayment.openText', { what })}</Text>
            <Button variant="light" onClick={() => actor.send({ type: 'load.refresh' })}>
              {t('cardPayment.checkAgain')}
            </Button>
          </Stack>
        </Alert>
      )}
      {(data.status === 'expired' || data.status === 'failed' || data.status === 'refunded') && (
        <Alert color="red" title={t(`cardPayment.${data.status}Title`)}>
          <Text>{t(`cardPayment.${data.status}Text`, { what })}</Text>
        </Alert>
      )}
      <Group>
        {data.order && (
          <Button component={Link} href={`/orders/${data.order.id}`}>
            {t('cardPayment.viewOrder')}
          </Button>
        )}
        {home}
      </Group>
    </Stack>
  );
}

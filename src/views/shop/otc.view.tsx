/** Over-the-counter payment: request-payment (what, how, then the reference and where to pay), make-payment (receipt) and payment-history. */
import { Alert, Badge, Button, Card, FileInput, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { otcHistoryListMachine, otcMakePaymentMachine, otcRequestPaymentMachine } from '../../machines/shop/otc.machine';
import { OTC_METHODS, OTC_PURPOSES, type OtcBank, type OtcRequest } from '../../schemas/otc.schema';
import { ListPage } from '../components/paged-list/list-page';
import { detailsOf, ListRow, listRowColumns } from '../components/paged-list/list-row';
import { useListFormat } from '../components/paged-list/list-format';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { useFieldError } from '../components/field-error';
import type { ListViewProps } from '../wallet/wallet-lists.view';

const STATUS_COLOURS: Record<string, string> = { awaiting_payment: 'yellow', submitted: 'blue', approved: 'green', rejected: 'red', expired: 'gray' };

function RequestFailure({ state, onRetry }: { state: string; onRetry: () => void }) {
  const { t } = useTranslation('store');
  if (state !== 'connectionError' && state !== 'serverError') return null;
  return (
    <Alert color="red" role="alert" title={t(state === 'connectionError' ? 'otc.errors.connection' : 'otc.errors.server')}>
      <Button size="xs" onClick={onRetry}>
        {t('otc.retry')}
      </Button>
    </Alert>
  );
}

function BankDetails({ bank, request }: { bank: OtcBank; request: OtcRequest }) {
  const { t } = useTranslation('store');
  const f = useListFormat();
  const rows: Array<[string, string | null]> = [
    [t('otc.bank.reference'), request.reference],
    [t('otc.bank.amount'), f.money(request.amount)],
    [t('otc.bank.bankName'), bank.bank_name],
    [t('otc.bank.accountName'), bank.account_name],
    [t('otc.bank.accountNumber'), bank.account_number],
    [t('otc.bank.iban'), bank.iban],
    [t('otc.bank.swift'), bank.swift],
    [t('otc.bank.branch'), bank.branch],
    [t('otc.bank.desk'), bank.desk],
  ];
  return (
    <Card withBorder data-otc-reference={request.reference}>
      <Stack gap={6}>
        {rows
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <Group key={k} justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" c="dimmed">{k}</Text>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>{v}</Text>
            </Group>
          ))}
        <Text size="xs" c="dimmed">{t('otc.bank.expires', { date: f.date(request.expires_at) })}</Text>
      </Stack>
    </Card>
  );
}

export function OtcRequestPaymentView({ actor }: { actor: ActorRefFrom<typeof otcRequestPaymentMachine> }) {
  const { t } = useTranslation(['store', 'validation']);
  const state = useSelector(actor, (s) => s.value as string);
  const { values, fieldErrors, result } = useSelector(actor, (s) => s.context);
  const fieldError = useFieldError(fieldErrors);
  if (state === 'loading' || state === 'forceLogout') return <PageLoader />;
  const title = <Title order={1} size="h3">{t('otc.request.title')}</Title>;
  if (state === 'success' && result)
    return (
      <Stack gap="md" data-otc-status="created">
        {title}
        <Alert color="teal" role="status">{t('otc.request.instructions', { description: result.request.description })}</Alert>
        <BankDetails bank={result.bank} request={result.request} />
        <Button component={Link} href={`/otc/make-payment?id=${result.request.id}`}>{t('otc.request.paidNow')}</Button>
      </Stack>
    );
  const busy = state === 'checking' || state === 'connecting';
  return (
    <Stack gap="md">
      {title}
      <RequestFailure state={state} onRetry={() => actor.send({ type: 'otc.retry' })} />
      <form noValidate onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'otc.submit' }); }}>
        <Stack gap="sm">
          <Select
            label={t('otc.request.purpose')}
            data={OTC_PURPOSES.map((p) => ({ value: p, label: t(`otc.purpose.${p}`) }))}
            value={values.purpose}
            allowDeselect={false}
            onChange={(v) => v && actor.send({ type: 'otc.change', field: 'purpose', value: v })}
            error={fieldError('purpose')}
          />
          {values.purpose === 'topup' ? (
            <TextInput label={t('otc.request.amount')} inputMode="decimal" value={values.amount} onChange={(e) => actor.send({ type: 'otc.change', field: 'amount', value: e.currentTarget.value })} error={fieldError('amount')} />
          ) : (
            <TextInput label={t(`otc.request.ref.${values.purpose}`)} inputMode="numeric" value={values.ref_id} onChange={(e) => actor.send({ type: 'otc.change', field: 'ref_id', value: e.currentTarget.value })} error={fieldError('ref_id')} />
          )}
          <Select
            label={t('otc.request.method')}
            data={OTC_METHODS.map((m) => ({ value: m, label: t(`otc.method.${m}`) }))}
            value={values.method}
            allowDeselect={false}
            onChange={(v) => v && actor.send({ type: 'otc.change', field: 'method', value: v })}
            error={fieldError('method')}
          />
          <Button type="submit" loading={busy}>{t('otc.request.submit')}</Button>
        </Stack>
      </form>
    </Stack>
  );
}

export function OtcMakePaymentView({ actor }: { actor: ActorRefFrom<typeof otcMakePaymentMachine> }) {
  const { t } = useTranslation(['store', 'validation', 'account']);
  const f = useListFormat();
  const state = useSelector(actor, (s) => s.value as string);
  const { values, fieldErrors, loaded } = useSelector(actor, (s) => s.context);
  const fieldError = useFieldError(fieldErrors);
  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'otc.retry' })} />;
  if (state === 'loading' || state === 'forceLogout' || !loaded) return <PageLoader />;
  const title = <Title order={1} size="h3">{t('otc.payment.title')}</Title>;
  if (state === 'success')
    return (
      <Stack gap="md" data-otc-status="submitted">
        {title}
        <Alert color="teal" role="status">{t('otc.payment.sent')}</Alert>
        <Button component={Link} href="/otc/payment-history">{t('otc.payment.toHistory')}</Button>
      </Stack>
    );
  if (!loaded.awaiting.length)
    return (
      <Stack gap="md">
        {title}
        <Text>{t('otc.payment.none')}</Text>
        <Button component={Link} href="/otc/request-payment">{t('otc.payment.request')}</Button>
      </Stack>
    );
  const busy = state === 'checking' || state === 'connecting';
  return (
    <Stack gap="md">
      {title}
      <RequestFailure state={state} onRetry={() => actor.send({ type: 'otc.retry' })} />
      {fieldError('_body') && <Alert color="red" role="alert">{fieldError('_body')}</Alert>}
      <form noValidate onSubmit={(e) => { e.preventDefault(); actor.send({ type: 'otc.submit' }); }}>
        <Stack gap="sm">
          <Select
            label={t('otc.payment.request')}
            data={loaded.awaiting.map((r) => ({ value: String(r.id), label: `${r.reference} · ${r.description} · ${f.money(r.amount)}` }))}
            value={values.request_id || null}
            onChange={(v) => actor.send({ type: 'otc.change', field: 'request_id', value: v ?? '' })}
            error={fieldError('request_id')}
          />
          <TextInput label={t('otc.payment.transactionRef')} value={values.transaction_ref} onChange={(e) => actor.send({ type: 'otc.change', field: 'transaction_ref', value: e.currentTarget.value })} error={fieldError('transaction_ref')} />
          <FileInput
            label={t('otc.payment.receipt')}
            description={t('otc.payment.receiptHint')}
            accept="image/jpeg,image/png,application/pdf"
            value={values.receipt[0] ?? null}
            onChange={(file) => actor.send({ type: 'otc.change', field: 'receipt', value: file ? [file] : [] })}
            error={fieldError('receipt')}
            clearable
          />
          <Button type="submit" loading={busy}>{t('otc.payment.submit')}</Button>
        </Stack>
      </form>
    </Stack>
  );
}

export function OtcHistoryView(list: ListViewProps<ActorRefFrom<typeof otcHistoryListMachine>>) {
  const { t } = useTranslation(['store', 'wallet']);
  const f = useListFormat();
  return (
    <ListPage
      title={t('otc.history.title')}
      {...list}
      columns={listRowColumns(t('wallet:columns.request'), t('wallet:columns.details'), t('wallet:columns.amount'))}
      renderItems={(items: OtcRequest[]) =>
        items.map((r) => (
          <ListRow
            key={r.id}
            title={`${r.reference} · ${r.description}`}
            details={detailsOf(f.date(r.created_at), t(`otc.method.${r.method}`), r.transaction_ref, r.status === 'rejected' && r.reason ? t('otc.history.reason', { reason: r.reason }) : null)}
            figure={f.money(r.amount)}
            extra={
              <Badge size="xs" variant="light" color={STATUS_COLOURS[r.status]} data-otc-status={r.status}>
                {t(`otc.status.${r.status}`)}
              </Badge>
            }
          />
        ))
      }
    />
  );
}

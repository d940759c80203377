/** /member/wallet/request-payout: the payout settings, the payout method and where the money goes, the KYC it may need, and the form (amount, account password). */
import { Alert, Anchor, Button, Card, Group, Modal, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { PAYOUT_METHOD_MISSING, payoutBlockers, payoutFeeCents, type payoutCancelMachine, type payoutPageMachine, type payoutRequestMachine } from '../../machines/payout-request.machine';
import { useListFormat } from '../components/paged-list/list-format';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

/** The confirmation of a cancel, and what went wrong with it (retry, or dismiss when refused). */
function CancelDialog({ page, cancel }: { page: ActorRefFrom<typeof payoutPageMachine>; cancel: ActorRefFrom<typeof payoutCancelMachine> }) {
  const { t } = useTranslation('payout');
  const state = useSelector(cancel, (s) => s.value as string);
  const send = (type: 'delete.confirm' | 'delete.cancel' | 'delete.retry' | 'delete.dismiss') => page.send({ type });
  const failed =
    state === 'connectionError' || state === 'serverError'
      ? { title: t(state === 'connectionError' ? 'connectionError' : 'serverError'), retry: true }
      : state === 'refused'
        ? { title: t('cancel.refused'), retry: false }
        : null;
  return (
    <>
      <Modal opened={state === 'confirming' || state === 'deleting'} onClose={() => send('delete.cancel')} title={t('cancel.confirmTitle')} centered>
        <Stack gap="md">
          <Text size="sm">{t('cancel.confirmText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => send('delete.cancel')} disabled={state === 'deleting'}>
              {t('cancel.keep')}
            </Button>
            <Button color="red" onClick={() => send('delete.confirm')} loading={state === 'deleting'} data-payout-cancel-confirm>
              {t('cancel.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {failed && (
        <Alert color="red" role="alert" title={failed.title} data-payout-cancel-error>
          <Group gap="xs">
            {failed.retry && (
              <Button size="xs" onClick={() => send('delete.retry')}>
                {t('retry')}
              </Button>
            )}
            <Button size="xs" variant="default" onClick={() => send(failed.retry ? 'delete.cancel' : 'delete.dismiss')}>
              {t('cancel.close')}
            </Button>
          </Group>
        </Alert>
      )}
    </>
  );
}

/** /member/wallet/request-payout: the form, and withdrawing the pending request. */
export function PayoutRequestView({ actor }: { actor: ActorRefFrom<typeof payoutPageMachine> }) {
  const form = useSelector(actor, (s) => s.children.form);
  const cancel = useSelector(actor, (s) => s.children.cancel);
  if (!form || !cancel) return <PageLoader />;
  return (
    <>
      <CancelDialog page={actor} cancel={cancel} />
      <PayoutForm actor={form} onCancelRequest={(id) => actor.send({ type: 'delete.request', id })} />
    </>
  );
}

function PayoutForm({ actor, onCancelRequest }: { actor: ActorRefFrom<typeof payoutRequestMachine>; onCancelRequest: (id: number) => void }) {
  const { t } = useTranslation(['payout', 'validation', 'account']);
  const f = useListFormat();
  const status = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded: settings, values, password, fieldErrors, error, result } = useSelector(actor, (s) => s.context);

  if (status === 'loadConnectionError' || status === 'loadError')
    return <ErrorView kind={status === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'payout.retry' })} />;
  if (!settings || status === 'loading' || status === 'forceLogout') return <PageLoader />;

  if (status === 'success' && result)
    return (
      <Stack gap="md" data-payout-status="success">
        <Title order={1} size="h3">
          {t('successTitle')}
        </Title>
        <Alert color="teal" role="status">
          {t('successDescription', { amount: f.money(result.payout.total), fee: f.money(result.payout.fee), balance: f.money(result.wallet_balance) })}
        </Alert>
        {result.payout_method && (
          <Text data-payout-method={result.payout_method.method}>
            {t('account:payoutMethod.sentBy', { method: t(`account:payoutMethod.methods.${result.payout_method.method}`), destination: result.payout_method.destination })}
          </Text>
        )}
        <Group gap="sm">
          <Button component={Link} href="/wallet/recent-payouts">
            {t('seePayouts')}
          </Button>
          <Button variant="default" component={Link} href="/wallet/statement">
            {t('backToWallet')}
          </Button>
          {result.payout.status === 'pending' && (
            <Button variant="subtle" color="red" onClick={() => onCancelRequest(result.payout.id)} data-payout-cancel>
              {t('cancel.action')}
            </Button>
          )}
          {/* Another request only where one pending request does not already block it. */}
          {!settings.single_pending && (
            <Button variant="default" onClick={() => actor.send({ type: 'payout.reset' })}>
              {t('another')}
            </Button>
          )}
        </Group>
      </Stack>
    );

  const blockers = payoutBlockers(settings);
  const blocker = blockers[0] ?? null;
  // The pending request has its own notice (with its cancel): not said twice.
  const shown = blockers.filter((b) => b !== 'validation:payoutPendingExists');
  const amountCents = /^\d{1,12}(\.\d{1,2})?$/.test(values.amount.trim()) ? BigInt(Math.round(Number(values.amount.trim()) * 100)) : null;
  const fee = amountCents !== null ? Number(payoutFeeCents(amountCents, settings)) / 100 : null;
  const retryable = ['connectionError', 'serverError', 'connectionErrorOnRefresh', 'serverErrorOnRefresh'].includes(status);
  const fieldMsg = (k: string | undefined) => (k ? t(k.includes(':') ? k : `validation:${k}`) : undefined);
  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        {t('title')}
      </Title>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
          <Figure label={t('available')} value={f.money(settings.available_balance)} />
          <Figure label={t('minimum')} value={f.money(settings.minimum_amount)} />
          <Figure label={t('maximum')} value={f.money(settings.maximum_amount)} />
          <Figure label={t('feeRule')} value={t('feeValue', { fixed: f.money(settings.fee_fixed), percent: Number(settings.fee_percent) })} />
          <Figure label={t('maxRequestable')} value={f.money(settings.max_requestable)} />
          <Figure label={t('kyc')} value={settings.kyc_required ? t(`kycStatus.${settings.kyc_status}`) : t('kycNotRequired')} />
        </SimpleGrid>
      </Card>
      {settings.pending_request && (
        <Alert color="yellow" title={t('pendingTitle')} data-payout-pending>
          <Stack gap="xs" align="flex-start">
            <span>
              {t('pendingDescription', { amount: f.money(settings.pending_request.total), date: f.date(settings.pending_request.created_at) })}
              {settings.single_pending ? ` ${t('pendingBlocks')}` : ''}
            </span>
            <Button size="xs" variant="default" color="red" onClick={() => onCancelRequest(settings.pending_request!.id)} data-payout-cancel>
              {t('cancel.action')}
            </Button>
          </Stack>
        </Alert>
      )}
      {settings.payout_method && (
        <Card withBorder data-payout-method={settings.payout_method.method}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed">
                {t('account:payoutMethod.paidTo')}
              </Text>
              <Text fw={600}>{t(`account:payoutMethod.methods.${settings.payout_method.method}`)}</Text>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {settings.payout_method.destination}
              </Text>
            </div>
            <Anchor component={Link} href="~/member/account/payout" size="sm">
              {t('account:payoutMethod.change')}
            </Anchor>
          </Group>
        </Card>
      )}
      {shown.length > 0 && (
        <Alert color="red" role="alert" data-payout-blocker>
          <Stack gap="xs" align="flex-start">
            {shown.map((b) => (
              <Stack key={b} gap={2} align="flex-start">
                <span>{t(b)}</span>
                {b === PAYOUT_METHOD_MISSING && (
                  <Anchor component={Link} href="~/member/account/payout">
                    {t('account:payoutMethod.choose')}
                  </Anchor>
                )}
                {b === 'validation:payoutKycRequired' && (
                  <Anchor component={Link} href="/kyc" data-payout-kyc-link>
                    {t('account:kyc.goVerify')}
                  </Anchor>
                )}
              </Stack>
            ))}
          </Stack>
        </Alert>
      )}
      {retryable && (
        <Alert color="red" role="alert" title={t(status.startsWith('connectionError') ? 'connectionError' : 'serverError')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('retryHint')}</Text>
            <Button size="xs" onClick={() => actor.send({ type: 'payout.retry' })}>
              {t('retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {status.startsWith('validationError') && error && !Object.keys(error.fields).length && (
        <Alert color="red" role="alert">
          {t('refused')}
        </Alert>
      )}
      {!blocker && (
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'payout.submit' });
        }}
      >
        <Stack gap="sm" maw={420}>
          <TextInput
            label={t('amount')}
            inputMode="decimal"
            autoComplete="off"
            value={values.amount}
            error={fieldMsg(fieldErrors.amount)}
            description={fee !== null && !fieldErrors.amount ? t('feePreview', { fee: f.money(fee), total: f.money((Number(values.amount) || 0) + fee) }) : undefined}
            onChange={(e) => actor.send({ type: 'payout.change', field: 'amount', value: e.currentTarget.value })}
          />
          {settings.password_required && (
            <PasswordInput
              // The wallet password once the member has set one (the server checks the same one).
              label={settings.password_kind === 'wallet' ? t('walletPassword.label') : t('password')}
              description={settings.password_kind === 'wallet' ? t('walletPassword.help') : undefined}
              autoComplete={settings.password_kind === 'wallet' ? 'off' : 'current-password'}
              value={password ?? '' /* not in a restored snapshot: secrets are not saved */}
              error={fieldMsg(fieldErrors.password)}
              onChange={(e) => actor.send({ type: 'payout.change', field: 'password', value: e.currentTarget.value })}
            />
          )}
          <Button type="submit" loading={busy}>
            {t('submit')}
          </Button>
        </Stack>
      </form>
      )}
    </Stack>
  );
}

/**
 * /member/account/payout: the payout method among those the company offers — a bank transfer (to the
 * saved bank details; without them the page says so and links to /member/account/bank), an e-wallet
 * (its e-mail address) or USDT (a TRC-20 address) — confirmed with the account password. The current
 * choice shows with its masked destination.
 */
import { Alert, Anchor, Button, Card, Group, PasswordInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { payoutMethodMachine } from '../../machines/account/payout-method.machine';
import { useFieldError } from '../components/field-error';
import { FormCard } from '../components/form-card';
import { formLoadScreen, FormRequestStatus } from '../components/form-request-status';

type Actor = ActorRefFrom<typeof payoutMethodMachine>;

export function PayoutMethodView({ actor }: { actor: Actor }) {
  const { t } = useTranslation('account');
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded, result, values, password, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);

  const loading = formLoadScreen(state, loaded, () => actor.send({ type: 'payoutMethod.retry' }));
  if (loading || !loaded) return loading;

  const answer = result ?? loaded;
  const chosen = answer.chosen;
  const set = (field: 'method' | 'email' | 'address' | 'password', value: string) => actor.send({ type: 'payoutMethod.change', field, value });
  const bankLink = (
    <Anchor component={Link} href="~/member/account/bank">
      {t('payoutMethod.addBank')}
    </Anchor>
  );

  return (
    <Stack gap="md" maw={560}>
      <Title order={1} size="h2">
        {t('payoutMethod.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('payoutMethod.description')}
      </Text>
      {state === 'success' && (
        <Alert color="teal" role="status" data-payout-method-status="success">
          {t('payoutMethod.saved')}
        </Alert>
      )}
      {chosen ? (
        <Card withBorder radius="md" data-payout-method-chosen={chosen.method}>
          <Text size="xs" c="dimmed">
            {t('payoutMethod.current')}
          </Text>
          <Text fw={700}>{t(`payoutMethod.methods.${chosen.method}`)}</Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {chosen.destination}
          </Text>
        </Card>
      ) : (
        <Alert color="yellow" data-payout-method-none>
          {t('payoutMethod.none')}
        </Alert>
      )}
      <FormRequestStatus
        ns="account"
        prefix="payoutMethod"
        state={state}
        failure={failure}
        fieldErrors={fieldErrors}
        onRetry={() => actor.send({ type: 'payoutMethod.retry' })}
        onDismiss={() => actor.send({ type: 'payoutMethod.dismiss' })}
      />
      <FormCard onSubmit={() => actor.send({ type: 'payoutMethod.submit' })}>
        <Radio.Group label={t('payoutMethod.choose')} value={values.method} onChange={(v) => set('method', v)} error={error('method')}>
          <Stack gap="xs" mt="xs">
            {answer.offered.map((m) => (
              <Radio key={m} value={m} label={t(`payoutMethod.methods.${m}`)} description={t(`payoutMethod.hints.${m}`)} disabled={busy} />
            ))}
          </Stack>
        </Radio.Group>
        {values.method === 'bank_transfer' && !answer.has_bank_details && (
          <Alert color="yellow" data-bank-missing>
            <Stack gap={4} align="flex-start">
              <span>{t('payoutMethod.errors.bankMissing')}</span>
              {bankLink}
            </Stack>
          </Alert>
        )}
        {values.method === 'bank_transfer' && answer.has_bank_details && (
          <Text size="sm">
            {t('payoutMethod.bankUsed')} <Anchor component={Link} href="~/member/account/bank">{t('payoutMethod.editBank')}</Anchor>
          </Text>
        )}
        {values.method === 'e_wallet' && (
          <TextInput
            label={t('payoutMethod.fields.email')}
            type="email"
            autoComplete="email"
            value={values.email}
            error={error('email')}
            disabled={busy}
            onChange={(e) => set('email', e.currentTarget.value)}
          />
        )}
        {values.method === 'usdt_trc20' && (
          <TextInput
            label={t('payoutMethod.fields.address')}
            description={t('payoutMethod.addressHint')}
            spellCheck={false}
            autoComplete="off"
            value={values.address}
            error={error('address')}
            disabled={busy}
            onChange={(e) => set('address', e.currentTarget.value)}
          />
        )}
        <PasswordInput
          label={t('payoutMethod.password')}
          autoComplete="current-password"
          value={password}
          error={error('password')}
          disabled={busy}
          onChange={(e) => set('password', e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('payoutMethod.submit')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

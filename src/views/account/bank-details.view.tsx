/**
 * /member/account/bank: the saved bank details (the number masked to its last four characters), and the
 * form to add or change them — account holder, country, the IBAN or (where the country has none) the
 * account number and routing / sort code, SWIFT/BIC, bank name — confirmed with the account password.
 * Checksum and format problems show under their fields; what was typed stays.
 */
import { Alert, Button, Card, Group, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { bankDetailsMachine } from '../../machines/account/bank-details.machine';
import type { BankDetailsValues, MaskedBankDetails } from '../../schemas/bank-details.schema';
import { useFieldError } from '../components/field-error';
import { FormCard } from '../components/form-card';
import { formLoadScreen, FormRequestStatus } from '../components/form-request-status';

type Actor = ActorRefFrom<typeof bankDetailsMachine>;

function Saved({ details }: { details: MaskedBankDetails }) {
  const { t } = useTranslation('account');
  const row = (label: string, value: string | null) =>
    value ? (
      <div style={{ minWidth: 0 }}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {value}
        </Text>
      </div>
    ) : null;
  return (
    <Card withBorder radius="md" data-bank-saved>
      <Text fw={700} mb="xs">
        {t('bank.savedTitle')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {row(t('bank.fields.account_holder'), details.account_holder)}
        {row(t(details.kind === 'iban' ? 'bank.fields.iban' : 'bank.fields.account_number'), details.account_masked)}
        {row(t('bank.fields.routing_code'), details.routing_code)}
        {row(t('bank.fields.bic'), details.bic)}
        {row(t('bank.fields.bank_name'), details.bank_name)}
        {row(t('bank.fields.country'), details.country)}
      </SimpleGrid>
    </Card>
  );
}

export function BankDetailsView({ actor }: { actor: Actor }) {
  const { t } = useTranslation('account');
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded, result, values, password, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);

  const loading = formLoadScreen(state, loaded, () => actor.send({ type: 'bank.retry' }));
  if (loading || !loaded) return loading;

  const answer = result ?? loaded;
  const saved = answer.bank_details;
  const country = answer.countries.find((c) => c.iso_code_2 === values.country.toUpperCase());
  const iban = country ? country.iban : true;
  const change = (field: keyof BankDetailsValues | 'password') => (e: ChangeEvent<HTMLInputElement>) =>
    actor.send({ type: 'bank.change', field, value: e.currentTarget.value });
  const input = (field: keyof BankDetailsValues, autoComplete = 'off') => ({
    label: t(`bank.fields.${field}`),
    autoComplete,
    value: values[field] ?? '',
    error: error(field),
    disabled: busy,
    onChange: change(field),
  });

  return (
    <Stack gap="md" maw={560}>
      <Title order={1} size="h2">
        {t('bank.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('bank.description')}
      </Text>
      {state === 'success' && (
        <Alert color="teal" role="status" data-bank-status="success">
          {t('bank.saved')}
        </Alert>
      )}
      {saved ? <Saved details={saved} /> : <Alert color="blue">{t('bank.none')}</Alert>}
      <FormRequestStatus
        ns="account"
        prefix="bank"
        state={state}
        failure={failure}
        fieldErrors={fieldErrors}
        onRetry={() => actor.send({ type: 'bank.retry' })}
        onDismiss={() => actor.send({ type: 'bank.dismiss' })}
      />
      <FormCard onSubmit={() => actor.send({ type: 'bank.submit' })}>
        <Text fw={700}>{t(saved ? 'bank.changeTitle' : 'bank.addTitle')}</Text>
        <TextInput {...input('account_holder', 'name')} />
        <Select
          label={t('bank.fields.country')}
          searchable
          data={answer.countries.map((c) => ({ value: c.iso_code_2, label: c.name }))}
          value={values.country ? values.country.toUpperCase() : null}
          onChange={(v) => actor.send({ type: 'bank.change', field: 'country', value: v ?? '' })}
          error={error('country')}
          disabled={busy}
          comboboxProps={{ withinPortal: true }}
        />
        {iban ? (
          <TextInput {...input('iban')} description={t('bank.ibanHint')} spellCheck={false} />
        ) : (
          <>
            <TextInput {...input('account_number')} inputMode="text" spellCheck={false} />
            <TextInput {...input('routing_code')} description={t('bank.routingHint')} spellCheck={false} />
          </>
        )}
        <TextInput {...input('bic')} spellCheck={false} />
        <TextInput {...input('bank_name', 'organization')} />
        <PasswordInput
          label={t('bank.password')}
          description={t('bank.passwordHint')}
          autoComplete="current-password"
          value={password}
          error={error('password')}
          disabled={busy}
          onChange={change('password')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('bank.submit')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

/**
 * /member/account/delete: what deleting the account does (signed out everywhere; the name, contact data,
 * photo, addresses and bank details go; commissions and the team keep their history under an anonymous
 * name), the personal data download, then the confirmation — the username typed again — and the account
 * password. A wrong password is its field error; what was typed stays. After success the app signs out
 * to /login with a toast (bound by the route table).
 */
import '@mantine/core/styles/List.css';
import { Alert, Anchor, Button, Group, List, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { accountDeletionMachine } from '../../machines/account/account-deletion.machine';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';
import { DataExportButton, type DataExportActor } from './data-export.view';

export function DeleteAccountView({ actor, exporter }: { actor: ActorRefFrom<typeof accountDeletionMachine>; exporter: DataExportActor }) {
  const { t } = useTranslation('account');
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded, values, password, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);

  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'accountDeletion.retry' })} />;
  if (!loaded || state === 'loading' || state === 'forceLogout' || state === 'success') return <PageLoader />;

  const change = (field: 'confirmation' | 'password') => (e: ChangeEvent<HTMLInputElement>) =>
    actor.send({ type: 'accountDeletion.change', field, value: e.currentTarget.value });
  const storeTokenRefused = !!fieldErrors.store_token;
  const refused = state === 'validationError' && !fieldErrors.password && !fieldErrors.confirmation;

  return (
    <Stack gap="md" maw={560}>
      <Title order={1} size="h2">
        {t('deleteAccount.title')}
      </Title>
      <Text>{t('deleteAccount.description')}</Text>
      <List size="sm" spacing={4}>
        <List.Item>{t('deleteAccount.whatGoes')}</List.Item>
        <List.Item>{t('deleteAccount.whatStays')}</List.Item>
      </List>
      <Alert color="red" variant="light">
        {t('deleteAccount.irreversible')}
      </Alert>
      <DataExportButton actor={exporter} />
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`deleteAccount.errors.${state}`)}
          retryLabel={t('deleteAccount.retry')}
          dismissLabel={t('deleteAccount.dismiss')}
          onRetry={() => actor.send({ type: 'accountDeletion.retry' })}
          onDismiss={() => actor.send({ type: 'accountDeletion.dismiss' })}
        />
      )}
      {refused && (
        <Alert color="yellow" role="alert" data-delete-refused={storeTokenRefused ? 'storeToken' : (failure ?? 'refused')}>
          {t(storeTokenRefused ? 'deleteAccount.errors.storeToken' : failure === 'rateLimited' ? 'deleteAccount.errors.rateLimited' : 'deleteAccount.errors.refused')}
        </Alert>
      )}
      <FormCard onSubmit={() => actor.send({ type: 'accountDeletion.submit' })}>
        <TextInput
          label={t('deleteAccount.confirmation', { username: loaded.username })}
          value={values.confirmation ?? ''}
          onChange={change('confirmation')}
          error={error('confirmation')}
          disabled={busy}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <PasswordInput
          label={t('deleteAccount.password')}
          value={password}
          onChange={change('password')}
          error={error('password')}
          disabled={busy}
          autoComplete="current-password"
        />
        <Group justify="space-between" wrap="wrap-reverse" gap="sm">
          <Anchor component={Link} href="/account">
            {t('deleteAccount.cancel')}
          </Anchor>
          <Button type="submit" color="red" loading={busy} disabled={busy}>
            {t('deleteAccount.submit')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

/**
 * /member/account/password: change the account password — the current one, the new one under the
 * company's policy (a live checklist) and its confirmation. Field errors show under their fields
 * (the schema's or the server's, a wrong current password included); what was typed stays.
 */
import { Alert, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { passwordChangeMachine } from '../../machines/account/password-change.machine';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';
import { PasswordChecklist } from '../public/auth/password-checklist';

type Field = 'current_password' | 'password' | 'password_confirmation';

export function PasswordView({ actor }: { actor: ActorRefFrom<typeof passwordChangeMachine> }) {
  const { t } = useTranslation('account');
  // The on-refresh variants (a change after an earlier one succeeded) read the same.
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded, values, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const rulesId = useId();

  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'passwordChange.retry' })} />;
  if (!loaded || state === 'loading' || state === 'forceLogout') return <PageLoader />;

  const input = (field: Field, autoComplete: string) => ({
    label: t(`password.${field}`),
    autoComplete,
    // Not in a restored snapshot: passwords are never saved.
    value: values[field] ?? '',
    error: error(field),
    disabled: busy,
    onChange: (e: ChangeEvent<HTMLInputElement>) => actor.send({ type: 'passwordChange.change', field, value: e.currentTarget.value }),
  });
  const refused = state === 'validationError' && !Object.keys(fieldErrors).length;

  return (
    <Stack gap="md" maw={480}>
      <Title order={1} size="h2">
        {t('password.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('password.description')}
      </Text>
      {state === 'success' && (
        <Alert color="teal" role="status" data-password-status="success">
          {t('password.changed')}
        </Alert>
      )}
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`password.errors.${state}`)}
          retryLabel={t('password.retry')}
          dismissLabel={t('password.dismiss')}
          onRetry={() => actor.send({ type: 'passwordChange.retry' })}
          onDismiss={() => actor.send({ type: 'passwordChange.dismiss' })}
        />
      )}
      {refused && (
        <Alert color="yellow" role="alert">
          {t(failure === 'rateLimited' ? 'password.errors.rateLimited' : 'password.errors.refused')}
        </Alert>
      )}
      <FormCard onSubmit={() => actor.send({ type: 'passwordChange.submit' })}>
        <PasswordInput {...input('current_password', 'current-password')} autoFocus />
        <Stack gap={6}>
          <PasswordInput {...input('password', 'new-password')} aria-describedby={rulesId} />
          <PasswordChecklist id={rulesId} policy={loaded.password_policy} password={values.password ?? ''} />
        </Stack>
        <PasswordInput {...input('password_confirmation', 'new-password')} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('password.submit')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

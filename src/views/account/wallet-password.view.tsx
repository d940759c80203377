/**
 * /member/account/wallet-password: the wallet (transaction) password payouts ask for once it is set.
 * Not set: the new one typed twice and the account password. Set: the current wallet password and the
 * new one, with a way to reset a forgotten one: the new one typed twice, then the code sent to the
 * member's e-mail. Field errors show under their fields; what was typed stays.
 */
import { Alert, Anchor, Badge, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { walletPasswordMachine, walletPasswordPageMachine, walletPasswordResetMachine } from '../../machines/account/wallet-password.machine';
import type { PasswordPolicy } from '../../schemas/auth.schema';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';
import { OtpField } from '../public/auth/otp-field';
import { PasswordChecklist } from '../public/auth/password-checklist';
import { SubmitAlert, submitProblem } from '../public/auth/submit-alert';
import { UnplacedErrors } from '../public/auth/unplaced-errors';

type WalletActor = ActorRefFrom<typeof walletPasswordMachine>;
type ResetActor = ActorRefFrom<typeof walletPasswordResetMachine>;
type Field = 'current_wallet_password' | 'wallet_password' | 'wallet_password_confirmation' | 'password';


/** The request statuses every form page shows the same way (the on-refresh variants read the same). */
function RequestStatus({ state, failure, refusedKey, onRetry, onDismiss }: { state: string; failure: string | null; refusedKey: string; onRetry: () => void; onDismiss: () => void }) {
  const { t } = useTranslation('account');
  if (state === 'connectionError' || state === 'serverError')
    return <RequestError title={t(`walletPassword.errors.${state}`)} retryLabel={t('walletPassword.retry')} dismissLabel={t('walletPassword.dismiss')} onRetry={onRetry} onDismiss={onDismiss} />;
  if (state === 'refused')
    return (
      <Alert color="yellow" role="alert">
        {t(failure === 'rateLimited' ? 'walletPassword.errors.rateLimited' : refusedKey)}
      </Alert>
    );
  return null;
}

/** The new wallet password (with the policy's checklist) and its confirmation. */
function NewPasswordFields({ input, policy, value }: { input: (field: Field, autoComplete: string) => object; policy: PasswordPolicy; value: string }) {
  const rulesId = useId();
  return (
    <>
      <Stack gap={6}>
        <PasswordInput {...input('wallet_password', 'new-password')} aria-describedby={rulesId} />
        <PasswordChecklist id={rulesId} policy={policy} password={value} />
      </Stack>
      <PasswordInput {...input('wallet_password_confirmation', 'new-password')} />
    </>
  );
}

export function WalletPasswordView({ actor, onForgot }: { actor: WalletActor; onForgot: () => void }) {
  const { t } = useTranslation('account');
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded, values, password, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);

  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'walletPassword.retry' })} />;
  if (!loaded || state === 'loading' || state === 'forceLogout') return <PageLoader />;

  const input = (field: Field, autoComplete: string) => ({
    label: t(`walletPassword.${field}`),
    autoComplete,
    // Not in a restored snapshot: passwords are never saved.
    value: (field === 'password' ? password : values[field]) ?? '',
    error: error(field),
    disabled: busy,
    onChange: (e: ChangeEvent<HTMLInputElement>) => actor.send({ type: 'walletPassword.change', field, value: e.currentTarget.value }),
  });
  const refused = state === 'validationError' && !Object.keys(fieldErrors).length;

  return (
    <Stack gap="md" maw={480}>
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Title order={1} size="h2">
          {t('walletPassword.title')}
        </Title>
        <Badge color={loaded.is_set ? 'teal' : 'gray'} variant="light" data-wallet-password={loaded.is_set ? 'set' : 'unset'}>
          {t(loaded.is_set ? 'walletPassword.isSet' : 'walletPassword.notSet')}
        </Badge>
      </Group>
      <Text c="dimmed" size="sm">
        {t(loaded.is_set ? 'walletPassword.changeDescription' : 'walletPassword.setDescription')}
      </Text>
      <RequestStatus
        state={refused ? 'refused' : state}
        failure={failure}
        refusedKey="walletPassword.errors.refused"
        onRetry={() => actor.send({ type: 'walletPassword.retry' })}
        onDismiss={() => actor.send({ type: 'walletPassword.dismiss' })}
      />
      <FormCard onSubmit={() => actor.send({ type: 'walletPassword.submit' })}>
        {loaded.is_set && <PasswordInput {...input('current_wallet_password', 'current-password')} autoFocus />}
        <NewPasswordFields input={input} policy={loaded.password_policy} value={values.wallet_password ?? ''} />
        {!loaded.is_set && <PasswordInput {...input('password', 'current-password')} description={t('walletPassword.passwordHelp')} />}
        <UnplacedErrors errors={fieldErrors} shown={['current_wallet_password', 'wallet_password', 'wallet_password_confirmation', 'password']} />
        <Group justify={loaded.is_set ? 'space-between' : 'flex-end'} wrap="wrap-reverse">
          {loaded.is_set && loaded.reset_destination && (
            <Anchor component="button" type="button" size="sm" onClick={onForgot}>
              {t('walletPassword.forgot')}
            </Anchor>
          )}
          <Button type="submit" loading={busy} disabled={busy}>
            {t(loaded.is_set ? 'walletPassword.submitChange' : 'walletPassword.submitSet')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

export function WalletPasswordResetView({ actor, onBack }: { actor: ResetActor; onBack: () => void }) {
  const { t } = useTranslation('account');
  const snap = useSelector(actor, (s) => s);
  const { loaded, values, fieldErrors, failure, resendIn, retryAfter } = snap.context;
  const error = useFieldError(fieldErrors);
  const state = typeof snap.value === 'string' ? snap.value.replace(/OnRefresh$/, '') : 'code';
  const busy = snap.hasTag('busy');
  const send = actor.send;

  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => send({ type: 'walletPasswordReset.retry' })} />;
  if (!loaded || state === 'loading' || state === 'forceLogout') return <PageLoader />;

  const header = (
    <>
      <Title order={1} size="h2">
        {t('walletPassword.resetTitle')}
      </Title>
      <Anchor component="button" type="button" size="sm" onClick={onBack} style={{ alignSelf: 'flex-start' }}>
        {t('walletPassword.backToPage')}
      </Anchor>
    </>
  );
  if (!loaded.is_set || !loaded.reset_destination)
    return (
      <Stack gap="md" maw={480}>
        {header}
        <Alert color="yellow" role="status">
          {t(!loaded.is_set ? 'walletPassword.errors.notSet' : 'walletPassword.errors.noEmail')}
        </Alert>
      </Stack>
    );
  if (state === 'success')
    return (
      <Stack gap="md" maw={480}>
        {header}
        <Alert color="teal" role="status" data-wallet-password-status="reset">
          {t('walletPassword.resetDone')}
        </Alert>
      </Stack>
    );

  const atCode = snap.matches('code') || snap.matches('verifying') || snap.matches('resending');
  if (atCode) {
    const step = snap.matches('code') ? (snap.value as { code: string }).code : null;
    return (
      <Stack gap="md" maw={480}>
        {header}
        <Text c="dimmed" size="sm">
          {t('walletPassword.codeDescription', { value: loaded.reset_destination })}
        </Text>
        <FormCard onSubmit={() => send({ type: 'walletPasswordReset.verify' })}>
          <OtpField
            value={values.otp ?? ''}
            onChange={(value) => send({ type: 'walletPasswordReset.change', field: 'otp', value })}
            error={error('otp')}
            destination={loaded.reset_destination}
            resendIn={resendIn}
            canResend={snap.can({ type: 'otp.resend' })}
            resending={snap.matches('resending')}
            onResend={() => send({ type: 'otp.resend' })}
          />
          <UnplacedErrors errors={fieldErrors} shown={['otp']} />
          <SubmitAlert problem={submitProblem(step)} retryAfter={retryAfter} />
          <Group justify="space-between" wrap="wrap-reverse">
            <Anchor component="button" type="button" size="sm" onClick={() => send({ type: 'walletPasswordReset.cancel' })} disabled={busy}>
              {t('walletPassword.editNew')}
            </Anchor>
            <Button type="submit" loading={snap.matches('verifying')} disabled={snap.matches('resending')}>
              {t('walletPassword.submitReset')}
            </Button>
          </Group>
        </FormCard>
      </Stack>
    );
  }

  const input = (field: Field, autoComplete: string) => ({
    label: t(`walletPassword.${field}`),
    autoComplete,
    value: (field === 'wallet_password' || field === 'wallet_password_confirmation' ? values[field] : '') ?? '',
    error: error(field),
    disabled: busy,
    onChange: (e: ChangeEvent<HTMLInputElement>) =>
      send({ type: 'walletPasswordReset.change', field: field as 'wallet_password' | 'wallet_password_confirmation', value: e.currentTarget.value }),
  });
  const refused = state === 'validationError' && !Object.keys(fieldErrors).length;
  return (
    <Stack gap="md" maw={480}>
      {header}
      <Text c="dimmed" size="sm">
        {t('walletPassword.resetDescription', { value: loaded.reset_destination })}
      </Text>
      <RequestStatus
        state={refused ? 'refused' : state}
        failure={failure}
        refusedKey="walletPassword.errors.resetRefused"
        onRetry={() => send({ type: 'walletPasswordReset.retry' })}
        onDismiss={() => send({ type: 'walletPasswordReset.dismiss' })}
      />
      <FormCard onSubmit={() => send({ type: 'walletPasswordReset.submit' })}>
        <NewPasswordFields input={input} policy={loaded.password_policy} value={values.wallet_password ?? ''} />
        <UnplacedErrors errors={fieldErrors} shown={['wallet_password', 'wallet_password_confirmation']} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('walletPassword.sendCode')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

/** The page: the form, or the reset of a forgotten wallet password. */
export function WalletPasswordPageView({ actor }: { actor: ActorRefFrom<typeof walletPasswordPageMachine> }) {
  const form = useSelector(actor, (s) => s.children.form);
  const reset = useSelector(actor, (s) => s.children.reset);
  if (reset) return <WalletPasswordResetView actor={reset} onBack={() => actor.send({ type: 'walletPassword.back' })} />;
  if (form) return <WalletPasswordView actor={form} onForgot={() => actor.send({ type: 'walletPassword.forgot' })} />;
  return <PageLoader />;
}

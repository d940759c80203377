/**
 * Password reset across /password/forgot, /password/forgot/otp, /password/reset and
 * /password/reset/success: every route renders the step the machine is in.
 */
import { Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { allowedResetUsing, type passwordResetMachine } from '../../../machines/password-reset.machine';
import { useFieldError } from '../../components/field-error';
import { AuthCard } from './auth-card';
import { CodeEntry } from './code-entry';
import { loadState, LoadStatus, stepOf } from './flow-status';
import { NavLink } from './nav-link';
import { PasswordChecklist } from './password-checklist';
import { SendCodeForm } from './send-code-form';
import { SubmitAlert, submitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

const SHOWN = ['email', 'mobile', 'mobile_code', 'reset_using', 'otp', 'password', 'password_confirmation'];

export type PasswordResetActor = ActorRefFrom<typeof passwordResetMachine>;
type ResetSnapshot = ReturnType<PasswordResetActor['getSnapshot']>;


const submit = (actor: PasswordResetActor, type: 'reset.submit') => (e: FormEvent) => {
  e.preventDefault();
  actor.send({ type });
};

function BackLink({ actor, disabled }: { actor: PasswordResetActor; disabled?: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <Group justify="center">
      <Anchor component="button" type="button" size="sm" onClick={() => actor.send({ type: 'reset.back' })} disabled={disabled}>
        {t('back')}
      </Anchor>
    </Group>
  );
}

function RequestStep({ actor, snap }: { actor: PasswordResetActor; snap: ResetSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const options = allowedResetUsing(c.fields);
  return (
    <SendCodeForm
      title={t('forgotTitle')}
      description={t(options.length > 1 ? 'forgotDescriptionBoth' : c.resetUsing === 'email' ? 'forgotDescriptionEmail' : 'forgotDescriptionMobile')}
      using={c.resetUsing}
      options={options}
      flow={c}
      shown={SHOWN}
      problem={submitProblem(stepOf(snap, 'request'))}
      busy={snap.hasTag('busy')}
      submitLabel={t('sendResetCode')}
      onUse={(using) => actor.send({ type: 'reset.use', using })}
      onChange={(field, value) => actor.send({ type: 'reset.change', field, value })}
      onSubmit={() => actor.send({ type: 'reset.send' })}
      footer={
        <Group justify="center">
          <NavLink href="/login">{t('backToSignIn')}</NavLink>
        </Group>
      }
    />
  );
}

function CodeStep({ actor, snap }: { actor: PasswordResetActor; snap: ResetSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  return (
    <CodeEntry
      title={t('resetCodeTitle')}
      flow={c}
      error={error('otp')}
      destination={c.destination}
      canResend={snap.can({ type: 'otp.resend' })}
      resending={snap.matches('resending')}
      verifying={snap.matches('checking')}
      problem={submitProblem(stepOf(snap, 'code'))}
      submitLabel={t('verifyCode')}
      onChange={(value) => actor.send({ type: 'reset.change', field: 'otp', value })}
      onResend={() => actor.send({ type: 'otp.resend' })}
      onSubmit={() => actor.send({ type: 'reset.verify' })}
      unplaced={<UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />}
      footer={<BackLink actor={actor} disabled={snap.hasTag('busy')} />}
    />
  );
}

function ChooseStep({ actor, snap }: { actor: PasswordResetActor; snap: ResetSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  const rulesId = useId();
  return (
    <AuthCard title={t('newPasswordTitle')} description={t('newPasswordSubtitle')}>
      <form noValidate onSubmit={submit(actor, 'reset.submit')}>
        <Stack gap="md">
          <Stack gap={6}>
            <PasswordInput
              label={t('newPassword')}
              autoComplete="new-password"
              value={c.values.password ?? ''}
              onChange={(e) => actor.send({ type: 'reset.change', field: 'password', value: e.currentTarget.value })}
              error={error('password')}
              autoFocus
              aria-describedby={rulesId}
            />
            <PasswordChecklist id={rulesId} policy={c.fields?.password_policy} password={c.values.password ?? ''} />
          </Stack>
          <PasswordInput
            label={t('confirmPassword')}
            autoComplete="new-password"
            value={c.values.password_confirmation ?? ''}
            onChange={(e) => actor.send({ type: 'reset.change', field: 'password_confirmation', value: e.currentTarget.value })}
            error={error('password_confirmation')}
          />
          <UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />
          <SubmitAlert problem={submitProblem(stepOf(snap, 'choose'))} retryAfter={c.retryAfter} />
          <Button type="submit" fullWidth loading={snap.hasTag('busy')}>
            {t('resetPassword')}
          </Button>
        </Stack>
      </form>
      <BackLink actor={actor} disabled={snap.hasTag('busy')} />
    </AuthCard>
  );
}

function SuccessStep({ actor }: { actor: PasswordResetActor }) {
  const { t } = useTranslation('auth');
  return (
    <AuthCard title={t('resetSuccessTitle')}>
      <Text>{t('resetSuccessText')}</Text>
      <Button onClick={() => actor.send({ type: 'reset.signIn' })} fullWidth>
        {t('signIn')}
      </Button>
    </AuthCard>
  );
}

export function PasswordResetFlow({ actor }: { actor: PasswordResetActor }) {
  const snap = useSelector(actor, (s) => s);
  let body;
  if (snap.matches('request') || snap.matches('sending')) body = <RequestStep actor={actor} snap={snap} />;
  else if (snap.matches('code') || snap.matches('checking') || snap.matches('resending')) body = <CodeStep actor={actor} snap={snap} />;
  else if (snap.matches('choose') || snap.matches('resetting')) body = <ChooseStep actor={actor} snap={snap} />;
  else body = <SuccessStep actor={actor} />;
  return (
    <LoadStatus state={loadState(snap)} onRetry={() => actor.send({ type: 'load.retry' })}>
      {body}
    </LoadStatus>
  );
}

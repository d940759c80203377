/** /login/otp: sign in with a one-time code sent to the member's e-mail or mobile. */
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { allowedOtpUsing, type otpLoginMachine } from '../../../machines/otp-login.machine';
import { useFieldError } from '../../components/field-error';
import { PageLoader } from '../../components/page-loader';
import { AuthCard } from './auth-card';
import { LoadStatus } from './flow-status';
import { IdentifierFields } from './identifier-fields';
import { NavLink } from './nav-link';
import { OtpField } from './otp-field';
import { SubmitAlert, submitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

const SHOWN = ['email', 'mobile', 'mobile_code', 'login_using', 'otp'];

export type OtpLoginActor = ActorRefFrom<typeof otpLoginMachine>;
type OtpLoginSnapshot = ReturnType<OtpLoginActor['getSnapshot']>;

const subState = (s: OtpLoginSnapshot, parent: 'identify' | 'code') =>
  s.matches(parent) ? (s.value as Record<string, string>)[parent] : null;

function loadState(s: OtpLoginSnapshot) {
  if (s.matches('loading')) return 'loading' as const;
  if (s.matches('connectionError')) return 'connectionError' as const;
  if (s.matches('serverError')) return 'serverError' as const;
  return 'ready' as const;
}

const submit = (actor: OtpLoginActor, type: 'otp.send' | 'otp.verify') => (e: FormEvent) => {
  e.preventDefault();
  actor.send({ type });
};

function IdentifyStep({ actor, snap }: { actor: OtpLoginActor; snap: OtpLoginSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  return (
    <AuthCard title={t('otpLoginTitle')} description={t('otpLoginSubtitle')}>
      <form noValidate onSubmit={submit(actor, 'otp.send')}>
        <Stack gap="md">
          <IdentifierFields
            using={c.loginUsing}
            options={allowedOtpUsing(c.fields)}
            values={c.values}
            countries={c.fields?.countries ?? []}
            error={error}
            onUse={(using) => actor.send({ type: 'auth.use', using })}
            onChange={(field, value) => actor.send({ type: 'otp.change', field, value })}
            autoFocus
          />
          <UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />
          <SubmitAlert problem={submitProblem(subState(snap, 'identify'))} retryAfter={c.retryAfter} />
          <Button type="submit" fullWidth loading={snap.hasTag('busy')}>
            {t('sendCode')}
          </Button>
        </Stack>
      </form>
      <Group justify="center">
        <NavLink href="/login">{t('signInWithPassword')}</NavLink>
      </Group>
    </AuthCard>
  );
}

function CodeStep({ actor, snap }: { actor: OtpLoginActor; snap: OtpLoginSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  return (
    <AuthCard title={t('enterCodeTitle')}>
      <form noValidate onSubmit={submit(actor, 'otp.verify')}>
        <Stack gap="md">
          <OtpField
            value={c.values.otp ?? ''}
            onChange={(value) => actor.send({ type: 'otp.change', field: 'otp', value })}
            error={error('otp')}
            destination={c.destination}
            resendIn={c.resendIn}
            canResend={snap.can({ type: 'otp.resend' })}
            resending={snap.matches('resending')}
            onResend={() => actor.send({ type: 'otp.resend' })}
          />
          <UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />
          <SubmitAlert problem={submitProblem(subState(snap, 'code'))} retryAfter={c.retryAfter} />
          <Button type="submit" fullWidth loading={snap.matches('verifying')} disabled={snap.matches('resending')}>
            {t('verifyAndSignIn')}
          </Button>
        </Stack>
      </form>
      <Group justify="center">
        <Anchor component="button" type="button" size="sm" onClick={() => actor.send({ type: 'otp.back' })} disabled={snap.hasTag('busy')}>
          {t('useAnotherIdentifier')}
        </Anchor>
      </Group>
    </AuthCard>
  );
}

export function OtpLoginFlow({ actor }: { actor: OtpLoginActor }) {
  const { t } = useTranslation('auth');
  const snap = useSelector(actor, (s) => s);
  let body;
  if (snap.matches('unavailable')) {
    body = (
      <AuthCard title={t('otpLoginTitle')}>
        <Alert color="yellow" variant="light">
          {t('otpLoginUnavailable')}
        </Alert>
        <Text ta="center">
          <NavLink href="/login">{t('signInWithPassword')}</NavLink>
        </Text>
      </AuthCard>
    );
  } else if (snap.matches('identify') || snap.matches('sending')) body = <IdentifyStep actor={actor} snap={snap} />;
  else if (snap.matches('code') || snap.matches('verifying') || snap.matches('resending')) body = <CodeStep actor={actor} snap={snap} />;
  else body = <PageLoader />;
  return (
    <LoadStatus state={loadState(snap)} onRetry={() => actor.send({ type: 'load.retry' })}>
      {body}
    </LoadStatus>
  );
}

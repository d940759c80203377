/** /login/otp: sign in with a one-time code sent to the member's e-mail or mobile. */
import { Alert, Anchor, Group, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { allowedOtpUsing, type otpLoginMachine } from '../../../machines/otp-login.machine';
import { useFieldError } from '../../components/field-error';
import { PageLoader } from '../../components/page-loader';
import { AuthCard } from './auth-card';
import { CodeEntry } from './code-entry';
import { loadState, LoadStatus, stepOf } from './flow-status';
import { NavLink } from './nav-link';
import { SendCodeForm } from './send-code-form';
import { submitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

const SHOWN = ['email', 'mobile', 'mobile_code', 'login_using', 'otp'];

export type OtpLoginActor = ActorRefFrom<typeof otpLoginMachine>;
type OtpLoginSnapshot = ReturnType<OtpLoginActor['getSnapshot']>;


function IdentifyStep({ actor, snap }: { actor: OtpLoginActor; snap: OtpLoginSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  return (
    <SendCodeForm
      title={t('otpLoginTitle')}
      description={t('otpLoginSubtitle')}
      using={c.loginUsing}
      options={allowedOtpUsing(c.fields)}
      flow={c}
      shown={SHOWN}
      problem={submitProblem(stepOf(snap, 'identify'))}
      busy={snap.hasTag('busy')}
      submitLabel={t('sendCode')}
      onUse={(using) => actor.send({ type: 'auth.use', using })}
      onChange={(field, value) => actor.send({ type: 'otp.change', field, value })}
      onSubmit={() => actor.send({ type: 'otp.send' })}
      footer={
        <Group justify="center">
          <NavLink href="/login">{t('signInWithPassword')}</NavLink>
        </Group>
      }
    />
  );
}

function CodeStep({ actor, snap }: { actor: OtpLoginActor; snap: OtpLoginSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  return (
    <CodeEntry
      title={t('enterCodeTitle')}
      flow={c}
      error={error('otp')}
      destination={c.destination}
      canResend={snap.can({ type: 'otp.resend' })}
      resending={snap.matches('resending')}
      verifying={snap.matches('verifying')}
      problem={submitProblem(stepOf(snap, 'code'))}
      submitLabel={t('verifyAndSignIn')}
      onChange={(value) => actor.send({ type: 'otp.change', field: 'otp', value })}
      onResend={() => actor.send({ type: 'otp.resend' })}
      onSubmit={() => actor.send({ type: 'otp.verify' })}
      unplaced={<UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />}
      footer={
        <Group justify="center">
          <Anchor component="button" type="button" size="sm" onClick={() => actor.send({ type: 'otp.back' })} disabled={snap.hasTag('busy')}>
            {t('useAnotherIdentifier')}
          </Anchor>
        </Group>
      }
    />
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

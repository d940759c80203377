/**
 * The two-step sign-in of /login and /login/continue, and /login/two-factor for a member with
 * two-factor sign-in on. Every route renders the step the login machine is in (the machine keeps the
 * URL in step with it); the two-factor step is in ./two-factor-step.
 */
import { Anchor, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { lazyView } from '../../../app/lazy-view';
import { allowedLoginUsing, type loginMachine } from '../../../machines/login.machine';
import { useFieldError } from '../../components/field-error';
import { LightAlert } from '../../components/light-alert';
import { PageLoader } from '../../components/page-loader';
import { AuthCard } from './auth-card';
import { loadState, LoadStatus } from './flow-status';
import { IdentifierFields } from './identifier-fields';
import { NavLink } from './nav-link';
import { phoneCodeLabel } from './phone-fields';
import { SubmitAlert, submitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

export type LoginActor = ActorRefFrom<typeof loginMachine>;
export type LoginSnapshot = ReturnType<LoginActor['getSnapshot']>;

export const IDENTIFIER_FIELDS = ['username', 'email', 'mobile', 'mobile_code', 'login_using'];

/** The identifier as the member typed it, for "Signing in as …". */
export function identifierText(s: Pick<LoginSnapshot['context'], 'loginUsing' | 'values'>): string {
  const v = s.values;
  if (s.loginUsing === 'email') return v.email.trim();
  if (s.loginUsing === 'mobile_code') return `${phoneCodeLabel(v.mobile_code)} ${v.mobile.trim()}`;
  return v.username.trim();
}

/** /login/otp prefilled with the identifier, when it is an e-mail or a mobile. */
export function otpLoginHref(s: Pick<LoginSnapshot['context'], 'loginUsing' | 'values'>): string | null {
  if (s.loginUsing === 'username') return null;
  const q = new URLSearchParams({ login_using: s.loginUsing });
  if (s.loginUsing === 'email') q.set('email', s.values.email.trim());
  else {
    q.set('mobile_code', s.values.mobile_code);
    q.set('mobile', s.values.mobile.trim());
  }
  return `/login/otp?${q.toString()}`;
}

export function submitting(actor: LoginActor, type: 'auth.continue' | 'auth.submit' | 'auth.verify') {
  return (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type });
  };
}

function OtherWays() {
  const { t } = useTranslation('auth');
  return (
    <Stack gap={4} align="center" mt="xs">
      <Text size="sm">
        {t('noAccount')} <NavLink href="/signup">{t('signUp')}</NavLink>
      </Text>
      <NavLink href="/request-demo">{t('requestDemo')}</NavLink>
    </Stack>
  );
}

function IdentifyStep({ actor, snap }: { actor: LoginActor; snap: LoginSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  return (
    <AuthCard title={t('signInTitle')} description={t('signInSubtitle')}>
      {/* method="post": should the server-rendered form ever be submitted without the app, nothing goes into a URL. */}
      <form noValidate method="post" onSubmit={submitting(actor, 'auth.continue')}>
        <Stack gap="md">
          <IdentifierFields
            using={c.loginUsing}
            options={allowedLoginUsing(c.fields)}
            values={c.values}
            countries={c.fields?.countries ?? []}
            error={error}
            onUse={(using) => actor.send({ type: 'auth.use', using })}
            onChange={(field, value) => actor.send({ type: 'auth.change', field, value })}
            autoFocus
          />
          <Button type="submit" fullWidth>
            {t('continue')}
          </Button>
        </Stack>
      </form>
      <Group justify="flex-end">
        <NavLink href="/password/forgot">{t('forgotPassword')}</NavLink>
      </Group>
      <OtherWays />
    </AuthCard>
  );
}

/** "Signing in as …" with the link back to the first step. */
export function SigningInAs({ actor, snap }: { actor: LoginActor; snap: LoginSnapshot }) {
  const { t } = useTranslation('auth');
  return (
    <Group gap="xs" justify="space-between" wrap="nowrap">
      <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {t('signingInAs')} <strong>{identifierText(snap.context)}</strong>
      </Text>
      <Anchor component="button" type="button" size="sm" onClick={() => actor.send({ type: 'auth.back' })}>
        {t('change')}
      </Anchor>
    </Group>
  );
}

function PasswordStep({ actor, snap }: { actor: LoginActor; snap: LoginSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  const busy = snap.hasTag('busy');
  const step = snap.matches('credentials') ? (snap.value as { credentials: string }).credentials : null;
  const identifierErrors = IDENTIFIER_FIELDS.map(error).filter((m): m is string => !!m);
  const otpHref = c.fields?.login_with_otp ? otpLoginHref(c) : null;
  return (
    <AuthCard title={t('enterPasswordTitle')}>
      <SigningInAs actor={actor} snap={snap} />
      {identifierErrors.length > 0 && (
        <LightAlert color="red">{identifierErrors.join(' ')}</LightAlert>
      )}
      <form noValidate method="post" onSubmit={submitting(actor, 'auth.submit')}>
        <Stack gap="md">
          <PasswordInput
            label={t('password')}
            autoComplete="current-password"
            value={c.values.password ?? ''}
            onChange={(e) => actor.send({ type: 'auth.change', field: 'password', value: e.currentTarget.value })}
            error={error('password')}
            autoFocus
          />
          <UnplacedErrors errors={c.fieldErrors} shown={[...IDENTIFIER_FIELDS, 'password']} />
          <SubmitAlert problem={submitProblem(step)} retryAfter={c.retryAfter} />
          <Button type="submit" fullWidth loading={busy}>
            {t('signIn')}
          </Button>
        </Stack>
      </form>
      <Stack gap={4} align="center">
        <NavLink href="/password/forgot">{t('forgotPassword')}</NavLink>
        {otpHref && <NavLink href={otpHref}>{t('signInWithCode')}</NavLink>}
      </Stack>
      <OtherWays />
    </AuthCard>
  );
}

/**
 * The two-factor step is code of its own (./two-factor-step): the first page neither carries nor evaluates it. It
 * is fetched with the member area while the member signs in (the login machine's prepareMemberArea, bound in
 * src/app/bindings.ts), else when the step is shown.
 */
type TwoFactorStepComponent = typeof import('./two-factor-step').TwoFactorStep;
let twoFactorStep: TwoFactorStepComponent | undefined;
export const loadTwoFactorStep = () => import('./two-factor-step').then((m) => (twoFactorStep = m.TwoFactorStep));
const TwoFactorStep = lazyView(loadTwoFactorStep, () => twoFactorStep);

export function LoginFlow({ actor }: { actor: LoginActor }) {
  const snap = useSelector(actor, (s) => s);
  return (
    <LoadStatus state={loadState(snap)} onRetry={() => actor.send({ type: 'load.retry' })}>
      {snap.matches('identify') ? (
        <IdentifyStep actor={actor} snap={snap} />
      ) : snap.matches('credentials') || snap.matches('signingIn') ? (
        <PasswordStep actor={actor} snap={snap} />
      ) : snap.matches('twoFactor') || snap.matches('verifying') ? (
        <TwoFactorStep actor={actor} snap={snap} />
      ) : (
        // Signed in: the session moves on to the member area.
        <PageLoader />
      )}
    </LoadStatus>
  );
}

/**
 * Signup across /signup, /signup/otp and /signup/success: every route renders the step the signup
 * machine is in (the machine keeps the URL in step with it).
 */
import { Alert, Anchor, Button, Checkbox, Loader, Stack, Text, TextInput, PasswordInput, Group } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { LabelledRadios } from '../../components/segmented-radios';
import { useId, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  asksPlacement,
  asksPosition,
  asksTerms,
  needsEmail,
  needsMobile,
  type SignupField,
  type signupMachine,
} from '../../../machines/signup.machine';
import { useFieldError } from '../../components/field-error';
import { AuthCard } from './auth-card';
import { CodeEntry } from './code-entry';
import { loadState, LoadStatus, stepOf } from './flow-status';
import { NavLink } from './nav-link';
import { PasswordChecklist } from './password-checklist';
import { PhoneFields } from './phone-fields';
import { SubmitAlert, submitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

const SHOWN = ['referral', 'first_name', 'last_name', 'email', 'mobile_code', 'mobile', 'username', 'password', 'password_confirmation', 'placement', 'position', 'terms', 'otp', 'key'];

export type SignupActor = ActorRefFrom<typeof signupMachine>;
type SignupSnapshot = ReturnType<SignupActor['getSnapshot']>;

function SignInLine() {
  const { t } = useTranslation('auth');
  return (
    <Text size="sm" ta="center">
      {t('haveAccount')} <NavLink href="/login">{t('signIn')}</NavLink>
    </Text>
  );
}

function useOptional() {
  const { t } = useTranslation(['auth', 'common']);
  return (key: string) => `${t(key)} ${t('common:optional')}`;
}

function SponsorField({ actor, snap, error }: { actor: SignupActor; snap: SignupSnapshot; error?: string }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const checking = snap.matches({ form: { sponsor: 'checking' } });
  const description = checking
    ? t('sponsorChecking')
    : c.sponsorLocked
      ? t('sponsorLocked')
      : snap.matches({ form: { sponsor: 'valid' } }) && !error
        ? t('sponsorValid')
        : undefined;
  return (
    <TextInput
      label={t('sponsor')}
      description={description}
      value={c.values.referral}
      readOnly={c.sponsorLocked}
      onChange={(e) => actor.send({ type: 'signup.change', field: 'referral', value: e.currentTarget.value })}
      onBlur={() => actor.send({ type: 'signup.sponsorBlur' })}
      error={error}
      autoCapitalize="none"
      spellCheck={false}
      rightSection={checking ? <Loader size="xs" aria-hidden="true" /> : null}
    />
  );
}

export function TermsCheckbox({ actor, snap, error }: { actor: SignupActor; snap: SignupSnapshot; error?: string }) {
  const { t } = useTranslation('auth');
  const d = snap.context.data;
  const terms = d?.company_terms_url;
  const privacy = d?.company_privacy_url;
  const link = (href: string | null | undefined) => <Anchor href={href ?? undefined} target="_blank" rel="noopener noreferrer" />;
  const key = terms && privacy ? 'acceptTermsAndPrivacy' : terms ? 'acceptTerms' : 'acceptPrivacy';
  return (
    <Checkbox
      checked={snap.context.termsAccepted}
      onChange={(e) => actor.send({ type: 'signup.terms', accepted: e.currentTarget.checked })}
      error={error}
      label={<Trans t={t} i18nKey={key} components={{ terms: link(terms), privacy: link(privacy) }} />}
    />
  );
}

function FormStep({ actor, snap }: { actor: SignupActor; snap: SignupSnapshot }) {
  const { t } = useTranslation('auth');
  const optional = useOptional();
  const c = snap.context;
  const d = c.data;
  const v = c.values;
  const error = useFieldError(c.fieldErrors);
  const rulesId = useId();
  const change = (field: SignupField) => (value: string) => actor.send({ type: 'signup.change', field, value });
  const input = (field: SignupField) => ({
    value: v[field] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => change(field)(e.currentTarget.value),
    error: error(field),
  });
  const status = snap.matches('form') ? (snap.value as { form: { status: string } }).form.status : null;
  const emailRequired = needsEmail(d);
  const mobileRequired = needsMobile(d);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'signup.submit' });
  };
  return (
    <AuthCard title={t('signupTitle')} description={t('signupSubtitle')}>
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <SponsorField actor={actor} snap={snap} error={error('referral')} />
          <TextInput label={t('firstName')} autoComplete="given-name" {...input('first_name')} />
          <TextInput label={optional('lastName')} autoComplete="family-name" {...input('last_name')} />
          <TextInput
            label={emailRequired ? t('email') : optional('email')}
            type="email"
            autoComplete="email"
            {...input('email')}
          />
          <PhoneFields
            countries={d?.countries ?? []}
            code={v.mobile_code}
            mobile={v.mobile}
            onCode={change('mobile_code')}
            onMobile={change('mobile')}
            codeError={error('mobile_code')}
            mobileError={error('mobile')}
            mobileLabel={mobileRequired ? t('mobile') : optional('mobile')}
          />
          <TextInput
            label={optional('username')}
            description={t('usernameHelp')}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            {...input('username')}
          />
          <Stack gap={6}>
            <PasswordInput
              label={t('password')}
              autoComplete="new-password"
              aria-describedby={rulesId}
              {...input('password')}
            />
            <PasswordChecklist id={rulesId} policy={d?.password_policy} password={v.password ?? ''} />
          </Stack>
          <PasswordInput label={t('confirmPassword')} autoComplete="new-password" {...input('password_confirmation')} />
          {asksPlacement(d) && (
            <TextInput
              label={optional('placement')}
              description={t('placementHelp')}
              autoCapitalize="none"
              spellCheck={false}
              {...input('placement')}
            />
          )}
          {asksPosition(d) && <PositionControl actor={actor} value={v.position} error={error('position')} />}
          {asksTerms(d) && <TermsCheckbox actor={actor} snap={snap} error={error('terms')} />}
          <UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />
          <SubmitAlert problem={submitProblem(status)} retryAfter={c.retryAfter} />
          <Button type="submit" fullWidth loading={snap.hasTag('busy')}>
            {t('createAccount')}
          </Button>
        </Stack>
      </form>
      <SignInLine />
    </AuthCard>
  );
}

function PositionControl({ actor, value, error }: { actor: SignupActor; value: string; error?: string }) {
  const { t } = useTranslation('auth');
  return (
    <div>
      <LabelledRadios
        label={t('position')}
        value={value}
        onChange={(v) => actor.send({ type: 'signup.change', field: 'position', value: v })}
        options={[
          { value: 'L', label: t('positionLeft') },
          { value: 'R', label: t('positionRight') },
        ]}
      />
      {error && (
        <Text size="xs" c="red" mt={4} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}

/** The code step; a member registering a recruit gives its own title and text. */
export function VerifyStep({ actor, snap, title, description }: { actor: SignupActor; snap: SignupSnapshot; title?: string; description?: string }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  return (
    <CodeEntry
      title={title ?? t('verifySignupTitle')}
      description={description ?? t('verifySignupSubtitle')}
      flow={c}
      error={error('otp') ?? error('key')}
      destination={c.result?.destination}
      canResend={snap.can({ type: 'otp.resend' })}
      resending={snap.matches('resending')}
      verifying={snap.matches('verifying')}
      problem={submitProblem(stepOf(snap, 'verify'))}
      submitLabel={t('verifyCode')}
      onChange={(value) => actor.send({ type: 'signup.change', field: 'otp', value })}
      onResend={() => actor.send({ type: 'otp.resend' })}
      onSubmit={() => actor.send({ type: 'otp.verify' })}
    />
  );
}

function SuccessStep({ actor, snap }: { actor: SignupActor; snap: SignupSnapshot }) {
  const { t } = useTranslation('auth');
  const username = snap.context.result?.username ?? '';
  return (
    <AuthCard title={t('signupSuccessTitle')}>
      <Text>{t('signupSuccessText', { username })}</Text>
      <Button onClick={() => actor.send({ type: 'signup.signIn' })} fullWidth>
        {t('signIn')}
      </Button>
    </AuthCard>
  );
}

function ClosedStep() {
  const { t } = useTranslation('auth');
  return (
    <AuthCard title={t('signupClosedTitle')}>
      <Alert color="yellow" variant="light">
        {t('signupClosedText')}
      </Alert>
      <SignInLine />
    </AuthCard>
  );
}

function StoreStep({ snap }: { snap: SignupSnapshot }) {
  const { t } = useTranslation('auth');
  const url = snap.context.storeRegisterUrl;
  return (
    <AuthCard title={t('signupInStoreTitle')}>
      <Text>{t('signupInStoreText')}</Text>
      {url && (
        <Group>
          <Button component="a" href={url} fullWidth>
            {t('signupInStoreButton')}
          </Button>
        </Group>
      )}
      <SignInLine />
    </AuthCard>
  );
}

export function SignupFlow({ actor }: { actor: SignupActor }) {
  const snap = useSelector(actor, (s) => s);
  let body;
  if (snap.matches('closed')) body = <ClosedStep />;
  else if (snap.matches('store')) body = <StoreStep snap={snap} />;
  else if (snap.matches('form')) body = <FormStep actor={actor} snap={snap} />;
  else if (snap.matches('verify') || snap.matches('verifying') || snap.matches('resending')) body = <VerifyStep actor={actor} snap={snap} />;
  else body = <SuccessStep actor={actor} snap={snap} />;
  return (
    <LoadStatus state={loadState(snap)} onRetry={() => actor.send({ type: 'load.retry' })}>
      {body}
    </LoadStatus>
  );
}

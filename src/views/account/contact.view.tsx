/**
 * /member/account/email and /member/account/phone, and their /otp steps: the new address (or phone code +
 * number) with the account password, then the code sent to the new one. One actor serves both URLs of a
 * change (see contact-change.machine.ts): the address page shows the form, its errors and the applied
 * change; the code page shows the code step. Each sends the member to the other URL when the flow is in a
 * state that belongs there (replacing the history entry, so Back leaves the flow instead of bouncing).
 * Field errors show under their fields; what was typed stays.
 */
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ChangeEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { emailChangeMachine, phoneChangeMachine } from '../../machines/account/contact-change.machine';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';
import { OtpField } from '../public/auth/otp-field';
import { PhoneFields } from '../public/auth/phone-fields';
import { SubmitAlert, submitProblem } from '../public/auth/submit-alert';
import { UnplacedErrors } from '../public/auth/unplaced-errors';

type EmailActor = ActorRefFrom<typeof emailChangeMachine>;
type PhoneActor = ActorRefFrom<typeof phoneChangeMachine>;
type Kind = 'email' | 'phone';
type ContactActor = EmailActor | PhoneActor;
type Snap = ReturnType<EmailActor['getSnapshot']> | ReturnType<PhoneActor['getSnapshot']>;

const DOMAIN = { email: 'emailChange', phone: 'phoneChange' } as const;
const BASE = { email: '~/member/account/email', phone: '~/member/account/phone' } as const;

/** The code step's states (its page is …/otp); every other state belongs to the address page. */
const atCode = (s: Snap) => s.matches('code') || s.matches('verifying') || s.matches('resending');
/** The code step's sub-state ('editing', 'expired', 'rateLimited'…), or null. */
const codeStep = (s: Snap) => (s.matches('code') ? (s.value as { code: string }).code : null);

/** The actor's events of this kind's domain, sent without naming the machine. */
function sender(actor: ContactActor, kind: Kind) {
  const d = DOMAIN[kind];
  const send = actor.send as (event: { type: string; field?: string; value?: string }) => void;
  return {
    change: (field: string, value: string) => send({ type: `${d}.change`, field, value }),
    submit: () => send({ type: `${d}.submit` }),
    retry: () => send({ type: `${d}.retry` }),
    dismiss: () => send({ type: `${d}.dismiss` }),
    verify: () => send({ type: `${d}.verify` }),
    cancel: () => send({ type: `${d}.cancel` }),
    resend: () => send({ type: 'otp.resend' }),
  };
}

// ── The address page ────────────────────────────────────────────────────────────────────────────────

function AddressPage({ actor, kind, current, changedTo, fields }: { actor: ContactActor; kind: Kind; current: string | null; changedTo: string | null; fields: (busy: boolean) => ReactNode }) {
  const { t } = useTranslation('account');
  const snap = useSelector(actor as EmailActor, (s) => s as Snap);
  const state = String(typeof snap.value === 'string' ? snap.value : '').replace(/OnRefresh$/, '');
  const busy = snap.hasTag('busy');
  const { password, fieldErrors, failure } = snap.context;
  const error = useFieldError(fieldErrors);
  const send = sender(actor, kind);

  if (atCode(snap)) return <Redirect to={`${BASE[kind]}/otp`} replace />;
  if (state === 'loadConnectionError' || state === 'loadError') return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={send.retry} />;
  if (!snap.context.loaded || state === 'loading' || state === 'forceLogout') return <PageLoader />;
  const refused = state === 'validationError' && !Object.keys(fieldErrors).length;

  return (
    <Stack gap="md" maw={480}>
      <Title order={1} size="h2">
        {t(`${kind}.title`)}
      </Title>
      <Text c="dimmed" size="sm">
        {t(`${kind}.description`)}
      </Text>
      <Text size="sm" data-contact-current>
        {current ? t(`${kind}.current`, { value: current }) : t(`${kind}.none`)}
      </Text>
      {state === 'success' && changedTo && (
        <Alert color="teal" role="status" data-contact-status="success">
          {t(`${kind}.changedTo`, { value: changedTo })}
        </Alert>
      )}
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError title={t(`${kind}.errors.${state}`)} retryLabel={t(`${kind}.retry`)} dismissLabel={t(`${kind}.dismiss`)} onRetry={send.retry} onDismiss={send.dismiss} />
      )}
      {refused && (
        <Alert color="yellow" role="alert">
          {t(failure === 'rateLimited' ? `${kind}.errors.rateLimited` : `${kind}.errors.refused`)}
        </Alert>
      )}
      <FormCard onSubmit={send.submit}>
        {fields(busy)}
        <PasswordInput
          label={t(`${kind}.password`)}
          description={t(`${kind}.passwordHelp`)}
          autoComplete="current-password"
          // Not in a restored snapshot: passwords are never saved.
          value={password ?? ''}
          error={error('password')}
          disabled={busy}
          onChange={(e: ChangeEvent<HTMLInputElement>) => send.change('password', e.currentTarget.value)}
        />
        <UnplacedErrors errors={fieldErrors} shown={['email', 'mobile', 'mobile_code', 'password']} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t(`${kind}.submit`)}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

export function EmailView({ actor }: { actor: EmailActor }) {
  const { t } = useTranslation('account');
  const { loaded, values, fieldErrors, result } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);
  return (
    <AddressPage
      actor={actor}
      kind="email"
      current={result?.email ?? loaded?.email ?? null}
      changedTo={result?.email ?? null}
      fields={(busy) => (
        <TextInput
          label={t('email.newEmail')}
          type="email"
          autoComplete="email"
          inputMode="email"
          autoFocus
          value={values.email ?? ''}
          error={error('email')}
          disabled={busy}
          onChange={(e) => actor.send({ type: 'emailChange.change', field: 'email', value: e.currentTarget.value })}
        />
      )}
    />
  );
}

const phoneText = (code: string | null | undefined, mobile: string | null | undefined) => (mobile ? `${code ?? ''} ${mobile}`.trim() : null);

export function PhoneView({ actor }: { actor: PhoneActor }) {
  const { t } = useTranslation('account');
  const { loaded, values, fieldErrors, result } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const set = (field: 'mobile_code' | 'mobile') => (value: string) => actor.send({ type: 'phoneChange.change', field, value });
  return (
    <AddressPage
      actor={actor}
      kind="phone"
      current={result ? phoneText(result.mobile_code, result.mobile) : phoneText(loaded?.mobile_code, loaded?.mobile)}
      changedTo={result ? phoneText(result.mobile_code, result.mobile) : null}
      fields={() => (
        <PhoneFields
          countries={loaded?.countries ?? []}
          code={values.mobile_code ?? ''}
          mobile={values.mobile ?? ''}
          onCode={set('mobile_code')}
          onMobile={set('mobile')}
          codeError={error('mobile_code')}
          mobileError={error('mobile')}
          mobileLabel={t('phone.newMobile')}
          autoFocus
        />
      )}
    />
  );
}

// ── The code page (/otp) ────────────────────────────────────────────────────────────────────────────

function CodePage({ actor, kind, sentTo }: { actor: ContactActor; kind: Kind; sentTo: string }) {
  const { t } = useTranslation('account');
  const snap = useSelector(actor as EmailActor, (s) => s as Snap);
  const { values, fieldErrors, resendIn, retryAfter } = snap.context;
  const error = useFieldError(fieldErrors);
  const send = sender(actor, kind);
  if (!atCode(snap)) return <Redirect to={BASE[kind]} replace />;
  const step = codeStep(snap);
  const verifying = snap.matches('verifying');
  const resending = snap.matches('resending');

  return (
    <Stack gap="md" maw={480}>
      <Title order={1} size="h2">
        {t(`${kind}.codeTitle`)}
      </Title>
      <Text c="dimmed" size="sm">
        {t(`${kind}.codeDescription`, { value: sentTo })}
      </Text>
      <FormCard onSubmit={send.verify}>
        <OtpField
          value={values.otp ?? ''}
          onChange={(value) => send.change('otp', value)}
          error={error('otp')}
          destination={sentTo}
          resendIn={resendIn}
          canResend={snap.can({ type: 'otp.resend' })}
          resending={resending}
          onResend={send.resend}
        />
        <UnplacedErrors errors={fieldErrors} shown={['otp']} />
        <SubmitAlert problem={submitProblem(step)} retryAfter={retryAfter} />
        <Group justify="space-between" wrap="wrap-reverse">
          <Anchor component="button" type="button" size="sm" onClick={send.cancel} disabled={verifying || resending}>
            {t(`${kind}.changeAddress`)}
          </Anchor>
          <Button type="submit" loading={verifying} disabled={resending}>
            {t(`${kind}.verify`)}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

export function EmailCodeView({ actor }: { actor: EmailActor }) {
  const email = useSelector(actor, (s) => s.context.values.email ?? '');
  return <CodePage actor={actor} kind="email" sentTo={email.trim()} />;
}

export function PhoneCodeView({ actor }: { actor: PhoneActor }) {
  const { mobile_code, mobile } = useSelector(actor, (s) => s.context.values);
  return <CodePage actor={actor} kind="phone" sentTo={phoneText(mobile_code, mobile?.trim()) ?? ''} />;
}

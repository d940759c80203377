/**
 * /member/account/two-factor: two-factor sign-in with an authenticator app. Off: turn it on (the
 * password, then the QR code and the key to type, then the first code, then the recovery codes shown
 * once, to copy or download). On: since when, recovery codes left, new recovery codes, turn it off.
 * Each step's form is its own actor (a child of the page's); what was typed stays on an error.
 */
import { Alert, Anchor, Badge, Button, Card, Code, CopyButton, Group, Image, List, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { twoFactorForms, twoFactorSettingsMachine } from '../../machines/account/two-factor.machine';
import { formatDate } from '../../lib/dates';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';

type PageActor = ActorRefFrom<typeof twoFactorSettingsMachine>;
type Forms = typeof twoFactorForms;
type FormActor = ActorRefFrom<Forms['setup']> | ActorRefFrom<Forms['confirm']> | ActorRefFrom<Forms['disable']> | ActorRefFrom<Forms['renew']>;
type Domain = 'twoFactorSetup' | 'twoFactorConfirm' | 'twoFactorDisable' | 'twoFactorRenew';

/** Sends `<domain>.<verb>` to a step's form (the four forms differ only in their domain). */
const sender = (form: FormActor, domain: Domain) => (verb: string, extra: Record<string, unknown> = {}) =>
  (form as { send(e: unknown): void }).send({ type: `${domain}.${verb}`, ...extra });

/** A step's form: its fields (given `change`), its request errors, and submit / cancel. */
function StepForm({
  form,
  domain,
  submitLabel,
  onCancel,
  children,
}: {
  form: FormActor;
  domain: Domain;
  submitLabel: string;
  onCancel: () => void;
  children: (f: { values: Record<string, string | undefined>; password: string; error: (field: string) => string | undefined; busy: boolean; change: (field: string, value: string) => void }) => ReactNode;
}) {
  const { t } = useTranslation('account');
  const state = useSelector(form, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const { values, password, fieldErrors, failure } = useSelector(form, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const send = sender(form, domain);
  const refused = state === 'validationError' && !Object.keys(fieldErrors).length;
  return (
    <Stack gap="sm">
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`twoFactor.errors.${state}`)}
          retryLabel={t('twoFactor.retry')}
          dismissLabel={t('twoFactor.dismiss')}
          onRetry={() => send('retry')}
          onDismiss={() => send('dismiss')}
        />
      )}
      {refused && (
        <Alert color="yellow" role="alert">
          {t(failure === 'rateLimited' ? 'twoFactor.errors.rateLimited' : 'twoFactor.errors.refused')}
        </Alert>
      )}
      <FormCard onSubmit={() => send('submit')}>
        {children({
          values: values as Record<string, string | undefined>,
          password,
          error,
          busy,
          change: (field, value) => send('change', { field, value }),
        })}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('twoFactor.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={busy}>
            {submitLabel}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

function PasswordField({ f }: { f: Parameters<Parameters<typeof StepForm>[0]['children']>[0] }) {
  const { t } = useTranslation('account');
  return (
    <PasswordInput
      label={t('twoFactor.password')}
      autoComplete="current-password"
      value={f.password ?? ''}
      error={f.error('password')}
      disabled={f.busy}
      onChange={(e) => f.change('password', e.currentTarget.value)}
      autoFocus
    />
  );
}

function CodeField({ f, autoFocus = false }: { f: Parameters<Parameters<typeof StepForm>[0]['children']>[0]; autoFocus?: boolean }) {
  const { t } = useTranslation('account');
  return (
    <TextInput
      label={t('twoFactor.code')}
      autoComplete="one-time-code"
      inputMode="numeric"
      pattern="[0-9 ]*"
      maxLength={7}
      value={f.values.code ?? ''}
      error={f.error('code')}
      disabled={f.busy}
      onChange={(e) => f.change('code', e.currentTarget.value)}
      autoFocus={autoFocus}
      data-two-factor-code
    />
  );
}

/** The recovery codes just made: shown once, to copy or download. */
function RecoveryCodesCard({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('account');
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${t('twoFactor.codesFileHeading')}\n\n${text}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Card withBorder radius="md">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('twoFactor.codesTitle')}
        </Title>
        <Alert color="yellow" role="status">
          {t('twoFactor.codesOnce')}
        </Alert>
        <SimpleGrid cols={2} spacing="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-recovery-codes>
          {codes.map((c) => (
            <Code key={c} component="li" style={{ fontSize: 'var(--mantine-font-size-md)', textAlign: 'center' }}>
              {c}
            </Code>
          ))}
        </SimpleGrid>
        <Group gap="sm" wrap="wrap">
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? t('twoFactor.copied') : t('twoFactor.copyCodes')}
              </Button>
            )}
          </CopyButton>
          <Button variant="light" onClick={download}>
            {t('twoFactor.downloadCodes')}
          </Button>
          <Button onClick={onDone} ml="auto">
            {t('twoFactor.savedThem')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function TwoFactorView({ actor }: { actor: PageActor }) {
  const { t } = useTranslation('account');
  const snap = useSelector(actor, (s) => s);
  const { status, setup, recoveryCodes } = snap.context;
  const cancel = () => actor.send({ type: 'twoFactor.cancel' });
  // While the new recovery codes are shown, it is already on.
  const on = status?.enabled || snap.matches('codes');

  if (snap.matches('loadConnectionError') || snap.matches('loadError'))
    return <ErrorView kind={snap.matches('loadConnectionError') ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'twoFactor.retry' })} />;
  if (snap.matches('loading') || snap.matches('forceLogout') || !status) return <PageLoader />;

  const children = snap.children as Record<string, FormActor | undefined>;
  let body: ReactNode = null;
  if (snap.matches('off')) {
    body = (
      <Card withBorder radius="md">
        <Stack gap="sm">
          <Text>{t('twoFactor.offText')}</Text>
          <List size="sm" spacing={4}>
            <List.Item>{t('twoFactor.stepApp')}</List.Item>
            <List.Item>{t('twoFactor.stepScan')}</List.Item>
            <List.Item>{t('twoFactor.stepCodes')}</List.Item>
          </List>
          <Group justify="flex-end">
            <Button onClick={() => actor.send({ type: 'twoFactor.start' })}>{t('twoFactor.turnOn')}</Button>
          </Group>
        </Stack>
      </Card>
    );
  } else if (snap.matches({ turningOn: 'password' }) && children.setupForm) {
    body = (
      <Stack gap="xs">
        <Text size="sm">{t('twoFactor.passwordFirst')}</Text>
        <StepForm form={children.setupForm} domain="twoFactorSetup" submitLabel={t('twoFactor.continue')} onCancel={cancel}>
          {(f) => <PasswordField f={f} />}
        </StepForm>
      </Stack>
    );
  } else if (snap.matches({ turningOn: 'scan' }) && children.confirmForm && setup) {
    body = (
      <Stack gap="md">
        <Card withBorder radius="md">
          <Stack gap="sm" align="center">
            <Text size="sm">{t('twoFactor.scanText')}</Text>
            {/* A light square behind the code: scanners need dark on light in either colour scheme. */}
            <Image src={setup.qr_code} alt={t('twoFactor.qrAlt')} w={200} h={200} radius="sm" style={{ background: '#fff', padding: 4 }} />
            <Text size="sm">{t('twoFactor.manualText')}</Text>
            <Group gap="xs" wrap="nowrap" maw="100%">
              <Code data-two-factor-secret style={{ fontSize: 'var(--mantine-font-size-md)', overflowWrap: 'anywhere' }}>
                {setup.secret}
              </Code>
              <CopyButton value={setup.secret.replace(/\s+/g, '')}>
                {({ copied, copy }) => (
                  <Anchor component="button" type="button" size="sm" onClick={copy}>
                    {copied ? t('twoFactor.copied') : t('twoFactor.copyKey')}
                  </Anchor>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Card>
        <StepForm form={children.confirmForm} domain="twoFactorConfirm" submitLabel={t('twoFactor.confirm')} onCancel={cancel}>
          {(f) => <CodeField f={f} autoFocus />}
        </StepForm>
      </Stack>
    );
  } else if (snap.matches('codes') && recoveryCodes) {
    body = <RecoveryCodesCard codes={recoveryCodes} onDone={() => actor.send({ type: 'twoFactor.done' })} />;
  } else if (snap.matches('on')) {
    body = (
      <Card withBorder radius="md">
        <Stack gap="sm">
          <Text>{status.enabled_at ? t('twoFactor.onSince', { date: formatDate(status.enabled_at) }) : t('twoFactor.onText')}</Text>
          <Text size="sm" c="dimmed" data-recovery-left>
            {t('twoFactor.codesLeft', { count: status.recovery_codes_left })}
          </Text>
          <Group justify="flex-end" gap="sm" wrap="wrap">
            <Button variant="default" onClick={() => actor.send({ type: 'twoFactor.renew' })}>
              {t('twoFactor.newCodes')}
            </Button>
            <Button color="red" variant="light" onClick={() => actor.send({ type: 'twoFactor.disable' })}>
              {t('twoFactor.turnOff')}
            </Button>
          </Group>
        </Stack>
      </Card>
    );
  } else if (snap.matches('renewing') && children.renewForm) {
    body = (
      <Stack gap="xs">
        <Text size="sm">{t('twoFactor.renewText')}</Text>
        <StepForm form={children.renewForm} domain="twoFactorRenew" submitLabel={t('twoFactor.newCodes')} onCancel={cancel}>
          {(f) => <PasswordField f={f} />}
        </StepForm>
      </Stack>
    );
  } else if (snap.matches('turningOff') && children.disableForm) {
    body = (
      <Stack gap="xs">
        <Text size="sm">{t('twoFactor.turnOffText')}</Text>
        <StepForm form={children.disableForm} domain="twoFactorDisable" submitLabel={t('twoFactor.turnOff')} onCancel={cancel}>
          {(f) => {
            const recovery = f.values.method === 'recovery';
            return (
              <>
                <PasswordField f={f} />
                {recovery ? (
                  <TextInput
                    label={t('twoFactor.recoveryCode')}
                    autoComplete="one-time-code"
                    autoCapitalize="characters"
                    spellCheck={false}
                    maxLength={16}
                    value={f.values.recovery_code ?? ''}
                    error={f.error('recovery_code')}
                    disabled={f.busy}
                    onChange={(e) => f.change('recovery_code', e.currentTarget.value)}
                  />
                ) : (
                  <CodeField f={f} />
                )}
                <Anchor component="button" type="button" size="sm" onClick={() => f.change('method', recovery ? 'code' : 'recovery')}>
                  {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
                </Anchor>
              </>
            );
          }}
        </StepForm>
      </Stack>
    );
  }

  return (
    <Stack gap="md" maw={520}>
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('twoFactor.title')}
        </Title>
        <Badge color={on ? 'teal' : 'gray'} variant="light" data-two-factor-status={on ? 'on' : 'off'}>
          {on ? t('twoFactor.statusOn') : t('twoFactor.statusOff')}
        </Badge>
      </Group>
      <Text c="dimmed" size="sm">
        {t('twoFactor.description')}
      </Text>
      {body}
    </Stack>
  );
}

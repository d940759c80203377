/** /login/two-factor: the code from the authenticator app, or a recovery code (loaded by ./login-flow when needed). */
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFieldError } from '../../components/field-error';
import { AuthCard } from './auth-card';
import { IDENTIFIER_FIELDS, SigningInAs, submitting, type LoginActor, type LoginSnapshot } from './login-flow';
import { SubmitAlert, submitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

export function TwoFactorStep({ actor, snap }: { actor: LoginActor; snap: LoginSnapshot }) {
  const { t } = useTranslation('auth');
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  const busy = snap.hasTag('busy');
  const step = snap.matches('twoFactor') ? (snap.value as { twoFactor: string }).twoFactor : null;
  const recovery = c.secondFactor === 'recovery';
  return (
    <AuthCard title={t('twoFactor.title')} description={recovery ? t('twoFactor.recoveryHint') : t('twoFactor.codeHint')}>
      <SigningInAs actor={actor} snap={snap} />
      <form noValidate method="post" onSubmit={submitting(actor, 'auth.verify')}>
        <Stack gap="md">
          {recovery ? (
            <TextInput
              key="recovery"
              label={t('twoFactor.recoveryLabel')}
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              value={c.values.recoveryOtp ?? ''}
              onChange={(e) => actor.send({ type: 'auth.change', field: 'recoveryOtp', value: e.currentTarget.value })}
              error={error('recovery_code')}
              maxLength={16}
              autoFocus
            />
          ) : (
            <TextInput
              key="code"
              label={t('twoFactor.codeLabel')}
              autoComplete="one-time-code"
              inputMode="numeric"
              pattern="[0-9 ]*"
              value={c.values.totp ?? ''}
              onChange={(e) => actor.send({ type: 'auth.change', field: 'totp', value: e.currentTarget.value })}
              error={error('code')}
              maxLength={7}
              autoFocus
            />
          )}
          <UnplacedErrors errors={c.fieldErrors} shown={['code', 'recovery_code', ...IDENTIFIER_FIELDS, 'password']} />
          <SubmitAlert problem={submitProblem(step)} retryAfter={c.retryAfter} />
          <Button type="submit" fullWidth loading={busy}>
            {t('twoFactor.verify')}
          </Button>
        </Stack>
      </form>
      <Group justify="center">
        <Anchor component="button" type="button" size="sm" onClick={() => actor.send({ type: 'auth.useRecovery', recovery: !recovery })}>
          {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
        </Anchor>
      </Group>
    </AuthCard>
  );
}

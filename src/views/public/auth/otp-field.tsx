/**
 * Six-digit code entry with where it was sent, and the resend control: a visible countdown until
 * another code may be asked for, then a "Send a new code" button.
 */
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface OtpFieldProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  destination?: string | null;
  resendIn: number;
  canResend: boolean;
  resending?: boolean;
  onResend: () => void;
  autoFocus?: boolean;
}

export function OtpField({ value, onChange, error, destination, resendIn, canResend, resending, onResend, autoFocus = true }: OtpFieldProps) {
  const { t } = useTranslation('auth');
  return (
    <Stack gap="xs">
      <TextInput
        label={t('otpLabel')}
        description={destination ? t('otpSentTo', { destination }) : t('otpHelp')}
        value={value ?? ''}
        onChange={(e) => onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
        error={error}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        autoFocus={autoFocus}
        styles={{ input: { letterSpacing: '0.5em', fontVariantNumeric: 'tabular-nums' } }}
      />
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('otpNotReceived')}
        </Text>
        {resendIn > 0 ? (
          <Text size="sm" c="dimmed" data-testid="resend-countdown">
            {t('resendIn', { count: resendIn })}
          </Text>
        ) : (
          <Button variant="subtle" size="compact-sm" onClick={onResend} disabled={!canResend} loading={resending}>
            {t('resendCode')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

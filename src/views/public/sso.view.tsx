/**
 * Single sign-on status (spec §2, §4): a loader while connecting, the connection- or server-error
 * view with retry otherwise. Used by the SSO login and SSO logout routes.
 */
import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorView } from '../components/error-view';

export type SsoStatus = 'connecting' | 'connectionError' | 'serverError';

export interface SsoStatusViewProps {
  status: SsoStatus;
  onRetry: () => void;
}

export function SsoStatusView({ status, onRetry }: SsoStatusViewProps) {
  const { t } = useTranslation('common');
  if (status === 'connectionError') return <ErrorView kind="connection" onRetry={onRetry} />;
  if (status === 'serverError') return <ErrorView kind="server" onRetry={onRetry} />;
  return (
    <Center mih="50vh">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader aria-hidden="true" />
        <Text c="dimmed">{t('sso.connecting')}</Text>
      </Stack>
    </Center>
  );
}

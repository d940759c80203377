/**
 * Account blocked (spec §2): denied illustration, heading, how to reach support (support e-mail, or
 * the company e-mail when that is invalid; phone with messaging-app links), Try again, and Logout
 * for signed-in members. The session decides whether this screen applies; this view only renders.
 */
import { Button, Group, Image, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { validSupportEmail } from '../../lib/links';
import type { Company } from '../../schemas/common.schema';
import { ContactLinks } from '../components/contact-links';
import { OverlaySpinner } from '../components/overlay-spinner';

export interface AccountBlockedViewProps {
  company: Pick<Company, 'name' | 'support_email' | 'email' | 'phone'> | null;
  authenticated: boolean;
  busy: boolean;
  onTryAgain: () => void;
  onLogout: () => void;
}

export function AccountBlockedView({ company, authenticated, busy, onTryAgain, onLogout }: AccountBlockedViewProps) {
  const { t } = useTranslation('common');
  return (
    <Stack align="center" gap="md" ta="center" py="md">
      <Image src="/images/denied.svg" alt="" h="25vh" w="auto" fit="contain" />
      <Title order={1} size="h2">
        {t('accountBlocked.title')}
      </Title>
      <Text c="dimmed">{t('accountBlocked.description')}</Text>
      {company && (
        <Stack gap={6} align="center">
          <Text size="sm" fw={500}>
            {t('accountBlocked.contactIntro')}
          </Text>
          <ContactLinks email={validSupportEmail(company)} phone={company.phone} messaging />
        </Stack>
      )}
      <Group justify="center" gap="sm" mt="sm">
        <Button onClick={onTryAgain} disabled={busy}>
          {t('tryAgain')}
        </Button>
        {authenticated && (
          <Button variant="default" onClick={onLogout} disabled={busy}>
            {t('logout')}
          </Button>
        )}
      </Group>
      <OverlaySpinner visible={busy} />
    </Stack>
  );
}

/**
 * The frame of the screens that stop a blocked visitor (account blocked, demo blocked): illustration,
 * heading, description, how to reach someone, Try again, Logout for signed-in visitors, and a busy overlay.
 */
import { Button, Group, Image, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { OverlaySpinner } from '../components/overlay-spinner';

export interface BlockedScreenProps {
  image: string;
  title: string;
  description: string;
  /** The contact block, when there is someone to contact. */
  contact: ReactNode;
  /** Under the buttons. */
  footer?: ReactNode;
  authenticated: boolean;
  busy: boolean;
  onTryAgain: () => void;
  onLogout: () => void;
}

export function BlockedScreen({ image, title, description, contact, footer, authenticated, busy, onTryAgain, onLogout }: BlockedScreenProps) {
  const { t } = useTranslation('common');
  return (
    <Stack align="center" gap="md" ta="center" py="md">
      <Image src={image} alt="" h="25vh" w="auto" fit="contain" />
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed">{description}</Text>
      {contact}
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
      {footer}
      <OverlaySpinner visible={busy} />
    </Stack>
  );
}

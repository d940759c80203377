/** Full-page error (spec §2): image, title, description and an uppercase RETRY button. */
import { Button, Center, Image, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FullPageErrorProps {
  title: ReactNode;
  description: ReactNode;
  onRetry: () => void;
  image?: string;
}

export function FullPageError({ title, description, onRetry, image = '/images/server-error.svg' }: FullPageErrorProps) {
  const { t } = useTranslation('common');
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="md" ta="center" maw={480}>
        <Image src={image} alt="" h="25vh" w="auto" fit="contain" />
        <div role="alert">
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed" mt={4}>
            {description}
          </Text>
        </div>
        <Button onClick={onRetry} size="md">
          {t('RETRY')}
        </Button>
      </Stack>
    </Center>
  );
}

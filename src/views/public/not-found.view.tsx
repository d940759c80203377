/** Any unknown path: a short explanation and a way back to the start. */
import { Button, Image, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

export function NotFoundView({ homeHref = '/' }: { homeHref?: string }) {
  const { t } = useTranslation('common');
  return (
    <Stack align="center" gap="md" ta="center" py="xl" px="md">
      <Image src="/images/maintenance.svg" alt="" h="25vh" w="auto" fit="contain" />
      <Title order={1} size="h2">
        {t('notFound.title')}
      </Title>
      <Text c="dimmed" maw={440}>
        {t('notFound.description')}
      </Text>
      <Button component={Link} href={homeHref}>
        {t('backHome')}
      </Button>
    </Stack>
  );
}

/** A member section that is not open yet: shown inside the shell, never a blank page or "not found". */
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

export function ComingSoonView({ titleKey, homeHref = '~/member/home/dashboard' }: { titleKey?: string; homeHref?: string }) {
  const { t } = useTranslation('common');
  return (
    <Stack align="center" ta="center" gap="sm" py="xl" data-page="coming-soon">
      <Title order={1} size="h2">
        {titleKey ? t(titleKey) : t('shell.comingSoonTitle')}
      </Title>
      <Text fw={600}>{t('shell.comingSoonTitle')}</Text>
      <Text c="dimmed" maw={440}>
        {t('shell.comingSoonDescription')}
      </Text>
      <Button component={Link} href={homeHref} variant="light">
        {t('backHome')}
      </Button>
    </Stack>
  );
}

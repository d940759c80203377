/** What a list or a page shows when there is nothing to show. */
import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface EmptyStateProps {
  title?: ReactNode;
  description?: ReactNode;
  /** An optional call to action (a button or a link). */
  action?: ReactNode;
}

export function EmptyState({ title, description, action }: EmptyStateProps) {
  const { t } = useTranslation('common');
  return (
    <Stack align="center" gap={6} py="xl" px="md" ta="center">
      <Title order={3} size="h4">
        {title ?? t('noItems')}
      </Title>
      <Text c="dimmed" size="sm" maw={420}>
        {description ?? t('noItemsDescription')}
      </Text>
      {action}
    </Stack>
  );
}

/** One row of an endless list: a title with details under it, and a figure on the right. Fits 360 px. */
import { Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** The details line of a row: the parts that are there, separated by a middle dot. */
export function detailsOf(...parts: (string | null | undefined | false)[]): string {
  return parts.filter(Boolean).join(' · ');
}

export function ListRow({ title, details, figure, figureColor, extra }: { title: ReactNode; details?: ReactNode; figure?: ReactNode; figureColor?: string; extra?: ReactNode }) {
  return (
    <Paper role="listitem" withBorder radius="sm" px="sm" py={8} mb={6}>
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={500} size="sm" truncate>
            {title}
          </Text>
          {details && (
            <Text size="xs" c="dimmed">
              {details}
            </Text>
          )}
          {extra}
        </Stack>
        {figure !== undefined && (
          <Text fw={600} size="sm" c={figureColor} style={{ whiteSpace: 'nowrap' }}>
            {figure}
          </Text>
        )}
      </Group>
    </Paper>
  );
}

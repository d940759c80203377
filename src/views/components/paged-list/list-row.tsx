/**
 * One row of an endless list: a title with details, and a figure on the right. On a phone it is a card (the
 * details under the title); from the list width on (dense-list) it is a dense row — title, details and the
 * figure in columns that line up from row to row, the amount right-aligned.
 */
import { Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { denseGrid, RIGHT, useWideList } from './dense-list';

/** The details line of a row: the parts that are there, separated by a middle dot. */
export function detailsOf(...parts: (string | null | undefined | false)[]): string {
  return parts.filter(Boolean).join(' · ');
}

/** The dense row's columns: the title, the details, the figure. */
const ROW_COLUMNS = 'minmax(10rem, 2fr) minmax(12rem, 3fr) minmax(7rem, 1fr)';

export function ListRow({ title, details, figure, figureColor, extra }: { title: ReactNode; details?: ReactNode; figure?: ReactNode; figureColor?: string; extra?: ReactNode }) {
  const wide = useWideList();
  const amount =
    figure !== undefined ? (
      <Text fw={600} size="sm" c={figureColor} style={{ whiteSpace: 'nowrap', ...(wide ? RIGHT : null) }}>
        {figure}
      </Text>
    ) : null;
  if (wide)
    return (
      <Paper role="listitem" withBorder radius="sm" px="sm" py={6} mb={4} style={denseGrid(ROW_COLUMNS)} data-dense-row>
        <Text fw={500} size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {title}
        </Text>
        <Group gap="xs" style={{ minWidth: 0 }}>
          {details && (
            <Text size="xs" c="dimmed">
              {details}
            </Text>
          )}
          {extra}
        </Group>
        {amount ?? <span />}
      </Paper>
    );
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
        {amount}
      </Group>
    </Paper>
  );
}

/**
 * One row of an endless list: a title with details, and a figure on the right. On a phone it is a card (the
 * details under the title); in a list's table (dense-list, wide screens) it is a dense row — title, details
 * and the figure in the columns of the list's header, the amount right-aligned.
 */
import { Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { DenseRow, RIGHT, useDenseColumns, type DenseColumn } from './dense-list';

/** The details line of a row: the parts that are there, separated by a middle dot. */
export function detailsOf(...parts: (string | null | undefined | false)[]): string {
  return parts.filter(Boolean).join(' · ');
}

/** The columns of a list of ListRows, titled by the list: the title, the details, the figure (right-aligned). */
export function listRowColumns(title: string, details: string, figure: string): DenseColumn[] {
  return [
    { label: title, width: 'minmax(10rem, 2fr)' },
    { label: details, width: 'minmax(12rem, 3fr)' },
    { label: figure, width: 'minmax(7rem, 1fr)', right: true },
  ];
}

export function ListRow({ title, details, figure, figureColor, extra }: { title: ReactNode; details?: ReactNode; figure?: ReactNode; figureColor?: string; extra?: ReactNode }) {
  const dense = useDenseColumns();
  const amount =
    figure !== undefined ? (
      <Text fw={600} size="sm" c={figureColor} style={{ whiteSpace: 'nowrap', ...(dense ? RIGHT : null) }} data-amount>
        {figure}
      </Text>
    ) : null;
  if (dense)
    return (
      <DenseRow
        cells={[
          <Text key="title" fw={500} size="sm">
            {title}
          </Text>,
          <Group key="details" gap="xs" style={{ minWidth: 0 }}>
            {details && (
              <Text size="xs" c="dimmed">
                {details}
              </Text>
            )}
            {extra}
          </Group>,
          amount,
        ]}
      />
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

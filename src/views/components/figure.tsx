/** A small labelled figure in a bordered box (wallet totals, referral counts); the value below its label. */
import { Paper, Text } from '@mantine/core';

export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Paper>
  );
}

/** A labelled figure (an amount, a volume, a count) in a card; the palette rotates by index (spec §9). */
import { Card, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export const CARD_COLOURS = ['violet', 'blue', 'teal', 'orange', 'pink', 'grape'] as const;

/** `compact`: a smaller card for the figures that are looked up rather than watched. */
export function FigureCard({ label, value, index = 0, hint, compact }: { label: string; value: ReactNode; index?: number; hint?: ReactNode; compact?: boolean }) {
  const colour = CARD_COLOURS[index % CARD_COLOURS.length];
  return (
    <Card withBorder padding={compact ? 'xs' : 'md'} radius="md" style={{ borderLeft: `4px solid var(--mantine-color-${colour}-6)` }} data-figure={label}>
      <Text size={compact ? 'xs' : 'sm'} c="dimmed" component="h3" m={0} fw={500}>
        {label}
      </Text>
      <Text size={compact ? 'md' : 'xl'} fw={700} mt={compact ? 0 : 4} data-value style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed" mt={2} component="div">
          {hint}
        </Text>
      ) : null}
    </Card>
  );
}

/** A volume (PV, TV, BV…): grouped, two decimals, no currency symbol and no rate. */
export const VOLUME = { withoutSymbol: true, converted: true, decimals: 2 } as const;

/**
 * How every list of the member area adapts to the screen: from WIDE_LIST_QUERY on, dense rows (a table, or
 * a CSS grid shared by a header and every row) with amounts right-aligned; below it, on phones, one card per
 * row, so nothing is cut off or scrolls sideways. The one place that says where that switch happens.
 */
import { em, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** Dense rows from this width; cards below it. */
export const WIDE_LIST_QUERY = `(min-width: ${em(768)})`;

/** Whether the screen is wide enough for a list's dense rows. */
export const useWideList = () => useMediaQuery(WIDE_LIST_QUERY, false, { getInitialValueInEffect: false });

/** Columns of a dense row: a CSS grid shared by the header and every row. */
export const denseGrid = (columns: string) => ({ display: 'grid', gridTemplateColumns: columns, gap: 'var(--mantine-spacing-sm)', alignItems: 'center' }) as const;

/** Amounts and counts line up on the right. */
export const RIGHT = { textAlign: 'right' } as const;

/** The column titles over a list's dense rows (`true` right-aligns a column of amounts). */
export function DenseHeader({ columns, labels }: { columns: string; labels: Array<[string, boolean?]> }) {
  return (
    <div aria-hidden="true" style={{ ...denseGrid(columns), padding: '0 var(--mantine-spacing-sm)' }}>
      {labels.map(([label, r]) => (
        <Text key={label} size="xs" fw={700} c="dimmed" tt="uppercase" style={r ? RIGHT : undefined}>
          {label}
        </Text>
      ))}
    </div>
  );
}

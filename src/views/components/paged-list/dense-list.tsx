/**
 * How every list of the member area adapts to the screen: from WIDE_LIST_QUERY on, a table — a header of
 * column titles over dense rows whose cells line up in one CSS grid, amounts right-aligned, announced by
 * screen readers as a table (role table, row, columnheader, cell); below it, on phones, one card per row
 * in a list, so nothing is cut off or scrolls sideways. The one place that says where that switch happens,
 * and the one table of the lists: each list declares its columns (DenseColumn) and draws, for each item,
 * a DenseRow of cells where useDenseColumns() says it is in the table, else its card.
 */
import { em, Paper, Stack, Text, type MantineSpacing, type PaperProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { createContext, useContext, type CSSProperties, type HTMLAttributes, type ReactNode } from 'react';
import classes from './dense-list.module.css';

/** Dense rows from this width; cards below it. */
export const WIDE_LIST_QUERY = `(min-width: ${em(768)})`;

/** Whether the screen is wide enough for a list's dense rows. */
export const useWideList = () => useMediaQuery(WIDE_LIST_QUERY, false, { getInitialValueInEffect: false });

/** Columns of a dense row: a CSS grid shared by the header and every row. */
const denseGrid = (columns: string) => ({ display: 'grid', gridTemplateColumns: columns, gap: 'var(--mantine-spacing-sm)', alignItems: 'center' }) as const;

/** Amounts and counts line up on the right. */
export const RIGHT = { textAlign: 'right' } as const;

/** A column of a list's table: its title, its width in the grid, and whether it holds amounts (right-aligned). */
export interface DenseColumn {
  label: string;
  width: string;
  right?: boolean;
}

const gridOf = (columns: DenseColumn[]) => columns.map((c) => c.width).join(' ');

const Columns = createContext<DenseColumn[] | null>(null);

/** The columns of the table an item is drawn in; null in a list of cards (a phone, or a list without columns). */
export const useDenseColumns = () => useContext(Columns);

/** The rows' padding and border, so the header's titles stand over their cells. */
const ROW_BOX: CSSProperties = { padding: '0 var(--mantine-spacing-sm)', border: '1px solid transparent' };

/** The column titles over a list's dense rows: a header row of column headers. */
function DenseHeader({ columns }: { columns: DenseColumn[] }) {
  return (
    <div role="rowgroup" data-dense-header>
      <div role="row" style={{ ...denseGrid(gridOf(columns)), ...ROW_BOX, marginBottom: 4 }}>
        {columns.map((c) => (
          <Text key={c.label} role="columnheader" size="xs" fw={700} c="dimmed" tt="uppercase" style={c.right ? RIGHT : undefined}>
            {c.label}
          </Text>
        ))}
      </div>
    </div>
  );
}

type Attributes = Omit<HTMLAttributes<HTMLDivElement>, 'role' | 'children'> & Record<`data-${string}`, unknown>;

/**
 * The rows of a list: with `columns`, on a wide screen, a table with its header (the rows draw DenseRows);
 * else a list (the rows draw their cards).
 */
export function DenseList({ columns, children, ...rest }: { columns?: DenseColumn[] | null; children: ReactNode } & Attributes) {
  const wide = useWideList();
  if (wide && columns)
    return (
      <div role="table" {...rest} data-dense-table>
        <DenseHeader columns={columns} />
        <Columns.Provider value={columns}>{children}</Columns.Provider>
      </div>
    );
  return (
    <div role="list" {...rest}>
      <Columns.Provider value={null}>{children}</Columns.Provider>
    </div>
  );
}

/** A list's items: straight in the table as its rows, or cards spaced out in a stack. */
export function DenseItems({ children, gap = 'xs' }: { children: ReactNode; gap?: MantineSpacing }) {
  if (useDenseColumns()) return <>{children}</>;
  return <Stack gap={gap}>{children}</Stack>;
}

/** One item as a row of the table: a cell per column, in the columns' grid. */
export function DenseRow({ cells, style, ...rest }: { cells: ReactNode[] } & Omit<PaperProps, 'children'> & Attributes) {
  const columns = useDenseColumns() ?? [];
  return (
    <Paper withBorder radius="sm" px="sm" py={6} mb={4} {...rest} role="row" data-dense-row style={{ ...denseGrid(gridOf(columns)), ...(style as CSSProperties) }}>
      {columns.map((c, i) => (
        <div key={c.label} role="cell" className={classes.cell} style={{ minWidth: 0, overflowWrap: 'anywhere', ...(c.right ? RIGHT : null) }}>
          {cells[i]}
        </div>
      ))}
    </Paper>
  );
}

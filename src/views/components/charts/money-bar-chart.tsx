/**
 * Money (or counts: `money` formats whatever the figures are) per period as a bar chart with axes, values on hover and a legend (Mantine charts, drawn by
 * recharts: loaded with the first page that shows a chart, never with the sign-in), and the same figures
 * as a table a member can switch to — exact amounts, right-aligned, for reading and for screen readers.
 */
import '@mantine/core/styles/SegmentedControl.css';
import { Group, SegmentedControl, Skeleton, Stack, Table, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ChartSeries {
  /** Key of the series in each row's `values`. */
  name: string;
  label: string;
  /** A Mantine colour, e.g. 'teal.7'. */
  color: string;
}

export interface ChartRow {
  key: string;
  /** Under the bar (short: a day or a month). */
  label: string;
  /** In the tooltip and the table (long: the full date). */
  longLabel: string;
  /** Decimal strings per series name. */
  values: Record<string, string>;
}

export interface MoneyBarChartProps {
  /** Shown above the chart (leave out where the chart's section already says it). */
  title?: string;
  /** Heading of the table's first column (Day, Month…). */
  periodLabel: string;
  series: ChartSeries[];
  rows: ChartRow[];
  /** Amounts as the member reads them (currency, language). */
  money: (value: string | number) => string;
  /** A one-sentence summary: the chart's accessible name. */
  summary: string;
  height?: number;
  /** Series stacked in one bar per period (parts of a whole, e.g. leads by source) instead of side by side. */
  stacked?: boolean;
}

const Drawing = lazy(() => import('./money-bar-chart.drawing'));

export function MoneyBarChart(props: MoneyBarChartProps) {
  const { t } = useTranslation('common');
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const height = props.height ?? 220;
  return (
    <Stack gap={6} data-chart-box>
      <Group justify={props.title ? 'space-between' : 'flex-end'} gap="xs" wrap="nowrap">
        {props.title && (
          <Text size="sm" fw={500}>
            {props.title}
          </Text>
        )}
        <SegmentedControl
          size="xs"
          aria-label={t('chart.showAs')}
          value={view}
          onChange={(v) => setView(v as 'chart' | 'table')}
          data={[
            { value: 'chart', label: t('chart.chart') },
            { value: 'table', label: t('chart.table') },
          ]}
        />
      </Group>
      {view === 'chart' ? (
        <div role="img" aria-label={props.summary} data-chart={props.rows.length}>
          <Suspense fallback={<Skeleton h={height} />}>
            <Drawing {...props} height={height} />
          </Suspense>
        </div>
      ) : (
        <Table.ScrollContainer minWidth={280} mah={height + 60}>
          <Table striped highlightOnHover verticalSpacing={4} data-chart-table>
            <Table.Caption>{props.summary}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{props.periodLabel}</Table.Th>
                {props.series.map((s) => (
                  <Table.Th key={s.name} scope="col" ta="right">
                    {s.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.rows.map((r) => (
                <Table.Tr key={r.key}>
                  <Table.Th scope="row" fw={400}>
                    {r.longLabel}
                  </Table.Th>
                  {props.series.map((s) => (
                    <Table.Td key={s.name} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {props.money(r.values[s.name] ?? '0')}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

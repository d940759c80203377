/** The drawing of MoneyBarChart (its own chunk: recharts loads only where a chart is shown). */
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import type { MoneyBarChartProps } from './money-bar-chart';

export default function MoneyBarChartDrawing({ rows, series, money, height, stacked }: MoneyBarChartProps & { height: number }) {
  // Bar heights only: every figure shown in words goes through money() from the exact decimal string.
  const data = rows.map((r) => ({
    period: r.label,
    long: r.longLabel,
    ...Object.fromEntries(series.map((s) => [s.name, Number(r.values[s.name] ?? 0)])),
  }));
  return (
    <BarChart
      h={height}
      data={data}
      dataKey="period"
      series={series}
      type={stacked ? 'stacked' : 'default'}
      valueFormatter={(v) => money(v)}
      withLegend={series.length > 1}
      legendProps={{ verticalAlign: 'bottom' }}
      tickLine="y"
      gridAxis="y"
      yAxisProps={{ width: 72, tickFormatter: (v: number) => money(v) }}
      xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
      tooltipProps={{ labelFormatter: (_: unknown, payload: ReadonlyArray<{ payload?: { long?: string } }>) => payload?.[0]?.payload?.long ?? '' }}
      tooltipAnimationDuration={150}
      barProps={{ isAnimationActive: false }}
    />
  );
}

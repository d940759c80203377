/**
 * Money in and out of the wallet per month as an SVG bar chart (credit and debit side by side). The
 * SVG carries a summary as its accessible name; the exact figures are in a table for screen readers.
 */
import { Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MonthlyTotal } from '../../schemas/home.schema';
import { useDisplayFormat } from '../member/display-format';

const W = 640;
const H = 220;
const PAD = { top: 10, right: 8, bottom: 4, left: 8 };

export function HistoryChart({ credit, debit }: { credit: MonthlyTotal[]; debit: MonthlyTotal[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const { money } = useDisplayFormat();
  const months = credit.map((c) => c.month);
  const debitOf = new Map(debit.map((d) => [d.month, d.total]));
  const rows = months.map((m, i) => ({ month: m, credit: credit[i].total, debit: debitOf.get(m) ?? '0' }));
  // Heights only (display): the figures themselves are formatted exactly by money().
  const max = Math.max(1, ...rows.flatMap((r) => [Math.abs(Number(r.credit)), Math.abs(Number(r.debit))]));
  const slot = (W - PAD.left - PAD.right) / Math.max(1, rows.length);
  const bar = Math.max(2, slot * 0.35);
  const plotH = H - PAD.top - PAD.bottom;
  const label = (month: string) => {
    const [y, mo] = month.split('-').map(Number);
    return new Date(y, mo - 1, 1).toLocaleDateString(i18n.resolvedLanguage ?? 'en', { month: 'short' });
  };
  const longLabel = (month: string) => {
    const [y, mo] = month.split('-').map(Number);
    return new Date(y, mo - 1, 1).toLocaleDateString(i18n.resolvedLanguage ?? 'en', { month: 'long', year: 'numeric' });
  };
  const total = (key: 'credit' | 'debit') => rows.reduce((s, r) => s + Number(r[key]), 0);
  const summary = t('chart.summary', { months: rows.length, credit: money(total('credit').toFixed(4)), debit: money(total('debit').toFixed(4)) });
  return (
    <div>
      <Group gap="md" mb={6} aria-hidden="true">
        <Group gap={6}>
          <span style={{ width: 12, height: 12, background: 'var(--mantine-color-teal-6)', borderRadius: 2 }} />
          <Text size="xs">{t('chart.credit')}</Text>
        </Group>
        <Group gap={6}>
          <span style={{ width: 12, height: 12, background: 'var(--mantine-color-orange-6)', borderRadius: 2 }} />
          <Text size="xs">{t('chart.debit')}</Text>
        </Group>
      </Group>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        width="100%"
        height={180}
        role="img"
        aria-label={summary}
        data-chart="credit-debit"
        style={{ display: 'block' }}
      >
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} stroke="var(--mantine-color-default-border)" vectorEffect="non-scaling-stroke" />
        {rows.map((r, i) => {
          const x = PAD.left + i * slot + slot / 2;
          const hc = (Math.abs(Number(r.credit)) / max) * plotH;
          const hd = (Math.abs(Number(r.debit)) / max) * plotH;
          return (
            <g key={r.month}>
              <rect x={x - bar - 1} y={H - PAD.bottom - hc} width={bar} height={hc} fill="var(--mantine-color-teal-6)" />
              <rect x={x + 1} y={H - PAD.bottom - hd} width={bar} height={hd} fill="var(--mantine-color-orange-6)" />
            </g>
          );
        })}
      </svg>
      <div
        className="upline-chart-months"
        aria-hidden="true"
        style={{ gridTemplateColumns: `repeat(${Math.max(1, rows.length)}, 1fr)`, padding: `0 ${(PAD.right / W) * 100}% 0 ${(PAD.left / W) * 100}%` }}
      >
        {rows.map((r) => (
          <span key={r.month}>{label(r.month)}</span>
        ))}
      </div>
      <VisuallyHidden>
        <Table>
          <caption>{t('chart.title')}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('chart.month')}</Table.Th>
              <Table.Th scope="col">{t('chart.credit')}</Table.Th>
              <Table.Th scope="col">{t('chart.debit')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.month}>
                <Table.Th scope="row">{longLabel(r.month)}</Table.Th>
                <Table.Td>{money(r.credit)}</Table.Td>
                <Table.Td>{money(r.debit)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </VisuallyHidden>
    </div>
  );
}

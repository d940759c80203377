/** Money in and out of the wallet per month: credit and debit side by side, with the table alternative. */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonthlyTotal } from '../../schemas/home.schema';
import { MoneyBarChart } from '../components/charts/money-bar-chart';
import { useDisplayFormat } from '../member/display-format';

export function HistoryChart({ credit, debit }: { credit: MonthlyTotal[]; debit: MonthlyTotal[] }) {
  const { t, i18n } = useTranslation('dashboard');
  const { money } = useDisplayFormat();
  const debitOf = new Map(debit.map((d) => [d.month, d.total]));
  // One formatter per style for all the months (toLocaleDateString would set one up for every label).
  const language = i18n.resolvedLanguage ?? 'en';
  const { short, long } = useMemo(
    () => ({
      short: new Intl.DateTimeFormat(language, { month: 'short' }),
      long: new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric' }),
    }),
    [language],
  );
  const monthName = (month: string, format: Intl.DateTimeFormat) => {
    const [y, mo] = month.split('-').map(Number);
    return format.format(new Date(y, mo - 1, 1));
  };
  const rows = credit.map((c) => ({
    key: c.month,
    label: monthName(c.month, short),
    longLabel: monthName(c.month, long),
    values: { credit: c.total, debit: debitOf.get(c.month) ?? '0' },
  }));
  const total = (key: 'credit' | 'debit') => rows.reduce((s, r) => s + Number(r.values[key]), 0);
  return (
    <MoneyBarChart
      periodLabel={t('chart.month')}
      series={[
        { name: 'credit', label: t('chart.credit'), color: 'teal.7' },
        { name: 'debit', label: t('chart.debit'), color: 'orange.7' },
      ]}
      rows={rows}
      money={money}
      summary={t('chart.summary', { months: rows.length, credit: money(total('credit').toFixed(4)), debit: money(total('debit').toFixed(4)) })}
    />
  );
}

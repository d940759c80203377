/** /member/wallet with tabs statement, earning and payout (spec §2, §3). */
import { Anchor, Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import type { DatesRangeValue } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { earningsOverviewMachine, earningsRangeMachine, payoutStatementMachine, walletStatementMachine } from '../../machines/wallet-pages.machine';
import { daysInRange, MAX_CHART_DAYS } from '../../lib/list-filters';
import { MoneyBarChart } from '../components/charts/money-bar-chart';
import { useListFormat } from '../components/paged-list/list-format';
import { ListRow, listRowColumns } from '../components/paged-list/list-row';
import { DenseList } from '../components/paged-list/dense-list';
import { dayOf, DayRangeInput } from '../components/paged-list/day-range-input';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { EmptyState } from '../components/empty-state';
import { Figure } from '../components/figure';
import { TabbedPage } from '../components/tabbed-page';

export type WalletTab = 'statement' | 'earning' | 'payout';

type LoadActor = ActorRefFrom<typeof walletStatementMachine> | ActorRefFrom<typeof earningsOverviewMachine> | ActorRefFrom<typeof payoutStatementMachine>;

/** A tab's load: the error with retry, the loader, then the tab drawn from the loaded data. */
function Loaded<A extends LoadActor>({ actor, children }: { actor: A; children: (data: NonNullable<SnapshotFrom<A>['context']['data']>) => ReactNode }) {
  const status = useSelector(actor as ActorRefFrom<typeof walletStatementMachine>, (s) => s.value as string);
  const data = useSelector(actor as ActorRefFrom<typeof walletStatementMachine>, (s) => s.context.data);
  if (status === 'connectionError' || status === 'error')
    return <ErrorView kind={status === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (data === null) return <PageLoader />;
  return <>{children(data as NonNullable<SnapshotFrom<A>['context']['data']>)}</>;
}

/** A date-wise bar chart of amounts (earnings per day, payouts per period), with its table alternative. */
export function DatewiseChart({ points, label }: { points: Array<{ date: string; total: string }>; label: string }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  if (!points.length) return null;
  const total = points.reduce((s, p) => s + (Number(p.total) || 0), 0);
  return (
    <MoneyBarChart
      title={label}
      periodLabel={t('chartDay')}
      series={[{ name: 'total', label, color: 'blue.7' }]}
      rows={points.map((p) => ({ key: p.date, label: f.day(p.date), longLabel: f.day(p.date), values: { total: p.total } }))}
      money={f.money}
      summary={t('chartSummary', { label, from: f.day(points[0].date), to: f.day(points[points.length - 1].date), total: f.money(total.toFixed(4)) })}
      height={180}
    />
  );
}

/** Balance, total paid and total pending side by side: the head of the statement and of the payout tab. */
function BalanceFigures({ balance, paid, pending }: { balance: string; paid: string; pending: string }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
      <Figure label={t('statement.balance')} value={f.money(balance)} />
      <Figure label={t('statement.totalPaid')} value={f.money(paid)} />
      <Figure label={t('statement.totalPending')} value={f.money(pending)} />
    </SimpleGrid>
  );
}

export function StatementTab({ actor }: { actor: ActorRefFrom<typeof walletStatementMachine> }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  return (
    <Loaded actor={actor}>
      {(data) => (
        <Stack gap="md">
          <BalanceFigures balance={data.wallet_balance} paid={data.total_paid} pending={data.total_pending} />
          <Group justify="space-between">
            <Title order={2} size="h4">
              {t('statement.recent')}
            </Title>
            <Anchor component={Link} href="/wallet/transactions">
              {t('statement.allTransactions')}
            </Anchor>
          </Group>
          {data.recent_transactions.length === 0 ? (
            <EmptyState title={t('list.emptyTitle')} description={t('list.emptyDescription')} />
          ) : (
            <DenseList columns={listRowColumns(t('columns.transaction'), t('columns.details'), t('columns.amount'))} aria-label={t('statement.recent')}>
              {data.recent_transactions.map((tx) => (
                <ListRow
                  key={tx.id}
                  title={t(`transactionKeys.${tx.transaction_key}`, { defaultValue: data.transaction_labels[tx.transaction_key] ?? tx.transaction_key })}
                  details={f.date(tx.created_at)}
                  figure={`${tx.cash_flow === 'debit' ? '−' : '+'}${f.money(tx.amount)}`}
                  figureColor={tx.cash_flow === 'debit' ? 'red' : 'teal'}
                />
              ))}
            </DenseList>
      )}
          </Stack>
        )}
    </Loaded>
  );
}

export interface ChartRange {
  from: string;
  to: string;
}

/**
 * Earnings: the all-time total (overview load) and, for the chosen range, totals by bonus type and a
 * date-wise chart (range load of earnings_total_datewise). `range` is the one in the URL (null: the
 * last 30 days); `onRange` writes a new one.
 */
export function EarningTab({
  actor,
  rangeActor,
  range,
  onRange,
}: {
  actor: ActorRefFrom<typeof earningsOverviewMachine>;
  rangeActor: ActorRefFrom<typeof earningsRangeMachine>;
  range: ChartRange | null;
  onRange: (range: ChartRange | null) => void;
}) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const data = useSelector(actor, (s) => s.context.data);
  const rangeStatus = useSelector(rangeActor, (s) => s.value as string);
  const rangeData = useSelector(rangeActor, (s) => s.context.data);
  const [picked, setPicked] = useState<DatesRangeValue<string>>([range?.from ?? null, range?.to ?? null]);
  // The URL may change under the picker (Back, a pasted link): show what it says.
  const urlKey = range ? `${range.from}/${range.to}` : '';
  const [shownKey, setShownKey] = useState(urlKey);
  if (shownKey !== urlKey) {
    setShownKey(urlKey);
    setPicked([range?.from ?? null, range?.to ?? null]);
  }
  const [from, to] = picked;
  const tooLong = !!from && !!to && daysInRange(dayOf(from), dayOf(to)) > MAX_CHART_DAYS;
  const labelOf = (k: string) => t(`bonusTypes.${k}`, { defaultValue: data?.bonus_labels[k] ?? k });
  const rangeTotal = rangeData ? rangeData.earnings_datewise_grouped.reduce((sum, g) => sum + (Number(g.total) || 0), 0) : 0;
  return (
    <Loaded actor={actor}>
      {() =>
        data && (
          <Stack gap="md">
            <Figure label={t('earnings.total')} value={f.money(data.total_earnings)} />
            <Group align="flex-end" gap="xs" data-earnings-range>
              <DayRangeInput
                label={t('earnings.range')}
                value={picked}
                error={tooLong ? t('earnings.rangeTooLong', { days: MAX_CHART_DAYS }) : undefined}
                onChange={(v) => {
                  setPicked(v);
                  const [a, b] = v;
                  if (a && b) {
                    const next = { from: dayOf(a), to: dayOf(b) };
                    if (daysInRange(next.from, next.to) <= MAX_CHART_DAYS) onRange(next);
                  }
                }}
                miw={240}
              />
              {range && (
                <Button variant="default" onClick={() => onRange(null)}>
                  {t('earnings.last30')}
                </Button>
              )}
            </Group>
            {rangeStatus === 'connectionError' || rangeStatus === 'error' ? (
              <ErrorView compact kind={rangeStatus === 'connectionError' ? 'connection' : 'server'} onRetry={() => rangeActor.send({ type: 'load.retry' })} />
            ) : !rangeData ? (
              <PageLoader />
            ) : (
              <Stack gap="md" data-earnings-range-status={rangeStatus} aria-busy={rangeStatus === 'loading'} style={{ opacity: rangeStatus === 'loading' ? 0.6 : 1 }}>
                <Title order={2} size="h4">
                  {t('earnings.byType', { from: f.day(rangeData.start_date), to: f.day(rangeData.end_date) })}
                </Title>
                <Figure label={t('earnings.rangeTotal')} value={f.money(rangeTotal)} />
                <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
                  {rangeData.earnings_datewise_grouped.map((g) => (
                    <Figure key={g.bonus_type} label={labelOf(g.bonus_type)} value={f.money(g.total)} />
                  ))}
                </SimpleGrid>
                <DatewiseChart points={rangeData.earnings_datewise} label={t('earnings.chart')} />
              </Stack>
            )}
            <Anchor component={Link} href="/wallet/recent-earnings">
              {t('earnings.all')}
            </Anchor>
          </Stack>
        )
      }
    </Loaded>
  );
}

export function PayoutTab({ actor }: { actor: ActorRefFrom<typeof payoutStatementMachine> }) {
  const { t } = useTranslation('wallet');
  return (
    <Loaded actor={actor}>
      {(data) => (
        <Stack gap="md">
          <BalanceFigures balance={data.total_balance} paid={data.total_paid} pending={data.total_pending} />
          <DatewiseChart points={data.payout_datewise} label={t('payouts.chart')} />
          <Group>
            <Button component={Link} href="/wallet/request-payout">
              {t('payouts.requestButton')}
            </Button>
            <Anchor component={Link} href="/wallet/recent-payouts">
              {t('payouts.all')}
            </Anchor>
          </Group>
        </Stack>
      )}
    </Loaded>
  );
}

const WALLET_TABS = ['statement', 'earning', 'payout'] as const satisfies readonly WalletTab[];

export function WalletTabs({ tab, children }: { tab: WalletTab; children: ReactNode }) {
  const { t } = useTranslation('wallet');
  return (
    <TabbedPage title={t('title')} tabs={WALLET_TABS} tab={tab} label={(k) => t(`tabs.${k}`)} href={(k) => `/wallet/${k}`}>
      {children}
    </TabbedPage>
  );
}

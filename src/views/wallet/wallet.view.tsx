/** /member/wallet with tabs statement, earning and payout (spec §2, §3). */
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { earningsOverviewMachine, payoutStatementMachine, walletStatementMachine } from '../../machines/wallet-pages.machine';
import { useListFormat } from '../components/paged-list/list-format';
import { ListRow } from '../components/paged-list/list-row';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { EmptyState } from '../components/empty-state';

export type WalletTab = 'statement' | 'earning' | 'payout';

type LoadActor = ActorRefFrom<typeof walletStatementMachine> | ActorRefFrom<typeof earningsOverviewMachine> | ActorRefFrom<typeof payoutStatementMachine>;

function Loaded({ actor, children }: { actor: LoadActor; children: () => ReactNode }) {
  const status = useSelector(actor as ActorRefFrom<typeof walletStatementMachine>, (s) => s.value as string);
  const hasData = useSelector(actor as ActorRefFrom<typeof walletStatementMachine>, (s) => s.context.data !== null);
  if (status === 'connectionError' || status === 'error')
    return <ErrorView kind={status === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (!hasData) return <PageLoader />;
  return <>{children()}</>;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Card>
  );
}

/** A date-wise bar chart as plain SVG; each bar has a title with its day and amount. */
export function DatewiseChart({ points, label }: { points: Array<{ date: string; total: string }>; label: string }) {
  const f = useListFormat();
  const max = Math.max(0, ...points.map((p) => Number(p.total) || 0));
  const w = 100 / Math.max(points.length, 1);
  if (!points.length) return null;
  return (
    <svg role="img" aria-label={label} viewBox="0 0 100 40" preserveAspectRatio="none" width="100%" height={140} data-chart>
      {points.map((p, i) => {
        const h = max > 0 ? ((Number(p.total) || 0) / max) * 38 : 0;
        return (
          <rect key={p.date} x={i * w + w * 0.1} y={40 - h} width={w * 0.8} height={h} fill="var(--mantine-primary-color-filled)">
            <title>{`${f.day(p.date)}: ${f.money(p.total)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

export function StatementTab({ actor }: { actor: ActorRefFrom<typeof walletStatementMachine> }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const data = useSelector(actor, (s) => s.context.data);
  return (
    <Loaded actor={actor}>
      {() =>
        data && (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <Figure label={t('statement.balance')} value={f.money(data.wallet_balance)} />
              <Figure label={t('statement.totalPaid')} value={f.money(data.total_paid)} />
              <Figure label={t('statement.totalPending')} value={f.money(data.total_pending)} />
            </SimpleGrid>
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
              <div role="list">
                {data.recent_transactions.map((tx) => (
                  <ListRow
                    key={tx.id}
                    title={t(`transactionKeys.${tx.transaction_key}`, { defaultValue: data.transaction_labels[tx.transaction_key] ?? tx.transaction_key })}
                    details={f.date(tx.created_at)}
                    figure={`${tx.cash_flow === 'debit' ? '−' : '+'}${f.money(tx.amount)}`}
                    figureColor={tx.cash_flow === 'debit' ? 'red' : 'teal'}
                  />
                ))}
              </div>
            )}
          </Stack>
        )
      }
    </Loaded>
  );
}

export function EarningTab({ actor }: { actor: ActorRefFrom<typeof earningsOverviewMachine> }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const data = useSelector(actor, (s) => s.context.data);
  return (
    <Loaded actor={actor}>
      {() =>
        data && (
          <Stack gap="md">
            <Figure label={t('earnings.total')} value={f.money(data.total_earnings)} />
            <Title order={2} size="h4">
              {t('earnings.byType', { from: f.day(data.start_date), to: f.day(data.end_date) })}
            </Title>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
              {data.earnings_datewise_grouped.map((g) => (
                <Figure key={g.bonus_type} label={t(`bonusTypes.${g.bonus_type}`, { defaultValue: data.bonus_labels[g.bonus_type] ?? g.bonus_type })} value={f.money(g.total)} />
              ))}
            </SimpleGrid>
            <DatewiseChart points={data.earnings_datewise} label={t('earnings.chart')} />
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
  const f = useListFormat();
  const data = useSelector(actor, (s) => s.context.data);
  return (
    <Loaded actor={actor}>
      {() =>
        data && (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <Figure label={t('statement.balance')} value={f.money(data.total_balance)} />
              <Figure label={t('statement.totalPaid')} value={f.money(data.total_paid)} />
              <Figure label={t('statement.totalPending')} value={f.money(data.total_pending)} />
            </SimpleGrid>
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
        )
      }
    </Loaded>
  );
}

export function WalletTabs({ tab, children }: { tab: WalletTab; children: ReactNode }) {
  const { t } = useTranslation('wallet');
  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        {t('title')}
      </Title>
      <Tabs value={tab} keepMounted={false}>
        <Tabs.List>
          {(['statement', 'earning', 'payout'] as const).map((k) => (
            <Tabs.Tab key={k} value={k} component={Link as never} {...({ href: `/wallet/${k}` } as object)}>
              {t(`tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {children}
    </Stack>
  );
}

/** The wallet's endless lists: transactions, recent earnings and recent payouts (spec §2, §3). */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { ListFilterState } from '../../lib/list-filters';
import type { Earning, PayoutTransaction, Transaction } from '../../schemas/wallet.schema';
import { PAYOUT_STATUS_IDS } from '../../schemas/list-query.schema';
import type { recentEarningsListMachine, recentPayoutsListMachine, transactionsListMachine } from '../../machines/wallet-lists.machine';
import { ListPage, useTypeLabels } from '../components/paged-list/list-page';
import { detailsOf, ListRow, listRowColumns } from '../components/paged-list/list-row';
import { useListFormat } from '../components/paged-list/list-format';

export interface ListViewProps<A> {
  actor: A;
  onFilters: (filters: ListFilterState) => void;
  onDownload?: () => void;
}

const STATUS_COLOURS: Record<string, string> = { pending: 'yellow', approved: 'blue', paid: 'green', rejected: 'red', cancelled: 'gray' };

export function TransactionsListView(list: ListViewProps<ActorRefFrom<typeof transactionsListMachine>>) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const { label, typeOptions } = useTypeLabels(list.actor, 'transactionKeys');
  return (
    <ListPage
      title={t('transactions.title')}
      {...list}
      withCashFlow
      columns={listRowColumns(t('columns.transaction'), t('columns.details'), t('columns.amount'))}
      typeLabel={t('filters.transactionTypes')}
      typeOptions={typeOptions}
      renderItems={(items: Transaction[]) =>
        items.map((tx) => (
          <ListRow
            key={tx.id}
            title={label(tx.transaction_key)}
            details={detailsOf(f.date(tx.created_at), tx.from_user && t('fromUser', { user: tx.from_user }))}
            figure={`${tx.cash_flow === 'debit' ? '−' : '+'}${f.money(tx.amount)}`}
            figureColor={tx.cash_flow === 'debit' ? 'red' : 'teal'}
          />
        ))
      }
    />
  );
}

export function RecentEarningsListView(list: ListViewProps<ActorRefFrom<typeof recentEarningsListMachine>>) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const { label, typeOptions } = useTypeLabels(list.actor, 'bonusTypes');
  return (
    <ListPage
      title={t('earnings.recentTitle')}
      {...list}
      columns={listRowColumns(t('columns.bonus'), t('columns.details'), t('columns.payable'))}
      typeLabel={t('filters.bonusTypes')}
      typeOptions={typeOptions}
      renderItems={(items: Earning[]) =>
        items.map((e) => (
          <ListRow
            key={e.id}
            title={label(e.bonus_type)}
            details={detailsOf(f.date(e.created_at), e.from_user && t('fromUser', { user: e.from_user }), e.level != null && t('level', { level: e.level }))}
            figure={f.money(e.amount_payable)}
            figureColor="teal"
            extra={
              Number(e.tax) || Number(e.service_charge) ? (
                <span style={{ fontSize: 12 }}>{t('earnings.deductions', { gross: f.money(e.amount_generated), tax: f.money(e.tax), charge: f.money(e.service_charge) })}</span>
              ) : null
            }
          />
        ))
      }
    />
  );
}

export function RecentPayoutsListView(list: ListViewProps<ActorRefFrom<typeof recentPayoutsListMachine>>) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  return (
    <ListPage
      title={t('payouts.recentTitle')}
      {...list}
      columns={listRowColumns(t('columns.request'), t('columns.details'), t('columns.total'))}
      typeLabel={t('filters.payoutStatuses')}
      typePlaceholder={t('filters.allStatuses')}
      typeOptions={PAYOUT_STATUS_IDS.map((id) => ({ value: id, label: t(`payoutStatus.${id}`) }))}
      renderItems={(items: PayoutTransaction[]) =>
        items.map((p) => (
          <ListRow
            key={p.id}
            title={t('payouts.request', { id: p.id })}
            details={detailsOf(f.date(p.created_at), t('payouts.fee', { fee: f.money(p.fee) }))}
            figure={f.money(p.total)}
            extra={
              <Badge size="xs" variant="light" color={STATUS_COLOURS[p.status]}>
                {t(`payoutStatus.${p.status_id}`)}
              </Badge>
            }
          />
        ))
      }
    />
  );
}

/** PV history and binary history (spec §2, §3), with the derived facts of binary rows. */
import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { isDeduction, isTwoToOnePair, maxDeducted, type BinaryHistoryEntry, type PvHistoryEntry } from '../../schemas/history.schema';
import type { binaryHistoryListMachine, pvHistoryListMachine } from '../../machines/wallet-lists.machine';
import { ListPage, useTypeLabels } from '../components/paged-list/list-page';
import { detailsOf, ListRow, listRowColumns } from '../components/paged-list/list-row';
import { useListFormat } from '../components/paged-list/list-format';
import type { ListViewProps } from '../wallet/wallet-lists.view';

export function PvHistoryView(list: ListViewProps<ActorRefFrom<typeof pvHistoryListMachine>>) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const { label, typeOptions } = useTypeLabels(list.actor, 'historyTypes');
  return (
    <ListPage
      title={t('history.pvTitle')}
      {...list}
      columns={listRowColumns(t('columns.entry'), t('columns.details'), t('columns.pvTv'))}
      typeOptions={typeOptions}
      renderItems={(items: PvHistoryEntry[]) =>
        items.map((e) => (
          <ListRow
            key={e.id}
            title={label(e.type)}
            details={detailsOf(f.date(e.created_at), e.from_username && t('fromUser', { user: e.from_username }))}
            figure={t('history.pvTv', { pv: f.volume(e.pv), tv: f.volume(e.tv) })}
            extra={<span style={{ fontSize: 12 }}>{t('history.totals', { pv: f.volume(e.total_pv), tv: f.volume(e.total_tv) })}</span>}
          />
        ))
      }
    />
  );
}

export function BinaryHistoryRow({ entry: e }: { entry: BinaryHistoryEntry }) {
  const { t } = useTranslation('wallet');
  const f = useListFormat();
  const deduction = isDeduction(e);
  return (
    <ListRow
      title={deduction ? t('history.deduction') : t(e.leg === 'L' ? 'history.addedLeft' : 'history.addedRight')}
      details={detailsOf(f.date(e.created_at), e.from_username && t('fromUser', { user: e.from_username }))}
      figure={deduction ? `−${f.volume(maxDeducted(e))}` : `+${f.volume(e.pv_added)}`}
      figureColor={deduction ? 'red' : 'teal'}
      extra={
        <>
          {deduction && (
            <Group gap={4}>
              <Badge size="xs" variant="light" color="grape">
                {t('history.deductedLR', { left: f.volume(e.pv_deducted_left), right: f.volume(e.pv_deducted_right) })}
              </Badge>
              {isTwoToOnePair(e) && (
                <Badge size="xs" variant="filled" color="orange">
                  {t('history.twoToOne')}
                </Badge>
              )}
              <Badge size="xs" variant="light" color="teal">
                {t('history.bonus', { generated: f.money(e.bonus_generated), paid: f.money(e.bonus_to_pay) })}
              </Badge>
            </Group>
          )}
          <span style={{ fontSize: 12 }}>
            {t('history.carry', { left: f.volume(e.carry_left), right: f.volume(e.carry_right), totalLeft: f.volume(e.total_left), totalRight: f.volume(e.total_right) })}
          </span>
        </>
      }
    />
  );
}

export function BinaryHistoryView(list: ListViewProps<ActorRefFrom<typeof binaryHistoryListMachine>>) {
  const { t } = useTranslation('wallet');
  const { typeOptions } = useTypeLabels(list.actor, 'historyTypes');
  return (
    <ListPage
      title={t('history.binaryTitle')}
      {...list}
      columns={listRowColumns(t('columns.entry'), t('columns.details'), t('columns.pv'))}
      typeOptions={typeOptions}
      renderItems={(items: BinaryHistoryEntry[]) => items.map((e) => <BinaryHistoryRow key={e.id} entry={e} />)}
    />
  );
}

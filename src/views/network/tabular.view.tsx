/**
 * Network › tabular: the downline as an indented, expandable list, virtualised (@tanstack/react-virtual):
 * only the rows in the scroll window are in the DOM, each a fixed height, so tens of thousands of loaded
 * rows mount, expand and scroll like a few dozen.
 */
import { Avatar, Button, Group, Paper, Skeleton, Text, UnstyledButton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useSelector } from '@xstate/react';
import { memo, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { visibleRows, type TableRow, type tabularTreeMachine } from '../../machines/tabular-tree.machine';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { Currency } from '../../schemas/common.schema';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';

export const ROW_HEIGHT = 52;
const INDENT = 22;

export interface TabularViewProps {
  actor: ActorRefFrom<typeof tabularTreeMachine>;
  currency?: Currency | null;
  datePattern?: string | null;
  /** Height of the scroll window (default: most of the screen). */
  height?: number | string;
}

export function TabularView({ actor, currency, datePattern, height = 'min(72vh, 720px)' }: TabularViewProps) {
  const { t } = useTranslation('network');
  const status = useSelector(actor, (s) => (s.matches('ready') ? 'ready' : (s.value as string)));
  const data = useSelector(actor, (s) => s.context.data);
  const rootId = useSelector(actor, (s) => s.context.rootId);
  const fetching = useSelector(actor, (s) => s.context.fetching);
  const queue = useSelector(actor, (s) => s.context.queue);
  const rowErrors = useSelector(actor, (s) => s.context.rowErrors);
  const rows = useMemo(() => visibleRows({ data, rootId, fetching, queue, rowErrors }), [data, rootId, fetching, queue, rowErrors]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (i) => {
      const r = rows[i];
      return r ? `${r.kind}:${r.id}` : i;
    },
  });

  if (status === 'loading' || status === 'forceLogout') return <PageLoader />;
  if (status === 'connectionError' || status === 'error')
    return <ErrorView kind={status === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'table.retry' })} />;

  const items = virtualizer.getVirtualItems();
  return (
    <Paper withBorder radius="md" data-tabular="">
      <div ref={scrollRef} style={{ height, overflow: 'auto', contain: 'strict' }} data-tabular-scroll="">
        <div role="tree" aria-label={t('table.label')} style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
          {items.map((v) => {
            const row = rows[v.index];
            return (
              <div
                key={v.key}
                data-index={v.index}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
              >
                <Row row={row} send={actor.send} currency={currency} datePattern={datePattern} />
              </div>
            );
          })}
        </div>
      </div>
      <Text size="xs" c="dimmed" px="sm" py={4} aria-live="polite">
        {t('table.rows', { count: rows.filter((r) => r.kind === 'node').length })}
      </Text>
    </Paper>
  );
}

type Send = ActorRefFrom<typeof tabularTreeMachine>['send'];

const Row = memo(function Row({
  row,
  send,
  currency,
  datePattern,
}: {
  row: TableRow;
  send: Send;
  currency?: Currency | null;
  datePattern?: string | null;
}) {
  const { t } = useTranslation('network');
  const pad = row.depth * INDENT + 8;
  if (row.kind === 'pending')
    return (
      <Group h={ROW_HEIGHT} pl={pad + 28} gap="xs" role="treeitem" aria-level={row.depth + 1} aria-busy="true">
        <Skeleton h={14} w={180} />
        <Text size="xs" c="dimmed">
          {t('table.loading')}
        </Text>
      </Group>
    );
  if (row.kind === 'error')
    return (
      <Group h={ROW_HEIGHT} pl={pad + 28} gap="xs" role="treeitem" aria-level={row.depth + 1}>
        <Text size="sm" c="red" role="alert">
          {t('table.rowFailed')}
        </Text>
        <Button size="compact-xs" variant="light" color="red" onClick={() => send({ type: 'table.expand', id: row.id })}>
          {t('table.retry')}
        </Button>
      </Group>
    );
  if (row.kind === 'more')
    return (
      <Group h={ROW_HEIGHT} pl={pad + 28} role="treeitem" aria-level={row.depth + 1}>
        <Button size="compact-sm" variant="subtle" onClick={() => send({ type: 'table.more', id: row.id })}>
          {t('table.more')}
        </Button>
      </Group>
    );
  const n = row.node;
  const name = [n.first_name, (n.last_name ?? '').trim()].filter(Boolean).join(' ');
  return (
    <Group
      h={ROW_HEIGHT}
      pl={pad}
      pr="sm"
      gap="sm"
      wrap="nowrap"
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.expandable ? row.expanded : undefined}
      aria-label={`${n.username}, ${name}`}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-row={n.username}
    >
      {row.expandable ? (
        <UnstyledButton
          w={24}
          h={24}
          aria-label={t(row.expanded ? 'table.collapse' : 'table.expand', { username: n.username })}
          onClick={() => send({ type: row.expanded ? 'table.collapse' : 'table.expand', id: n.id })}
          style={{ textAlign: 'center', borderRadius: 4, fontWeight: 700 }}
        >
          {row.expanded ? '−' : '+'}
        </UnstyledButton>
      ) : (
        <span style={{ width: 24, flex: 'none' }} />
      )}
      <Avatar src={n.avatar} alt="" size={30} radius="xl" color="initials" name={name}>
        {(n.first_name[0] ?? '') + ((n.last_name ?? '').trim()[0] ?? '')}
      </Avatar>
      <div style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" fw={600} truncate>
          {n.username}{' '}
          <Text span size="xs" c={n.status === 1 ? 'green' : 'red'}>
            ●
          </Text>
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {name} · {formatDate(n.created_at, datePattern)}
        </Text>
      </div>
      <div style={{ textAlign: 'right', flex: 'none' }}>
        <Text size="sm">{formatMoney(n.total_earnings, currency)}</Text>
        <Text size="xs" c="dimmed">
          {t('fields.downlines')}: {n.downlines_count}
        </Text>
      </div>
    </Group>
  );
});

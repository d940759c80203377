/**
 * Network › tabular: the downline as an indented, expandable list, virtualised (@tanstack/react-virtual):
 * only the rows in the scroll window are in the DOM, each a fixed height, so tens of thousands of loaded
 * rows mount, expand and scroll like a few dozen.
 */
import { Button, Group, Paper, Skeleton, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useSelector } from '@xstate/react';
import { memo, useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { visibleRows, type TableRow, type tabularTreeMachine } from '../../machines/tabular-tree.machine';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { Currency } from '../../schemas/common.schema';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import './tabular.css';

export const ROW_HEIGHT = 52;
const INDENT = 22;
const KEY_OFFSET: Record<TableRow['kind'], number> = { node: 0, more: 1, pending: 2, error: 3 };
/** Every row has the same height: nothing is measured. */
const estimateSize = () => ROW_HEIGHT;
const INITIAL_RECT = { width: 0, height: 720 };

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
  const memberCount = useMemo(() => rows.reduce((n, r) => (r.kind === 'node' ? n + 1 : n), 0), [rows]);
  // The virtualiser recomputes every row's offset whenever getItemKey changes: keep it stable per row list
  // (not a new function on each scroll render), and keys cheap (numbers, not strings).
  const getItemKey = useCallback((i: number) => {
    const r = rows[i];
    return r ? r.id * 4 + KEY_OFFSET[r.kind] : -1 - i;
  }, [rows]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: 8,
    getItemKey,
    // A first guess of the window so the first render already has its rows (corrected once measured).
    initialRect: INITIAL_RECT,
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
        {t('table.rows', { count: memberCount })}
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
    <div
      className="upline-trow"
      style={{ paddingLeft: pad }}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={row.expandable ? row.expanded : undefined}
      aria-label={`${n.username}, ${name}`}
      data-row={n.username}
    >
      {row.expandable ? (
        <button
          type="button"
          className="upline-trow-toggle"
          aria-label={t(row.expanded ? 'table.collapse' : 'table.expand', { username: n.username })}
          onClick={() => send({ type: row.expanded ? 'table.collapse' : 'table.expand', id: n.id })}
        >
          {row.expanded ? '−' : '+'}
        </button>
      ) : (
        <span className="upline-trow-spacer" />
      )}
      <span className="upline-trow-avatar" aria-hidden="true">
        {n.avatar ? <img src={n.avatar} alt="" loading="lazy" /> : (n.first_name[0] ?? '') + ((n.last_name ?? '').trim()[0] ?? '')}
      </span>
      <div className="upline-trow-main">
        <p className="upline-trow-line">
          <span className="upline-trow-name">{n.username}</span>{' '}
          <span className={n.status === 1 ? 'upline-trow-on' : 'upline-trow-off'}>●</span>
        </p>
        <p className="upline-trow-small">
          {name} · {formatDate(n.created_at, datePattern)}
        </p>
      </div>
      <div className="upline-trow-side">
        <p className="upline-trow-line">{formatMoney(n.total_earnings, currency)}</p>
        <p className="upline-trow-small">
          {t('fields.downlines')}: {n.downlines_count}
        </p>
      </div>
    </div>
  );
});

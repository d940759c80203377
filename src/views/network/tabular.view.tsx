/**
 * Network › tabular: the downline as an indented, expandable list, virtualised: only the rows in the
 * scroll window are in the DOM, each a fixed height (row-window.ts), and the rows are listed in typed
 * arrays with a row's object built only when it is shown, so tens of thousands of loaded rows mount,
 * expand and scroll like a few dozen.
 */
import { Button, Group, Paper, Skeleton, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { memo, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { ActorRefFrom } from 'xstate';
import { rowAt, rowKey, rowList, type TableRow, type tabularTreeMachine } from '../../machines/tabular-tree.machine';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { Currency } from '../../schemas/common.schema';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { useRowWindow } from './row-window';
import './tabular.css';

export const ROW_HEIGHT = 52;
const INDENT = 22;
/** Rows drawn beyond each edge of the window (scrolling shows them at once). */
const OVERSCAN = 8;
/** The window's height until it is known. */
const INITIAL_HEIGHT = 720;

export interface TabularViewProps {
  actor: ActorRefFrom<typeof tabularTreeMachine>;
  currency?: Currency | null;
  datePattern?: string | null;
  /** Height of the scroll window (default: most of the screen). */
  height?: number | string;
}

export function TabularView({ actor, currency, datePattern, height = 'min(72vh, 720px)' }: TabularViewProps) {
  const { t, i18n } = useTranslation('network');
  const status = useSelector(actor, (s) => (s.matches('ready') ? 'ready' : (s.value as string)));
  const data = useSelector(actor, (s) => s.context.data);
  const rootId = useSelector(actor, (s) => s.context.rootId);
  const fetching = useSelector(actor, (s) => s.context.fetching);
  const queue = useSelector(actor, (s) => s.context.queue);
  const rowErrors = useSelector(actor, (s) => s.context.rowErrors);
  // The rows in typed arrays (no object per row); a row's object is built when it is on screen.
  const ctx = useMemo(() => ({ data, rootId, fetching, queue, rowErrors }), [data, rootId, fetching, queue, rowErrors]);
  const rows = useMemo(() => rowList(ctx), [ctx]);
  const win = useRowWindow(rows.length, ROW_HEIGHT, OVERSCAN, INITIAL_HEIGHT);
  const texts = useRowTexts(t, i18n.language, currency, datePattern);

  if (status === 'loading' || status === 'forceLogout') return <PageLoader />;
  if (status === 'connectionError' || status === 'error')
    return <ErrorView kind={status === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'table.retry' })} />;

  const shown: ReactNode[] = [];
  for (let i = win.first; i < win.last; i++)
    shown.push(
      <div
        key={rowKey(ctx, rows, i)}
        data-index={i}
        style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${i * ROW_HEIGHT}px)` }}
      >
        <Row row={rowAt(ctx, rows, i)} send={actor.send} texts={texts} />
      </div>,
    );
  return (
    <Paper withBorder radius="md" data-tabular="">
      <div ref={win.ref} style={{ height, overflow: 'auto', contain: 'strict' }} data-tabular-scroll="">
        <div role="tree" aria-label={t('table.label')} style={{ height: win.total, position: 'relative', width: '100%' }}>
          {shown}
        </div>
      </div>
      <Text size="xs" c="dimmed" px="sm" py={4} aria-live="polite">
        {t('table.rows', { count: rows.members })}
      </Text>
    </Paper>
  );
}

type Send = ActorRefFrom<typeof tabularTreeMachine>['send'];

/** What the rows show besides their member: labels, and amounts and dates formatted once per value. */
interface RowTexts {
  t: TFunction<'network'>;
  downlines: string;
  money: (amount: string) => string;
  date: (value: string) => string;
}

function useRowTexts(t: TFunction<'network'>, language: string, currency?: Currency | null, datePattern?: string | null): RowTexts {
  return useMemo(() => {
    const amounts = new Map<string, string>();
    const dates = new Map<string, string>();
    const once = (cache: Map<string, string>, value: string, format: (v: string) => string) => {
      let text = cache.get(value);
      if (text === undefined) {
        text = format(value);
        cache.set(value, text);
      }
      return text;
    };
    return {
      t,
      downlines: t('fields.downlines'),
      money: (amount) => once(amounts, amount, (v) => formatMoney(v, currency)),
      date: (value) => once(dates, value, (v) => formatDate(v, datePattern, { language })),
    };
  }, [t, language, currency, datePattern]);
}

const Row = memo(function Row({ row, send, texts }: { row: TableRow; send: Send; texts: RowTexts }) {
  const { t } = texts;
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
          {name} · {texts.date(n.created_at)}
        </p>
      </div>
      <div className="upline-trow-side">
        <p className="upline-trow-line">{texts.money(n.total_earnings)}</p>
        <p className="upline-trow-small">
          {texts.downlines}: {n.downlines_count}
        </p>
      </div>
    </div>
  );
});

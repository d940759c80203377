/**
 * The chrome of an endless list (spec §4 list statuses): a skeleton while the first page loads, an
 * empty state, full-size connection/server errors with retry when nothing is shown yet, and under
 * the rows a footer that loads more (an IntersectionObserver sentinel plus a Load more button for
 * keyboard users), shows the page in flight, the end of the list, or an inline error with retry that
 * keeps the rows already shown. Long lists (VIRTUALISE_FROM rows or more) keep only the rows near the
 * viewport in the page, so thousands of loaded rows scroll as smoothly as twenty.
 */
import { Alert, Button, Center, Group, Loader, Skeleton, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useLayoutEffect, useEffect, useRef, useState, type ReactNode } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { createPagedListMachine } from '../../../machines/paged-list.machine';
import { EmptyState } from '../empty-state';
import { ErrorView } from '../error-view';
import { PageLoader } from '../page-loader';
import { DenseList, type DenseColumn } from './dense-list';

// Any paged list actor: views only read its status and rows.
export type PagedListActor<T, M = unknown> = ActorRefFrom<ReturnType<typeof createPagedListMachine<T, never, M>>>;

export interface PagedListProps<T> {
  actor: PagedListActor<T>;
  /** The rows of the given items (all loaded items, or one at a time in a long windowed list). */
  renderItems: (items: T[]) => ReactNode;
  emptyTitle?: string;
  emptyDescription?: string;
  /** A call to action in the empty state (e.g. "Add address"). */
  emptyAction?: ReactNode;
  /** The list's columns: on wide screens the rows are a table under their titles (dense-list); cards without. */
  columns?: DenseColumn[];
}

/** Calls onVisible whenever the element scrolls into view (with a margin, so the next page comes early). */
function Sentinel({ onVisible }: { onVisible: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && latest.current(), { rootMargin: '400px 0px' });
    io.observe(el);
    return () => io.disconnect();
  }, []);
  return <div ref={ref} data-list-sentinel aria-hidden style={{ height: 1 }} />;
}

/** From this many loaded rows on, only the rows near the viewport are rendered. */
export const VIRTUALISE_FROM = 200;

/** Rows of a long list, windowed over the page's own scroll; each row is measured once shown. */
function WindowedRows({ count, renderRow }: { count: number; renderRow: (index: number) => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    if (ref.current) setTop(ref.current.getBoundingClientRect().top + window.scrollY);
  }, []);
  const v = useWindowVirtualizer({ count, estimateSize: () => 64, overscan: 10, scrollMargin: top });
  return (
    <div ref={ref} style={{ height: v.getTotalSize(), position: 'relative' }} data-windowed>
      {v.getVirtualItems().map((item) => (
        <div
          key={item.key}
          data-index={item.index}
          ref={v.measureElement}
          style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start - top}px)` }}
        >
          {renderRow(item.index)}
        </div>
      ))}
    </div>
  );
}

export function PagedList<T>({ actor, renderItems, emptyTitle, emptyDescription, emptyAction, columns }: PagedListProps<T>) {
  const { t } = useTranslation('wallet');
  const status = useSelector(actor, (s) => s.value as string);
  const items = useSelector(actor, (s) => s.context.items as T[]);
  const retry = () => actor.send({ type: 'list.retry' });
  const loadMore = () => actor.send({ type: 'list.loadMore' });

  switch (status) {
    case 'initialLoading':
      return (
        <Stack gap="xs" data-list-status="initialLoading" aria-busy="true" aria-label={t('list.loading')}>
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} height={52} radius="sm" />
          ))}
        </Stack>
      );
    case 'noItems':
      return (
        <div data-list-status="noItems">
          <EmptyState title={emptyTitle ?? t('list.emptyTitle')} description={emptyDescription ?? t('list.emptyDescription')} action={emptyAction} />
        </div>
      );
    case 'networkErrorNoData':
    case 'serverErrorNoData':
      return (
        <div data-list-status={status}>
          <ErrorView compact kind={status === 'networkErrorNoData' ? 'connection' : 'server'} onRetry={retry} />
        </div>
      );
    case 'forceLogout':
      return <PageLoader />;
  }

  return (
    <Stack gap="xs" data-list-status={status}>
      <DenseList columns={columns} aria-label={t('list.rows')} aria-busy={status === 'loadingMore'} data-list-count={items.length}>
        {items.length >= VIRTUALISE_FROM ? <WindowedRows count={items.length} renderRow={(i) => renderItems([items[i]])} /> : renderItems(items)}
      </DenseList>
      {status === 'readyToLoadMore' && (
        <>
          <Sentinel onVisible={loadMore} />
          <Center>
            <Button variant="light" onClick={loadMore}>
              {t('list.loadMore')}
            </Button>
          </Center>
        </>
      )}
      {status === 'loadingMore' && (
        <Center py="sm">
          <Group gap="xs">
            <Loader size="sm" />
            <Text size="sm" c="dimmed" role="status">
              {t('list.loadingMore')}
            </Text>
          </Group>
        </Center>
      )}
      {status === 'noMoreItems' && (
        <Text ta="center" size="sm" c="dimmed" py="sm">
          {t('list.end', { count: items.length })}
        </Text>
      )}
      {(status === 'networkErrorMoreData' || status === 'serverErrorMoreData') && (
        <Alert color="red" variant="light" role="alert" title={t(status === 'networkErrorMoreData' ? 'list.moreConnectionError' : 'list.moreServerError')}>
          <Group justify="space-between" gap="xs">
            <Text size="sm">{t('list.moreErrorDescription')}</Text>
            <Button size="xs" onClick={retry}>
              {t('list.retry')}
            </Button>
          </Group>
        </Alert>
      )}
    </Stack>
  );
}

/** A titled endless list with its filter bar: what every history page of the member area looks like. */
import { Stack, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import type { ListMeta } from '../../../machines/wallet-lists.machine';
import type { ListFilterState } from '../../../lib/list-filters';
import type { DenseColumn } from './dense-list';
import { FilterBar, type FilterBarProps, type FilterOption } from './filter-bar';
import { PagedList, type PagedListActor } from './paged-list';

/** A list page: its own parts, and the filter bar's options (passed on as they are). */
export interface ListPageProps<T> extends Omit<FilterBarProps, 'filters' | 'onChange'> {
  title: string;
  /** The list's paged-list actor (its own machine type: the page only reads what every paged list has). */
  actor: AnyActorRef;
  renderItems: (items: T[]) => ReactNode;
  /** Writes new filters (to the URL); the list follows. */
  onFilters: (filters: ListFilterState) => void;
  emptyTitle?: string;
  headerExtra?: ReactNode;
  /** The list's columns on wide screens (dense-list). */
  columns?: DenseColumn[];
}

export function ListPage<T>({ title, actor, renderItems, onFilters, emptyTitle, headerExtra, columns, ...filterBar }: ListPageProps<T>) {
  const list = actor as unknown as PagedListActor<T>;
  const filters = useSelector(list, (s) => s.context.filters as unknown as ListFilterState);
  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        {title}
      </Title>
      {headerExtra}
      <FilterBar filters={filters} onChange={onFilters} {...filterBar} />
      <PagedList actor={list} renderItems={renderItems} emptyTitle={emptyTitle} columns={columns} />
    </Stack>
  );
}

/**
 * The type keys of a list whose pages name them with labels (`meta`): a key's label, translated under
 * `prefix` of the wallet texts when the client knows the key, else the server's; and the type filter's options.
 */
export function useTypeLabels(actor: AnyActorRef, prefix: string): { label: (key: string) => string; typeOptions: FilterOption[] } {
  const { t } = useTranslation('wallet');
  const meta = useSelector(actor, (s) => (s.context as { meta: ListMeta | null }).meta);
  const label = (key: string) => t(`${prefix}.${key}`, { defaultValue: meta?.labels[key] ?? key });
  return { label, typeOptions: (meta?.types ?? []).map((value) => ({ value, label: label(value) })) };
}

/** A titled endless list with its filter bar: what every history page of the member area looks like. */
import { Stack, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ListFilterState } from '../../../lib/list-filters';
import { FilterBar, type FilterOption } from './filter-bar';
import { PagedList, type PagedListActor } from './paged-list';

export interface ListPageProps<T> {
  title: string;
  actor: PagedListActor<T>;
  renderItems: (items: T[]) => ReactNode;
  /** Writes new filters (to the URL); the list follows. */
  onFilters: (filters: ListFilterState) => void;
  onDownload?: () => void;
  typeOptions?: FilterOption[];
  typeLabel?: string;
  typePlaceholder?: string;
  withCashFlow?: boolean;
  withDates?: boolean;
  emptyTitle?: string;
  headerExtra?: ReactNode;
}

export function ListPage<T>({ title, actor, renderItems, onFilters, onDownload, typeOptions, typeLabel, typePlaceholder, withCashFlow, withDates, emptyTitle, headerExtra }: ListPageProps<T>) {
  const filters = useSelector(actor, (s) => s.context.filters as unknown as ListFilterState);
  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        {title}
      </Title>
      {headerExtra}
      <FilterBar
        filters={filters}
        onChange={onFilters}
        typeOptions={typeOptions}
        typeLabel={typeLabel}
        typePlaceholder={typePlaceholder}
        withCashFlow={withCashFlow}
        withDates={withDates}
        onDownload={onDownload}
      />
      <PagedList actor={actor} renderItems={renderItems} emptyTitle={emptyTitle} />
    </Stack>
  );
}

/** Options of a type filter: the server's keys with its labels, translated when the client knows the key. */
export function typeOptionsOf(types: string[], labels: Record<string, string>, translate: (key: string, fallback: string) => string): FilterOption[] {
  return types.map((value) => ({ value, label: translate(value, labels[value] ?? value) }));
}

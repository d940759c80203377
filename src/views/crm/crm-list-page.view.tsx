/**
 * What every CRM list page (leads, contacts, sales, invoices) is made of: the page header (title, its
 * buttons), a search form, the filter row (the list's own choices — status, source — then from/to dates
 * and newest/oldest first, with a Clear button once anything is filtered), the CSV export, and the endless
 * list with its empty and no-match states. Every filter change goes out as a whole new set of filters (the
 * route writes it to the URL, so Back undoes one).
 */
import { Button, Group, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import type { ChangeEvent, FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnyActorRef } from 'xstate';
import type { DenseColumn } from '../components/paged-list/dense-list';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { PhoneFilters } from '../components/paged-list/phone-filters';

/** The filters every CRM list shares; a list adds its own (status, source). */
export interface CrmListFilters {
  q?: string;
  sort?: 'asc' | 'desc';
  date_range?: string;
  start_date?: string;
  end_date?: string;
}

/** Anything but the order narrows the list. */
export const isFiltered = (f: object) => Object.entries(f).some(([k, v]) => k !== 'sort' && v !== undefined && v !== '' && v !== null);

/** A CRM page's title with its buttons. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Group gap="xs">{children}</Group>
    </Group>
  );
}

/** The list's own choices before the dates: each given the way to change the filters. */
export type FilterChoices<F> = (set: (patch: Partial<F>) => void) => ReactNode[];

export interface CrmListPageProps<F extends CrmListFilters, T> {
  title: string;
  /** Header buttons before `newButton`. */
  actions?: ReactNode;
  /** The list's "New …" button: in the header, and offered by the empty list. */
  newButton?: ReactNode;
  filters: F;
  onFilters: (f: F) => void;
  search: { label: string; placeholder?: string };
  /** Extra filter fields (status, source); with `dates` false the page has the search alone. */
  choices?: FilterChoices<F>;
  dates?: boolean;
  onDownload: () => void;
  /** The list's columns: on wide screens a table under their titles (dense-list); cards without. */
  columns?: DenseColumn[];
  actor: AnyActorRef;
  empty: { title: string; noMatchTitle: string; description: string };
  renderItems: (items: T[]) => ReactNode;
}

export function CrmListPage<F extends CrmListFilters, T>(props: CrmListPageProps<F, T>) {
  const { t } = useTranslation('crm');
  const { title, actions, newButton, filters, onDownload, columns, actor, empty, renderItems } = props;
  const filtered = isFiltered(filters);
  return (
    <Stack gap="md">
      <PageHeader title={title}>
        {actions}
        {newButton}
      </PageHeader>
      <FilterBar {...props} />
      <Group justify="flex-end">
        <Button variant="default" size="xs" onClick={onDownload}>
          {t('leads.export')}
        </Button>
      </Group>
      <PagedList<T>
        columns={columns}
        actor={actor as unknown as PagedListActor<T>}
        emptyTitle={filtered ? empty.noMatchTitle : empty.title}
        emptyDescription={filtered ? t('leads.noMatchDescription') : empty.description}
        emptyAction={filtered ? undefined : newButton}
        renderItems={renderItems}
      />
    </Stack>
  );
}

function FilterBar<F extends CrmListFilters, T>({ filters, onFilters, search, choices, dates = true }: CrmListPageProps<F, T>) {
  const { t } = useTranslation('crm');
  const set = (patch: Partial<F>) => {
    const next: Record<string, unknown> = { ...filters, ...patch };
    for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === '' || next[k] === null) delete next[k];
    onFilters(next as F);
  };
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const q = new FormData(e.currentTarget).get('q');
    set({ q: typeof q === 'string' && q.trim() ? q.trim() : undefined } as Partial<F>);
  };
  const form = (
    <form role="search" aria-label={search.label} onSubmit={submit} key={filters.q ?? ''}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput name="q" type="search" label={search.label} placeholder={search.placeholder} defaultValue={filters.q ?? ''} style={{ flex: 1 }} />
        <Button type="submit" variant="light">
          {t('leads.searchButton')}
        </Button>
      </Group>
    </form>
  );
  if (!dates) return form;
  const extra = choices?.(set) ?? [];
  const row = (
    <SimpleGrid cols={{ base: 1, xs: 2, md: extra.length + 3 }} spacing="xs">
      {extra}
      <TextInput
        type="date"
        label={t('leads.from')}
        value={filters.start_date ?? ''}
        onChange={(e: ChangeEvent<HTMLInputElement>) => set({ start_date: e.currentTarget.value || undefined, date_range: undefined } as Partial<F>)}
      />
      <TextInput
        type="date"
        label={t('leads.to')}
        value={filters.end_date ?? ''}
        onChange={(e: ChangeEvent<HTMLInputElement>) => set({ end_date: e.currentTarget.value || undefined, date_range: undefined } as Partial<F>)}
      />
      <Select
        label={t('leads.sort')}
        data={[
          { value: 'desc', label: t('leads.newest') },
          { value: 'asc', label: t('leads.oldest') },
        ]}
        value={filters.sort ?? 'desc'}
        allowDeselect={false}
        onChange={(v) => set({ sort: v === 'asc' ? 'asc' : undefined } as Partial<F>)}
      />
    </SimpleGrid>
  );
  const narrowing = Object.entries(filters).filter(([k, v]) => k !== 'q' && k !== 'sort' && v).length;
  return (
    <Stack gap="xs">
      {form}
      {/* On a phone the filter row waits behind one "Filters" button; the search stays in view. */}
      <PhoneFilters count={narrowing}>{row}</PhoneFilters>
      {isFiltered(filters) && (
        <div>
          <Button variant="subtle" size="compact-sm" onClick={() => onFilters((filters.sort ? { sort: filters.sort } : {}) as F)}>
            {t('leads.clear')}
          </Button>
        </div>
      )}
    </Stack>
  );
}

/** A Select of one filter (status, source) whose first choice is "any". */
export function ChoiceFilter({
  label,
  anyLabel,
  options,
  value,
  onChange,
}: {
  label: string;
  anyLabel: string;
  options: Array<{ value: string; label: string }>;
  value: string | undefined;
  onChange: (v: string | undefined) => void;
}) {
  return <Select label={label} data={[{ value: '', label: anyLabel }, ...options]} value={value ?? ''} allowDeselect={false} onChange={(v) => onChange(v || undefined)} />;
}

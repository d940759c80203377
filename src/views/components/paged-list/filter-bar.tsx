/**
 * Filters of an endless list: sort, date range (presets or a custom yyyy-MM-dd range picked on a
 * Monday-first calendar), a multi-select of types and, for transactions, the cash flow (offered only
 * when exactly one type is chosen). Every change goes out as a whole new ListFilterState; the route
 * writes it to the URL and the list reloads from its first page. Also the CSV download button.
 */
import { Button, Group, MultiSelect, Select, SimpleGrid } from '@mantine/core';
import type { DatesRangeValue } from '@mantine/dates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_RANGES, type CashFlow, type DateRange } from '../../../schemas/wallet.schema';
import type { ListFilterState } from '../../../lib/list-filters';
import { dayOf, DayRangeInput } from './day-range-input';
import { PhoneFilters } from './phone-filters';

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterBarProps {
  filters: ListFilterState;
  onChange: (filters: ListFilterState) => void;
  /** Type choices; no type filter when absent or empty. */
  typeOptions?: FilterOption[];
  typeLabel?: string;
  /** Shown when no type is chosen (default: All types). */
  typePlaceholder?: string;
  /** Offer credit/debit when exactly one type is chosen. */
  withCashFlow?: boolean;
  withDates?: boolean;
  onDownload?: () => void;
  downloading?: boolean;
}

/** How many filters differ from the defaults (the phone's Filters button shows it). */
export function activeFilterCount(f: ListFilterState): number {
  return Number(f.sort === 'asc') + Number(!!f.range) + Number(f.types.length > 0) + Number(!!f.flow);
}

/**
 * On a phone the filters wait behind one "Filters" button that says how many are set, so the list
 * starts at the top of the screen; wider screens show them in a row.
 */
export function FilterBar(props: FilterBarProps) {
  return (
    <PhoneFilters count={activeFilterCount(props.filters)}>
      <FilterFields {...props} />
    </PhoneFilters>
  );
}

function FilterFields({ filters, onChange, typeOptions, typeLabel, typePlaceholder, withCashFlow, withDates = true, onDownload, downloading }: FilterBarProps) {
  const { t } = useTranslation('wallet');
  const set = (patch: Partial<ListFilterState>) => onChange({ ...filters, ...patch });
  const rangeValue: DatesRangeValue<string> = [filters.from ?? null, filters.to ?? null];
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs" data-filter-bar>
      <Select
        label={t('filters.sort')}
        data={[
          { value: 'desc', label: t('filters.newestFirst') },
          { value: 'asc', label: t('filters.oldestFirst') },
        ]}
        value={filters.sort}
        allowDeselect={false}
        onChange={(v) => set({ sort: v === 'asc' ? 'asc' : 'desc' })}
      />
      {withDates && (
        <Select
          label={t('filters.dateRange')}
          data={[{ value: '', label: t('filters.range.all') }, ...DATE_RANGES.map((r) => ({ value: r, label: t(`filters.range.${r}`) }))]}
          value={filters.range ?? ''}
          allowDeselect={false}
          onChange={(v) => {
            const range = (v || undefined) as DateRange | undefined;
            // Custom waits for both days before it filters anything.
            set({ range, from: range === 'custom' ? filters.from : undefined, to: range === 'custom' ? filters.to : undefined });
          }}
        />
      )}
      {withDates && filters.range === 'custom' && (
        <CustomRangeInput label={t('filters.customRange')} value={rangeValue} onRange={(from, to) => set({ range: 'custom', from, to })} />
      )}
      {typeOptions && typeOptions.length > 0 && (
        <MultiSelect
          label={typeLabel ?? t('filters.types')}
          placeholder={filters.types.length ? undefined : (typePlaceholder ?? t('filters.allTypes'))}
          data={typeOptions}
          value={filters.types}
          clearable
          onChange={(types) => set({ types, flow: types.length === 1 ? filters.flow : undefined })}
        />
      )}
      {withCashFlow && filters.types.length === 1 && (
        <Select
          label={t('filters.cashFlow')}
          data={[
            { value: '', label: t('filters.bothFlows') },
            { value: 'credit', label: t('cashFlow.credit') },
            { value: 'debit', label: t('cashFlow.debit') },
          ]}
          value={filters.flow ?? ''}
          allowDeselect={false}
          onChange={(v) => set({ flow: (v || undefined) as CashFlow | undefined })}
        />
      )}
      {onDownload && (
        <Group align="flex-end">
          <Button variant="default" onClick={onDownload} loading={downloading}>
            {t('filters.downloadCsv')}
          </Button>
        </Group>
      )}
    </SimpleGrid>
  );
}

/**
 * The custom range's two days: the first pick is held here (the picker shows it) until the second
 * completes the range, which then goes out; a new range from outside (the URL) replaces the picks.
 */
function CustomRangeInput({ label, value, onRange }: { label: string; value: DatesRangeValue<string>; onRange: (from: string, to: string) => void }) {
  const [picks, setPicks] = useState<DatesRangeValue<string>>(value);
  const [shown, setShown] = useState(value);
  if (shown[0] !== value[0] || shown[1] !== value[1]) {
    setShown(value);
    setPicks(value);
  }
  return (
    <DayRangeInput
      label={label}
      value={picks}
      onChange={(next) => {
        setPicks(next);
        const [from, to] = next;
        if (from && to) onRange(dayOf(from), dayOf(to));
      }}
    />
  );
}

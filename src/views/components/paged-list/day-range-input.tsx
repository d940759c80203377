/** The picker of a range of days used by the lists and the wallet: yyyy-MM-dd, Monday first, a single day allowed. */
import { DatePickerInput, type DatePickerInputProps } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { WEEK_START } from '../../../lib/dates';

/** The yyyy-MM-dd day of a picked value. */
export const dayOf = (value: unknown): string => String(value).slice(0, 10);

export function DayRangeInput(props: Omit<DatePickerInputProps<'range'>, 'type'>) {
  const { t } = useTranslation('wallet');
  return (
    <DatePickerInput
      type="range"
      placeholder={t('filters.pickDates')}
      valueFormat="YYYY-MM-DD"
      firstDayOfWeek={WEEK_START}
      allowSingleDateInRange
      {...props}
    />
  );
}

/**
 * The member's display choices for amounts and dates (spec §5, §9): the currency and the date format
 * of the session's module data, the language of i18n. Provided once by the member area; views call
 * `useDisplayFormat()` and format every amount and date through it.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DATE_FORMAT, formatDate, formatDay, type DateInput } from '../../lib/dates';
import { formatMoney, type MoneyOptions } from '../../lib/money';
import { type Currency } from '../../schemas/common.schema';
import { DEFAULT_CURRENCY } from '../../schemas/values.schema';

export interface DisplaySettings {
  currency: Currency;
  dateFormat: string;
}

const DisplayContext = createContext<DisplaySettings>({ currency: DEFAULT_CURRENCY, dateFormat: DEFAULT_DATE_FORMAT });

export function DisplayFormatProvider({ currency, dateFormat, children }: Partial<DisplaySettings> & { children: ReactNode }) {
  const value = useMemo(
    () => ({ currency: currency ?? DEFAULT_CURRENCY, dateFormat: dateFormat || DEFAULT_DATE_FORMAT }),
    [currency, dateFormat],
  );
  return <DisplayContext.Provider value={value}>{children}</DisplayContext.Provider>;
}

export function useDisplayFormat() {
  const settings = useContext(DisplayContext);
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return {
    ...settings,
    money: (amount: unknown, options?: MoneyOptions) => formatMoney(amount, settings.currency, options),
    date: (value: DateInput) => formatDate(value, settings.dateFormat, { language }),
    day: (value: DateInput) => formatDay(value, settings.dateFormat, { language }),
  };
}

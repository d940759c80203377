/**
 * How list and wallet figures are shown: the member's currency, date format and language. The member
 * routes provide it from the session's module data; without a provider the defaults apply (USD,
 * 'M j, Y g:i A', English).
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { type Currency } from '../../../schemas/common.schema';
import { DEFAULT_CURRENCY } from '../../../schemas/values.schema';
import { formatMoney, formatDecimal } from '../../../lib/money';
import { formatDate, formatDay, DEFAULT_DATE_FORMAT } from '../../../lib/dates';

export interface ListFormatSettings {
  currency: Currency;
  dateFormat: string;
  language: string;
}

const Ctx = createContext<ListFormatSettings>({ currency: DEFAULT_CURRENCY, dateFormat: DEFAULT_DATE_FORMAT, language: 'en' });

export function ListFormatProvider({ value, children }: { value: ListFormatSettings; children: ReactNode }) {
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useListFormat() {
  const s = useContext(Ctx);
  return useMemo(
    () => ({
      currency: s.currency,
      money: (amount: unknown) => formatMoney(amount, s.currency),
      volume: (value: unknown) => formatDecimal(value, 2),
      date: (value: string) => formatDate(value, s.dateFormat, { language: s.language }),
      day: (value: string) => formatDay(value, s.dateFormat, { language: s.language }),
    }),
    [s],
  );
}

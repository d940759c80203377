import {
  DEFAULT_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  isYmd,
  toEarningFilters,
  toHistoryFilters,
  toPayoutFilters,
  toOrderFilters,
  toTransactionFilters,
  sameFilters,
  reportFiltersFrom,
  reportFiltersQuery,
} from '../../src/lib/list-filters';
import { historyQuery, transactionsQuery } from '../../src/schemas/list-query.schema';
import { payoutTransactionsQuerySchema, recentEarningsQuerySchema } from '../../src/schemas/wallet.schema';
import { recentOrdersQuerySchema } from '../../src/schemas/orders.schema';

describe('list filters ⇄ URL', () => {
  it('an empty query is the default: newest first, all time, all types', () => {
    expect(filtersFromSearch('')).toEqual(DEFAULT_FILTERS);
    expect(filtersToSearch(DEFAULT_FILTERS)).toBe('');
  });

  it('round-trips every kind of filter, in the list calls\' names', () => {
    const f = { sort: 'asc' as const, range: 'custom' as const, from: '2026-01-01', to: '2026-01-31', types: ['bonus'], flow: 'credit' as const };
    const search = filtersToSearch(f);
    expect(search).toBe('?sort=asc&date_range=custom&start_date=2026-01-01&end_date=2026-01-31&type=bonus&cash_flow=credit');
    expect(filtersFromSearch(search)).toEqual(f);
    const presets = { sort: 'desc' as const, range: 'last_month' as const, types: ['a', 'b'] };
    expect(filtersFromSearch(filtersToSearch(presets))).toEqual(presets);
  });

  it('opens links written with the earlier names (range, from, to, flow)', () => {
    expect(filtersFromSearch('?sort=asc&range=custom&from=2026-01-01&to=2026-01-31&type=bonus&flow=credit')).toEqual({
      sort: 'asc',
      range: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
      types: ['bonus'],
      flow: 'credit',
    });
    // The current name wins over an earlier one.
    expect(filtersFromSearch('?date_range=today&range=this_year').range).toBe('today');
    expect(filtersToSearch(filtersFromSearch('?range=last_week&flow=debit&type=payout'))).toBe('?date_range=last_week&type=payout&cash_flow=debit');
  });

  it('drops what a hand-edited link gets wrong', () => {
    expect(filtersFromSearch('?sort=sideways&date_range=forever')).toEqual(DEFAULT_FILTERS);
    // A custom range without two good days stays chosen (its day picker open), without days.
    expect(filtersFromSearch('?date_range=custom&start_date=2026-02-30&end_date=2026-03-01')).toEqual({ sort: 'desc', range: 'custom', types: [] });
    expect(filtersFromSearch('?date_range=custom&start_date=2026-02-01')).toEqual({ sort: 'desc', range: 'custom', types: [] });
    expect(filtersFromSearch('?type=a&type=a&type=&type=b').types).toEqual(['a', 'b']);
    // Bracketed and indexed lists read like repeated keys; a bad value leaves the good ones.
    expect(filtersFromSearch('?type[]=a&type[]=b').types).toEqual(['a', 'b']);
    expect(filtersFromSearch(`?type[0]= a &type[1]=${'x'.repeat(65)}&type[2]=c`).types).toEqual(['a', 'c']);
    // A repeated single parameter keeps its first good value.
    expect(filtersFromSearch('?sort=up&sort=asc&sort=desc').sort).toBe('asc');
    // Dates without a custom range, or a preset with dates, mean the preset alone.
    expect(filtersFromSearch('?start_date=2026-01-01&end_date=2026-01-31')).toEqual(DEFAULT_FILTERS);
    expect(filtersFromSearch('?date_range=today&start_date=2026-01-01&end_date=2026-01-31')).toEqual({ sort: 'desc', range: 'today', types: [] });
    expect(filtersFromSearch('?%E0%A4%A=1&unknown=1&cursor=abc')).toEqual(DEFAULT_FILTERS);
  });

  it('writes only what differs from the defaults', () => {
    expect(filtersToSearch({ sort: 'desc', types: [] })).toBe('');
    expect(filtersToSearch({ sort: 'asc', types: [] })).toBe('?sort=asc');
    // A custom range waiting for its two days is kept as chosen, without days…
    expect(filtersToSearch({ sort: 'desc', range: 'custom', from: '2026-01-01', types: [] })).toBe('?date_range=custom');
    expect(filtersToSearch({ sort: 'desc', range: 'custom', from: '2026-01-01', to: '2026-02-30', types: [] })).toBe('?date_range=custom');
    // …and filters nothing until both are there.
    expect(toOrderFilters({ sort: 'desc', range: 'custom', types: [] })).toEqual({ sort: 'desc' });
    expect(toTransactionFilters(filtersFromSearch('?date_range=custom&start_date=2026-01-01'))).toEqual({ sort: 'desc' });
    expect(filtersToSearch({ sort: 'desc', range: 'today', from: '2026-01-01', to: '2026-01-02', types: [] })).toBe('?date_range=today');
    expect(filtersToSearch({ sort: 'desc', range: 'custom', from: '2026-01-31', to: '2026-01-01', types: [] })).toBe(
      '?date_range=custom&start_date=2026-01-01&end_date=2026-01-31',
    );
  });

  it('two states select the same rows when they write the same URL', () => {
    expect(sameFilters({ sort: 'desc', types: [] }, { sort: 'desc', types: [], flow: 'credit' })).toBe(true);
    expect(sameFilters({ sort: 'desc', types: ['a'] }, { sort: 'desc', types: ['a'], flow: 'credit' })).toBe(false);
  });

  it('a custom range typed the wrong way round is put in order', () => {
    expect(filtersFromSearch('?date_range=custom&start_date=2026-03-10&end_date=2026-03-01')).toMatchObject({ from: '2026-03-01', to: '2026-03-10' });
  });

  it('cash flow only stays with exactly one type', () => {
    expect(filtersFromSearch('?type=a&type=b&cash_flow=debit').flow).toBeUndefined();
    expect(filtersFromSearch('?cash_flow=debit').flow).toBeUndefined();
    expect(filtersFromSearch('?type=a&cash_flow=sideways').flow).toBeUndefined();
    expect(filtersToSearch({ sort: 'desc', types: ['a', 'b'], flow: 'debit' })).toBe('?type=a&type=b');
  });

  it('isYmd accepts only real calendar days', () => {
    expect(isYmd('2024-02-29')).toBe(true);
    expect(isYmd('2023-02-29')).toBe(false);
    expect(isYmd('2024-2-9')).toBe(false);
    expect(isYmd('1899-12-31')).toBe(false);
    expect(isYmd(undefined)).toBe(false);
  });
});

describe('list filters → API queries (spec §7)', () => {
  it('transactions: transaction_key list, cash_flow only with one type, custom dates', () => {
    expect(toTransactionFilters(filtersFromSearch('?type=bonus&cash_flow=credit&date_range=custom&start_date=2026-01-01&end_date=2026-01-02'))).toEqual({
      sort: 'desc',
      date_range: 'custom',
      start_date: '2026-01-01',
      end_date: '2026-01-02',
      transaction_key: ['bonus'],
      cash_flow: 'credit',
    });
    expect(toTransactionFilters({ sort: 'asc', types: ['a', 'b'], flow: 'credit', range: 'today' })).toEqual({
      sort: 'asc',
      date_range: 'today',
      transaction_key: ['a', 'b'],
    });
  });

  it('earnings: bonus_type list; payouts: only the status ids the call accepts (as text, spec §7)', () => {
    expect(toEarningFilters({ sort: 'desc', types: ['binary_bonus'] })).toEqual({ sort: 'desc', bonus_type: ['binary_bonus'] });
    expect(toPayoutFilters({ sort: 'desc', types: ['1', '3', 'x', '9'] })).toEqual({ sort: 'desc', payout_status: ['1', '3'] });
    expect(toPayoutFilters({ sort: 'desc', types: ['x'] })).toEqual({ sort: 'desc' });
  });

  it('orders: the common filters only', () => {
    expect(toOrderFilters({ sort: 'asc', range: 'custom', from: '2026-01-01', to: '2026-01-02', types: ['x'], flow: 'debit' })).toEqual({
      sort: 'asc',
      date_range: 'custom',
      start_date: '2026-01-01',
      end_date: '2026-01-02',
    });
  });

  it('each list query is one its server schema accepts', () => {
    const f = filtersFromSearch('?sort=asc&date_range=custom&start_date=2026-01-01&end_date=2026-01-31&type=payout&cash_flow=credit');
    expect(transactionsQuery(['payout', 'payout_fee']).safeParse(toTransactionFilters(f)).success).toBe(true);
    expect(recentEarningsQuerySchema.safeParse(toEarningFilters(f)).success).toBe(true);
    expect(payoutTransactionsQuerySchema.safeParse(toPayoutFilters({ ...f, types: ['2'] })).success).toBe(true);
    expect(historyQuery(['payout']).safeParse(toHistoryFilters(f)).success).toBe(true);
    expect(recentOrdersQuerySchema.safeParse(toOrderFilters(f)).success).toBe(true);
  });

  it('history: type only when exactly one is chosen', () => {
    expect(toHistoryFilters({ sort: 'desc', types: ['pairing'] })).toEqual({ sort: 'desc', type: 'pairing' });
    expect(toHistoryFilters({ sort: 'desc', types: ['pairing', 'left_volume'] })).toEqual({ sort: 'desc' });
  });
});

describe('downline report filters ⇄ URL', () => {
  it('reads username, level and sort; drops the rest; writes only what differs from newest first', () => {
    expect(reportFiltersFrom('?username=%20bo%20&level=2&sort=asc&page=3')).toEqual({ username: 'bo', level: 2, sort: 'asc' });
    expect(reportFiltersFrom(`?username=${'a'.repeat(65)}&level=0&sort=ASC`)).toEqual({ sort: 'desc' });
    expect(reportFiltersFrom('?level=1.5&level=4')).toEqual({ level: 4, sort: 'desc' });
    expect(reportFiltersQuery({ sort: 'asc', level: 12 })).toBe('?level=12&sort=asc');
    expect(reportFiltersQuery({ sort: 'desc', username: 'a b' })).toBe('?username=a+b');
  });
});

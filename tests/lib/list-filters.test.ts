import {
  DEFAULT_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  isYmd,
  toEarningFilters,
  toHistoryFilters,
  toPayoutFilters,
  toTransactionFilters,
} from '../../src/lib/list-filters';

describe('list filters ⇄ URL', () => {
  it('an empty query is the default: newest first, all time, all types', () => {
    expect(filtersFromSearch('')).toEqual(DEFAULT_FILTERS);
    expect(filtersToSearch(DEFAULT_FILTERS)).toBe('');
  });

  it('round-trips every kind of filter', () => {
    const f = { sort: 'asc' as const, range: 'custom' as const, from: '2026-01-01', to: '2026-01-31', types: ['bonus'], flow: 'credit' as const };
    const search = filtersToSearch(f);
    expect(search).toBe('?sort=asc&range=custom&from=2026-01-01&to=2026-01-31&type=bonus&flow=credit');
    expect(filtersFromSearch(search)).toEqual(f);
    const presets = { sort: 'desc' as const, range: 'last_month' as const, types: ['a', 'b'] };
    expect(filtersFromSearch(filtersToSearch(presets))).toEqual(presets);
  });

  it('drops what a hand-edited link gets wrong', () => {
    expect(filtersFromSearch('?sort=sideways&range=forever')).toEqual(DEFAULT_FILTERS);
    expect(filtersFromSearch('?range=custom&from=2026-02-30&to=2026-03-01').range).toBeUndefined();
    expect(filtersFromSearch('?range=custom&from=2026-02-01').range).toBeUndefined();
    expect(filtersFromSearch('?type=a&type=a&type=&type=b').types).toEqual(['a', 'b']);
  });

  it('a custom range typed the wrong way round is put in order', () => {
    expect(filtersFromSearch('?range=custom&from=2026-03-10&to=2026-03-01')).toMatchObject({ from: '2026-03-01', to: '2026-03-10' });
  });

  it('cash flow only stays with exactly one type', () => {
    expect(filtersFromSearch('?type=a&type=b&flow=debit').flow).toBeUndefined();
    expect(filtersFromSearch('?flow=debit').flow).toBeUndefined();
    expect(filtersToSearch({ sort: 'desc', types: ['a', 'b'], flow: 'debit' })).toBe('?type=a&type=b');
  });

  it('isYmd accepts only real calendar days', () => {
    expect(isYmd('2024-02-29')).toBe(true);
    expect(isYmd('2023-02-29')).toBe(false);
    expect(isYmd('2024-2-9')).toBe(false);
  });
});

describe('list filters → API queries (spec §7)', () => {
  it('transactions: transaction_key list, cash_flow only with one type, custom dates', () => {
    expect(toTransactionFilters(filtersFromSearch('?type=bonus&flow=credit&range=custom&from=2026-01-01&to=2026-01-02'))).toEqual({
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

  it('earnings: bonus_type list; payouts: numeric status ids only', () => {
    expect(toEarningFilters({ sort: 'desc', types: ['binary_bonus'] })).toEqual({ sort: 'desc', bonus_type: ['binary_bonus'] });
    expect(toPayoutFilters({ sort: 'desc', types: ['1', '3', 'x', '9'] })).toEqual({ sort: 'desc', payout_status: [1, 3] });
  });

  it('history: type only when exactly one is chosen', () => {
    expect(toHistoryFilters({ sort: 'desc', types: ['pairing'] })).toEqual({ sort: 'desc', type: 'pairing' });
    expect(toHistoryFilters({ sort: 'desc', types: ['pairing', 'left_volume'] })).toEqual({ sort: 'desc' });
  });
});

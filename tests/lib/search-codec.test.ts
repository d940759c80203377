import fc from 'fast-check';
import * as z from 'zod/mini';
import { createSearchCodec, queryRecord, readQuery, tolerantValue, writeQuery } from '../../src/lib/search-codec';
import {
  DATE_RANGES,
  listParam,
  oneOfParam,
  payoutTransactionsQuery,
  sortParam,
  transactionsQuery,
} from '../../src/schemas/list-query.schema';
import { filtersFromSearch, filtersToSearch, type ListFilterState } from '../../src/lib/list-filters';

describe('reading a query string', () => {
  it('repeated, bracketed and indexed keys are one list; everything else is text', () => {
    expect(readQuery('?a=1&a=2&b[]=3&b[]=4&c[0]=5&c[1]=6&d=7')).toEqual({ a: ['1', '2'], b: ['3', '4'], c: ['5', '6'], d: '7' });
    expect(readQuery('e[]=1')).toEqual({ e: ['1'] });
    expect(readQuery('f=1&f[]=2')).toEqual({ f: ['1', '2'] });
    expect(readQuery('')).toEqual({});
  });

  it('keeps at most 100 values of a list and reads at most 200 parameters', () => {
    const many = Array.from({ length: 150 }, (_, i) => `a=${i}`).join('&');
    expect(readQuery(many).a).toHaveLength(100);
    const wide = Array.from({ length: 300 }, (_, i) => `k${i}=1`).join('&');
    expect(Object.keys(readQuery(wide))).toHaveLength(200);
  });
});

describe('writing a query from a schema', () => {
  const schema = transactionsQuery();
  it('spells each list the way its schema asks: transaction_key[i], payout_status[]', () => {
    expect(writeQuery(schema, { sort: 'asc', transaction_key: ['a', 'b'], cash_flow: undefined, cursor: '' })).toEqual([
      ['sort', 'asc'],
      ['transaction_key[0]', 'a'],
      ['transaction_key[1]', 'b'],
    ]);
    expect(queryRecord(payoutTransactionsQuery, { payout_status: ['1', '3'], limit: '5' })).toEqual({ limit: '5', 'payout_status[]': ['1', '3'] });
  });

  it('what it writes, the server schema reads back as the same value', () => {
    const value = { sort: 'asc' as const, date_range: 'custom' as const, start_date: '2026-01-01', end_date: '2026-01-31', transaction_key: ['a'], cash_flow: 'debit' as const };
    const back = schema.safeParse(readQuery(new URLSearchParams(writeQuery(schema, value)).toString()));
    expect(back.success && back.data).toEqual(value);
  });
});

describe('tolerant values', () => {
  const list = listParam(oneOfParam(['a', 'b']), 'repeat');
  it('a list keeps its good values, a single parameter its first good one, nothing good is nothing', () => {
    expect(tolerantValue(list, ['a', 'x', 'b', 'a'])).toEqual(['a', 'b']);
    expect(tolerantValue(list, 'x')).toBeUndefined();
    expect(tolerantValue(sortParam, ['up', 'asc'])).toBe('asc');
    expect(tolerantValue(sortParam, undefined)).toBeUndefined();
  });
});

describe('a search codec', () => {
  const schema = z.looseObject({ sort: z.optional(sortParam), tag: z.optional(listParam(oneOfParam(['x', 'y', 'z']), 'repeat')) });
  const codec = createSearchCodec(schema, { defaults: { sort: 'desc' }, aliases: { order: 'sort' } });

  it('fills in defaults and leaves them out when writing', () => {
    expect(codec.parse('')).toEqual({ sort: 'desc' });
    expect(codec.format({ sort: 'desc', tag: [] })).toBe('');
    expect(codec.format({ sort: 'asc', tag: ['y', 'x'] })).toBe('?sort=asc&tag=y&tag=x');
  });

  it('reads an earlier name', () => {
    expect(codec.parse('?order=asc')).toEqual({ sort: 'asc' });
  });

  it('parse ∘ format is the identity on the values it can hold', () => {
    const value = fc.record(
      { sort: fc.constantFrom('asc' as const, 'desc' as const), tag: fc.uniqueArray(fc.constantFrom('x' as const, 'y' as const, 'z' as const), { minLength: 1 }) },
      { requiredKeys: ['sort'] },
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(codec.parse(codec.format(v))).toEqual(v);
      }),
    );
  });
});

describe('list filters in the URL (properties)', () => {
  const day = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2990-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  const typeKey = fc.string({ minLength: 1, maxLength: 64 }).filter((s) => s.trim() === s && s !== '');
  /** Every state a list page can be in: dates only with a custom range and in order, cash flow only with one type. */
  const state: fc.Arbitrary<ListFilterState> = fc
    .record({
      sort: fc.constantFrom('asc' as const, 'desc' as const),
      range: fc.option(fc.constantFrom(...DATE_RANGES), { nil: undefined }),
      days: fc.tuple(day, day).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
      types: fc.uniqueArray(typeKey, { maxLength: 5 }),
      flow: fc.option(fc.constantFrom('credit' as const, 'debit' as const), { nil: undefined }),
    })
    .map(({ sort, range, days, types, flow }) => ({
      sort,
      ...(range ? { range } : {}),
      ...(range === 'custom' ? { from: days[0], to: days[1] } : {}),
      types,
      ...(flow && types.length === 1 ? { flow } : {}),
    }));

  it('a state survives the URL unchanged', () => {
    fc.assert(
      fc.property(state, (s) => {
        expect(filtersFromSearch(filtersToSearch(s))).toEqual(s);
      }),
    );
  });

  it('any query string opens a list, and the URL written for it reads back the same', () => {
    const key = fc.constantFrom('sort', 'date_range', 'start_date', 'end_date', 'type', 'type[]', 'cash_flow', 'range', 'from', 'to', 'flow', 'x');
    const val = fc.oneof(fc.string(), fc.constantFrom('asc', 'custom', 'today', '2026-01-31', '2026-02-30', 'credit', 'a'));
    const search = fc.array(fc.tuple(key, val), { maxLength: 12 }).map((pairs) => new URLSearchParams(pairs).toString());
    fc.assert(
      fc.property(search, (q) => {
        const f = filtersFromSearch(q);
        expect(filtersFromSearch(filtersToSearch(f))).toEqual(f);
      }),
    );
  });
});

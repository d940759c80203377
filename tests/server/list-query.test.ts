// @vitest-environment node
/**
 * The list queries are one contract: each list call validates its query string with its schema of
 * src/schemas/list-query.schema.ts (a field map of i18n keys, never a 5xx), the OpenAPI document shows
 * the real parameters, and what the client writes for a list is what the ctx.server reads.
 */
import { describe, expect, it } from 'vitest';
import { apiGet, signedInDemo } from './wallet-support';
import { ListQuery } from '../../server/lib/pagination';
import { queryRecord, readQuery, searchString, writeQuery } from '../../src/lib/search-codec';
import { filtersFromSearch, toPayoutFilters, toTransactionFilters } from '../../src/lib/list-filters';
import { payoutTransactionsQuerySchema, transactionsQuerySchema } from '../../src/schemas/wallet.schema';
import { transactionsQuery } from '../../src/schemas/list-query.schema';

const ctx = signedInDemo();

const LISTS = ['/api/wallet/transactions', '/api/wallet/recent_earnings', '/api/payout/transactions', '/api/orders/recent_orders', '/api/network/pv_history', '/api/network/binary_history'];

describe('bad list queries', () => {
  it('every list answers the shared parameters with the same field map', async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      ['sort=newest', { sort: ['validation:invalidChoice'] }],
      ['sort=asc&sort=desc', { sort: ['validation:invalidType'] }],
      ['date_range=fortnight', { date_range: ['validation:invalidChoice'] }],
      ['start_date=2026-02-30', { start_date: ['validation:invalidDate'] }],
      ['end_date=1850-01-01', { end_date: ['validation:invalidDate'] }],
      ['date_range=custom&end_date=2026-01-01', { start_date: ['validation:required'] }],
      ['start_date=2026-03-02&end_date=2026-03-01', { end_date: ['validation:endBeforeStart'] }],
      ['cursor=%E2%80%AE', { cursor: ['validation:invalidCursor'] }],
      ['cursor=bm90LWEtY3Vyc29y', { cursor: ['validation:invalidCursor'] }],
      ['limit=101', { limit: ['validation:invalidLimit'] }],
      ['limit=1&limit=2', { limit: ['validation:invalidType'] }],
    ];
    for (const path of [...LISTS, ...LISTS.map((l) => `${l}/export`)]) {
      for (const [q, errors] of cases) {
        // Exports read no cursor or page size.
        if (path.endsWith('/export') && /^(cursor|limit)=/.test(q) && q !== 'limit=1&limit=2') continue;
        const res = await apiGet(ctx.server, ctx.token, `${path}?${q}`);
        expect(res.status, `${path}?${q}`).toBe(422);
        expect(res.body.error_code).toBe('validation_error');
        expect(res.body.errors, `${path}?${q}`).toEqual(errors);
      }
    }
  });

  it('unknown values of each list\'s own filter, and too many values, are refused', async () => {
    const cases: Array<[string, string, string]> = [
      ['/api/wallet/transactions?transaction_key[]=lottery', 'transaction_key', 'validation:invalidChoice'],
      ['/api/wallet/transactions?transaction_key=payout&cash_flow=both', 'cash_flow', 'validation:invalidChoice'],
      ['/api/wallet/recent_earnings?bonus_type[0]=jackpot', 'bonus_type', 'validation:invalidChoice'],
      ['/api/payout/transactions?payout_status[]=6', 'payout_status', 'validation:invalidChoice'],
      ['/api/network/pv_history?type=left_volume', 'type', 'validation:invalidChoice'],
      ['/api/network/binary_history?type=upgrade', 'type', 'validation:invalidChoice'],
      [`/api/wallet/transactions?${Array.from({ length: 21 }, () => 'transaction_key[]=payout').join('&')}`, 'transaction_key', 'validation:tooBig'],
      [`/api/payout/transactions?${Array.from({ length: 21 }, () => 'payout_status[]=1').join('&')}`, 'payout_status', 'validation:tooBig'],
      ['/api/payout/statement?interval=decade', 'interval', 'validation:invalidChoice'],
      ['/api/referral/joinings?per_page=0', 'per_page', 'validation:invalidFormat'],
    ];
    for (const [url, field, key] of cases) {
      const res = await apiGet(ctx.server, ctx.token, url);
      expect(res.status, url).toBe(422);
      expect(res.body.errors, url).toEqual({ [field]: [key] });
    }
  });

  it('a refused query names every bad parameter at once', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/wallet/transactions?sort=up&date_range=custom&transaction_key[]=x&cash_flow=credit&limit=0');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      sort: ['validation:invalidChoice'],
      limit: ['validation:invalidLimit'],
      transaction_key: ['validation:invalidChoice'],
      start_date: ['validation:required'],
      end_date: ['validation:required'],
    });
  });

  it('the parameters the client adds to every call (route, load_modules) pass', async () => {
    const res = await apiGet(ctx.server, ctx.token, '/api/wallet/transactions?route=%2Fmember%2Fwallet&load_modules=1&limit=1');
    expect(res.status).toBe(200);
    expect(res.body.data.items).toHaveLength(1);
  });
});

describe('one contract for client and server', () => {
  it('the query the client writes for a URL filter is one the ctx.server answers, and next_page_url keeps it', async () => {
    const f = filtersFromSearch('?type=payout&cash_flow=credit&date_range=custom&start_date=2025-01-01&end_date=2026-12-31&sort=asc');
    const q = searchString(writeQuery(transactionsQuerySchema, { ...toTransactionFilters(f), limit: '2' }));
    expect(q).toBe('?sort=asc&date_range=custom&start_date=2025-01-01&end_date=2026-12-31&limit=2&transaction_key[0]=payout&cash_flow=credit');
    const res = await apiGet(ctx.server, ctx.token, `/api/wallet/transactions${q}`);
    expect(res.status).toBe(200);
    expect(res.body.data.items.length).toBeGreaterThan(0);
    expect(res.body.data.items.every((i: { transaction_key: string; cash_flow: string }) => i.transaction_key === 'payout' && i.cash_flow === 'credit')).toBe(true);
    const next = res.body.data.next_page_url as string;
    expect(next).toContain('transaction_key[0]=payout');
    // The next page's URL reads back as the same filters and a cursor.
    const back = transactionsQuerySchema.safeParse(readQuery(new URL(next, 'http://x').search));
    expect(back.success && back.data).toMatchObject({ sort: 'asc', transaction_key: ['payout'], cash_flow: 'credit', limit: '2', cursor: expect.any(String) });

    const payouts = queryRecord(payoutTransactionsQuerySchema, toPayoutFilters(filtersFromSearch('?type=3&type=1&type=nope')));
    expect(payouts).toEqual({ sort: 'desc', 'payout_status[]': ['3', '1'] });
    const p = await apiGet(ctx.server, ctx.token, `/api/payout/transactions?${new URLSearchParams(Object.entries(payouts).flatMap(([k, v]) => [v].flat().map((x) => [k, x])))}`);
    expect(p.status).toBe(200);
    expect(p.body.data.items.every((i: { status_id: number }) => i.status_id === 1 || i.status_id === 3)).toBe(true);
  });

  it('ListQuery, built directly, reads with the same schemas', () => {
    const q = new ListQuery({ sort: 'asc', limit: '7', date_range: 'custom', start_date: '2026-01-01', end_date: '2026-01-31' });
    expect([q.sort, q.limit, q.from?.toISOString(), q.to?.toISOString()]).toEqual(['asc', 7, '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']);
    expect(q.urlWith('/api/x', null)).toBe('/api/x?sort=asc&limit=7&date_range=custom&start_date=2026-01-01&end_date=2026-01-31');
    const bad = new ListQuery({ sort: ['asc', 'desc'], limit: '0', start_date: '2026-01-40' });
    expect(bad.errors).toEqual({ sort: ['validation:invalidType'], limit: ['validation:invalidLimit'], start_date: ['validation:invalidDate'] });
    expect([bad.sort, bad.limit, bad.from]).toEqual(['desc', 20, null]);
    expect(() => bad.check()).toThrow();
    expect(bad.manyOf('transaction_key', ['a', 'b'])).toEqual([]);
    const many = new ListQuery({ transaction_key: ['b', 'a', 'b'], type: 'x' });
    expect(many.manyOf('transaction_key', ['a', 'b'])).toEqual(['b', 'a']);
    expect(many.oneOf('type', ['y'])).toBeUndefined();
    expect(many.errors).toEqual({ type: ['validation:invalidChoice'] });
    // With a list's own schema, its filters are read and checked too, rules across parameters included.
    const typed = new ListQuery({ transaction_key: 'payout', cash_flow: 'credit' }, { schema: transactionsQuery(['payout', 'payout_fee']) });
    expect([typed.values.transaction_key, typed.values.cash_flow, typed.errors]).toEqual([['payout'], 'credit', {}]);
    const asBase: ListQuery = typed;
    expect(asBase.sort).toBe('desc');
    const refused = new ListQuery({ transaction_key: ['payout', 'nope'], cash_flow: 'credit', sort: 'asc' }, { schema: transactionsQuery(['payout']) });
    expect(refused.errors).toEqual({ transaction_key: ['validation:invalidChoice'] });
    expect([refused.values.transaction_key, refused.values.cash_flow, refused.sort]).toEqual([undefined, 'credit', 'asc']);
  });
});

describe('the OpenAPI document', () => {
  it('shows each list\'s real parameters: their values, formats and lists', async () => {
    const doc = JSON.parse((await ctx.server.app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
    const params = (path: string) =>
      Object.fromEntries((doc.paths[path].get.parameters as Array<{ name: string; in: string; schema: unknown }>).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
    const tx = params('/api/wallet/transactions');
    expect(Object.keys(tx).sort()).toEqual(['cash_flow', 'cursor', 'date_range', 'end_date', 'limit', 'sort', 'start_date', 'transaction_key']);
    expect(JSON.stringify(tx.sort)).toContain('"enum":["asc","desc"]');
    expect(JSON.stringify(tx.date_range)).toContain('this_week');
    expect(JSON.stringify(tx.start_date)).toContain('pattern');
    expect(JSON.stringify(tx.transaction_key)).toContain('payout_fee');
    expect(JSON.stringify(tx.transaction_key)).toContain('"type":"array"');
    expect(JSON.stringify(params('/api/network/pv_history').type)).toContain('repurchase');
    expect(JSON.stringify(params('/api/network/binary_history').type)).toContain('left_volume');
    expect(JSON.stringify(params('/api/payout/transactions').payout_status)).toContain('"4"');
    expect(Object.keys(params('/api/network/downline_report/{category}')).sort()).toEqual(['after', 'level', 'page', 'sort', 'username']);
  });
});

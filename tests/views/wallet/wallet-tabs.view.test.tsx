import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ConnectionError } from '../../../src/api/errors';
import { earningsOverviewMachine, earningsRangeMachine, payoutStatementMachine, walletStatementMachine, type EarningsRange } from '../../../src/machines/wallet-pages.machine';
import { EarningTab, PayoutTab, StatementTab, WalletTabs, type ChartRange } from '../../../src/views/wallet/wallet.view';
import type { EarningsOverview, EarningsTotalDatewise, PayoutStatement, WalletSummary } from '../../../src/schemas/wallet.schema';
import { columnHeaders, findTableRows, renderUi, tableRows } from '../../support/render-ui';

const SUMMARY: WalletSummary = {
  wallet_balance: '566.5400',
  total_paid: '5950.0000',
  total_pending: '230.0000',
  recent_transactions: [
    { id: 1, transaction_group: 'commission', transaction_type: 'bonus', transaction_key: 'binary_bonus', amount: '74.4000', cash_flow: 'credit', created_at: '2026-10-25T23:59:00.000Z', level: null, from_user: null, rank_name: null },
    { id: 2, transaction_group: 'payout', transaction_type: 'payout', transaction_key: 'payout_fee', amount: '3.5000', cash_flow: 'debit', created_at: '2026-10-20T10:00:00.000Z', level: null, from_user: null, rank_name: null },
  ],
  transaction_labels: { binary_bonus: 'Binary bonus', payout_fee: 'Payout fee' },
  transaction_keys: ['binary_bonus', 'payout_fee'],
};

const OVERVIEW: EarningsOverview = {
  total_earnings: '8358.9900',
  recent_earnings: [],
  start_date: '2026-10-23',
  end_date: '2026-11-21',
  earnings_datewise: [],
  earnings_datewise_grouped: [],
  bonus_labels: { binary_bonus: 'Binary bonus', level_commission: 'Level commission' },
  bonus_types: ['binary_bonus', 'level_commission'],
};

const rangeAnswer = (from: string, to: string, binary: string, level: string): EarningsTotalDatewise => ({
  start_date: from,
  end_date: to,
  earnings_datewise: [
    { date: from, total: binary },
    { date: to, total: level },
  ],
  earnings_datewise_grouped: [
    { bonus_type: 'binary_bonus', total: binary },
    { bonus_type: 'level_commission', total: level },
  ],
});

describe('wallet statement tab', () => {
  it('shows balance, paid, pending and the recent transactions with their labels and direction', async () => {
    const actor = createActor(walletStatementMachine.provide({ actors: { load: fromPromise<unknown>(async () => SUMMARY) } }), { input: {} }).start();
    renderUi(
      <WalletTabs tab="statement">
        <StatementTab actor={actor} />
      </WalletTabs>,
    );
    expect(await screen.findByText('$566.54')).toBeTruthy();
    expect(screen.getByText('$5,950.00')).toBeTruthy();
    expect(screen.getByText('$230.00')).toBeTruthy();
    expect(columnHeaders(screen.getByRole('table', { name: 'Recent transactions' }))).toEqual(['Transaction', 'Details', 'Amount']);
    const rows = tableRows();
    expect(rows).toHaveLength(2);
    expect(within(rows[0]).getByText('Binary bonus')).toBeTruthy();
    expect(within(rows[0]).getByText('+$74.40')).toBeTruthy();
    expect(within(rows[1]).getByText('Payout fee')).toBeTruthy();
    expect(within(rows[1]).getByText('−$3.50')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Statement', selected: true })).toBeTruthy();
  });

  it("names the member's transactions in their language; a key the app does not know shows the server's label", async () => {
    const answer: WalletSummary = {
      ...SUMMARY,
      recent_transactions: [
        { ...SUMMARY.recent_transactions[0], id: 3, transaction_key: 'level_commission' },
        { ...SUMMARY.recent_transactions[1], id: 4, transaction_key: 'loyalty_bonus' },
      ],
      transaction_labels: { level_commission: 'Level commission', loyalty_bonus: 'Loyalty bonus' },
    };
    const actor = createActor(walletStatementMachine.provide({ actors: { load: fromPromise<unknown>(async () => answer) } }), { input: {} }).start();
    renderUi(
      <WalletTabs tab="statement">
        <StatementTab actor={actor} />
      </WalletTabs>,
      { lng: 'es' },
    );
    const rows = await findTableRows();
    expect(columnHeaders()).toEqual(['Movimiento', 'Detalles', 'Importe']);
    expect(within(rows[0]).getByText('Comisión por nivel')).toBeTruthy();
    expect(within(rows[1]).getByText('Loyalty bonus')).toBeTruthy();
  });

  it('a connection error offers retry that loads again', async () => {
    let calls = 0;
    const actor = createActor(
      walletStatementMachine.provide({
        actors: { load: fromPromise<unknown>(async () => (++calls === 1 ? Promise.reject(new ConnectionError()) : SUMMARY)) },
      }),
      { input: {} },
    ).start();
    renderUi(<StatementTab actor={actor} />);
    await waitFor(() => expect(document.querySelector('[data-error-kind="connection"]')).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: /retry/i }));
    expect(await screen.findByText('$566.54')).toBeTruthy();
    expect(calls).toBe(2);
  });
});

describe('earnings tab with a date range', () => {
  function setup(range: ChartRange | null, loader: (r: EarningsRange | undefined) => Promise<EarningsTotalDatewise>) {
    const overview = createActor(earningsOverviewMachine.provide({ actors: { load: fromPromise<unknown>(async () => OVERVIEW) } }), { input: {} }).start();
    const calls: Array<EarningsRange | undefined> = [];
    const rangeActor = createActor(
      earningsRangeMachine.provide({
        actors: {
          load: fromPromise<unknown>(async ({ input }) => {
            calls.push(input as EarningsRange | undefined);
            return loader(input as EarningsRange | undefined);
          }),
        },
      }),
      { input: { params: range ?? {} } },
    ).start();
    const onRange = vi.fn();
    const view = renderUi(<EarningTab actor={overview} rangeActor={rangeActor} range={range} onRange={onRange} />);
    return { overview, rangeActor, calls, onRange, view };
  }

  it('shows the all-time total and, for the range, totals by bonus type, their sum and a chart', async () => {
    const { calls } = setup({ from: '2026-09-01', to: '2026-10-31' }, async (r) => rangeAnswer(r!.from!, r!.to!, '370.0000', '282.1600'));
    expect(await screen.findByText('$8,358.99')).toBeTruthy();
    expect(await screen.findByText('By bonus type, Sep 1, 2026 – Oct 31, 2026')).toBeTruthy();
    expect(screen.getByText('$652.16')).toBeTruthy();
    expect(within(screen.getByText('Binary bonus').parentElement!).getByText('$370.00')).toBeTruthy();
    expect(within(screen.getByText('Level commission').parentElement!).getByText('$282.16')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Earnings per day from Sep 1, 2026 to Oct 31, 2026: $652.16 in all.' })).toBeTruthy();
    // The same figures as a table, exact and per day.
    fireEvent.click(screen.getByRole('radio', { name: 'Table' }));
    const table = screen.getByRole('table', { name: 'Earnings per day from Sep 1, 2026 to Oct 31, 2026: $652.16 in all.' });
    expect([...table.querySelectorAll('tbody tr')].map((r) => r.textContent)).toEqual(['Sep 1, 2026$370.00', 'Oct 31, 2026$282.16']);
    expect(calls).toEqual([{ from: '2026-09-01', to: '2026-10-31' }]);
    // Back to the default range.
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toBeTruthy();
  });

  it('without a range it asks for the default one and offers no reset', async () => {
    const { calls } = setup(null, async () => rangeAnswer('2026-10-23', '2026-11-21', '80.0000', '55.2400'));
    expect(await screen.findByText('By bonus type, Oct 23, 2026 – Nov 21, 2026')).toBeTruthy();
    expect(calls).toEqual([{}]);
    expect(screen.queryByRole('button', { name: 'Last 30 days' })).toBeNull();
  });

  it('the reset button hands a cleared range to the page (the URL)', async () => {
    const { onRange } = setup({ from: '2026-09-01', to: '2026-09-30' }, async (r) => rangeAnswer(r!.from!, r!.to!, '1.0000', '2.0000'));
    fireEvent.click(await screen.findByRole('button', { name: 'Last 30 days' }));
    expect(onRange).toHaveBeenCalledWith(null);
  });

  it('a failed range load shows a retry inside the tab and keeps the all-time total', async () => {
    let n = 0;
    setup({ from: '2026-09-01', to: '2026-09-30' }, async (r) => (++n === 1 ? Promise.reject(new ConnectionError()) : rangeAnswer(r!.from!, r!.to!, '5.0000', '6.0000')));
    await waitFor(() => expect(document.querySelector('[data-error-kind="connection"]')).toBeTruthy());
    expect(screen.getByText('$8,358.99')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /retry/i })));
    expect(await screen.findByText('$11.00')).toBeTruthy();
  });
});

describe('payout tab', () => {
  it('shows the payout figures, a chart of paid amounts and the request button', async () => {
    const data: PayoutStatement = {
      interval: 'month',
      total_paid: '5950.0000',
      total_pending: '230.0000',
      total_balance: '566.5400',
      payout_datewise: [
        { date: '2026-09-01', total: '270.0000' },
        { date: '2026-10-01', total: '0.0000' },
      ],
      recent_transactions: [],
    };
    const actor = createActor(payoutStatementMachine.provide({ actors: { load: fromPromise<unknown>(async () => data) } }), { input: {} }).start();
    renderUi(<PayoutTab actor={actor} />);
    expect(await screen.findByText('$566.54')).toBeTruthy();
    expect(screen.getByRole('img', { name: /^Payouts per period from Sep 1, 2026 to Oct 1, 2026: \$270\.00 in all\.$/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Table' }));
    const rows = [...screen.getByRole('table').querySelectorAll('tbody tr')].map((r) => [...r.children].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Sep 1, 2026', '$270.00'],
      ['Oct 1, 2026', '$0.00'],
    ]);
    expect(screen.getByRole('link', { name: 'Request a payout' }).getAttribute('href')).toMatch(/\/wallet\/request-payout$/);
  });
});

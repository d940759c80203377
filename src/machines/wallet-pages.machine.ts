/** The wallet tabs (spec §2): statement, earnings overview and payout statement, each a generic load. */
import { payoutApi, walletApi } from '../api/wallet';
import { createLoadMachine } from './load.machine';

export const walletStatementMachine = createLoadMachine('walletStatement', () => walletApi.statement());
export const earningsOverviewMachine = createLoadMachine('earningsOverview', () => walletApi.earnings());
export const payoutStatementMachine = createLoadMachine('payoutStatement', () => payoutApi.statement());

/** Days (yyyy-MM-dd) of the earnings chart; without them the server answers for the last 30 days. */
export interface EarningsRange {
  from?: string;
  to?: string;
}

/** Date-wise earnings and totals by bonus type for the chosen range (earnings_total_datewise). */
export const earningsRangeMachine = createLoadMachine('earningsRange', (range: EarningsRange | undefined) =>
  walletApi.earningsTotalDatewise(range?.from ?? '', range?.to ?? ''),
);

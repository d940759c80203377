/** The wallet tabs (spec §2): statement, earnings overview and payout statement, each a generic load. */
import { payoutApi, walletApi } from '../api/wallet';
import { createLoadMachine } from './load.machine';

export const walletStatementMachine = createLoadMachine('walletStatement', () => walletApi.statement());
export const earningsOverviewMachine = createLoadMachine('earningsOverview', () => walletApi.earnings());
export const payoutStatementMachine = createLoadMachine('payoutStatement', () => payoutApi.statement());

/**
 * Where the member's payouts go: bank details (GET/PUT /api/user/bank_details) and the payout method
 * (GET/PUT /api/payout/payout_method). Changes carry the account password re-entered.
 */
import { get, put } from './client';
import { bankDetailsAnswerSchema, type BankDetailsValues } from '../schemas/bank-details.schema';
import { payoutMethodAnswerSchema, type PayoutMethodId, type PayoutMethodValues } from '../schemas/payout-method.schema';

/** Blank optional fields are left out of the body. */
const filled = (values: Record<string, string | undefined>) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v.trim() !== ''));

export const bankDetailsApi = {
  get: () => get(bankDetailsAnswerSchema, '/api/user/bank_details'),
  save: (values: BankDetailsValues, password: string) =>
    put(bankDetailsAnswerSchema, '/api/user/bank_details', { ...EMPTY_REQUIRED, ...filled(values), password }),
};
/** Fields the server always expects (an empty one is its field error there). */
const EMPTY_REQUIRED = { account_holder: '', country: '', bic: '', bank_name: '' };

export const payoutMethodApi = {
  get: () => get(payoutMethodAnswerSchema, '/api/payout/payout_method'),
  save: (values: PayoutMethodValues, password: string) => {
    const method = values.method as PayoutMethodId;
    const destination = method === 'e_wallet' ? { email: values.email.trim() } : method === 'usdt_trc20' ? { address: values.address.trim() } : {};
    return put(payoutMethodAnswerSchema, '/api/payout/payout_method', { method, ...destination, password });
  },
};

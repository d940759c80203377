/**
 * /member/account/bank, declared on the form factory: loads the saved bank details (masked to the last
 * four characters) and the countries, checks the form with the shared schema (IBAN checksum and BIC by
 * ibantools, or account number and routing code where the country has no IBANs), asks for the account
 * password, then PUT /api/user/bank_details. The answer (masked) is the form's `result`; the form starts
 * empty again so no account number stays in memory.
 */
import { bankDetailsApi } from '../../api/payout-destination';
import { bankDetailsSchema, EMPTY_BANK_DETAILS, type BankDetailsAnswer, type BankDetailsValues } from '../../schemas/bank-details.schema';
import { createFormMachine } from '../form.machine';

export const bankDetailsMachine = createFormMachine({
  id: 'bankDetails',
  domain: 'bank',
  initialValues: EMPTY_BANK_DETAILS as BankDetailsValues,
  load: (): Promise<BankDetailsAnswer> => bankDetailsApi.get(),
  // What is not secret is filled in from the saved details; the number is typed again.
  valuesFrom: (loaded, values) => {
    const b = loaded.bank_details;
    return b ? { ...values, account_holder: b.account_holder, country: b.country, bic: b.bic, bank_name: b.bank_name } : values;
  },
  schema: bankDetailsSchema,
  submit: ({ values, password }): Promise<BankDetailsAnswer> => bankDetailsApi.save(values, password ?? ''),
  steps: { password: true },
  successKey: 'account:bank.saved',
  clearOnSuccess: true,
});

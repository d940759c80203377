/**
 * /member/account/payout, declared on the form factory: loads the methods the company offers and the
 * member's choice, checks the choice with the shared schema (an e-wallet's e-mail, a USDT address by
 * format; a bank transfer needs saved bank details), asks for the account password, then PUT
 * /api/payout/payout_method. The answer (the choice with its masked destination) is the form's `result`.
 */
import { payoutMethodApi } from '../../api/payout-destination';
import { EMPTY_PAYOUT_METHOD, payoutMethodFormSchema, type PayoutMethodAnswer, type PayoutMethodValues } from '../../schemas/payout-method.schema';
import { createFormMachine } from '../form.machine';

export const payoutMethodMachine = createFormMachine({
  id: 'payoutMethod',
  domain: 'payoutMethod',
  initialValues: EMPTY_PAYOUT_METHOD as PayoutMethodValues,
  load: (): Promise<PayoutMethodAnswer> => payoutMethodApi.get(),
  valuesFrom: (loaded, values) => ({ ...values, method: loaded.chosen?.method ?? '' }),
  schema: (loaded) => payoutMethodFormSchema(loaded),
  submit: ({ values, password }): Promise<PayoutMethodAnswer> => payoutMethodApi.save(values, password ?? ''),
  steps: { password: true },
  successKey: 'account:payoutMethod.saved',
});

/**
 * /member/account/wallet-password and /member/account/wallet-password/reset, declared on the form
 * factory. The wallet password is what payouts ask for instead of the account password once it is set.
 *
 * - `walletPasswordMachine` loads the status (GET /api/user/wallet_password): not set yet, the new one
 *   (the company's password policy, typed twice) with the account password re-entered (POST); set, the
 *   current wallet password and the new one (PUT). After success `apply` hands the new status on: the
 *   page loads the status again (`walletPassword.reset`), so a first set turns the form into a change.
 * - `walletPasswordResetMachine` (forgotten): the new one typed twice asks for a code sent to the
 *   member's e-mail (POST …/reset_code); the code step sends it with the new one (POST …/reset).
 */
import { walletPasswordApi } from '../../api/contact';
import {
  walletPasswordSchema,
  type WalletPasswordResetValues,
  type WalletPasswordStatus,
  type WalletPasswordValues,
} from '../../schemas/contact.schema';
import { createFormMachine } from '../form.machine';

export const walletPasswordMachine = createFormMachine<WalletPasswordValues, WalletPasswordStatus, WalletPasswordStatus, { values: WalletPasswordValues; result: WalletPasswordStatus }, 'walletPassword'>({
  id: 'walletPassword',
  domain: 'walletPassword',
  initialValues: { current_wallet_password: '', wallet_password: '', wallet_password_confirmation: '' },
  load: () => walletPasswordApi.status(),
  schema: (status) => walletPasswordSchema(status?.password_policy ?? null, !!status?.is_set),
  // The account password sets the first one; a change is proved by the current wallet password instead.
  steps: { password: (status) => !status?.is_set },
  submit: ({ values, password, loaded }) =>
    loaded?.is_set
      ? walletPasswordApi.change(values)
      : walletPasswordApi.set({ password: password ?? '', wallet_password: values.wallet_password, wallet_password_confirmation: values.wallet_password_confirmation }),
  successKey: 'account:walletPassword.saved',
  clearOnSuccess: true,
});

export const walletPasswordResetMachine = createFormMachine<WalletPasswordResetValues, WalletPasswordStatus, WalletPasswordStatus, { values: WalletPasswordResetValues; result: WalletPasswordStatus }, 'walletPasswordReset'>({
  id: 'walletPasswordReset',
  domain: 'walletPasswordReset',
  initialValues: { wallet_password: '', wallet_password_confirmation: '' },
  load: () => walletPasswordApi.status(),
  schema: (status) => walletPasswordSchema(status?.password_policy ?? null, false),
  sendCode: () => walletPasswordApi.sendResetCode(),
  submit: ({ values, code }) => walletPasswordApi.reset({ otp: code ?? '', ...values }),
  steps: { code: true },
  successKey: 'account:walletPassword.resetDone',
  clearOnSuccess: true,
});

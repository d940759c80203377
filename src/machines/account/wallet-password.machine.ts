/**
 * /member/account/wallet-password, on the form factory. The wallet password is what payouts ask for
 * instead of the account password once it is set.
 *
 * - `walletPasswordMachine` loads the status (GET /api/user/wallet_password): not set yet, the new one
 *   (the company's password policy, typed twice) with the account password re-entered (POST); set, the
 *   current wallet password and the new one (PUT).
 * - `walletPasswordResetMachine` (forgotten): the new one typed twice asks for a code sent to the
 *   member's e-mail (POST …/reset_code); the code step sends it with the new one (POST …/reset).
 * - `walletPasswordPageMachine`, the page's actor: the form (`changing`) or, after
 *   `walletPassword.forgot`, the reset (`resetting`; `walletPassword.back` returns). A saved form loads
 *   the status again, so a first set turns the form into a change. The children's toasts and forced
 *   logout reach the page's named actions.
 */
import { walletPasswordApi } from '../../api/contact';
import {
  walletPasswordSchema,
  type WalletPasswordResetValues,
  type WalletPasswordStatus,
  type WalletPasswordValues,
} from '../../schemas/contact.schema';
import { sendTo, setup } from 'xstate';
import { createFormMachine } from '../form.machine';
import { onPageNote, pageActions, reportToPage, type PageNote } from '../resource.machine';

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

/** A saved child: the page decides what follows. */
const savedToPage = ({ self }: { self: { _parent?: { send: (e: { type: 'walletPassword.saved' }) => void } } }) => self._parent?.send({ type: 'walletPassword.saved' });

export const walletPasswordPageMachine = setup({
  types: {
    events: {} as { type: 'walletPassword.forgot' } | { type: 'walletPassword.back' } | { type: 'walletPassword.saved' } | PageNote,
    children: {} as { form: 'form'; reset: 'reset' },
  },
  actors: {
    form: walletPasswordMachine.provide({ actions: { ...reportToPage, apply: savedToPage } }),
    reset: walletPasswordResetMachine.provide({ actions: reportToPage }),
  },
  actions: pageActions,
}).createMachine({
  id: 'walletPasswordPage',
  on: onPageNote,
  initial: 'changing',
  states: {
    changing: {
      invoke: { id: 'form', src: 'form' },
      on: {
        'walletPassword.forgot': 'resetting',
        // The status changed (a first set): load it again.
        'walletPassword.saved': { actions: sendTo('form', { type: 'walletPassword.reset' }) },
      },
    },
    resetting: {
      invoke: { id: 'reset', src: 'reset' },
      on: { 'walletPassword.back': 'changing' },
    },
  },
});

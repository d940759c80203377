/**
 * /member/account/delete, on the form factory: loads who the member is (the username to type as
 * confirmation), checks the confirmation, and with the account password re-entered (spec §5) sends
 * DELETE /api/users (with the store token, spec §7). A wrong password is its field error and nothing
 * is lost. After success `notify` shows the toast and `apply` signs the member out (the server has
 * already ended every session) — bound by the route table.
 */
import { accountHubApi } from '../../api/account-hub';
import { authApi } from '../../api/auth';
import { accountDeletionSchema, type AccountDeletionValues, type AccountSummary } from '../../schemas/account-hub.schema';
import { createFormMachine } from '../form.machine';

export const accountDeletionMachine = createFormMachine({
  id: 'accountDeletion',
  domain: 'accountDeletion',
  initialValues: { confirmation: '' } as AccountDeletionValues,
  load: (): Promise<AccountSummary> => accountHubApi.summary(),
  schema: (summary) => accountDeletionSchema(summary?.username ?? null),
  submit: ({ password }) => authApi.deleteAccount(password ?? ''),
  steps: { password: true },
  successKey: 'account:deleteAccount.deleted',
});

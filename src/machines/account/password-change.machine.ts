/**
 * /member/account/password, declared on the form factory: loads the company's password policy, checks
 * the current password, the new one (the policy) and its confirmation with the shared schema, then
 * PUT /api/user/password. A wrong current password comes back as its field error; the values stay.
 * After success the form is empty and `notify` shows the success toast; every other session of the
 * member has ended on the server, this one stays signed in.
 */
import { accountApi } from '../../api/account';
import { passwordChangeSchema, type PasswordChangeRequest, type PasswordChangeSettings } from '../../schemas/account.schema';
import { createFormMachine } from '../form.machine';

export const passwordChangeMachine = createFormMachine({
  id: 'passwordChange',
  domain: 'passwordChange',
  initialValues: { current_password: '', password: '', password_confirmation: '' } as PasswordChangeRequest,
  load: (): Promise<PasswordChangeSettings> => accountApi.passwordSettings(),
  schema: (settings) => passwordChangeSchema(settings?.password_policy ?? null),
  submit: ({ values }) => accountApi.changePassword(values),
  successKey: 'account:password.changed',
  clearOnSuccess: true,
});

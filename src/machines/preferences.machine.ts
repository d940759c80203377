/**
 * The member's display preferences (currency, date format; the language goes through the session's
 * `language.change`, which also saves it): PUT /api/user/preferences, declared on the form factory.
 * Each choice is saved at once (`preferences.save { values }`); on success the named action `apply`
 * hands the saved values and the updated user to the session (the page binds it), so every amount
 * and date re-renders at once and the choice survives a reload (the server keeps it and sends it back
 * in loaded_modules). The last values are kept so `preferences.retry` repeats the same request.
 */
import { preferencesApi } from '../api/preferences';
import type { User } from '../schemas/common.schema';
import { preferencesRequestSchema, type PreferencesRequest } from '../schemas/preferences.schema';
import { createFormMachine } from './form.machine';

export const preferencesMachine = createFormMachine({
  id: 'preferences',
  domain: 'preferences',
  initialValues: {} as PreferencesRequest,
  schema: preferencesRequestSchema,
  submit: ({ values }): Promise<User> => preferencesApi.update(values),
  successKey: 'dashboard:preferences.saved',
  applied: (values: PreferencesRequest, user: User) => ({ values, user }),
});

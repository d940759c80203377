/**
 * The named actions member forms bind (src/machines/form.machine.ts): `notify` shows the toast of its
 * i18n key, `forceLogout` (a 401 or a blocked account) ends the session. The display preferences also
 * bind `apply`, for the two places that save them: the preferences pages
 * (/member/account/language|currency|date-format) and the shell's currency switch.
 */
import i18next from 'i18next';
import type { NotifyParams } from '../../lib/flow';
import { showToast } from '../../lib/toast';
import type { preferencesMachine } from '../../machines/preferences.machine';
import type { SessionActor } from '../session-actor';

export function formActions(session: SessionActor) {
  return {
    notify: (_: unknown, { kind, key, values }: NotifyParams) => {
      showToast({ kind, message: i18next.t(key, values) as string });
    },
    forceLogout: () => session.send({ type: 'session.forceLogout' }),
  };
}

export function bindPreferences(machine: typeof preferencesMachine, session: SessionActor): typeof preferencesMachine {
  return machine.provide({
    actions: {
      ...formActions(session),
      // The saved choice re-renders every amount and date, and is kept in module_data for the next visit.
      apply: (_, { values, user: saved }) => {
        const md = session.getSnapshot().context.moduleData;
        if (!md) return;
        const currency = values.currency ? md.currencies.find((c) => c.code === values.currency) : undefined;
        session.send({
          type: 'modules.loaded',
          modules: {
            ...md,
            user: saved,
            default_currency: currency ?? md.default_currency,
            date_format: values.date_format ?? saved.date_format ?? md.date_format,
          },
        });
      },
    },
  });
}

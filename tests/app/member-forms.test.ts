/** The named actions member forms bind: the saved preferences reach the session; a 401 ends the session. */
import { createActor, fromPromise, waitFor } from 'xstate';
import { bindPreferences } from '../../src/app/member/member-forms';
import { preferencesMachine } from '../../src/machines/preferences.machine';
import { sessionHarness } from '../support/session-harness';
import { EURO, moduleData, user } from '../support/session-fixtures';
import { ApiError } from '../../src/api/errors';
import type { SessionActor } from '../../src/app/session-actor';

async function signedIn() {
  const md = moduleData();
  const h = sessionHarness({ moduleData: { ...md, currencies: [md.default_currency, EURO] }, boot: () => Promise.resolve({ user: user(), expired: false }) });
  await waitFor(h.actor, (s) => s.matches('authenticated'));
  return h.actor as unknown as SessionActor;
}

describe('member form bindings', () => {
  it('a saved currency becomes the session’s currency at once', async () => {
    const session = await signedIn();
    const logic = bindPreferences(preferencesMachine, session).provide({
      actors: { submit: fromPromise(async () => user({ date_format: 'd/m/Y' })) },
    });
    const prefs = createActor(logic).start();
    prefs.send({ type: 'preferences.save', values: { currency: 'EUR' } });
    await waitFor(session, (s) => s.context.moduleData?.default_currency.code === 'EUR');
    expect(session.getSnapshot().context.moduleData?.date_format).toBe('d/m/Y');
  });

  it('a 401 while saving ends the session', async () => {
    const session = await signedIn();
    const logic = bindPreferences(preferencesMachine, session).provide({
      actors: { submit: fromPromise(async () => Promise.reject(new ApiError('unauthorized', 401, {}))) },
    });
    createActor(logic).start().send({ type: 'preferences.save', values: { currency: 'EUR' } });
    await waitFor(session, (s) => !s.matches('authenticated'));
  });
});

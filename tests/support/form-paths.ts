/**
 * Path models of `createFormMachine` instances that assert what the member meets, not only the state:
 * the call made with what was typed, the toast shown, the values handed on, the field errors shown,
 * the forced logout. Use:
 *
 *   describePaths('password change form', formPathModel(passwordChangeMachine, { events: [...], successKey }));
 */
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { spyCall, spyEffect, stubActors, type GeneratedPath, type PathModel, type Replay } from './paths';

interface FormPathOptions {
  events: AnyEventObject[];
  /** The toast key of a saved form (the declaration's successKey). */
  successKey?: string;
  serializeState?: (s: AnyMachineSnapshot) => string;
  unreachable?: string[];
}

const stateOf = (s: AnyMachineSnapshot): string => (typeof s.value === 'string' ? s.value : Object.keys(s.value as object)[0]);

/** The machine with its actions (notify, apply, forceLogout) and calls (load, submit, sendCode) recorded. */
export function spiedForm<M extends AnyStateMachine>(machine: M): M {
  const provided = machine.provide({
    actions: { notify: spyEffect('notify'), apply: spyEffect('apply'), forceLogout: spyEffect('forceLogout') },
  } as never) as M;
  return stubActors(provided, { load: spyCall('load'), submit: spyCall('submit'), sendCode: spyCall('sendCode') });
}

/** What each path test of a form checks in its final state. */
export function formChecks(successKey?: string, steps: { code?: boolean } = {}) {
  return ({ final, effects, marks }: Replay, path: GeneratedPath) => {
    const ctx = final.context as { values: Record<string, unknown>; password: string; fieldErrors: Record<string, string>; failure: string | null; saved: boolean };
    const state = stateOf(final);
    const last = path.events.at(-1);
    const called = (effect: string) => effects.filter((e) => e.effect === effect);
    const toasts = called('notify').map((e) => (e.params as { key: string }).key);
    if (state === 'loading') expect(called('load').length, 'the form loads what it edits').toBeGreaterThan(0);
    if (state === 'connecting' || state === 'refreshing') {
      const sent = called('submit').at(-1) ?? called('sendCode').at(-1);
      expect(sent, 'a request is made').toBeDefined();
      const input = sent!.params as { values: Record<string, unknown>; password?: string };
      // The call carries what the member typed (and the re-entered password when the form asks for it).
      for (const [field, value] of Object.entries(ctx.values)) if (field !== 'otp') expect(input.values[field], field).toEqual(value);
      if (ctx.password) expect(input.password).toBe(ctx.password);
    }
    if (state === 'success' && last?.type.startsWith('xstate.done.actor.')) {
      expect(called('apply').length, 'the saved values are handed on').toBeGreaterThan(0);
      if (successKey) expect(toasts).toContain(successKey);
      expect(ctx.saved).toBe(true);
    }
    if (state === 'forceLogout') expect(called('forceLogout').length, 'the member is signed out').toBe(1);
    else expect(called('forceLogout')).toEqual([]);
    // Every answer of the save is handed on once (the page refreshes what depends on it), nothing else is.
    const answers = path.events.filter((e) => e.type === 'xstate.done.actor.request' || e.type === 'xstate.done.actor.verify').length;
    if (!steps.code) expect(called('apply').length, 'one hand-over per saved answer').toBe(answers);
    if (state === 'validationError' || state === 'validationErrorOnRefresh') {
      // The server's field map is shown next to its fields.
      const fields = (last as { error?: { fieldErrors?: Record<string, string> } } | undefined)?.error?.fieldErrors ?? {};
      expect(ctx.failure, 'the refusal is shown').toBeTruthy();
      for (const [field, key] of Object.entries(fields)) expect(ctx.fieldErrors[field], field).toBe(key);
    }
    if (/^(connectionError|serverError)/.test(state) || state === 'loadConnectionError' || state === 'loadError') expect(ctx.failure, 'the failure is shown with a retry').not.toBeNull();
    if (last?.type.startsWith('xstate.error.actor.') && (last as { error?: { body?: { error_code?: string } } }).error?.body?.error_code === 'demo_blocked') {
      expect(toasts).toContain('common:featureUnavailableInDemo');
      expect(state).toBe('editing');
    }
    if (last?.type.endsWith('.save') && state === 'editing') {
      // A save that stays in editing was refused by the check: nothing is sent and the fields are named.
      expect(Object.keys(ctx.fieldErrors).length, 'an invalid save names its fields').toBeGreaterThan(0);
      expect(effects.length, 'nothing is sent').toBe(marks.at(-2) ?? 0);
    }
  };
}

export function formPathModel<M extends AnyStateMachine>(machine: M, options: FormPathOptions): PathModel {
  return {
    machine: spiedForm(machine),
    events: options.events,
    serializeState: options.serializeState,
    unreachable: options.unreachable,
    check: formChecks(options.successKey),
  };
}

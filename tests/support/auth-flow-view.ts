/**
 * A public auth flow started for a view test: its promise actors answered by the test (see
 * ControlledActors), navigations and notices recorded by mocks, and `answer` to settle a call and
 * let the view re-render inside act().
 */
import { act } from '@testing-library/react';
import { createActor, type AnyStateMachine, type Actor } from 'xstate';
import { ControlledActors, flush, silentTicker } from './auth-flows';

export interface AuthFlowOptions {
  /** Sources of the promise actors the test answers. */
  sources: string[];
  /** Replace the resend ticker by one that never ticks. */
  silentTicker?: boolean;
  /** The query string the flow starts from. */
  search?: string;
}

export function startAuthFlow<TMachine extends AnyStateMachine>(machine: TMachine, options: AuthFlowOptions) {
  const ctl = new ControlledActors();
  const navigate = vi.fn();
  const notify = vi.fn();
  const actors = { ...ctl.actors(...options.sources), ...(options.silentTicker ? { ticker: silentTicker } : {}) };
  const actor: Actor<TMachine> = createActor(
    machine.provide({ actors, actions: { navigate: (_: unknown, p: unknown) => navigate(p), notify: (_: unknown, p: unknown) => notify(p) } } as never),
    { input: { search: options.search ?? '' } } as never,
  ).start() as Actor<TMachine>;
  const answer = async (fn: () => void) => {
    await act(async () => {
      fn();
      await flush();
    });
  };
  return { ctl, actor, navigate, notify, answer };
}

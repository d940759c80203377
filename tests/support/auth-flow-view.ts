/**
 * A public auth flow started for a view test (see startControlledFlow), with `answer` to settle a
 * call and let the view re-render inside act().
 */
import { act } from '@testing-library/react';
import type { AnyStateMachine } from 'xstate';
import { flush, startControlledFlow, type ControlledFlowOptions } from './auth-flows';

export function startAuthFlow<TMachine extends AnyStateMachine>(machine: TMachine, options: Omit<ControlledFlowOptions, 'input'> & { search?: string }) {
  const flow = startControlledFlow(machine, { sources: options.sources, silentTicker: options.silentTicker, input: { search: options.search ?? '' } });
  const answer = async (fn: () => void) => {
    await act(async () => {
      fn();
      await flush();
    });
  };
  return { ...flow, answer };
}

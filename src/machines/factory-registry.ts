/**
 * Machines made by a factory carry the factory's name, so the flow documents (`npm run flows`)
 * draw one diagram per factory and list its machines, instead of one copy per machine.
 *
 * A factory stamps every machine it makes with one line in the root of its machine config:
 *
 *   createMachine({ id, meta: factoryStamp('createLoadMachine'), ... })
 *
 * The stamp is the root state node's `meta`; it survives `.provide(...)`. Each stamp is also
 * recorded with the call stack of the factory call, so a machine made but never exported (and so
 * never drawn) can be found and pointed at.
 */
import type { AnyStateMachine } from 'xstate';

export interface FactoryStamp {
  /** The name of the exported factory function that made the machine. */
  readonly factory: string;
}

interface StampRecord {
  stamp: FactoryStamp;
  /** Captured where the factory ran; its stack is read only when a caller asks for it. */
  site: Error;
}

const records: StampRecord[] = [];

/** The `meta` of a factory-made machine's root: names the factory and records where it was called. */
export function factoryStamp(factory: string): FactoryStamp {
  const stamp: FactoryStamp = Object.freeze({ factory });
  records.push({ stamp, site: new Error(factory) });
  return stamp;
}

/** The name of the factory that made `machine`, or undefined for a machine written by hand. */
export function factoryOf(machine: AnyStateMachine): string | undefined {
  const meta = machine.root.meta as Partial<FactoryStamp> | undefined;
  return meta && records.some((r) => r.stamp === meta) ? meta.factory : undefined;
}

/** Every stamp handed out so far, in order, with the stack of the factory call that took it. */
export function stampedMachines(): Array<{ stamp: FactoryStamp; stack: string }> {
  return records.map(({ stamp, site }) => ({ stamp, stack: site.stack ?? '' }));
}

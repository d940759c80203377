/**
 * Fixtures and stub actors for the public auth flows (login, OTP login, password reset, signup,
 * request demo): API answers shaped by the real schemas, real ApiError instances, and promise actors
 * whose answers a test controls.
 */
import {
  __unsafe_getAllOwnEventDescriptors,
  createActor,
  fromCallback,
  fromPromise,
  initialTransition,
  transition,
  type Actor,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventFromLogic,
  type EventObject,
  type ExecutableActionsFrom,
  type SnapshotFrom,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, getStateNodes, type AdjacencyMap, type StatePath } from 'xstate/graph';
import { ConnectionError, errorFromStatus, type ApiError } from '../../src/api/errors';
import type {
  LoginFields,
  OtpSent,
  RequestDemoOptions,
  ResetFields,
  SignupData,
  SignupResponse,
  PasswordPolicy,
} from '../../src/schemas/auth.schema';
import { type Country } from '../../src/schemas/common.schema';
import { DEFAULT_CURRENCY } from '../../src/schemas/values.schema';
import type { FlowInput } from '../../src/lib/flow';
import { recordPathModel } from './path-registry';

export const COUNTRIES: Country[] = [
  { id: 1, name: 'Spain', iso_code_2: 'ES', iso_code_3: 'ESP', phone_code: '34' },
  { id: 2, name: 'United States', iso_code_2: 'US', iso_code_3: 'USA', phone_code: '1' },
];

export const POLICY: PasswordPolicy = { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false };

export function loginFields(over: Partial<LoginFields> = {}): LoginFields {
  return { phone_unique: true, email_unique: true, login_with_otp: true, countries: COUNTRIES, signup_location: 'app', ...over };
}

export function resetFields(over: Partial<ResetFields> = {}): ResetFields {
  return { password_policy: POLICY, reset_password_based_on: 'both', countries: COUNTRIES, ...over };
}

export function otpSent(over: Partial<OtpSent> = {}): OtpSent {
  return { message: 'sent', destination: 'j***@example.com', expires_in: 600, resend_in: 3, ...over };
}

export function signupData(over: Partial<SignupData> = {}): SignupData {
  return {
    default_sponsor: 'company',
    password_policy: POLICY,
    otp_verification: true,
    otp_based_on: 'email',
    default_leg: 'R',
    referral_id: 1,
    phone_unique: true,
    email_unique: true,
    company_privacy_url: 'https://example.com/privacy',
    company_terms_url: 'https://example.com/terms',
    countries: COUNTRIES,
    show_signup_page: true,
    enforce_default_sponsor: false,
    enforce_link_sponsor: false,
    signup_location: 'app',
    compensation_plan: 'binary',
    ...over,
  };
}

export function signupResponse(over: Partial<SignupResponse> = {}): SignupResponse {
  return { username: 'newbie', key: 'key-abc', otp_required: true, destination: 'n***@example.com', ...over };
}

export const DEMO_OPTIONS: RequestDemoOptions = {
  countries: COUNTRIES,
  compensation_plans: [
    { id: 1, name: 'Binary' },
    { id: 2, name: 'Matrix' },
  ],
  industries: [
    { id: 5, name: 'Wellness' },
    { id: 6, name: 'Cosmetics' },
  ],
};

/** Real ApiErrors as the client produces them from the server's answers. */
export const apiError = {
  validation: (errors: Record<string, string>): ApiError =>
    errorFromStatus(422, {
      error_code: 'validation_error',
      message: 'The given data was invalid.',
      errors: Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, [v]])),
    }),
  rateLimited: (seconds = 42): ApiError =>
    errorFromStatus(429, { error_code: 'rate_limited', message: `Too many attempts. Try again in ${seconds} s.`, errors: {} }),
  server: (): ApiError => errorFromStatus(500, { error_code: 'server_error', message: 'Internal server error', errors: {} }),
  connection: (): ApiError => new ConnectionError(),
};

interface Pending {
  input: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Promise actors answered by the test. Each invocation waits under its invoke id (the id of the
 * actor the machine created) until `resolve(id, value)` or `reject(id, error)`; `calls` records
 * every input in order, by actor source name.
 */
export class ControlledActors {
  readonly pending = new Map<string, Pending>();
  readonly calls: Array<{ src: string; id: string; input: unknown }> = [];

  logic<TOut = unknown, TIn = unknown>(src: string) {
    return fromPromise<TOut, TIn>(
      ({ input, self }) =>
        new Promise<TOut>((resolve, reject) => {
          this.calls.push({ src, id: self.id, input });
          this.pending.set(self.id, { input, resolve: resolve as (v: unknown) => void, reject });
        }),
    );
  }

  /** Stub logics for the named sources, e.g. { loadLoginFields: …, login: … }. */
  actors<K extends string>(...srcs: K[]): Record<K, ReturnType<ControlledActors['logic']>> {
    return Object.fromEntries(srcs.map((s) => [s, this.logic(s)])) as Record<K, ReturnType<ControlledActors['logic']>>;
  }

  callsOf(src: string): unknown[] {
    return this.calls.filter((c) => c.src === src).map((c) => c.input);
  }

  lastInput(src: string): unknown {
    const list = this.callsOf(src);
    return list[list.length - 1];
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  resolve(id: string, value: unknown): void {
    const p = this.pending.get(id);
    if (!p) throw new Error(`no pending call for actor "${id}" (pending: ${[...this.pending.keys()].join(', ') || 'none'})`);
    this.pending.delete(id);
    p.resolve(value);
  }

  reject(id: string, error: unknown): void {
    const p = this.pending.get(id);
    if (!p) throw new Error(`no pending call for actor "${id}" (pending: ${[...this.pending.keys()].join(', ') || 'none'})`);
    this.pending.delete(id);
    p.reject(error);
  }
}

/** A ticker that never ticks: tests send `otp.tick` themselves. */
export const silentTicker = fromCallback(() => () => {});

export interface ControlledFlowOptions {
  /** Sources of the promise actors the test answers (see ControlledActors). */
  sources: string[];
  /** Replace the resend ticker by one that never ticks. */
  silentTicker?: boolean;
  /** The flow input; `{ search: '' }` unless given. */
  input?: FlowInput & { path?: string };
  /** Further named actions of the flow, as the session binds them (e.g. prepareMemberArea). */
  actions?: Record<string, (...args: never[]) => void>;
}

/** A flow machine started with answered actors; its navigations and notices go to mocks. */
export function startControlledFlow<TMachine extends AnyStateMachine>(machine: TMachine, options: ControlledFlowOptions) {
  const ctl = new ControlledActors();
  const navigate = vi.fn();
  const notify = vi.fn();
  const actors = { ...ctl.actors(...options.sources), ...(options.silentTicker ? { ticker: silentTicker } : {}) };
  const actor = createActor(
    machine.provide({ actors, actions: { ...options.actions, navigate: (_: unknown, p: unknown) => navigate(p), notify: (_: unknown, p: unknown) => notify(p) } } as never),
    { input: options.input ?? { search: '' } } as never,
  ).start() as Actor<TMachine>;
  return { ctl, actor, navigate, notify, snap: () => actor.getSnapshot() as SnapshotFrom<TMachine> };
}

/** Lets promise callbacks and the actor's reactions run. */
export async function flush(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await Promise.resolve();
}

export function stateOf(actor: AnyActorRef): unknown {
  return actor.getSnapshot().value;
}

// ---------------------------------------------------------------------------------------------
// Generated path tests (xstate/graph): plan paths that reach every state node and take every
// transition of a machine, then replay each path against a real actor with controlled stubs.

export interface PathPlanOptions<TSnapshot, TEvent extends EventObject> {
  input?: unknown;
  /** Events to try in a state; done/error events of invoked actors carry their output/error. */
  events: (snapshot: TSnapshot) => TEvent[];
  /** What makes two snapshots the same vertex: state value plus the context the guards read. */
  serialize: (snapshot: TSnapshot) => string;
}

export interface PlannedPath<TSnapshot, TEvent> {
  state: TSnapshot;
  steps: Array<{ event: TEvent; state: TSnapshot; actions: Array<{ type: string; params?: unknown }> }>;
  weight: number;
}

export interface PlannedPaths<TSnapshot, TEvent> {
  paths: Array<PlannedPath<TSnapshot, TEvent>>;
  stateIds: string[];
  visitedStateIds: string[];
  transitions: string[];
  takenTransitions: string[];
}

function transitionLabel(t: AnyTransitionDefinition, index: number): string {
  const targets = (t.target ?? []).map((n: AnyStateNode) => n.id).join(',') || '(self)';
  return `${t.source.id} --${t.eventType}[${index}]--> ${targets}`;
}

/** Every transition of every state node, labelled "source --event[index]--> targets". */
export function allTransitions(machine: AnyStateMachine): Map<AnyTransitionDefinition, string> {
  const out = new Map<AnyTransitionDefinition, string>();
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const list of node.transitions.values()) list.forEach((t: AnyTransitionDefinition, i: number) => out.set(t, transitionLabel(t, i)));
    (node.always ?? []).forEach((t: AnyTransitionDefinition, i: number) => out.set(t, transitionLabel(t, i)));
  }
  return out;
}

function activeStateIds(machine: AnyStateMachine, snapshot: AnyMachineSnapshot): string[] {
  return getStateNodes(machine.root)
    .filter((n: AnyStateNode) => n !== machine.root && snapshot.matches(n.path.join('.') as never))
    .map((n: AnyStateNode) => n.id);
}

export function planPaths<TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: PathPlanOptions<SnapshotFrom<TMachine>, EventFromLogic<TMachine>>,
): PlannedPaths<SnapshotFrom<TMachine>, EventFromLogic<TMachine>> {
  type S = SnapshotFrom<TMachine> & AnyMachineSnapshot;
  type E = EventFromLogic<TMachine>;
  const traversal = {
    input: options.input,
    // Only events the current state handles; done/error events only while that actor runs.
    events: (s: S) => {
      const own = new Set(__unsafe_getAllOwnEventDescriptors(s));
      return options.events(s).filter((e) => {
        if (!own.has(e.type)) return false;
        const child = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
        return !child || child[1] in (s as AnyMachineSnapshot).children;
      });
    },
    serializeState: (s: S) => options.serialize(s),
    serializeEvent: (e: E) => JSON.stringify(e, (_k, v) => (v instanceof Error ? `${v.name}:${v.message}` : v)),
  };
  const shortest = getShortestPaths(machine, traversal as never) as Array<StatePath<S, E>>;
  const byState = new Map(shortest.map((p) => [options.serialize(p.state), p]));
  const adjacency = getAdjacencyMap(machine, traversal as never) as AdjacencyMap<S, E>;
  const labels = allTransitions(machine);
  const taken = new Set<AnyTransitionDefinition>();
  const visited = new Set<string>();
  const mark = (path: { steps: Array<{ state: S; event: E }> }) => {
    for (let i = 0; i < path.steps.length; i++) {
      for (const id of activeStateIds(machine, path.steps[i].state)) visited.add(id);
      if (i === 0) continue;
      for (const t of machine.getTransitionData(path.steps[i - 1].state, path.steps[i].event)) taken.add(t);
    }
  };
  /**
   * Paths are recomputed event by event with the pure `transition`, so every step holds the exact
   * snapshot (vertices share a serialisation, not necessarily a context) and the actions it ran.
   */
  const materialize = (evs: E[]): PlannedPath<S, E> => {
    let [state, actions] = initialTransition(machine, options.input as never) as [S, ExecutableActionsFrom<TMachine>[]];
    const steps: PlannedPath<S, E>['steps'] = [{ event: { type: 'xstate.init' } as E, state, actions }];
    for (const event of evs) {
      [state, actions] = transition(machine, state as never, event as never) as [S, ExecutableActionsFrom<TMachine>[]];
      steps.push({ event, state, actions });
    }
    return { state, steps, weight: evs.length };
  };
  const eventsOf = (p: StatePath<S, E>) => p.steps.slice(1).map((st) => st.event);
  const paths: Array<PlannedPath<S, E>> = [];
  const consider = (p: PlannedPath<S, E>) => {
    const before = visited.size + taken.size;
    mark(p as never);
    if (visited.size + taken.size > before) paths.push(p);
  };
  // Longest first: keep a shortest path only when it reaches a state or takes a transition not yet covered.
  for (const p of [...shortest].sort((a, b) => b.weight - a.weight)) consider(materialize(eventsOf(p)));
  // Then every edge of the graph whose transition is still untaken, appended to the path of its source.
  for (const [serial, { transitions }] of Object.entries(adjacency)) {
    const head = byState.get(serial);
    if (!head) continue;
    for (const { event } of Object.values(transitions) as Array<{ event: E }>) {
      const p = materialize([...eventsOf(head), event]);
      const prev = p.steps[p.steps.length - 2].state;
      if (machine.getTransitionData(prev, event).some((d: AnyTransitionDefinition) => !taken.has(d))) consider(p);
    }
  }
  return {
    paths: paths as unknown as PlannedPaths<SnapshotFrom<TMachine>, E>['paths'],
    stateIds: getStateNodes(machine.root).filter((n: AnyStateNode) => n !== machine.root).map((n: AnyStateNode) => n.id).sort(),
    visitedStateIds: [...visited].sort(),
    transitions: [...labels.values()].sort(),
    takenTransitions: [...taken].map((t) => labels.get(t) ?? '?').sort(),
  };
}

export interface Sut {
  actor: AnyActorRef;
  ctl: ControlledActors;
  /** Params of every `navigate` the real actor ran, in order. */
  navigations?: unknown[];
}

/**
 * Replays a planned path against a real actor: user events are sent, done/error events of invoked
 * actors are produced by answering the controlled stub, delayed events by advancing fake timers.
 * After every step the actor must be in the model's state with the model's context, and must have
 * navigated exactly where the model says.
 */
export async function replayPath(
  path: { steps: Array<{ state: unknown; event: EventObject; actions?: Array<{ type: string; params?: unknown }> }> },
  sut: Sut,
  delays: Record<string, number> = {},
): Promise<void> {
  for (const step of path.steps) {
    const e = step.event as EventObject & { output?: unknown; error?: unknown };
    const navigatedBefore = sut.navigations?.length ?? 0;
    if (e.type === 'xstate.init') {
      // the actor is already started
    } else if (e.type.startsWith('xstate.done.actor.')) {
      sut.ctl.resolve(e.type.slice('xstate.done.actor.'.length), e.output);
    } else if (e.type.startsWith('xstate.error.actor.')) {
      sut.ctl.reject(e.type.slice('xstate.error.actor.'.length), e.error);
    } else if (e.type.startsWith('xstate.after.')) {
      const name = e.type.split('.')[2];
      const ms = /^\d+$/.test(name) ? Number(name) : delays[name];
      if (ms === undefined) throw new Error(`unknown delay ${name}`);
      await vi.advanceTimersByTimeAsync(ms);
    } else {
      sut.actor.send(e);
    }
    await flush();
    const model = step.state as AnyMachineSnapshot;
    const real = sut.actor.getSnapshot() as AnyMachineSnapshot;
    expect({ after: e.type, value: real.value, status: real.status }).toEqual({ after: e.type, value: model.value, status: model.status });
    expect(real.context).toEqual(model.context);
    if (sut.navigations && step.actions) {
      const expected = step.actions.filter((a) => a.type === 'navigate').map((a) => a.params);
      expect(sut.navigations.slice(navigatedBefore)).toEqual(expected);
    }
  }
}

export interface GeneratedPathsSpec<TMachine extends AnyStateMachine> {
  /** The flow input; `{ search: '' }` unless given. */
  input?: unknown;
  /** Events to try in every state (see PathPlanOptions). */
  events: () => Array<EventFromLogic<TMachine>>;
  serialize: (snapshot: SnapshotFrom<TMachine>) => string;
  /** State ids the machine must have, so that an emptied machine cannot pass. */
  expectedStates: string[];
  /** Sources of the promise actors the test answers (see ControlledActors). */
  sources: string[];
  /** Replace the resend ticker by one that never ticks (the events send `otp.tick`). */
  silentTicker?: boolean;
  /** Named delays, for `xstate.after.*` steps; they run on fake timers. */
  delays?: Record<string, number>;
}

/**
 * The generated path tests of a flow machine: the plan must reach every state and take every
 * transition, and every planned path must replay against a real actor (see replayPath).
 */
export function describeGeneratedPaths<TMachine extends AnyStateMachine>(title: string, machine: TMachine, spec: GeneratedPathsSpec<TMachine>): void {
  const input = spec.input ?? { search: '' };
  const plan = planPaths(machine, { input, events: () => spec.events(), serialize: spec.serialize });
  const testName = (i: number, p: (typeof plan.paths)[number]) => `path ${i}: ${p.steps.map((s) => s.event.type).join(' → ')}`;
  recordPathModel({
    title,
    machine,
    walk: () =>
      plan.paths.map((p, i) => {
        const stateIds = new Set<string>();
        const transitions = new Set<string>();
        p.steps.forEach((step, n) => {
          for (const id of activeStateIds(machine, step.state as AnyMachineSnapshot)) stateIds.add(id);
          if (n === 0) return;
          for (const t of machine.getTransitionData(p.steps[n - 1].state as never, step.event as never) as AnyTransitionDefinition[]) {
            const list = t.eventType === '' ? (t.source.always ?? []) : (t.source.transitions.get(t.eventType) ?? []);
            transitions.add(`${t.source.id} ${t.eventType === '' ? 'always' : t.eventType} #${list.indexOf(t)}`);
          }
        });
        return { test: testName(i, p), stateIds: [...stateIds].sort(), transitions: [...transitions].sort() };
      }),
  });
  describe(title, () => {
    if (spec.delays) {
      beforeEach(() => vi.useFakeTimers());
      afterEach(() => vi.useRealTimers());
    }


    it('reach every state and take every transition', () => {
      expect(plan.stateIds).toEqual(expect.arrayContaining(spec.expectedStates));
      expect(plan.visitedStateIds).toEqual(plan.stateIds);
      expect(plan.takenTransitions).toEqual(plan.transitions);
    });

    it.each(plan.paths.map((p, i) => [i, p.steps.map((s) => s.event.type).join(' → '), p] as const))(
      'path %i: %s',
      async (_i, _label, path) => {
        const ctl = new ControlledActors();
        const navigations: unknown[] = [];
        const actors = { ...ctl.actors(...spec.sources), ...(spec.silentTicker ? { ticker: silentTicker } : {}) };
        const actor = createActor(
          machine.provide({ actors, actions: { navigate: (_: unknown, params: unknown) => void navigations.push(params) } } as never),
          { input } as never,
        ).start();
        await replayPath(path, { actor, ctl, navigations }, spec.delays);
        actor.stop();
      },
    );
  });
}

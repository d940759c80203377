/**
 * A session actor with stubbed side effects: boot/logout answers chosen per test, flows replaced by
 * small stand-in machines that record the routes they are sent and finish when told to, and the
 * root bindings (navigate, notify, changeLanguage, prepareMemberPage) recorded. With `router: true` every navigation
 * is echoed back as a `route.changed` event, as the app's RouteSync does.
 */
import { assign, createActor, fromPromise, setup, type AnyActorLogic } from 'xstate';
import { sessionMachine, type BootResult } from '../../src/machines/session.machine';
import type { LogoutResult } from '../../src/machines/blocked-logout.machine';
import type { FlowOutput, NavigateParams, NotifyParams } from '../../src/lib/flow';
import { splitLocation } from '../../src/lib/paths';
import { storage } from '../../src/lib/storage';
import type { ModuleData } from '../../src/schemas/common.schema';

export interface StubFlowContext {
  input: Record<string, unknown>;
  routes: string[];
  output: FlowOutput;
}

export type StubFlowEvent =
  | { type: 'route.changed'; path: string; search: string }
  | { type: 'stub.next' }
  | { type: 'stub.finish'; output?: FlowOutput };

/** Stands in for a flow: `running` → (stub.next) → `second`; `stub.finish` ends it with an output. */
export const stubFlow = setup({
  types: {
    context: {} as StubFlowContext,
    events: {} as StubFlowEvent,
    input: {} as Record<string, unknown>,
  },
}).createMachine({
  id: 'stubFlow',
  context: ({ input }) => ({ input, routes: [], output: undefined }),
  initial: 'running',
  on: {
    'route.changed': { actions: assign({ routes: ({ context, event }) => [...context.routes, `${event.path}${event.search}`] }) },
    'stub.finish': { target: '.finished', actions: assign({ output: ({ event }) => event.output }) },
  },
  states: {
    running: { on: { 'stub.next': 'second' } },
    second: {},
    finished: { type: 'final' },
  },
  output: ({ context }) => context.output,
});

export interface HarnessOptions {
  path?: string;
  search?: string;
  moduleData?: ModuleData | null;
  /** Boot answer; modules (if given) arrive first, as the client's onModules hook sends them. */
  boot?: () => Promise<BootResult>;
  bootModules?: ModuleData | null;
  /** Logout answer; resolving to nothing means no storefront page to open. */
  logout?: () => Promise<LogoutResult | void>;
  /** Answer of the re-check of a restored session's token. */
  verify?: () => Promise<import('../../src/schemas/common.schema').User>;
  /** Loading the code of a flow loaded on first use (default: already loaded). */
  loadFlow?: (area: string) => Promise<void>;
  flows?: Partial<Record<'login' | 'otpLogin' | 'passwordReset' | 'signup' | 'requestDemo' | 'ssoLogin' | 'ssoLogout' | 'blockedLogout', AnyActorLogic>>;
  /** Echo navigations back as route.changed (like the app's RouteSync). */
  router?: boolean;
  /** Also perform navigations (e.g. with wouter's browser navigate, for rendered tests). */
  navigate?: (params: NavigateParams) => void;
}

export function sessionHarness(options: HarnessOptions = {}) {
  const navigations: NavigateParams[] = [];
  const notes: NotifyParams[] = [];
  const languages: string[] = [];
  const opened: string[] = [];
  const savedLanguages: string[] = [];
  const prepared: { path: string; token: string | null }[] = [];
  let bootCalls = 0;
  let logoutCalls = 0;
  let ref: { send(event: unknown): void } | null = null;
  const flows = {
    login: stubFlow,
    otpLogin: stubFlow,
    passwordReset: stubFlow,
    signup: stubFlow,
    requestDemo: stubFlow,
    ssoLogin: stubFlow,
    ssoLogout: stubFlow,
    blockedLogout: stubFlow,
    ...options.flows,
  };
  const machine = sessionMachine.provide({
    actions: {
      navigate: (_, params) => {
        navigations.push(params);
        options.navigate?.(params);
        if (options.router) {
          const { path, search } = splitLocation(params.to);
          queueMicrotask(() => ref?.send({ type: 'route.changed', path, search }));
        }
      },
      notify: (_, params) => {
        notes.push(params);
      },
      changeLanguage: (_, params) => {
        languages.push(params.code);
      },
      openInNewTab: (_, params) => {
        if (params.url) opened.push(params.url);
      },
      prepareMemberPage: (_, params) => {
        prepared.push({ path: params.path, token: storage.get('auth_token') });
      },
    },
    actors: {
      boot: fromPromise<BootResult, { path: string }>(async () => {
        bootCalls += 1;
        if (options.bootModules) ref?.send({ type: 'modules.loaded', modules: options.bootModules });
        return options.boot ? options.boot() : { user: null, expired: false };
      }),
      saveLanguage: fromPromise<void, { code: string }>(async ({ input }) => {
        savedLanguages.push(input.code);
      }),
      verify: fromPromise(async () => {
        if (!options.verify) throw new Error('no verify answer given');
        return options.verify();
      }),
      logout: fromPromise<LogoutResult>(async () => {
        logoutCalls += 1;
        return (options.logout ? await options.logout() : undefined) ?? { storeLogoutUrl: null };
      }),
      ...(options.loadFlow ? { loadFlow: fromPromise<void, { area: string }>(({ input }) => options.loadFlow!(input.area)) } : {}),
      ...(flows as unknown as Record<string, never>),
    },
  });
  const actor = createActor(machine, {
    input: { path: options.path ?? '/', search: options.search ?? '', moduleData: options.moduleData ?? null },
  });
  ref = actor;
  actor.start();
  return {
    actor,
    machine,
    navigations,
    notes,
    languages,
    /** Pages opened in a new tab. */
    opened,
    /** Languages saved as the signed-in member's setting. */
    savedLanguages,
    /** Member pages got ready ahead (prepareMemberPage), with the token stored at that moment. */
    prepared,
    get bootCalls() {
      return bootCalls;
    },
    get logoutCalls() {
      return logoutCalls;
    },
    /** Sends an event to the flow child with this id. */
    toFlow(id: string, event: StubFlowEvent) {
      const child = (actor.getSnapshot().children as Record<string, { send(e: unknown): void } | undefined>)[id];
      if (!child) throw new Error(`No flow ${id} running`);
      child.send(event);
    },
    flowSnapshot(id: string) {
      const child = (actor.getSnapshot().children as Record<string, { getSnapshot(): unknown } | undefined>)[id];
      return child?.getSnapshot() as { value: unknown; context: StubFlowContext; status: string } | undefined;
    },
  };
}

/** Lets queued promise callbacks and microtasks run. */
export async function settle(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await new Promise((r) => setTimeout(r, 0));
}

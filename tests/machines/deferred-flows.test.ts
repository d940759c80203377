import { createActor, fromPromise } from 'xstate';
import { signupMachine } from '../../src/machines/signup.machine';
import { passwordResetMachine } from '../../src/machines/password-reset.machine';

/** A fresh copy of the module: nothing loaded yet (the shared one is loaded up front for tests). */
async function freshModule() {
  vi.resetModules();
  return import('../../src/machines/deferred-flows');
}

describe('flows loaded on first use', () => {
  it('a stand-in refuses to run before its flow has loaded, and says which flow', async () => {
    const m = await freshModule();
    expect(m.isFlowLoaded('signup')).toBe(false);
    const early = createActor(m.deferredFlows.signup, { input: { search: '' } }).getSnapshot() as { status: string; error?: unknown };
    expect(early.status).toBe('error');
    expect(early.error).toBeInstanceOf(m.FlowNotLoadedError);
    let error: unknown;
    try {
      m.deferredFlows.passwordReset.getInitialSnapshot;
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: 'FlowNotLoadedError', area: 'passwordReset' });
  });

  it('after loading, the stand-in runs exactly as the machine, including one bound with provide() before loading', async () => {
    const m = await freshModule();
    const navigations: unknown[] = [];
    const pending = { loadSignupData: fromPromise(() => new Promise<never>(() => {})) };
    const bound = m.deferredFlows.signup.provide({ actions: { navigate: (_: unknown, p: unknown) => void navigations.push(p) }, actors: pending as never });
    await m.loadFlowFor('/signup');
    expect(m.isFlowLoaded('signup')).toBe(true);
    expect(m.isFlowLoaded('passwordReset')).toBe(false);
    const viaStandIn = createActor(bound, { input: { search: '' } }).start();
    const direct = createActor(signupMachine.provide({ actors: pending as never }), { input: { search: '' } }).start();
    expect(viaStandIn.getSnapshot().value).toEqual(direct.getSnapshot().value);
    expect(viaStandIn.getSnapshot().context).toEqual(direct.getSnapshot().context);
    // The snapshot is the machine's own: views select from it as from any machine snapshot.
    expect(typeof viaStandIn.getSnapshot().matches).toBe('function');
    viaStandIn.stop();
    direct.stop();
  });

  it('areas whose flow is on the first page need no loading; unknown areas neither', async () => {
    const m = await freshModule();
    expect(m.isFlowLoaded('login')).toBe(true);
    expect(m.isFlowLoaded(null)).toBe(true);
    await expect(m.loadFlowFor('/login')).resolves.toBeUndefined();
    await expect(m.loadFlowFor('/nowhere')).resolves.toBeUndefined();
  });

  it('loads each flow once, and loadAllFlows loads them all', async () => {
    const m = await freshModule();
    const a = m.loadFlow('passwordReset');
    const b = m.loadFlow('passwordReset');
    expect(a).toBe(b);
    await a;
    await m.loadAllFlows();
    for (const area of ['otpLogin', 'passwordReset', 'signup', 'requestDemo']) expect(m.isFlowLoaded(area)).toBe(true);
    const input = { search: '' };
    expect(createActor(m.deferredFlows.passwordReset, { input }).getSnapshot().value).toEqual(
      createActor(passwordResetMachine, { input }).getSnapshot().value,
    );
  });
});

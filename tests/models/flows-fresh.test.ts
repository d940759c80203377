// @vitest-environment node
import { generateFlowDocs, readFlowDocs, eventLabel, guardLabel, actionLabel } from '../../scripts/flows';
import { not } from 'xstate';

describe('docs/flows', () => {
  it('matches what `npm run flows` generates from src/machines (run it after changing a machine)', async () => {
    const generated = await generateFlowDocs();
    const onDisk = readFlowDocs();
    expect([...onDisk.keys()].sort(), 'files in docs/flows').toEqual([...generated.keys()].sort());
    for (const [name, content] of generated) expect(onDisk.get(name), `docs/flows/${name} is stale`).toBe(content);
  });

  it('draws every machine with a state diagram and a transition table', async () => {
    const generated = await generateFlowDocs();
    expect(generated.has('session.md')).toBe(true);
    for (const [name, content] of generated) {
      expect(content, name).toContain('```mermaid\nstateDiagram-v2\n');
      expect(content, name).toContain('| State | Event | Guard | Target | Actions |');
    }
    const session = generated.get('session.md')!;
    expect(session).toContain('[*] --> s_booting');
    expect(session).toContain('s_booting --> s_bootConnectionError : error: boot [errorIsConnection]');
    expect(session).toContain('| booting | done: boot | bootSignedIn | authenticated |');
  });

  it('labels events, guards and actions readably', () => {
    expect(eventLabel('xstate.done.actor.boot')).toBe('done: boot');
    expect(eventLabel('xstate.error.actor.call')).toBe('error: call');
    expect(eventLabel('xstate.after.500.otpLogin.code')).toBe('after 500ms');
    expect(eventLabel('xstate.after.resendDelay.otpLogin.code')).toBe('after resendDelay');
    expect(eventLabel('')).toBe('always');
    expect(guardLabel({ type: 'pathInArea', params: { area: 'login' } })).toBe('pathInArea(login)');
    expect(guardLabel(not('isAuthenticated'))).toBe('not(isAuthenticated)');
    expect(actionLabel({ type: 'navigate', params: { to: '/' } })).toBe('navigate');
  });
});

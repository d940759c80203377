/**
 * The root actor: created once, restored from the saved flow state when that is still valid, and
 * wired to the HTTP client's hooks (module data, 401 on GET, user_blocked, demo_blocked).
 */
import { createActor, type ActorRefFrom, type InspectionEvent } from 'xstate';
import { configureClient, onAnswer } from '../api/client';
import { supportTrail } from '../lib/support-trail';
import { storage } from '../lib/storage';
import type { ModuleData } from '../schemas/common.schema';
import { browserBindings, bindSessionMachine, type SessionBindings } from './bindings';
import { clearSnapshot, createPersister, loadSnapshot } from './persistence';
import { loadFlow } from '../machines/deferred-flows';

export type SessionLogic = ReturnType<typeof bindSessionMachine>;
export type SessionActor = ActorRefFrom<SessionLogic>;

const RESTORABLE = ['unauthenticated', 'authenticated', 'accountBlocked', 'demoBlocked'];

/**
 * A saved snapshot is used only when it is a settled session state whose sign-in matches this
 * device's stored token (a logout or login in another tab since then means starting afresh).
 */
export function isRestorable(snapshot: unknown, hasToken: boolean): boolean {
  if (!snapshot || typeof snapshot !== 'object') return false;
  const s = snapshot as { status?: unknown; value?: unknown; context?: { authenticated?: unknown } };
  if (s.status !== 'active' || !s.value) return false;
  const top = typeof s.value === 'string' ? s.value : Object.keys(s.value as object)[0];
  if (!RESTORABLE.includes(top)) return false;
  return !!s.context?.authenticated === hasToken;
}

/**
 * Loads the flows a saved state holds (those loaded on first use), so that state can be restored.
 * Resolves at once when there is none; a failed load leaves the restore to fall back to a fresh start.
 */
export async function prepareSession(): Promise<void> {
  const saved = loadSnapshot() as { children?: Record<string, { src?: unknown }> } | null;
  const areas = Object.values(saved?.children ?? {}).map((c) => (typeof c?.src === 'string' ? c.src : null));
  await Promise.all(areas.map((a) => loadFlow(a).catch(() => undefined)));
}

export interface StartSessionOptions {
  bindings?: SessionBindings;
  /** Where the app starts (defaults to the browser location). */
  location?: { path: string; search: string };
  /** Restore the saved flow state (default true). */
  restore?: boolean;
  /** Configure the HTTP client's hooks to talk to this actor (default true). */
  wireClient?: boolean;
}

export function startSession(options: StartSessionOptions = {}) {
  const logic = bindSessionMachine(options.bindings ?? browserBindings);
  let actor: SessionActor | null = null;
  const persister = createPersister(() => actor);
  const inspect = (ev: InspectionEvent) => {
    if (ev.type === '@xstate.snapshot') persister.schedule();
    supportTrail.inspect(ev);
  };
  const report = { error: (err: unknown) => console.error('Session error', err) };

  const where =
    options.location ?? (typeof location !== 'undefined' ? { path: location.pathname, search: location.search } : { path: '/', search: '' });
  const input = { ...where, moduleData: storage.getJSON<ModuleData>('module_data') };

  const saved = options.restore === false ? null : loadSnapshot();
  if (saved && isRestorable(saved, !!storage.get('auth_token'))) {
    let restored: SessionActor | null = null;
    try {
      restored = createActor(logic, { snapshot: saved as never, input, inspect });
      const attempt = restored.subscribe({ error: () => {} });
      restored.start();
      if (restored.getSnapshot().status !== 'active') throw new Error('The saved flow state is not active');
      attempt.unsubscribe();
      restored.subscribe(report);
      actor = restored;
      // The saved state says "signed in"; the token may have been revoked since: check it again.
      if (restored.getSnapshot().matches('authenticated')) restored.send({ type: 'session.verify' });
    } catch {
      restored?.stop();
      clearSnapshot();
    }
  } else if (saved) {
    clearSnapshot();
  }
  if (!actor) {
    actor = createActor(logic, { input, inspect });
    actor.subscribe(report);
    actor.start();
  }

  const root = actor;
  supportTrail.setRoot(root);
  if (options.wireClient !== false) {
    onAnswer((answer) => supportTrail.recordAnswer(answer));
    configureClient({
      getRoute: () => (typeof location !== 'undefined' ? location.pathname : root.getSnapshot().context.path),
      onModules: (modules) => root.send({ type: 'modules.loaded', modules }),
      onUnauthorized: () => root.send({ type: 'session.forceLogout' }),
      onUserBlocked: () => root.send({ type: 'session.userBlocked' }),
      onDemoBlocked: () => root.send({ type: 'session.demoBlocked' }),
    });
  }
  if (typeof window !== 'undefined') window.addEventListener('pagehide', persister.flush);
  return { actor: root, persister };
}

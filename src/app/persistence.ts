/**
 * Saved flow state: the root actor's persisted snapshot (the session and every flow it invokes)
 * goes to sessionStorage, so a reload lands in the same flow step. Secrets never go there: text
 * under keys matching /password|otp|token/i is dropped on save. Flags, numbers and objects under
 * such keys stay (objects are walked): `login_with_otp: true`, `password_policy: {…}`, the
 * `passwordReset` flow's own snapshot; so do settings named `…_based_on`, `…_using`, `…_policy`.
 */
import type { AnyActorRef } from 'xstate';
import { FLOW_SNAPSHOT_KEY } from '../lib/storage';

export const SECRET_KEY = /password|otp|token/i;
/** Settings whose names look secret but whose values are not. */
const SETTING_KEY = /(_policy|_based_on|_using)$/i;
export const SNAPSHOT_VERSION = 1;
export const PERSIST_DELAY_MS = 250;

/** Secrets are text: a string (or list of strings) under a secret-looking key. Objects are walked. */
function isSecretEntry(key: string, value: unknown): boolean {
  if (!SECRET_KEY.test(key) || SETTING_KEY.test(key)) return false;
  return typeof value === 'string' || (Array.isArray(value) && value.every((x) => typeof x === 'string'));
}

/** A deep copy without secret entries; class instances (errors, dates) become plain JSON. */
export function sanitizeSnapshot<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      if (v instanceof Date) return v.toISOString();
      const out: Record<string, unknown> = {};
      for (const [k, inner] of Object.entries(v as Record<string, unknown>)) {
        if (inner === undefined || typeof inner === 'function' || isSecretEntry(k, inner)) continue;
        out[k] = walk(inner);
      }
      if (v instanceof Error) out.message = v.message;
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

function session(): Storage | null {
  try {
    return typeof sessionStorage !== 'undefined' ? sessionStorage : null;
  } catch {
    return null;
  }
}

export function saveSnapshot(snapshot: unknown): void {
  try {
    session()?.setItem(FLOW_SNAPSHOT_KEY, JSON.stringify({ v: SNAPSHOT_VERSION, snapshot: sanitizeSnapshot(snapshot) }));
  } catch {
    // Storage full or unavailable: the app works without it.
  }
}

export function loadSnapshot(): unknown {
  const raw = session()?.getItem(FLOW_SNAPSHOT_KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { v?: number; snapshot?: unknown };
    return parsed.v === SNAPSHOT_VERSION && parsed.snapshot && typeof parsed.snapshot === 'object' ? parsed.snapshot : null;
  } catch {
    return null;
  }
}

export function clearSnapshot(): void {
  session()?.removeItem(FLOW_SNAPSHOT_KEY);
}

/**
 * Saves `actor.getPersistedSnapshot()` at most once per `delay` ms (and at once on `flush`, e.g.
 * on pagehide). `schedule` is called on every snapshot of any actor in the system.
 */
export function createPersister(getActor: () => AnyActorRef | null, delay = PERSIST_DELAY_MS) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const actor = getActor();
    if (actor && actor.getSnapshot().status === 'active') saveSnapshot(actor.getPersistedSnapshot());
  };
  return {
    schedule() {
      if (!timer) timer = setTimeout(flush, delay);
    },
    flush,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}

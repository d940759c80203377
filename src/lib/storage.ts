import { supportTrail } from './support-trail';

/** Local storage keys of spec §9, typed; every read and write of browser storage goes through here. */
export const STORAGE_KEYS = [
  'user_data',
  'module_data',
  'auth_token',
  'store_auth_token',
  'sso_token',
  'referral_user',
  'demo_plan',
] as const;
export type StorageKey = (typeof STORAGE_KEYS)[number];

/** Keys for app state that the spec leaves unnamed. */
export const FLOW_SNAPSHOT_KEY = 'upline.flow';
/** Prefix of the member pages' saved state in sessionStorage (src/app/member/page-actor.ts). */
export const PAGE_SNAPSHOT_PREFIX = 'upline.page.';

function ls(): Storage | null {
  try {
    return typeof localStorage !== 'undefined' ? localStorage : null;
  } catch {
    return null;
  }
}

export const storage = {
  get(key: StorageKey): string | null {
    return ls()?.getItem(key) ?? null;
  },
  set(key: StorageKey, value: string | null): void {
    const s = ls();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  },
  getJSON<T>(key: StorageKey): T | null {
    const raw = this.get(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJSON(key: StorageKey, value: unknown): void {
    this.set(key, value == null ? null : JSON.stringify(value));
  },
  /** Logout (spec §4): token, user, session, menu, cached data and the cart all go. */
  clearSession(): void {
    const s = ls();
    if (!s) return;
    for (const k of ['user_data', 'auth_token', 'store_auth_token', 'sso_token'] as const) s.removeItem(k);
    for (const k of Object.keys(s)) if (k.startsWith('upline.cache.') || k === 'upline.cart') s.removeItem(k);
    clearPageSnapshots();
    supportTrail.clear();
  },
};

/** Member pages' saved state belongs to the session: logout removes it. */
export function clearPageSnapshots(): void {
  try {
    if (typeof sessionStorage !== 'undefined')
      for (const k of Object.keys(sessionStorage)) if (k.startsWith(PAGE_SNAPSHOT_PREFIX)) sessionStorage.removeItem(k);
  } catch {
    /* unavailable */
  }
}

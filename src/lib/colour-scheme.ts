/**
 * Colour-scheme persistence (spec §1, §9): light by default, the member's choice remembered in
 * localStorage and in a cookie that lives for a year (max-age 31536000 s). The localStorage key is
 * Mantine's default; the page head (src/entry-head.ts) reads the choice as this manager does
 * (storedColourScheme) and applies it before first paint.
 */
import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';

export const COLOUR_SCHEME_KEY = 'mantine-color-scheme-value';
export const COLOUR_SCHEME_COOKIE = 'color-scheme';
export const COLOUR_SCHEME_COOKIE_MAX_AGE = 31536000;
/** The attribute of <html> Mantine's styles follow (the page head and the server's page set it first). */
export const COLOUR_SCHEME_ATTRIBUTE = 'data-mantine-color-scheme';
export const DEFAULT_COLOUR_SCHEME = 'light' satisfies MantineColorScheme;

/** (Mantine's own check, without loading Mantine: the server reads the cookie too.) */
export const isMantineColorScheme = (value: unknown): value is MantineColorScheme => value === 'light' || value === 'dark' || value === 'auto';

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

function writeCookie(name: string, value: string | null): void {
  if (typeof document === 'undefined') return;
  document.cookie =
    value === null
      ? `${name}=; path=/; max-age=0; SameSite=Lax`
      : `${name}=${encodeURIComponent(value)}; path=/; max-age=${COLOUR_SCHEME_COOKIE_MAX_AGE}; SameSite=Lax`;
}

function local(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

/** The remembered choice: localStorage, else the cookie, else `defaultValue` (the page head reads it before first paint). */
export function storedColourScheme(defaultValue: MantineColorScheme): MantineColorScheme {
  const stored = local()?.getItem(COLOUR_SCHEME_KEY) ?? null;
  if (isMantineColorScheme(stored)) return stored;
  const cookie = readCookie(COLOUR_SCHEME_COOKIE);
  return isMantineColorScheme(cookie) ? cookie : defaultValue;
}

export function createColourSchemeManager(): MantineColorSchemeManager {
  let onStorage: ((e: StorageEvent) => void) | undefined;
  return {
    get: storedColourScheme,
    set(value) {
      try {
        local()?.setItem(COLOUR_SCHEME_KEY, value);
      } catch {
        /* storage full or blocked: the cookie still remembers the choice */
      }
      writeCookie(COLOUR_SCHEME_COOKIE, value);
    },
    subscribe(onUpdate) {
      if (typeof window === 'undefined') return;
      onStorage = (e) => {
        if (e.key === COLOUR_SCHEME_KEY && isMantineColorScheme(e.newValue)) onUpdate(e.newValue);
      };
      window.addEventListener('storage', onStorage);
    },
    unsubscribe() {
      if (onStorage) window.removeEventListener('storage', onStorage);
      onStorage = undefined;
    },
    clear() {
      local()?.removeItem(COLOUR_SCHEME_KEY);
      writeCookie(COLOUR_SCHEME_COOKIE, null);
    },
  };
}

/** Pass to `<MantineProvider colorSchemeManager={colourSchemeManager} defaultColorScheme="light">`. */
export const colourSchemeManager = createColourSchemeManager();

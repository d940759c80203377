import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = process.cwd();
const load = (lng: string, ns: string) => JSON.parse(readFileSync(path.join(root, 'public/locales', lng, `${ns}.json`), 'utf8'));

function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(name) ? [readFileSync(p, 'utf8')] : [];
  });
}

/** Keys as written in code: 'validation:otpExpired' → otpExpired. */
function referenced(ns: string): string[] {
  const text = [...sources(path.join(root, 'src')), ...sources(path.join(root, 'server'))].join('\n');
  return [...new Set([...text.matchAll(new RegExp(`['"\`]${ns}:([A-Za-z][\\w.]*)`, 'g'))].map((m) => m[1]))].sort();
}

describe('auth and validation translations', () => {
  it.each(['auth', 'validation'])('%s.json has the same keys in English and Spanish', (ns) => {
    expect(keys(load('es', ns)).sort()).toEqual(keys(load('en', ns)).sort());
  });

  it('every validation key the server or the client can produce is translated', () => {
    const en = new Set(keys(load('en', 'validation')));
    const used = referenced('validation');
    expect(used.length).toBeGreaterThan(20);
    expect(used.filter((k) => !en.has(k))).toEqual([]);
  });

  it('every auth key named in code is translated', () => {
    const en = new Set(keys(load('en', 'auth')));
    expect(referenced('auth').filter((k) => !en.has(k))).toEqual([]);
  });

  it('has the session and single sign-on messages', () => {
    const en = load('en', 'auth');
    for (const k of ['logoutError', 'ssoLogoutFailed', 'ssoLogoutAlready', 'ssoLogoutSuccess', 'ssoLoginFailed', 'otpSent']) {
      expect(typeof en[k]).toBe('string');
    }
  });
});

/**
 * The public routes of spec §2 and the flow areas that own them. Pure functions: used by the session
 * machine to decide where a location belongs and by the router to mount the right screen.
 */

export const ROOT_PATH = '/';
export const LOGIN_PATH = '/login';
export const DASHBOARD_PATH = '/member/home/dashboard';
export const ACCOUNT_BLOCKED_PATH = '/account-blocked';
export const DEMO_BLOCKED_PATH = '/demo-blocked';
export const SSO_LOGIN_PATH = '/sso_login';
export const SSO_LOGOUT_PATH = '/sso_logout';

/** Flow areas: each is served by one flow machine invoked by the session with the area key as its id. */
export const FLOW_AREAS = {
  login: ['/login', '/login/continue', '/login/two-factor'],
  otpLogin: ['/login/otp'],
  passwordReset: ['/password/forgot', '/password/forgot/otp', '/password/reset', '/password/reset/success'],
  signup: ['/signup', '/signup/otp', '/signup/success'],
  requestDemo: ['/request-demo', '/request-demo/success'],
  ssoLogin: [SSO_LOGIN_PATH],
  ssoLogout: [SSO_LOGOUT_PATH],
} as const satisfies Record<string, readonly string[]>;

export type FlowArea = keyof typeof FLOW_AREAS;
export const FLOW_AREA_KEYS = Object.keys(FLOW_AREAS) as FlowArea[];

/** Areas a signed-in member is sent away from (to the dashboard). */
export const GUEST_ONLY_AREAS: readonly FlowArea[] = ['login', 'otpLogin', 'passwordReset', 'signup', 'requestDemo'];

/** '/login/' → '/login'; '' → '/'. */
export function normalisePath(path: string): string {
  const p = path.split(/[?#]/)[0] || '/';
  const withSlash = p.startsWith('/') ? p : `/${p}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') || '/' : withSlash;
}

export function areaOf(path: string): FlowArea | null {
  const p = normalisePath(path);
  for (const key of FLOW_AREA_KEYS) if ((FLOW_AREAS[key] as readonly string[]).includes(p)) return key;
  return null;
}

export function isMemberPath(path: string): boolean {
  const p = normalisePath(path);
  return p === '/member' || p.startsWith('/member/');
}

export function isBlockedPath(path: string): boolean {
  const p = normalisePath(path);
  return p === ACCOUNT_BLOCKED_PATH || p === DEMO_BLOCKED_PATH;
}

/** '/login?redirect=%2Fmember' → { path: '/login', search: '?redirect=%2Fmember' }. */
export function splitLocation(to: string): { path: string; search: string } {
  const hashless = to.split('#')[0];
  const i = hashless.indexOf('?');
  if (i < 0) return { path: normalisePath(hashless), search: '' };
  const search = hashless.slice(i);
  return { path: normalisePath(hashless.slice(0, i)), search: search === '?' ? '' : search };
}

export function searchParam(search: string, name: string): string | null {
  const value = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(name);
  return value === null || value === '' ? null : value;
}

/**
 * An internal member-area address taken from a `redirect` query parameter, or null when it is
 * missing or could lead anywhere else (other origins, protocol-relative or scheme URLs, the public area).
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  if (!v.startsWith('/') || v.startsWith('//') || /[\\\u0000-\u001f]/.test(v)) return null;
  let url: URL;
  try {
    url = new URL(v, 'http://upline.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://upline.invalid') return null;
  if (!isMemberPath(url.pathname)) return null;
  return `${normalisePath(url.pathname)}${url.search}`;
}

/** Where the login screen sends a guest who opened a member page. */
export function loginRedirectFor(path: string, search: string): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(`${normalisePath(path)}${search}`)}`;
}

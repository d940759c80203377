/**
 * What every call carries (spec §7 "Common to all calls"): its headers and its common query parameters.
 * Free of dependencies on purpose: the client (./client.ts) builds every call with it, and the page head
 * (src/entry-head.ts) asks the first calls with it before the client's scripts have arrived.
 */
import { storage } from '../lib/storage';

/** The application key sent as X-App-Key (VITE_APP_KEY when the app is built, see vite.config.ts). */
export const APP_KEY: string = (import.meta.env?.VITE_APP_KEY as string | undefined) ?? 'upline-demo-key';

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * The headers of a call: JSON accepted, the application key, the web-request marker, the content type
 * (none for multipart: the browser sets it with its boundary) and the stored sign-in token as a bearer token.
 */
export function callHeaders(appKey: string, contentType: string | null = JSON_CONTENT_TYPE): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-App-Key': appKey,
    'X-Requested-With': 'XMLHttpRequest',
  };
  if (contentType) headers['Content-Type'] = contentType;
  const token = storage.get('auth_token');
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * The query parameters every call adds to its own: the current route, the stored demo plan, and
 * load_modules=1 while the module data has not arrived yet (GETs only; the caller knows which).
 */
export function commonParams(route: string, loadModules: boolean): Record<string, string> {
  const params: Record<string, string> = { route };
  const demoPlan = storage.get('demo_plan');
  if (demoPlan) params.demo_plan = demoPlan;
  if (loadModules) params.load_modules = '1';
  return params;
}

/**
 * The logout call shared by the member area's Logout (session machine) and the blocked screens' Logout
 * (blocked-logout machine), and what it hands back: the storefront page to open in a new tab.
 */
import { authApi } from '../api/auth';
import { storefrontBase, storefrontSsoLogoutLink } from '../lib/links';
import { storage } from '../lib/storage';
import type { ModuleData } from '../schemas/common.schema';

export interface LogoutResult {
  /** The storefront's single sign-on logout page with the token the logout answered (spec §2, §7), if any. */
  storeLogoutUrl: string | null;
}

/**
 * Logout, then the store session when one exists (its failure does not undo the logout). When the answer
 * carries an sso_logout_token and a storefront is known, its single sign-on logout link comes back to be
 * opened in a new tab.
 */
export async function logoutCall(): Promise<LogoutResult> {
  const { sso_logout_token: token } = await authApi.logout();
  if (storage.get('store_auth_token')) await authApi.storeLogout().catch(() => undefined);
  const base = token ? storefrontBase(storage.getJSON<ModuleData>('module_data')) : null;
  return { storeLogoutUrl: base && token ? storefrontSsoLogoutLink(base, token) : null };
}

/** Named action of the flows that log out: opens a page in a new tab (bound at the root). */
export type OpenInNewTabParams = { url: string | null };

/** The params of `openInNewTab` after a logout: the storefront's sign-on logout page, if the answer gave one. */
export const storeLogoutTab = ({ event }: { event: { output?: LogoutResult } }): OpenInNewTabParams => ({ url: event.output?.storeLogoutUrl ?? null });

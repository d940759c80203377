/**
 * Getting the member area ready before it is shown: its code and the translations of the page a member usually
 * lands on are fetched while the member signs in (from the first keystroke on /login, again on the password step
 * should that have failed), and the first calls of the page
 * it opens on go out the moment the member is signed in (the session's prepareMemberPage, bound in
 * src/app/bindings.ts), side by side with that code instead of after it: the call its figures come from at once,
 * the rest once that one has answered. The page's own calls take those answers (src/api/client.ts askAhead,
 * src/api/early.ts), so nothing is asked twice.
 *
 * Kept apart from the member area itself (no member code is imported here): this is part of the public
 * bundle. The call paths come from src/api/home-calls.ts, which holds nothing else.
 */
import i18next from 'i18next';
import { askAhead } from '../api/client';
import { DASHBOARD_FIRST_CALLS, DASHBOARD_LATER_CALLS } from '../api/home-calls';
import type { Namespace } from '../i18n/languages';
import { DASHBOARD_PATH } from '../lib/paths';

type MemberAreaModule = typeof import('./member-area');

let loading: Promise<MemberAreaModule> | null = null;
let loaded: MemberAreaModule | null = null;

/** The member area's code (one chunk and what it imports); the same promise every time once loaded. */
export function loadMemberArea(): Promise<MemberAreaModule> {
  // The member area's Logout too (the session machine's logout call, src/machines/logout-call.ts).
  loading ??= Promise.all([import('./member-area'), import('../machines/logout-call')]).then(
    ([m]) => (loaded = m),
    (error: unknown) => {
      loading = null; // the next attempt fetches again
      throw error;
    },
  );
  return loading;
}

/** The member area's code when it has already arrived (rendered at once then, without a loading screen). */
export const loadedMemberArea = (): MemberAreaModule | null => loaded;

/**
 * What the pages a member usually lands on need at once: their first calls (`calls`, at once; `later`, once those
 * have answered: what the page shows first is not kept waiting by the rest) and their translations.
 */
const FIRST_PAGES: Record<string, { calls: readonly string[]; later: readonly string[]; namespaces: readonly Namespace[] }> = {
  [DASHBOARD_PATH]: { calls: DASHBOARD_FIRST_CALLS, later: DASHBOARD_LATER_CALLS, namespaces: ['dashboard', 'wallet'] },
};

/** The translations of the page at `path` (none for a page not listed), in the app's language. */
function loadTranslations(path: string): void {
  const namespaces = FIRST_PAGES[path]?.namespaces;
  if (namespaces && i18next.isInitialized) void i18next.loadNamespaces([...namespaces]).catch(() => undefined);
}

/**
 * While the member signs in: the member area's code and the translations of the page sign-in leads to
 * (failures are left to the page, which loads them again with its retry screens).
 */
export function prefetchMemberArea(path: string = DASHBOARD_PATH): void {
  void loadMemberArea().catch(() => undefined);
  loadTranslations(path);
}

/** A member has just been signed in and lands on `path`: its first calls now, next to its code and translations. */
export function prepareMemberPage(path: string): void {
  const page = FIRST_PAGES[path];
  if (page) {
    const first = Promise.all(page.calls.map((call) => askAhead(call, path)));
    for (const call of page.later) askAhead(call, path, first);
  }
  prefetchMemberArea(path);
}

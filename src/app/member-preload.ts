/**
 * Getting the member area ready before it is shown: its code is fetched while the password is typed
 * (the sign-in's second step), and the first calls of the page it opens on go out as soon as the member is
 * signed in, side by side with that code instead of after it (src/api/client.ts askAhead).
 *
 * Kept apart from the member area itself (no member code is imported here): this is part of the public
 * bundle. The call paths come from src/api/home-calls.ts, which holds nothing else.
 */
import { askAhead } from '../api/client';
import { DASHBOARD_CALLS } from '../api/home-calls';
import { DASHBOARD_PATH } from '../lib/paths';

/** The member area's code (one chunk and what it imports); the same promise every time once loaded. */
export const loadMemberArea = () => import('./member-area');

/** The calls a member page makes when it opens, for the pages a member usually lands on. */
const FIRST_CALLS: Record<string, readonly string[]> = {
  [DASHBOARD_PATH]: DASHBOARD_CALLS,
};

/** Starts the first calls of the member page at `path` (none for a page not listed). */
export function askFirstCalls(path: string): void {
  for (const call of FIRST_CALLS[path] ?? []) askAhead(call, path);
}

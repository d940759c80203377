/**
 * Tells the session about every location change (links, Back/Forward, navigations by machines), so
 * the session picks the flow area and forwards the change to the flow inside it. A flow loaded on
 * first use is loaded before the change is sent (src/app/flow-loading.ts).
 */
import { useEffect } from 'react';
import { usePathname, useSearch } from 'wouter/use-browser-location';
import { followRoute } from './flow-loading';
import { useSessionActor } from './session-context';

export function RouteSync() {
  const actor = useSessionActor();
  const path = usePathname();
  // The raw query string ('?a=b'), not decoded.
  const search = useSearch();
  useEffect(() => followRoute(actor, path, search), [actor, path, search]);
  return null;
}

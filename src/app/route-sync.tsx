/**
 * Tells the session about every location change (links, Back/Forward, navigations by machines), so
 * the session picks the flow area and forwards the change to the flow inside it. A flow loaded on
 * first use is loaded before the change is sent (src/app/flow-loading.ts).
 */
import { useEffect } from 'react';
import { followRoute } from './flow-loading';
import { usePagePath, usePageSearch } from './location';
import { useSessionActor } from './session-context';

export function RouteSync() {
  const actor = useSessionActor();
  const path = usePagePath();
  // The raw query string ('?a=b'), not decoded.
  const search = usePageSearch();
  useEffect(() => followRoute(actor, path, search), [actor, path, search]);
  return null;
}
